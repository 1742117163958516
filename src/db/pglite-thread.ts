// The main-thread side of the PGlite worker (pglite-worker.mjs): just enough of PGlite's client surface for
// Drizzle's pglite driver — `query` and `transaction`. PGlite is a single session, so a transaction holds a lock
// that every other query waits on, exactly as PGlite itself serialises its callers.
import { Worker } from 'node:worker_threads';

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
  close(): Promise<void>;
}

function rebuildError(data: Record<string, unknown>): Error {
  const err = new Error(String(data.message));
  Object.assign(err, data);
  return err;
}

export async function startPgliteThread(dataDir: string): Promise<ThreadClient> {
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir } });
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

  worker.on('message', (m: { id?: number; result?: QueryResult; error?: Record<string, unknown> }) => {
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

  const send = (message: Record<string, unknown>): Promise<QueryResult> => {
    if (dead) return Promise.reject(dead);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  };
  const rawQuery = (sql: string, params: unknown[] = [], options?: QueryOptions) =>
    send({
      type: 'query',
      sql,
      params,
      options: options && { rowMode: options.rowMode, parserTypes: Object.keys(options.parsers ?? {}).map(Number) },
    });

  // One session: queries outside a transaction queue behind the transaction holding it.
  let lock: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = lock.then(work, work);
    lock = run.catch(() => undefined);
    return run;
  };

  return {
    query: (sql, params, options) => exclusive(() => rawQuery(sql, params, options)),
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
    close: async () => {
      if (!dead) await exclusive(() => send({ type: 'close' }));
      await worker.terminate();
    },
  };
}
