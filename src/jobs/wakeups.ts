// Wakes a worker as soon as jobs are enqueued: by this process (nudge.ts) or, on PostgreSQL, by any process (LISTEN
// on the NOTIFY channel of enqueue.ts), so delivery latency does not depend on the poll interval. Polling stays the
// safety net: a lost notification or a dropped listener connection delays jobs by at most one poll interval.
import type pg from 'pg';
import type { Database } from '../db/client.js';
import type { Logger } from '../logger.js';
import { JOBS_CHANNEL } from './enqueue.js';
import { onLocalEnqueue } from './nudge.js';

const RECONNECT_DELAY_MS = 1000;

export type StopListening = () => Promise<void>;

export async function listenForJobs(database: Database, onWake: () => void, logger: Logger): Promise<StopListening> {
  const stopNudges = onLocalEnqueue(onWake);
  // PGlite is single-process: the in-process nudge is every wake-up there is.
  if (database.kind === 'pglite') return async () => void stopNudges();
  const client = (database.db as unknown as { $client: pg.Pool }).$client;
  const stopListening = await listenOnPool(client, onWake, logger);
  return async () => {
    stopNudges();
    await stopListening();
  };
}

/** Holds one pooled connection for LISTEN and replaces it when it breaks. */
async function listenOnPool(pool: pg.Pool, onWake: () => void, logger: Logger): Promise<StopListening> {
  let stopped = false;
  let current: pg.PoolClient | undefined;
  let retry: NodeJS.Timeout | undefined;

  // pg throws if a client is released twice; the error event and a failing query can both want to release it.
  const drop = (client: pg.PoolClient, err?: Error) => {
    if (current === client) current = undefined;
    if (released.has(client)) return;
    released.add(client);
    client.release(err ?? true);
  };
  const released = new WeakSet<pg.PoolClient>();

  const connect = async (): Promise<void> => {
    if (stopped) return;
    let client: pg.PoolClient | undefined;
    try {
      client = await pool.connect();
      if (stopped) {
        client.release();
        return;
      }
      const mine = client;
      mine.on('notification', onWake);
      mine.once('error', (err) => {
        logger.warn({ err }, 'job wake-up listener lost its connection; reconnecting');
        drop(mine, err);
        schedule();
      });
      await mine.query(`LISTEN ${JOBS_CHANNEL}`);
      current = mine;
      // Jobs enqueued while nobody was listening are found by this immediate look.
      onWake();
    } catch (err) {
      logger.warn({ err }, 'job wake-up listener could not connect; polling only until it does');
      if (client) drop(client, err instanceof Error ? err : undefined);
      schedule();
    }
  };
  const schedule = () => {
    if (!stopped && !retry) {
      retry = setTimeout(() => {
        retry = undefined;
        void connect();
      }, RECONNECT_DELAY_MS);
    }
  };

  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const client = current;
    current = undefined;
    if (!client) return;
    client.removeListener('notification', onWake);
    await client.query(`UNLISTEN ${JOBS_CHANNEL}`).catch(() => undefined);
    // Released as broken rather than returned: the pool is usually closed right after, and a LISTEN-ing
    // connection is not one to hand to a query.
    drop(client);
  };
}
