// Changes to the rows server processes cache, as topics `<table>:<key>` (drizzle/0005_change_notifications.sql: a
// trigger on each cached table sends `NOTIFY sluice_changes` when the changing transaction commits).
//
// Delivery, per database:
// - PostgreSQL: every pooled connection LISTENs, so a process sees its own commits before the committing query
//   resolves (PostgreSQL sends the notification ahead of the COMMIT's reply): a deploy is live for the very next
//   request of this process. A dedicated connection, never used for queries, hears every other process's commits
//   while the pool is idle; while it is down the feed is not live and caches must not serve (nothing is missed
//   silently), and when it is back every cache is dropped ('*').
// - PGlite (one process, one session): the notification is handled before the query that caused it resolves.
export const CHANGES_CHANNEL = 'sluice_changes';
/** Topic sent when changes may have been missed: drop everything. */
export const ALL_TOPICS = '*';

export type ChangeHandler = (topic: string) => void;

export interface ChangeFeed {
  subscribe(handler: ChangeHandler): () => void;
  /** False while a change could go unheard; a cache must then read through instead of serving. */
  isLive(): boolean;
}

export interface ChangeHub extends ChangeFeed {
  emit(topic: string): void;
  setLive(live: boolean): void;
}

export function createChangeHub(): ChangeHub {
  const handlers = new Set<ChangeHandler>();
  let live = true;
  return {
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    isLive: () => live,
    setLive(value) {
      if (value === live) return;
      live = value;
      // Whatever was cached before the gap may be stale; whatever is cached during it is never served.
      this.emit(ALL_TOPICS);
    },
    emit(topic) {
      for (const handler of handlers) {
        try {
          handler(topic);
        } catch {
          // One broken subscriber must not keep the others stale.
        }
      }
    },
  };
}
