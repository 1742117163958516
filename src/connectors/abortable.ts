// Waiting on a connector's promise without outliving the run: a cancelled run stops waiting at once, and whatever the
// promise brings later (a pooled client, a connection) is handed to `onLate` so it is released rather than leaked.

/** The abort's reason as an Error (a cancelled run's signal carries the engine's reason). */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(typeof reason === 'string' ? reason : 'Cancelled');
}

export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, onLate?: (value: T) => void): Promise<T> {
  if (signal.aborted) {
    work.then((value) => onLate?.(value), () => {});
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const onAbort = () => {
      settled = true;
      reject(abortReason(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (settled) onLate?.(value);
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (!settled) reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
