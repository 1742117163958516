// A run's side of pausing for an approval (approvals.ts has the other side: resuming, cancelling, listing). While a
// run goes, the tracker records the outcome of every block that finished; when an approval block asks to wait, the run
// stops and its row keeps this pause state: those outcomes, the decisions so far, the input — all a resumed run needs
// to replay its way back to the approval block.
// A long wait block parks a run the same way (a pause of kind `wait`): its due time is the pause's time-out, whose job
// resumes it on any process; the wait block then answers at once.
import { z } from 'zod';
import type { ApprovalDecision, ApprovalRequest } from '../blocks/types.js';
import { PARK_AFTER_MS, sleep } from '../blocks/wait.js';
import { RunStop, type EngineEvent, type IterationStep, type ReplayedBlock, type TraceSpan } from '../engine/index.js';
import type { WorkflowState } from '../workflow/index.js';
import type { FollowUpJob } from './record-statement.js';

export const RESUME_JOB = 'execution.resume';
export const PAUSED_MESSAGE = 'Paused: waiting for an approval';
export const PARKED_MESSAGE = 'Paused: waiting in a wait block';

const decisionSchema = z.object({
  approved: z.boolean(),
  data: z.unknown(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string(),
  /** Set on the decision about an agent's tool call (its key is then not a block id). */
  toolCall: z.object({ blockId: z.string(), id: z.string(), name: z.string() }).optional(),
});

const replaySchema = z.object({
  key: z.string(),
  output: z.record(z.string(), z.unknown()),
  sourceHandle: z.string().optional(),
  continueOnError: z.boolean().optional(),
  startedAt: z.string(),
  endedAt: z.string(),
});

/** What a paused run's row keeps (executions.pause). */
export const pauseSchema = z.object({
  /** 1 for the run's first pause, 2 for its second, … (a time-out job belongs to one of them). */
  number: z.number().int().min(1),
  /** What the run waits for: a decision (absent on rows older than waits), or the due time of a wait block. */
  kind: z.enum(['approval', 'wait']).optional(),
  blockId: z.string(),
  /** The decision's name in `decisions` when it is not the block id (an agent's tool call). */
  key: z.string().optional(),
  /** The agent tool call waiting for the decision. */
  toolCall: z.object({ id: z.string(), name: z.string(), arguments: z.unknown() }).optional(),
  /** By block id: what blocks that asked handed over to be given back on resume (an agent's progress). */
  checkpoints: z.record(z.string(), z.unknown()).optional(),
  message: z.string().nullable(),
  requestedAt: z.string(),
  timeoutAt: z.string().nullable(),
  defaultDecision: z.enum(['approve', 'reject']).nullable(),
  decisions: z.record(z.string(), decisionSchema),
  /** Set by a resume request (or the time-out) for the resuming run to take. */
  pending: decisionSchema.optional(),
  replay: z.array(replaySchema),
  input: z.record(z.string(), z.unknown()),
  triggerBlockId: z.string().optional(),
  firstStartedAt: z.string(),
  /** Paused time of the earlier pauses; the current one is added when it resumes. */
  pausedMs: z.number(),
  /**
   * By wait block id: when each wait that parked is due, kept until the block finishes — so a wait run again on resume
   * (after another pause) waits only for what is left of it.
   */
  waits: z.record(z.string(), z.string()).optional(),
  /** Time parked in wait blocks by the earlier pauses: it counts against the run's time limit (approvals' does not). */
  waitedMs: z.number().optional(),
  /** Usage charged so far (the final log's cost counts the whole run; the owner pays the rest then). */
  chargedUsd: z.number(),
  /** Time the run spent running (not waiting) so far: the final log's duration. */
  activeMs: z.number(),
});
export type PauseState = z.infer<typeof pauseSchema>;
export type Decision = z.infer<typeof decisionSchema>;

/** What a resumed run is given (run-execution.ts). */
export interface Resumption {
  logId: string;
  /**
   * When the resumed run started, as the row holds it: the log's key includes started_at (db/schema.ts), so the
   * completed log must carry the same instant to complete that row rather than add a second one.
   */
  startedAt: Date;
  pause: PauseState;
  decision: Decision;
}

const replayKey = (blockId: string, path: IterationStep[]) =>
  path.length === 0 ? blockId : `${blockId}|${path.map((step) => `${step.containerId}#${step.index}`).join('/')}`;

const holdsApproval = new WeakMap<WorkflowState, boolean>();
const holdsWait = new WeakMap<WorkflowState, boolean>();

/** An agent block with a tool whose calls need approval (any value but false counts: it may be a reference). */
function agentAsksApproval(config: unknown): boolean {
  const tools = (config as { tools?: unknown } | null)?.tools;
  return (
    Array.isArray(tools) &&
    tools.some((tool: unknown) => {
      const flag = tool && typeof tool === 'object' ? (tool as { requiresApproval?: unknown }).requiresApproval : undefined;
      return flag !== undefined && flag !== null && flag !== false;
    })
  );
}

/** Whether a state can pause at all (most cannot: their runs skip the tracking below). Cached per loaded state. */
export function canPause(state: WorkflowState): boolean {
  let known = holdsApproval.get(state);
  if (known === undefined) {
    known = Object.values(state.blocks).some((block) => block.type === 'approval' || (block.type === 'agent' && agentAsksApproval(block.config)));
    holdsApproval.set(state, known);
  }
  return known;
}

/** Whether a state has a wait block, which may park a run nobody waits on. Cached per loaded state. */
export function canPark(state: WorkflowState): boolean {
  let known = holdsWait.get(state);
  if (known === undefined) {
    known = Object.values(state.blocks).some((block) => block.type === 'wait');
    holdsWait.set(state, known);
  }
  return known;
}

const decisionKey = (request: { blockId: string; key?: string }) => request.key ?? request.blockId;

/**
 * One run's side of pausing: the approval service its blocks call, and the record of what finished before the pause
 * (what a resumed run replays). `stop` ends the run when an approval block asks to wait.
 */
export function createPauseTracker(input: {
  state: WorkflowState;
  resumption?: Resumption;
  stop(reason: RunStop): void;
}) {
  const resumed = input.resumption?.pause;
  // The due time of a wait resumes the run, it decides nothing.
  const decisions: Record<string, Decision> = input.resumption && resumed?.kind !== 'wait'
    ? {
        ...input.resumption.pause.decisions,
        [decisionKey(input.resumption.pause)]: {
          ...input.resumption.decision,
          ...(resumed?.toolCall ? { toolCall: { blockId: resumed.blockId, id: resumed.toolCall.id, name: resumed.toolCall.name } } : {}),
        },
      }
    : { ...resumed?.decisions };
  const replayed = new Map((input.resumption?.pause.replay ?? []).map((record) => [record.key, record]));
  const finished: PauseState['replay'] = [];
  let request:
    | (Omit<ApprovalRequest, 'checkpoint' | 'usage'> & { kind: 'approval'; requestedAt: string })
    | { kind: 'wait'; blockId: string; dueAt: number; requestedAt: string }
    | undefined;
  const waits: Record<string, string> = { ...resumed?.waits };
  // What blocks that asked handed over: kept from earlier pauses until the block finishes, replaced when it asks again.
  const checkpoints: Record<string, unknown> = { ...resumed?.checkpoints };
  const usage = new Map<string, NonNullable<ApprovalRequest['usage']>>();
  const startedAt = new Date().toISOString();

  return {
    replay: replayed.size > 0 ? (blockId: string, path: IterationStep[]): ReplayedBlock | undefined => replayed.get(replayKey(blockId, path)) : undefined,
    /** Records what finished, to be replayed on resume; what stops because of the pause runs again then. */
    onEvent(event: EngineEvent) {
      // After a pause was asked for, blocks still running are stopped (and run again on resume); one that finished
      // anyway did its work, and is replayed like the others.
      if (event.type !== 'block_finished' || (request && event.error !== undefined)) return;
      const done = event;
      if (done.iterationPath.length === 0) {
        delete checkpoints[done.blockId];
        delete waits[done.blockId];
      }
      finished.push({
        key: replayKey(done.blockId, done.iterationPath),
        output: done.output,
        ...(done.sourceHandle === undefined ? {} : { sourceHandle: done.sourceHandle }),
        ...(done.continueOnError ? { continueOnError: true } : {}),
        startedAt: done.startedAt,
        endedAt: done.endedAt,
      });
    },
    awaitApproval(asked: ApprovalRequest): Promise<ApprovalDecision> {
      if (input.state.blocks[asked.blockId]?.parentId) {
        return Promise.reject(
          new Error(
            asked.toolCall
              ? 'A tool that needs approval cannot be used by an agent inside a loop or parallel: place the agent before or after'
              : 'An approval block cannot sit inside a loop or parallel: place it before or after',
          ),
        );
      }
      const decided = decisions[decisionKey(asked)];
      if (decided) return Promise.resolve(decided);
      const { checkpoint, usage: spent, ...shown } = asked;
      if (checkpoint !== undefined) checkpoints[asked.blockId] = checkpoint;
      if (spent) usage.set(asked.blockId, spent);
      request ??= { ...shown, kind: 'approval', requestedAt: new Date().toISOString() };
      input.stop(new RunStop('paused', PAUSED_MESSAGE));
      return new Promise(() => undefined); // the pause ends the run; this block is run again on resume
    },
    /**
     * The wait block's wait: parks the run when it is due more than PARK_AFTER_MS away, else sleeps. Inside a loop or
     * parallel it always sleeps: a resumed run replays finished blocks, and an iteration's wait is not one.
     */
    waitUntil({ blockId, dueAt, signal }: { blockId: string; dueAt: number; signal: AbortSignal }): Promise<void> {
      if (input.state.blocks[blockId]?.parentId) return sleep(Math.max(0, dueAt - Date.now()), signal);
      // A wait that parked before is due when it was then, not `ms` after this resumed run reached it again.
      const due = waits[blockId] !== undefined ? Date.parse(waits[blockId]) : dueAt;
      const left = due - Date.now();
      if (left <= PARK_AFTER_MS) return left > 0 ? sleep(left, signal) : Promise.resolve();
      waits[blockId] = new Date(due).toISOString();
      // Two waits side by side: the run wakes for the earlier (the later one parks again then). An approval asked
      // first keeps the pause: a wait due meanwhile goes on once it is decided.
      if (!request || (request.kind === 'wait' && due < request.dueAt)) {
        request = { kind: 'wait', blockId, dueAt: due, requestedAt: new Date().toISOString() };
      }
      input.stop(new RunStop('paused', PARKED_MESSAGE));
      return new Promise(() => undefined); // the pause ends the run; this block is run again on resume
    },
    /** The row's pause state once the run has stopped to wait. */
    pauseState(run: { input: Record<string, unknown>; triggerBlockId?: string; chargedUsd: number; activeMs: number }): PauseState {
      const earlier = input.resumption?.pause;
      const asked = request!;
      const requestedAt = asked.requestedAt;
      const waitedMs = waitedSoFar(input.resumption);
      const common = {
        number: (earlier?.number ?? 0) + 1,
        blockId: asked.blockId,
        ...(Object.keys(checkpoints).length > 0 ? { checkpoints } : {}),
        ...(Object.keys(waits).length > 0 ? { waits } : {}),
        ...(waitedMs > 0 ? { waitedMs } : {}),
        requestedAt,
      };
      // A parked wait is an approval that nobody decides: its time-out (the due time) resumes it.
      const waiting =
        asked.kind === 'wait'
          ? { kind: 'wait' as const, message: null, timeoutAt: new Date(asked.dueAt).toISOString(), defaultDecision: 'approve' as const }
          : {
              kind: 'approval' as const,
              ...(asked.key !== undefined ? { key: asked.key } : {}),
              ...(asked.toolCall ? { toolCall: asked.toolCall } : {}),
              message: asked.message ?? null,
              timeoutAt: asked.timeoutMs ? new Date(Date.parse(requestedAt) + asked.timeoutMs).toISOString() : null,
              defaultDecision: asked.defaultDecision ?? null,
            };
      return {
        ...common,
        ...waiting,
        decisions,
        replay: finished,
        input: run.input,
        ...(run.triggerBlockId ? { triggerBlockId: run.triggerBlockId } : {}),
        firstStartedAt: earlier?.firstStartedAt ?? startedAt,
        pausedMs: pausedSoFar(input.resumption),
        chargedUsd: run.chargedUsd,
        activeMs: run.activeMs,
      };
    },
    /** Resuming: what the block handed over with its request at the pause (`BlockServices.approvalCheckpoint`). */
    approvalCheckpoint: (blockId: string): unknown => resumed?.checkpoints?.[blockId],
    /**
     * The paused run's trace with the model use of blocks stopped while they asked (an agent that called its model
     * before a tool call waited): counted in the paused log, so a run cancelled while paused still shows it.
     */
    withPausedUsage(spans: TraceSpan[]): TraceSpan[] {
      if (usage.size === 0) return spans;
      return spans.map((span) => {
        const spent = usage.get(span.blockId);
        return spent ? { ...span, model: spent.model, tokens: spent.tokens, cost: spent.cost } : span;
      });
    },
    /** What the final log keeps of the pauses: their decisions and the time spent waiting. */
    summary(): PauseSummary | null {
      if (!input.resumption) return null;
      return {
        pauses: input.resumption.pause.number,
        pausedMs: pausedSoFar(input.resumption),
        firstStartedAt: input.resumption.pause.firstStartedAt,
        decisions,
      };
    },
  };
}

export type PauseTracker = ReturnType<typeof createPauseTracker>;

/** What the log of a run that paused keeps of its pauses (shown in the log detail). */
export type PauseSummary = {
  pauses: number;
  pausedMs: number;
  /** When the run first started (the log is listed at the time it last resumed). */
  firstStartedAt: string;
  /** By approval block id. */
  decisions: Record<string, Decision>;
};

/** Time parked in wait blocks up to the resumption (the current pause's wait included when it was one). */
function waitedSoFar(resumption: Resumption | undefined): number {
  if (!resumption) return 0;
  const { pause, decision } = resumption;
  const now = pause.kind === 'wait' ? Math.max(0, Date.parse(decision.decidedAt) - Date.parse(pause.requestedAt)) : 0;
  return (pause.waitedMs ?? 0) + now;
}

/**
 * What a resumed run has used of its time limit: the time it ran and the time it was parked in wait blocks — wall
 * clock since it started, less the time people took to decide its approvals (those have their own time-outs).
 */
export function timeLimitUsedMs(resumption: Resumption): number {
  return resumption.pause.activeMs + waitedSoFar(resumption);
}

function pausedSoFar(resumption: Resumption | undefined): number {
  if (!resumption) return 0;
  const waited = Date.parse(resumption.decision.decidedAt) - Date.parse(resumption.pause.requestedAt);
  return resumption.pause.pausedMs + Math.max(0, waited);
}

/**
 * A paused run waits for the time-out of its approval, when the block set one: its default decision then applies;
 * a parked wait, for its due time. The job is written with the paused log (one per pause: its id names the pause, so
 * it is never queued twice).
 */
export function approvalTimeoutJob(executionId: string, pause: PauseState): FollowUpJob[] {
  if (!pause.timeoutAt) return [];
  return [
    {
      executionId,
      id: `job_timeout_${executionId}_${pause.number}`,
      kind: RESUME_JOB,
      payload: { executionId, timeoutOf: pause.number },
      runAt: new Date(pause.timeoutAt),
    },
  ];
}
