// The main-thread side of the PGlite worker (pglite-worker.mjs): just enough of PGlite's client surface for
// Drizzle's pglite driver — `query` and `transaction`. PGlite is a single session, so a transaction holds a lock
// that every other query waits on, exactly as PGlite itself serialises its callers. A data directory without a
// database gets one first, from a child process (pglite-create.mjs). Relaxed commits are put on disk within about a
// second by a flusher taking its turn like any query (pglite-wal-flusher.ts).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FLUSH_PENDING_WAL, startWalFlusher } from './pglite-wal-flusher.js';

interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
}

interface QueryResult {
  rows: unknown[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
}

type Pending = { resolve: (r: QueryResult) => void; reject: (e: Error) => void };

export interface ThreadClient {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult>;
  transaction<T>(work: (tx: Pick<ThreadClient, 'query'>) => Promise<T>): Promise<T>;
  /** Runs `sql` as the session's prepared statement `name` (pglite-prepared.mjs), preparing it when needed. */
  queryPrepared(name: string, sql: string, params: unknown[]): Promise<QueryResult>;
  /** Statements sent so far (BEGIN and COMMIT included). */
  statements(): number;
  close(): Promise<void>;
}

/** A NOTIFY channel to listen on inside the thread; its notifications arrive before the result of the query that caused them. */
export interface ThreadListener {
  channel: string;
  onNotification(payload: string): void;
}

function rebuildError(data: Record<string, unknown>): Error {
  const err = new Error(String(data.message));
  Object.assign(err, data);
  return err;
}

/** Runs pglite-create.mjs in a child process; rejects with its one-line reason. */
function createInChildProcess(dir: string, migrationsFolder: string): Promise<void> {
  const script = fileURLToPath(new URL('./pglite-create.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, dir, migrationsFolder], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`could not create the embedded database: ${stderr.trim() || `exit ${code ?? signal}`}`));
    });
  });
}

/**
 * Gives dataDir a migrated database if it has none yet. It is created beside it and renamed into place once complete,
 * in a short-lived child process whose ~800 MB peak (initdb) never lands in this long-running one.
 */
export async function createPgliteDatabaseIfMissing(dataDir: string, migrationsFolder: string): Promise<void> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(`${dataDir} holds files but no database (no PG_VERSION); move it away to start with a new database`);
  }
  mkdirSync(dirname(dataDir), { recursive: true });
  const scratch = `${dataDir}.creating`; // an interrupted attempt leaves only this, never a half-made dataDir
  rmSync(scratch, { recursive: true, force: true });
  await createInChildProcess(scratch, migrationsFolder);
  if (existsSync(dataDir)) rmdirSync(dataDir);
  renameSync(scratch, dataDir);
  // The rename itself is on disk once its directory is synced.
  const parent = openSync(dirname(dataDir), 'r');
  try {
    fsyncSync(parent);
  } finally {
    closeSync(parent);
  }
}

export async function startPgliteThread(dataDir: string, listener?: ThreadListener): Promise<ThreadClient> {
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dataDir, channel: listener?.channel },
    // This thread only relays query results: a small young generation (V8's default grows to ~50 MB under load) is
    // collected often and cheaply, and keeps ~20 MB off the server's RSS.
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let dead: Error | undefined;

  await new Promise<void>((resolve, reject) => {
    const onMessage = (m: { type?: string }) => {
      if (m.type === 'ready') {
        worker.off('error', reject);
        resolve();
      }
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });

  worker.on('message', (m: { type?: string; payload?: string; id?: number; result?: QueryResult; error?: Record<string, unknown> }) => {
    if (m.type === 'notification') listener?.onNotification(m.payload ?? '');
    if (m.id === undefined) return;
    const waiter = pending.get(m.id);
    if (!waiter) return;
    pending.delete(m.id);
    if (m.error) waiter.reject(rebuildError(m.error));
    else waiter.resolve(m.result as QueryResult);
  });
  const fail = (err: Error) => {
    dead = err;
    for (const waiter of pending.values()) waiter.reject(err);
    pending.clear();
  };
  worker.on('error', (err) => fail(err));
  worker.on('exit', (code) => fail(new Error(`The embedded database thread exited (code ${code})`)));

  let statements = 0;
  const send = (message: Record<string, unknown>): Promise<QueryResult> => {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  };
  // One session: queries outside a transaction queue behind the transaction holding it.
  let lock: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = lock.then(work, work);
    lock = run.catch(() => undefined);
    return run;
  };
  // Not counted in `statements`: it is not a round trip any caller made.
  const walFlusher = startWalFlusher(() => exclusive(() => send({ type: 'query', sql: FLUSH_PENDING_WAL, params: [] })));

  // A statement a caller made: counted, and the WAL flusher told.
  const sendCounted = (message: Record<string, unknown>) => {
    statements++;
    walFlusher.noteStatement();
    return send(message);
  };
  const rawQuery = (sql: string, params: unknown[] = [], options?: QueryOptions) =>
    sendCounted({
      type: 'query',
      sql,
      params,
      options: options && { rowMode: options.rowMode, parserTypes: Object.keys(options.parsers ?? {}).map(Number) },
    });

  return {
    query: (sql, params, options) => exclusive(() => rawQuery(sql, params, options)),
    queryPrepared: (name, sql, params) => exclusive(() => sendCounted({ type: 'prepared', name, sql, params })),
    transaction: (work) =>
      exclusive(async () => {
        await rawQuery('BEGIN');
        try {
          const result = await work({ query: rawQuery });
          await rawQuery('COMMIT');
          return result;
        } catch (err) {
          await rawQuery('ROLLBACK').catch(() => undefined);
          throw err;
        }
      }),
    statements: () => statements,
    close: async () => {
      await walFlusher.stop(); // Postgres's shutdown flushes whatever is left
      if (!dead) await exclusive(() => send({ type: 'close' }));
      await worker.terminate();
    },
  };
}
