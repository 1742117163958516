// Cancellation plumbing. Child controllers let a failing branch stop its siblings without touching the rest of
// the run; racing handlers against the signal guarantees a run ends on time even if a block ignores its signal.

export interface LinkedController {
  controller: AbortController;
  /** Detach from the parent so long runs with many iterations do not pile up listeners. */
  release(): void;
}

export function linkedController(parent: AbortSignal): LinkedController {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, release: () => {} };
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return { controller, release: () => parent.removeEventListener('abort', onAbort) };
}

export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The handler may still settle later; swallow it so it never surfaces as an unhandled rejection.
    work.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** Why a signal was aborted, as text; the engine always aborts with an Error carrying the user-facing message. */
export function abortMessage(signal: AbortSignal): string {
  return errorMessage(signal.reason ?? 'Execution cancelled');
}
