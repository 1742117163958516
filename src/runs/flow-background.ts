// Flow control for a run no caller waits on — a schedule tick, a queue trigger's message (docs/workflows.md "Flow
// control"): it takes its slot (flow-slots.ts), then a start of its throttle (flow-throttle.ts), holding on to what
// started it meanwhile (the tick stays claimed, the message unacknowledged with its broker). Like a queued async run,
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
