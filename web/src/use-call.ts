// The signed-out pages (sign-in, first-run setup) load before TanStack Query, which only the signed-in app's chunk
// carries: these two hooks are the little of it those pages need.
import { useEffect, useState } from 'react';

/** One read for each `key` (asked again when the key changes): pending, then its data or its error. */
export function useRead<T>(key: string, read: () => Promise<T>): { pending: boolean; data?: T; error?: unknown } {
  const [result, setResult] = useState<{ key: string; data?: T; error?: unknown } | null>(null);
  useEffect(() => {
    let current = true;
    read().then(
      (data) => current && setResult({ key, data }),
      (error: unknown) => current && setResult({ key, error: error ?? new Error('Request failed') }),
    );
    return () => {
      current = false;
    };
    // `read` is a new closure each render; the key says what it reads, so the key alone is the dependency.
  }, [key]);
  const settled = result?.key === key ? result : null;
  return { pending: !settled, data: settled?.data, error: settled?.error };
}

/** A form's submit: whether it is running, and the error of the last run (cleared when it runs again). */
export function useSubmit<T>(submit: () => Promise<T>, onSuccess: (value: T) => void) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = () => {
    setPending(true);
    setError(null);
    submit()
      .then(onSuccess, (failure: unknown) => setError(failure ?? new Error('Request failed')))
      .finally(() => setPending(false));
  };
  return { run, pending, error };
}
