// Executions in flight, wherever they run:
// - POST /api/v1/executions/{executionId}/cancel — stop a queued, running or paused execution (runs/cancel-execution.ts).
//   200 once its log says `cancelled`, 202 while it is still stopping.
// - POST /api/v1/executions/{executionId}/resume — decide an approval a run waits for (runs/approvals.ts).
// - GET /api/v1/executions?workspaceId=…&status=paused — the runs waiting for a decision.
import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { cancelExecution, listPausedRuns, resumeBody, resumeExecution } from '../../runs/index.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { id } from '../schemas.js';
import { parseWith, readBody, readQuery } from '../validation.js';

const pausedRunsQuery = z.strictObject({
  workspaceId: id,
  status: z.literal('paused').describe('Only runs waiting for an approval are listed'),
});

export const executionRoutes = new OpenAPIHono<AppEnv>()
  .openapi(
    operation({
      method: 'get',
      path: '/',
      summary: 'Runs of a workspace waiting for an approval (status=paused)',
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
      path: '/{executionId}/cancel',
      summary: 'Cancel a queued, running or paused execution wherever it runs (200 cancelled, 202 still stopping, 409 finished)',
      response: 'CancelAnswer',
      conflict: 'The execution has already finished (EXECUTION_NOT_RUNNING)',
      more: { 202: { description: 'Asked to stop; still stopping', schema: 'CancelAnswer' } },
    }),
    async (c) => {
      const executionId = parseWith(id, c.req.param('executionId'), 'execution id', 'executionId');
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
      const executionId = parseWith(id, c.req.param('executionId'), 'execution id', 'executionId');
      const body = await readBody(c, resumeBody);
      return c.json({ data: await resumeExecution(c.get('app'), c.get('principal'), executionId, body) }, 202);
    },
  );
