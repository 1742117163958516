// Cancellation plumbing. Child controllers (linkedController, src/abort-listeners.ts) let a failing branch stop its
// siblings without touching the rest of the run; racing handlers against the signal guarantees a run ends on time
// even if a block ignores its signal.
import { whenAborted } from '../abort-listeners.js';

export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // The handler may still settle later; swallow it so it never surfaces as an unhandled rejection.
    work.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const stopWaiting = whenAborted(signal, () => reject(signal.reason));
    work.then(
      (value) => {
        stopWaiting();
        resolve(value);
      },
      (error: unknown) => {
        stopWaiting();
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
