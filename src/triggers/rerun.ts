// Re-runs (docs/api.md "Re-runs", README "Re-running a run"): `POST /api/v1/executions/{id}/rerun` and `…/retry`.
// A re-run is a new execution of the original's workflow — the version that ran, or the active deployment — with the
// original's trigger and input (or new input). Run from a block, it replays every block the original finished before
// that block from its recorded output (runs/rerun-plan.ts), so no call to the outside world is made again for them.
// It goes through the same admission as an execute call; its log names the original (`rerunOf`).
import { z } from 'zod';
import { AppError, notFound } from '../errors.js';
import { newExecutionId } from '../ids.js';
import { blockRegistry } from '../blocks/registry.js';
import { canRunInWorkspace, requireRole, requireRunRole } from '../services/access.js';
import type { Principal } from '../services/api-keys.js';
import type { AppContext } from '../services/app-context.js';
import { getWorkflowForPrincipal } from '../services/workflows.js';
import {
  activeDeployment,
  admitQueuedRun,
  admitRun,
  checkApiInput,
  downstreamOf,
  enqueuePrepared,
  findApiTrigger,
  findRerunBlock,
  firstFailedBlock,
  inputFormatOf,
  loadDeployedWorkflow,
  loadOriginalRun,
  originalTrigger,
  planRerun,
  prepareRun,
  rerunOf,
  runPrepared,
  syncAnswer,
  traceOrder,
  traceReached,
  valuesLostError,
  withDeclaredFields,
  type OriginalRun,
  type PreparedRun,
  type RunOrigin,
  type RunTarget,
  type StoredResponse,
} from '../runs/index.js';
import type { WorkflowState } from '../workflow/index.js';
import { acceptedAnswer } from './api.js';

export const rerunBody = z.strictObject({
  fromBlock: z.string().min(1).max(200).optional().describe('Block id or name to run from; without it the whole workflow runs again'),
  input: z.record(z.string(), z.unknown()).optional().describe("Trigger input instead of the original's (checked against the Input Format)"),
  deployment: z
    .enum(['original', 'active', 'draft'])
    .optional()
    .describe('`original` (default): the version that ran; `active`: the active deployment; `draft`: the current draft (editors; sync only)'),
  mode: z.enum(['sync', 'async']).optional().describe('`sync` (default) answers when the run ends; `async` queues it'),
  dryRun: z.boolean().optional().describe('Answer what would be replayed and what would run again, without running'),
});
export type RerunBody = z.infer<typeof rerunBody>;

export const retryBody = rerunBody.omit({ fromBlock: true });

export interface DryRunAnswer {
  rerunOf: string;
  fromBlock: string | null;
  replayed: string[];
  willRun: Array<{ blockId: string; type: string; sideEffects: boolean }>;
}

export type RerunCall =
  | { mode: 'dry-run'; answer: DryRunAnswer }
  | { mode: 'sync' | 'async'; run: PreparedRun; original: OriginalRun };

/** Every check that can refuse a re-run, in the order a caller would want to hear of them; then what runs. */
export async function prepareRerun(
  app: AppContext,
  request: {
    principal: Principal;
    executionId: string;
    body: RerunBody;
    retry?: boolean;
    origin?: RunOrigin;
    /** Admitted already, once for the whole request (a bulk re-run: rerun-batch.ts). */
    admitted?: true;
  },
): Promise<RerunCall> {
  const { body } = request;
  const original = await loadOriginalRun(app.db, app.files.storage, request.executionId, app.logger);
  if (!original || !(await canRunInWorkspace(app, request.principal, original.workspaceId))) throw notFound('Execution');
  // A preview changes nothing; running again repeats what the run did outside, like cancel or resume an editor's act.
  if (!body.dryRun) await requireRunRole(app, request.principal, original.workspaceId, 'editor', 're-run executions');
  if (['running', 'paused', 'resuming'].includes(original.status)) {
    throw new AppError('EXECUTION_IN_PROGRESS', 409, 'The execution has not finished yet; re-run it once it has (or cancel it)');
  }
  const deployed = await loadDeployedWorkflow(app, original.workflowId);
  if (!deployed) throw notFound('Workflow');
  const target =
    body.deployment === 'draft' ? await draftTarget(app, request.principal, deployed, body) : rerunTarget(original, deployed, body.deployment ?? 'original');

  let fromBlock: string | null = null;
  if (request.retry) {
    if (original.status !== 'error') {
      throw new AppError('EXECUTION_NOT_FAILED', 409, `The execution did not fail (it ended ${original.status}); use rerun to run it again`);
    }
    if (original.traceKept === 'summary') throw summaryOnly('re-run from its failed block');
    // A run that failed outside any block (a time-out, an interruption) runs again whole.
    const failed = original.traceSpans ? firstFailedBlock(original.traceSpans) : undefined;
    fromBlock = failed && target.state.blocks[failed] ? failed : null;
  } else if (body.fromBlock !== undefined) {
    fromBlock = checkFromBlock(original, target, body.fromBlock);
  }
  // A replay takes the outputs of the blocks before `fromBlock` from the log: a marker is not the output that was.
  if (fromBlock !== null && original.valuesLost.length > 0) throw valuesLostError(original, 're-run from a block', 're-run it whole');

  const trigger = originalTrigger(original);
  // A summary keeps no block's output, the trigger's (the run's input) included.
  if (body.input === undefined && original.traceKept === 'summary') throw summaryOnly('re-run without "input"', 'or give it its input');
  if (body.input === undefined && original.valuesLost.length > 0) throw valuesLostError(original, 're-run without "input"', 'give it its input');
  const input = body.input === undefined ? trigger.input : checkInput(target.state, original, body.input);
  if (body.dryRun) return { mode: 'dry-run', answer: dryRun(original, target.state, fromBlock) };

  const mode = body.mode ?? 'sync';
  const { headers } = request.admitted ? { headers: {} } : await admitRun(app, target.owner, { rateBucket: mode });
  const triggerBlockId = trigger.blockId && target.state.blocks[trigger.blockId] ? trigger.blockId : undefined;
  const run = prepareRun({
    target,
    trigger: original.trigger,
    triggerBlockId,
    input,
    files: [],
    executionId: newExecutionId(),
    admissionHeaders: headers,
    origin: request.origin,
  });
  run.rerun = rerunOf(original, target.state, fromBlock);
  // Flow control like an async execute call (runs/flow-slots.ts): refused under `reject` and a singleton's `skip`
  // when the key is full, else noted as waiting; a sync re-run takes its slot and throttle start as it runs
  // (runPrepared). A bulk re-run's runs only wait in the queue: one full key must not refuse the whole batch.
  if (mode === 'async' && run.flow && !request.admitted) {
    const requester = { userId: request.principal.userId, keyWorkspaceId: request.principal.keyWorkspaceId };
    run.flowWaits = (await admitQueuedRun(app, run.flow, requester)).waits;
  }
  return { mode, run, original };
}

function rerunTarget(
  original: OriginalRun,
  deployed: NonNullable<Awaited<ReturnType<typeof loadDeployedWorkflow>>>,
  which: 'original' | 'active',
): RunTarget {
  if (which === 'active') return activeDeployment(deployed, 're-run on its active deployment');
  if (!original.state) {
    throw new AppError('EXECUTION_SNAPSHOT_GONE', 410, 'The workflow version this execution ran is no longer kept; re-run it with deployment "active"');
  }
  return {
    workflow: { id: deployed.workflow.id, workspaceId: deployed.workflow.workspaceId },
    state: original.state,
    stateHash: original.snapshotHash,
    deploymentVersion: original.deploymentVersion,
    owner: deployed.owner,
  };
}

/**
 * The editor's "Run from here": the last run again on the draft as it is now, so an edit to the block is what runs.
 * Running the draft is editing (as a manual run is); it runs here and now, as a manual run does.
 */
async function draftTarget(
  app: AppContext,
  principal: Principal,
  deployed: NonNullable<Awaited<ReturnType<typeof loadDeployedWorkflow>>>,
  body: RerunBody,
): Promise<RunTarget> {
  if (body.mode === 'async') {
    throw new AppError('VALIDATION_ERROR', 400, 'A re-run on the draft runs synchronously, as a manual run does', [
      { path: 'mode', message: 'must be "sync" with deployment "draft"' },
    ]);
  }
  await requireRole(app.db, principal, deployed.workflow.workspaceId, 'editor', 'run drafts');
  const row = await getWorkflowForPrincipal(app.db, principal, deployed.workflow.id);
  return { workflow: { id: row.id, workspaceId: row.workspaceId }, state: row.state, deploymentVersion: null, owner: deployed.owner };
}

function checkFromBlock(original: OriginalRun, target: RunTarget, asked: string): string {
  const blockId = findRerunBlock(target.state, asked);
  const which =
    target.deploymentVersion !== null ? `deployment version ${target.deploymentVersion}` : target.stateHash === undefined ? 'the draft' : 'the draft that ran';
  if (!blockId) {
    throw new AppError('VALIDATION_ERROR', 400, `Block "${asked}" does not exist in ${which}`, [{ path: 'fromBlock', message: `no block "${asked}"` }]);
  }
  if (original.traceKept === 'summary') throw summaryOnly('re-run from a block', 're-run it whole');
  if (!original.traceSpans) {
    throw new AppError('EXECUTION_SNAPSHOT_GONE', 410, 'The trace of this execution is no longer kept, so it cannot be re-run from a block; re-run it whole');
  }
  if (!traceReached(original.traceSpans, blockId)) {
    throw new AppError('VALIDATION_ERROR', 400, `The original run never reached block "${asked}", so it cannot be re-run from it`, [
      { path: 'fromBlock', message: `block "${asked}" did not run` },
    ]);
  }
  return blockId;
}

/**
 * A re-run that needs the outputs of the original's blocks, of a log that kept only a summary of its trace (the
 * workflow's `trace` setting, runs/trace-detail.ts).
 */
function summaryOnly(what: string, instead = 're-run it whole with "input"'): AppError {
  return new AppError(
    'EXECUTION_SNAPSHOT_GONE',
    410,
    `This execution cannot be ${what}: its log kept only a summary of its trace (the workflow's trace setting), not the outputs of its blocks; ${instead}. Set the workflow's trace to "full" (and deploy) to keep what a re-run needs`,
  );
}

/** New input for an API-triggered workflow is checked like an execute call's body; other triggers take it as given. */
function checkInput(state: WorkflowState, original: OriginalRun, input: Record<string, unknown>): Record<string, unknown> {
  if (original.trigger !== 'api' && original.trigger !== 'manual') return input;
  const trigger = findApiTrigger(state);
  if (!trigger) return input;
  const fields = inputFormatOf(trigger);
  const problems = checkApiInput(fields, input);
  if (problems.length > 0) throw new AppError('VALIDATION_ERROR', 400, 'The input does not match the Input Format', problems);
  return withDeclaredFields(fields, input);
}

/** Calls to the outside world, or code that may make them. */
function hasSideEffects(type: string, config: Record<string, unknown>): boolean {
  if (type === 'api') return String(config.method ?? 'GET').toUpperCase() !== 'GET';
  return type === 'agent' || type === 'workflow' || type === 'function';
}

function dryRun(original: OriginalRun, state: WorkflowState, fromBlock: string | null): DryRunAnswer {
  const pure = (blockId: string) => blockRegistry[state.blocks[blockId]?.type ?? '']?.replay === 'rerun';
  const plan = fromBlock !== null && original.traceSpans ? planRerun(state, original.traceSpans, fromBlock) : undefined;
  // Pure blocks (triggers, variables, a response) are worked out again from their inputs rather than replayed.
  const replayed = (plan?.replayed ?? []).filter((id) => !pure(id));
  const runs = plan ? new Set([...downstreamOf(state, fromBlock!), ...plan.ranAgain, ...plan.replayed.filter(pure)]) : undefined;
  // In the order the original ran them; blocks it never reached after those.
  const order = traceOrder(original.traceSpans ?? []);
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
  const willRun = Object.values(state.blocks)
    .sort((x, y) => rank(x.id) - rank(y.id))
    .filter((block) => block.enabled && !['loop', 'parallel'].includes(block.type) && (!runs || runs.has(block.id)))
    .map((block) => ({ blockId: block.id, type: block.type, sideEffects: hasSideEffects(block.type, block.config) }));
  return { rerunOf: original.executionId, fromBlock, replayed, willRun };
}

/** Runs a sync re-run; its answer is an execute answer with `rerunOf`. */
export async function runRerun(app: AppContext, call: Extract<RerunCall, { run: PreparedRun }>, signal?: AbortSignal): Promise<StoredResponse> {
  const outcome = await runPrepared(app, call.run, { signal });
  const answer = syncAnswer(outcome, { rerunOf: call.original.executionId });
  return { ...answer, headers: { ...call.run.headers, ...answer.headers } };
}

/** Queues an async re-run; its answer is an async execute answer with `rerunOf`. */
export async function enqueueRerun(app: AppContext, call: Extract<RerunCall, { run: PreparedRun }>): Promise<StoredResponse> {
  const accepted = acceptedAnswer(app, await enqueuePrepared(app, call.run));
  return { ...accepted, headers: { ...call.run.headers, ...accepted.headers }, body: { ...(accepted.body as object), rerunOf: call.original.executionId } };
}
