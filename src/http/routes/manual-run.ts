// POST /api/v1/workflows/{workflowId}/run — the editor's Run button (SPEC §8): runs the DRAFT state, logged with
// trigger `manual`. The API trigger's Input Format `value`s stand in for a request; `input` in the body overrides
// them field by field. Answers with Server-Sent Events of every block's progress, or JSON (see wantsJson).
// Not rate limited (SPEC §4), but charged for usage and refused with 402 once the usage limit is reached.
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import { blockCatalog } from '../../blocks/registry.js';
import type { EngineEvent } from '../../engine/index.js';
import { AppError, badRequest } from '../../errors.js';
import { runExecution } from '../../services/executions.js';
import { workspaceOwner } from '../../services/limits.js';
import { admitRun } from '../../services/admission.js';
import { getWorkflowForPrincipal } from '../../services/workflows.js';
import type { WorkflowState } from '../../workflow/index.js';
import { requireApiKey } from '../auth.js';
import { readBodyLimited } from '../body.js';
import type { AppEnv } from '../env.js';
import { responseFor, sendResponse } from '../execution-response.js';
import { id } from '../schemas.js';
import { doneRecord, streamRun } from '../sse.js';
import { parseWith } from '../validation.js';

export const manualRunBody = z.strictObject({
  /** Trigger input; for the API trigger, fields given here win over the Input Format values. */
  input: z.record(z.string(), z.unknown()).optional(),
  /** Start at this trigger block (a draft with several triggers); default: the API trigger, or the only trigger. */
  triggerBlockId: z.string().min(1).max(200).optional(),
});
type ManualRunBody = z.infer<typeof manualRunBody>;

/** Authenticates unless an enclosing guard already did (the /workflows guard covers these paths too). */
const authenticated = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get('principal')) return next();
  return requireApiKey(c, next);
});

async function readManualBody(c: Context<AppEnv>): Promise<ManualRunBody> {
  const bytes = await readBodyLimited(c, c.get('app').config.maxRequestBytes);
  const text = bytes.toString('utf8');
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError('INVALID_JSON', 400, 'The request body is not valid JSON');
  }
  return parseWith(manualRunBody, parsed, 'request body');
}

/**
 * SSE is the default (the editor follows progress); `?stream=false`, or an Accept header that asks for JSON and not
 * for an event stream, gets one JSON answer at the end instead.
 */
function wantsJson(c: Context): boolean {
  if (c.req.query('stream') === 'false') return true;
  const accept = c.req.header('accept')?.toLowerCase() ?? '';
  return accept.includes('application/json') && !accept.includes('text/event-stream');
}

function checkTriggerBlock(state: WorkflowState, blockId: string | undefined): void {
  if (blockId === undefined) return;
  const block = state.blocks[blockId];
  if (!block || blockCatalog[block.type]?.trigger === undefined) {
    throw badRequest('Invalid trigger block', [{ path: 'triggerBlockId', message: 'is not a trigger block of the draft' }]);
  }
}

/** Engine events as the editor's progress records: the engine's `type` becomes `event`, everything else as is. */
function progressRecord(event: EngineEvent): Record<string, unknown> | undefined {
  if (event.type === 'run_finished') return undefined; // the done record carries the result
  const { type, ...rest } = event;
  return { event: type, ...rest };
}

export const manualRunRoutes = new Hono<AppEnv>().post('/:workflowId/run', authenticated, async (c) => {
  const app = c.get('app');
  const workflowId = parseWith(id, c.req.param('workflowId'), 'workflow id', 'workflowId');
  const row = await getWorkflowForPrincipal(app.db, c.get('principal'), workflowId);
  const owner = await workspaceOwner(app.db, row.workspaceId);
  await admitRun(app, owner, { rateBucket: null });
  const body = await readManualBody(c);
  const state = row.state as WorkflowState;
  checkTriggerBlock(state, body.triggerBlockId);
  const run = (signal: AbortSignal, onEvent?: (event: EngineEvent) => void) =>
    runExecution(app, {
      workflow: { id: row.id, workspaceId: row.workspaceId },
      state,
      deploymentVersion: null,
      trigger: 'manual',
      input: body.input ?? {},
      triggerBlockId: body.triggerBlockId,
      timeoutMs: app.config.executionTimeoutMs,
      owner,
      signal,
      onEvent,
    });

  if (wantsJson(c)) {
    const outcome = await run(c.req.raw.signal);
    // The editor wants the run's result, not the HTTP answer a response block would give an API caller.
    const withoutResponse = { ...outcome, result: { ...outcome.result, response: undefined } };
    return sendResponse(c, responseFor(withoutResponse, app.config.executionTimeoutMs), {});
  }
  return streamRun(c, { keepaliveMs: app.config.sseKeepaliveMs }, async ({ send, signal }) => {
    const outcome = await run(signal, (event) => {
      const record = progressRecord(event);
      if (record) send(record);
    });
    return doneRecord(outcome.result, { executionId: outcome.executionId });
  });
});
