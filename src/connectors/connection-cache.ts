// Connections to outside systems (database pools, Redis, brokers, SMTP transports), one per credential version and
// process, opened on first use and closed when idle or when the process stops. A rotated credential has a new
// version, so its old connection is closed instead of reused. Each connector caps its own pool, so one workspace's
// credential cannot take every connection of a server shared with others.

export interface ConnectionOpener<T> {
  /** Which kind of connection (one cache holds every connector's). */
  kind: string;
  open(): Promise<T>;
  close(connection: T): Promise<void>;
}

interface Entry {
  key: string;
  kindKey: string;
  connection: Promise<unknown>;
  close(connection: unknown): Promise<void>;
  users: number;
  lastUsed: number;
}

export interface ConnectionCache {
  /**
   * Runs `use` with the connection for this credential version, opening it when there is none. A connection whose
   * use throws is kept (a statement error is not a broken pool); one that failed to open is forgotten.
   */
  use<T, R>(credential: { id: string; version: string }, opener: ConnectionOpener<T>, use: (connection: T) => Promise<R>): Promise<R>;
  /** Closes a connection now (a consumer found it broken); the next use opens a new one. */
  discard(credential: { id: string; version: string }, kind: string): Promise<void>;
  closeAll(): Promise<void>;
  size(): number;
}

export function createConnectionCache(options: { idleMs?: number; now?: () => number } = {}): ConnectionCache {
  const idleMs = options.idleMs ?? 60_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  // Typed without Node's namespace: the web app's typecheck reaches this module through the block types.
  let sweeper: ReturnType<typeof setInterval> | undefined;

  const closeEntry = async (entry: Entry) => {
    entries.delete(entry.key);
    try {
      await entry.close(await entry.connection);
    } catch {
      // Closing a connection that failed or is already gone has nothing left to release.
    }
  };

  const sweep = () => {
    const cutoff = now() - idleMs;
    for (const entry of entries.values()) if (entry.users === 0 && entry.lastUsed <= cutoff) void closeEntry(entry);
    if (entries.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };

  return {
    async use<T, R>(credential: { id: string; version: string }, opener: ConnectionOpener<T>, use: (connection: T) => Promise<R>): Promise<R> {
      const kindKey = `${opener.kind}:${credential.id}`;
      const key = `${kindKey}:${credential.version}`;
      // An older version of this credential's connection is no longer wanted once nobody uses it.
      for (const stale of entries.values()) if (stale.kindKey === kindKey && stale.key !== key && stale.users === 0) void closeEntry(stale);
      let entry = entries.get(key);
      if (!entry) {
        const connection = opener.open();
        entry = { key, kindKey, connection, close: opener.close as (c: unknown) => Promise<void>, users: 0, lastUsed: now() };
        entries.set(key, entry);
        connection.catch(() => entries.get(key) === entry && entries.delete(key));
        if (sweeper === undefined) {
          sweeper = setInterval(sweep, Math.max(1_000, Math.min(idleMs, 30_000)));
          (sweeper as { unref?: () => void }).unref?.();
        }
      }
      entry.users++;
      try {
        return await use((await entry.connection) as T);
      } finally {
        entry.users--;
        entry.lastUsed = now();
      }
    },
    async discard(credential, kind) {
      const entry = entries.get(`${kind}:${credential.id}:${credential.version}`);
      if (entry) await closeEntry(entry);
    },
    async closeAll() {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      await Promise.all([...entries.values()].map(closeEntry));
    },
    size: () => entries.size,
  };
}
