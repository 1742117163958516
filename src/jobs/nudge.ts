// In-process wake-up: every enqueue in this process nudges this process's workers at once. On PGlite (one process,
// one database session) that is all the wake-up needed: a nudge can arrive before the enqueuing transaction
// commits, but the worker's claim then queues behind that transaction in the single session and sees the job.
// On PostgreSQL an early claim may miss the uncommitted row; the NOTIFY sent at commit (wakeups.ts) covers it.
type Listener = () => void;

const listeners = new Set<Listener>();

export function onLocalEnqueue(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function nudgeLocalWorkers(): void {
  for (const listener of listeners) listener();
}
