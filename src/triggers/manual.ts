// The manual trigger (README "Other triggers"): the editor's Run button runs the DRAFT state, logged with trigger
// `manual`. The API trigger's Input Format `value`s stand in for a request; `input` in the body overrides them field by
// field (the engine fills them in). Not rate limited (docs/api.md 4.8), but charged for usage and refused with 402 once
// the usage limit is reached. Progress is reported per block for the editor.
import { z } from 'zod';
import { blockCatalog } from '../blocks/registry.js';
import type { EngineEvent } from '../engine/index.js';
import { badRequest } from '../errors.js';
import { newExecutionId } from '../ids.js';
import type { WorkflowState } from '../workflow/index.js';
import {
  admitRun,
  type ExecutionOutcome,
  type PreparedRun,
  holdFlowSlot,
  holdThrottleStart,
  prepareRun,
  type RunOrigin,
  runPrepared,
  type StoredResponse,
  syncAnswer,
} from '../runs/index.js';
import { requireRole } from '../services/access.js';
import type { Principal } from '../services/api-keys.js';
import type { AppContext } from '../services/app-context.js';
import { workspaceOwner } from '../services/limits.js';
import { getWorkflowForPrincipal } from '../services/workflows.js';

export const manualRunBody = z.strictObject({
  /** Trigger input; for the API trigger, fields given here win over the Input Format values. */
  input: z.record(z.string(), z.unknown()).optional(),
  /** Start at this trigger block (a draft with several triggers); default: the API trigger, or the only trigger. */
  triggerBlockId: z.string().min(1).max(200).optional(),
});
export type ManualRunBody = z.infer<typeof manualRunBody>;

function checkTriggerBlock(state: WorkflowState, blockId: string | undefined): void {
  if (blockId === undefined) return;
  const block = state.blocks[blockId];
  if (!block || blockCatalog[block.type]?.trigger === undefined) {
    throw badRequest('Invalid trigger block', [{ path: 'triggerBlockId', message: 'is not a trigger block of the draft' }]);
  }
}

export async function prepareManualRun(
  app: AppContext,
  request: { principal: Principal; workflowId: string; readBody(): Promise<ManualRunBody>; origin?: RunOrigin },
): Promise<PreparedRun> {
  const row = await getWorkflowForPrincipal(app.db, request.principal, request.workflowId);
  // A draft run executes whatever the draft holds: it is editing, not reading.
  await requireRole(app.db, request.principal, row.workspaceId, 'editor', 'run drafts');
  const owner = await workspaceOwner(app.db, row.workspaceId);
  const { headers } = await admitRun(app, owner, { rateBucket: null });
  const body = await request.readBody();
  checkTriggerBlock(row.state, body.triggerBlockId);
  const run = prepareRun({
    target: { workflow: { id: row.id, workspaceId: row.workspaceId }, state: row.state, deploymentVersion: null, owner },
    trigger: 'manual',
    triggerBlockId: body.triggerBlockId,
    input: body.input ?? {},
    files: [],
    executionId: newExecutionId(),
    admissionHeaders: headers,
    origin: request.origin,
  });
  // The draft's flow control, on the workflow's slots and throttle starts: a limit and a rate hold for the editor's Run
  // too (pipeline.ts), refused like a sync call's before the progress stream starts. Debounce does not apply: the
  // person who pressed Run waits for this run's own answer.
  const held = await holdFlowSlot(app, run, { userId: request.principal.userId, keyWorkspaceId: request.principal.keyWorkspaceId });
  return holdThrottleStart(app, held);
}

/** Engine events as the editor's progress records: the engine's `type` becomes `event`, everything else as is. */
export function progressRecord(event: EngineEvent): Record<string, unknown> | undefined {
  if (event.type === 'run_finished') return undefined; // the done record carries the result
  if (event.type === 'block_progress') return { blockId: event.blockId, iterationPath: event.iterationPath, ...event.progress };
  const { type, ...rest } = event;
  return { event: type, ...rest };
}

export function runManual(
  app: AppContext,
  run: PreparedRun,
  options: { signal?: AbortSignal; onProgress?: (record: Record<string, unknown>) => void },
): Promise<ExecutionOutcome> {
  const { onProgress } = options;
  return runPrepared(app, run, {
    signal: options.signal,
    onEvent: onProgress
      ? (event) => {
          const record = progressRecord(event);
          if (record) onProgress(record);
        }
      : undefined,
  });
}

/** The JSON answer of a manual run: the run's result, not the HTTP answer a response block would give an API caller. */
export function manualAnswer(outcome: ExecutionOutcome): StoredResponse {
  return syncAnswer({ ...outcome, result: { ...outcome.result, response: undefined } });
}
