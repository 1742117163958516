// Flow control for a run no caller waits on — a schedule tick, a queue trigger's message (docs/workflows.md "Flow
// control"): it takes its slot (flow-slots.ts), then a start of its throttle (flow-throttle.ts). A message holds on to
// what started it meanwhile (unacknowledged with its broker: takeStartInBackground); a tick's job waits in the queue
// like an async run's, holding no worker slot (takeStartOrQueue). Like a queued async run,
// one that got a slot but no start gives the slot back while it waits for the start, so a throttled run never keeps
// a run of its key that could go from going.
import type { AppContext } from '../services/app-context.js';
import { freeSlotQuietly, takeSlotInBackground, type FlowWait, type RunFlow } from './flow-slots.js';
import { takeStart, type RunThrottle } from './flow-throttle.js';

export type BackgroundStart =
  /** The run may start: it holds its slot when it has a flow (`flow`), and its throttle start was taken at `startedAt`. */
  | { taken: FlowWait; startedAt?: Date }
  | { refused: 'ALREADY_RUNNING' | 'CONCURRENCY_LIMIT' | 'THROTTLED' }
  | { stopped: true };

/** Sleeps until `at` (epoch ms) or until `signal` aborts; true when it slept the whole way. */
function sleepUntil(at: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, Math.max(0, at - Date.now()));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Takes the run's slot and its throttle start, waiting for each as long as it takes, until `signal` stops the wait.
 * Over the rate, `refuseThrottled` skips the run instead (a schedule tick under `reject` or a singleton's `skip`,
 * the rule its concurrency follows); a slot is refused as takeSlotInBackground says.
 */
export async function takeStartInBackground(
  app: AppContext,
  control: { flow?: RunFlow; throttle?: RunThrottle; refuseThrottled: boolean },
  executionId: string,
  owner: { id: string },
  signal: AbortSignal | undefined,
): Promise<BackgroundStart> {
  const { flow, throttle } = control;
  const began = Date.now();
  let throttled = false;
  for (;;) {
    let slotWait: FlowWait = { queuedMs: 0 };
    if (flow) {
      const slot = await takeSlotInBackground(app, flow, executionId, owner, signal);
      if (!('taken' in slot)) return slot;
      slotWait = slot.taken;
    }
    if (!throttle) return { taken: slotWait };
    const start = await takeStart(app.db, throttle, executionId);
    if (start.taken) {
      const reason = throttled ? 'throttle' : slotWait.reason;
      const queuedMs = throttled ? Date.now() - began : slotWait.queuedMs;
      return { taken: { queuedMs, ...(reason ? { reason } : {}) }, startedAt: new Date(start.at) };
    }
    if (flow) await freeSlotQuietly(app, executionId);
    if (control.refuseThrottled) {
      app.metrics.flowRefused(throttle.workflowId, 'THROTTLED');
      return { refused: 'THROTTLED' };
    }
    if (!throttled) app.metrics.flowWaited(throttle.workflowId, 'throttle');
    throttled = true;
    if (!(await sleepUntil(start.freeAt, signal))) return { stopped: true };
  }
}

export type QueuedStart =
  /** The run may start: it holds its slot when it has a flow, and its throttle start was taken at `startedAt`. */
  | { taken: true; startedAt?: Date }
  | { refused: 'ALREADY_RUNNING' | 'CONCURRENCY_LIMIT' | 'THROTTLED' }
  /** Its key has no free slot: its job goes back to the queue carrying the key, passed over until a slot frees. */
  | { waitSlot: RunFlow }
  /** Over the throttle's rate: its job is due again when the next start frees (epoch ms). */
  | { waitStart: number };

/** An aborted signal: takeSlotInBackground takes, refuses or cancels as the mode says, and then waits no further. */
const LOOK_ONCE = AbortSignal.abort();

/**
 * Like takeStartInBackground, for a run whose job waits in the queue rather than claimed (a schedule tick): one look
 * at the slot and the throttle start, and when either is missing, what the job waits for — so a waiting run holds no
 * worker slot, as a queued async run does not. A slot taken without a start is given back.
 */
export async function takeStartOrQueue(
  app: AppContext,
  control: { flow?: RunFlow; throttle?: RunThrottle; refuseThrottled: boolean },
  executionId: string,
  owner: { id: string },
): Promise<QueuedStart> {
  const { flow, throttle } = control;
  if (flow) {
    const slot = await takeSlotInBackground(app, flow, executionId, owner, LOOK_ONCE);
    if ('refused' in slot) return slot;
    if ('stopped' in slot) return { waitSlot: flow };
  }
  if (!throttle) return { taken: true };
  const start = await takeStart(app.db, throttle, executionId);
  if (start.taken) return { taken: true, startedAt: new Date(start.at) };
  if (flow) await freeSlotQuietly(app, executionId);
  if (control.refuseThrottled) {
    app.metrics.flowRefused(throttle.workflowId, 'THROTTLED');
    return { refused: 'THROTTLED' };
  }
  return { waitStart: start.freeAt };
}
