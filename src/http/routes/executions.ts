// Executions in flight, wherever they run:
// - POST /api/v1/executions/{executionId}/cancel — stop a queued, running or paused execution (runs/cancel-execution.ts).
//   200 once its log says `cancelled`, 202 while it is still stopping.
// - POST /api/v1/executions/{executionId}/resume — decide an approval a run waits for (runs/approvals.ts).
// - GET /api/v1/executions?workspaceId=…&status=paused — the runs waiting for a decision, or parked in a long wait.
// - POST /api/v1/executions/{executionId}/rerun and …/retry — run a finished execution again, whole or from a block,
//   replaying what ran before that block (triggers/rerun.ts).
// - POST /api/v1/executions/rerun and GET …/rerun/{batchId} — re-run, queued, the executions a logs filter selects, and
//   follow them (triggers/rerun-batch.ts).
import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import type { Context } from 'hono';
import { cancelExecution, listPausedRuns, REPLAYED_HEADER, resumeBody, resumeExecution } from '../../runs/index.js';
import { enqueueRerun, prepareRerun, rerunBody, retryBody, runRerun, type RerunBody } from '../../triggers/rerun.js';
import { rerunBatchBody, rerunBatchProgress, startRerunBatch } from '../../triggers/rerun-batch.js';
import type { AppEnv } from '../env.js';
import { sendResponse } from '../execution-response.js';
import { clientGoneSignal } from '../node-bindings.js';
import { runOrigin } from '../observe.js';
import { operation, type Operation } from '../operation.js';
import { id } from '../schemas.js';
import { parseId, parseWith, readBody, readQuery } from '../validation.js';

/** A re-run's body may be left out: an empty one re-runs the whole execution now. */
async function readRerunBody(c: Context<AppEnv>, schema: z.ZodType<RerunBody>): Promise<RerunBody> {
  const text = await c.req.raw.clone().text();
  return text.trim() === '' ? parseWith(schema, {}, 'request body') : readBody(c, schema);
}

/** What a re-run and a retry answer, beside their 200 RerunResult (docs/api.md "Re-runs"). */
const rerunAnswers: Pick<Operation, 'response' | 'errors' | 'more'> = {
  response: 'RerunResult',
  errors: [410],
  more: {
    202: { description: 'Queued (mode: async), or paused at an approval block', schema: 'RerunAccepted' },
    500: { description: 'The re-run failed', schema: 'RerunFailure' },
  },
};

const rerunConflicts =
  'The execution has not finished (EXECUTION_IN_PROGRESS); for retry, it did not fail (EXECUTION_NOT_FAILED); ' +
  'with deployment "active", the workflow is not deployed (WORKFLOW_NOT_DEPLOYED); a run of the singleton key is in flight (ALREADY_RUNNING: flow control\'s skip)';

async function rerun(c: Context<AppEnv>, body: RerunBody, retry: boolean) {
  const app = c.get('app');
  const executionId = parseId(c.req.param('executionId'), 'execution id', 'executionId');
  const call = await prepareRerun(app, { principal: c.get('principal'), executionId, body, retry, origin: runOrigin(c) });
  if (call.mode === 'dry-run') return c.json(call.answer, 200);
  if (call.mode === 'async') return sendResponse(c, await enqueueRerun(app, call), {});
  return sendResponse(c, await runRerun(app, call, clientGoneSignal(c)), {});
}

const pausedRunsQuery = z.strictObject({
  workspaceId: id,
  status: z.literal('paused').describe('Only runs waiting for an approval or parked in a long wait (kind) are listed'),
});

export const executionRoutes = new OpenAPIHono<AppEnv>()
  .openapi(
    operation({
      method: 'get',
      path: '/',
      summary: 'Runs of a workspace waiting for an approval or parked in a long wait (status=paused)',
      query: pausedRunsQuery,
      response: 'PausedRunList',
    }),
    async (c) => {
      const query = readQuery(c, pausedRunsQuery);
      return c.json({ data: await listPausedRuns(c.get('app'), c.get('principal'), query.workspaceId) });
    },
  )
  .openapi(
    operation({
      method: 'post',
      path: '/rerun',
      summary: 'Re-run, queued, the executions of a workspace that the logs filters select (each once); fromFailedBlock retries failed runs only',
      body: rerunBatchBody,
      idempotent: true,
      success: 202,
      response: 'RerunBatchAccepted',
      errors: [402, 429],
    }),
    async (c) => {
      const body = await readBody(c, rerunBatchBody);
      const started = await startRerunBatch(c.get('app'), {
        principal: c.get('principal'),
        body,
        bodyBytes: new TextEncoder().encode(await c.req.text()),
        idempotencyKey: c.req.header('idempotency-key'),
        origin: runOrigin(c),
      });
      const headers: Record<string, string> = { ...started.headers, ...(started.replayed ? { [REPLAYED_HEADER]: 'true' } : {}) };
      return c.json({ data: started.answer }, 202, headers);
    },
  )
  .openapi(
    operation({
      method: 'get',
      path: '/rerun/{batchId}',
      summary: 'Where each re-run of a bulk re-run stands (queued, running, succeeded, failed, skipped)',
      response: 'RerunBatchProgress',
    }),
    async (c) => {
      const batchId = parseId(c.req.param('batchId'), 'batch id', 'batchId');
      return c.json({ data: await rerunBatchProgress(c.get('app'), c.get('principal'), batchId) });
    },
  )
  .openapi(
    operation({
      method: 'post',
      path: '/{executionId}/cancel',
      summary: 'Cancel a queued, running or paused execution wherever it runs (200 cancelled, 202 still stopping, 409 finished)',
      response: 'CancelAnswer',
      conflict: 'The execution has already finished (EXECUTION_NOT_RUNNING)',
      more: { 202: { description: 'Asked to stop; still stopping', schema: 'CancelAnswer' } },
    }),
    async (c) => {
      const executionId = parseId(c.req.param('executionId'), 'execution id', 'executionId');
      const answer = await cancelExecution(c.get('app'), c.get('principal'), executionId);
      return c.json({ data: answer }, answer.status === 'cancelled' ? 200 : 202);
    },
  )
  .openapi(
    operation({
      method: 'post',
      path: '/{executionId}/resume',
      summary: 'Approve or reject a run paused at an approval block; it goes on in a worker (409 when it is not waiting)',
      body: resumeBody,
      success: 202,
      response: 'ResumeAccepted',
      conflict: 'The execution is not waiting for an approval (EXECUTION_NOT_PAUSED)',
    }),
    async (c) => {
      const executionId = parseId(c.req.param('executionId'), 'execution id', 'executionId');
      const body = await readBody(c, resumeBody);
      return c.json({ data: await resumeExecution(c.get('app'), c.get('principal'), executionId, body) }, 202);
    },
  )
  .openapi(
    operation({
      method: 'post',
      path: '/{executionId}/rerun',
      summary: 'Run a finished execution again, whole or from a block (earlier blocks replayed from the log, not run); dryRun says what would run',
      body: rerunBody,
      run: 'rerun',
      conflict: rerunConflicts,
      ...rerunAnswers,
    }),
    async (c) => rerun(c, await readRerunBody(c, rerunBody), false),
  )
  .openapi(
    operation({
      method: 'post',
      path: '/{executionId}/retry',
      summary: 'Re-run a failed execution from the first block that failed (409 EXECUTION_NOT_FAILED when it did not fail)',
      body: retryBody,
      run: 'rerun',
      conflict: rerunConflicts,
      ...rerunAnswers,
    }),
    async (c) => rerun(c, await readRerunBody(c, retryBody), true),
  );
