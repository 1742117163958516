// Flow control of a workflow (docs/workflows.md "Flow control"): how many of its runs may be in flight at once, per
// workflow or per key, what happens to a run over the limit, how many may start per period (throttle), how a burst of
// calls collapses into one run (debounce), the priority of its queued runs, and how long a run may take (`timeoutMs`,
// docs/workflows.md "Long runs"). Deployed with the state (`state.flowControl`) and exported with it. Pure: the slots
// and counters live in the database (runs/flow-slots.ts, runs/flow-throttle.ts, runs/flow-debounce.ts).
import { z } from 'zod';
import { scanReferences } from './reference-syntax.js';

export const MIN_PRIORITY = -100;
export const MAX_PRIORITY = 100;
/** Most runs a concurrency limit allows at once (a bigger one is no limit). */
export const MAX_CONCURRENCY_LIMIT = 1000;
/** Longest a sync or streaming call waits for a slot. */
export const MAX_FLOW_WAIT_MS = 5 * 60_000;
/** A key template's length, and the longest key value kept as it is (longer ones are hashed by the caller). */
export const MAX_FLOW_KEY_LENGTH = 500;

const KeySchema = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_FLOW_KEY_LENGTH, `must be at most ${MAX_FLOW_KEY_LENGTH} characters`)
  .refine((key) => scanReferences(key).some((ref) => ref.kind === 'block'), {
    message: 'must reference the trigger input, e.g. "<api.customerId>"',
  })
  .refine((key) => !scanReferences(key).some((ref) => ref.kind === 'env'), {
    message: 'must not reference environment variables',
  });

/** Most starts a throttle allows per period (each is a row of the database per key). */
export const MAX_THROTTLE_LIMIT = 1000;
/** Shortest throttle or debounce period: shorter ones are below what the claim's polling can honour. */
export const MIN_FLOW_PERIOD_MS = 100;
/** Longest throttle period, and longest a debounced burst may wait (`periodMs`, `maxWaitMs`). */
export const MAX_FLOW_PERIOD_MS = 24 * 60 * 60_000;

const periodMs = z
  .int('must be a whole number')
  .min(MIN_FLOW_PERIOD_MS, `must be at least ${MIN_FLOW_PERIOD_MS}`)
  .max(MAX_FLOW_PERIOD_MS, `must be at most ${MAX_FLOW_PERIOD_MS}`);

export const ON_LIMIT = ['queue', 'reject', 'cancel-running'] as const;
export type OnLimit = (typeof ON_LIMIT)[number];

export const ConcurrencySchema = z.strictObject({
  limit: z.int('must be a whole number').min(1, 'must be at least 1').max(MAX_CONCURRENCY_LIMIT, `must be at most ${MAX_CONCURRENCY_LIMIT}`),
  key: KeySchema.optional(),
  onLimit: z.enum(ON_LIMIT, { error: `must be one of ${ON_LIMIT.join(', ')}` }).optional(),
  maxWaitMs: z.int('must be a whole number').min(0, 'must be at least 0').max(MAX_FLOW_WAIT_MS, `must be at most ${MAX_FLOW_WAIT_MS}`).optional(),
});

/** The longest time limit a workflow may set for its runs (only runs nobody waits on get more than the server's). */
export const MAX_RUN_TIMEOUT_MS = 7 * 24 * 60 * 60_000;
/** The shortest: below a second a run hardly starts. */
export const MIN_RUN_TIMEOUT_MS = 1000;

export const RunTimeoutSchema = z
  .int('must be a whole number of milliseconds')
  .min(MIN_RUN_TIMEOUT_MS, `must be at least ${MIN_RUN_TIMEOUT_MS} ms (1 second)`)
  .max(MAX_RUN_TIMEOUT_MS, `must be at most ${MAX_RUN_TIMEOUT_MS} ms (7 days)`);

export const SingletonSchema = z.strictObject({
  key: KeySchema.optional(),
  mode: z.enum(['skip', 'queue'], { error: 'must be "skip" or "queue"' }),
});

export const ThrottleSchema = z.strictObject({
  limit: z.int('must be a whole number').min(1, 'must be at least 1').max(MAX_THROTTLE_LIMIT, `must be at most ${MAX_THROTTLE_LIMIT}`),
  periodMs,
  key: KeySchema.optional(),
});

export const DebounceSchema = z
  .strictObject({
    periodMs,
    key: KeySchema.optional(),
    maxWaitMs: periodMs.optional(),
  })
  .refine((d) => d.maxWaitMs === undefined || d.maxWaitMs >= d.periodMs, {
    message: 'must be at least periodMs (a burst waits periodMs after its last call, at most maxWaitMs after its first)',
    path: ['maxWaitMs'],
  });

export const PrioritySchema = z
  .int('must be a whole number')
  .min(MIN_PRIORITY, `must be at least ${MIN_PRIORITY}`)
  .max(MAX_PRIORITY, `must be at most ${MAX_PRIORITY}`);

export const FlowControlSchema = z
  .strictObject({
    concurrency: ConcurrencySchema.optional(),
    singleton: SingletonSchema.optional(),
    throttle: ThrottleSchema.optional(),
    debounce: DebounceSchema.optional(),
    priority: PrioritySchema.optional(),
    /**
     * The run's time limit: async, queue- and schedule-triggered runs get it whole; sync, streaming, webhook and chat
     * calls keep the server's bound (SLUICE_EXECUTION_TIMEOUT_MS) when it is shorter, as their caller waits.
     */
    timeoutMs: RunTimeoutSchema.optional(),
  })
  .refine((flow) => !(flow.concurrency && flow.singleton), {
    message: 'set either concurrency or singleton, not both (a singleton is a concurrency limit of 1)',
  });

export type FlowControl = z.infer<typeof FlowControlSchema>;

/** What a run over the limit does: wait (queue), be refused (reject, skip), or stop the running one (cancel-running). */
export type FlowMode = OnLimit | 'skip';

/** The one limit a workflow's flow control sets, whichever way it was written. */
export interface FlowLimit {
  limit: number;
  /** The key template; undefined: one limit for the whole workflow. */
  key?: string;
  mode: FlowMode;
  /** How long a sync or streaming call waits for a slot before it is refused. */
  maxWaitMs: number;
  /** What the log and the metrics name as the reason a run waited or was refused. */
  reason: 'concurrency' | 'singleton';
}

export function flowLimitOf(flow: FlowControl | undefined): FlowLimit | undefined {
  if (flow?.concurrency) {
    const { limit, key, onLimit, maxWaitMs } = flow.concurrency;
    return { limit, key, mode: onLimit ?? 'queue', maxWaitMs: maxWaitMs ?? 0, reason: 'concurrency' };
  }
  if (flow?.singleton) {
    const { key, mode } = flow.singleton;
    return { limit: 1, key, mode, maxWaitMs: 0, reason: 'singleton' };
  }
  return undefined;
}

/** What the log and the metrics name as the reason a run waited. */
export type FlowReason = FlowLimit['reason'] | 'throttle' | 'debounce';

/**
 * The key value of a run: the template with each `<trigger.path>` reference replaced by that path of the run's
 * input (the trigger's output; the block name is not looked at). A missing value reads as the empty string, an
 * object or array as its JSON.
 */
export function flowKeyValue(template: string, input: Record<string, unknown>): string {
  let out = '';
  let at = 0;
  for (const ref of scanReferences(template)) {
    if (ref.kind !== 'block') continue;
    out += template.slice(at, ref.start);
    let value: unknown = input;
    for (const segment of ref.path) {
      value = value !== null && typeof value === 'object' ? (value as Record<string | number, unknown>)[segment] : undefined;
    }
    out += value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    at = ref.end;
  }
  return out + template.slice(at);
}

/**
 * A run's time limit. `bound` is the server's (SLUICE_EXECUTION_TIMEOUT_MS): the default, and the most a run whose
 * caller waits for its answer (`waited`) may take, whatever the workflow says.
 */
export function runTimeLimitMs(flow: FlowControl | undefined, bound: number, waited: boolean): number {
  const own = flow?.timeoutMs;
  if (own === undefined) return bound;
  return waited ? Math.min(own, bound) : own;
}
