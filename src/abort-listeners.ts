// Waiting for an AbortSignal without a listener of one's own. Adding and removing a listener on Node's EventTarget
// costs an object and a walk of the signal's list each time, and a run's signal is waited on by each attempt of each
// block, by each outbound request and by the run itself: they share one listener per signal and join or leave a Set.
const waiters = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `onAbort` once `signal` aborts; returns the function that stops waiting. A signal aborted already never
 * calls it: check `signal.aborted` first. A callback that throws does not keep the others from being called.
 */
export function whenAborted(signal: AbortSignal, onAbort: () => void): () => void {
  let waiting = waiters.get(signal);
  if (!waiting) {
    const created = new Set<() => void>();
    waiting = created;
    waiters.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        for (const callback of created) {
          try {
            callback();
          } catch (error) {
            // As EventTarget does with a listener's error: reported, after the others ran.
            queueMicrotask(() => {
              throw error;
            });
          }
        }
        created.clear();
      },
      { once: true },
    );
  }
  const set = waiting;
  set.add(onAbort);
  return () => {
    set.delete(onAbort);
  };
}

export interface LinkedController {
  controller: AbortController;
  /** Detach from the parent so long runs with many iterations do not pile up listeners. */
  release(): void;
}

/** A controller aborted with its parent, until released. */
export function linkedController(parent: AbortSignal): LinkedController {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, release: () => {} };
  }
  return { controller, release: whenAborted(parent, () => controller.abort(parent.reason)) };
}
