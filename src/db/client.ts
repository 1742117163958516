// Opens the database: embedded PGlite (a data directory, or memory for tests) or a PostgreSQL server.
// Both are driven through the same Drizzle schema and the same SQL migrations, applied at open.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { AppError } from '../errors.js';
import { CHANGES_CHANNEL, createChangeHub, type ChangeFeed, type ChangeHub } from './change-feed.js';
import { ensureExecutionPartitions, partitionExecutions } from './executions-partitions.js';
import { preparedStatements, type PreparedStatementClient } from './pglite-prepared.mjs';
import { createPgliteDatabaseIfMissing, startPgliteThread } from './pglite-thread.js';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Changes to cached rows, from any process (change-feed.ts). */
  changes: ChangeFeed;
  /** Statements sent to the database since it was opened — round trips, counted for the tests and benchmarks. */
  statements(): number;
  /** PostgreSQL only: the connection pool's open, idle and waiting counts (for the metrics). */
  pool?(): { total: number; idle: number; waiting: number };
  /**
   * Takes the lowest free slot number below `max` of `namespace`, held until `release()` or this process's end: on
   * PostgreSQL a session advisory lock on a connection of its own (a killed process's slot frees with its
   * connection); on PGlite, which one process opens, always slot 0.
   */
  claimSlot(namespace: number, max: number): Promise<HeldSlot>;
  close(): Promise<void>;
}

export interface HeldSlot {
  index: number;
  /** Resolves if the slot's hold broke (the connection holding it was lost): another process may take it now. */
  lost: Promise<void>;
  release(): Promise<void>;
}

/** How long the PostgreSQL change listener waits before reconnecting. */
const LISTENER_RETRY_MS = 500;

export const MIGRATIONS_FOLDER = resolve(dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/** Arbitrary constant: serialises migrations when several processes start against one PostgreSQL. */
export const MIGRATION_LOCK_ID = 7_345_112;

export type DatabaseTarget =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  const database = target.kind === 'postgres' ? await openPostgres(target.url, target.poolSize ?? 10) : await openPglite(target);
  // Closing twice (an app and a test harness both closing on the way out) is a no-op the second time.
  let closing: Promise<void> | undefined;
  const close = database.close;
  return { ...database, close: () => (closing ??= close()) };
}

async function openPglite(target: { dataDir?: string; loadDataDir?: Blob }): Promise<Database> {
  const changes = createChangeHub();
  if (target.dataDir) {
    // On disk: PGlite runs on a worker thread, so its WASM execution and synchronous file I/O stay off the event loop.
    await createPgliteDatabaseIfMissing(target.dataDir, MIGRATIONS_FOLDER);
    const thread = await startPgliteThread(target.dataDir, { channel: CHANGES_CHANNEL, onNotification: changes.emit.bind(changes) });
    const db = drizzlePglite({ client: thread as unknown as PGlite, schema });
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    return { db: db as unknown as Db, kind: 'pglite', changes, statements: thread.statements, claimSlot: pgliteSlot, close: () => thread.close() };
  }
  // In memory (tests, template dumps): no disk I/O to keep off the loop; same-thread keeps start-up cheap. The buffer
  // cache is as small as on disk (pglite-open.mjs): PostgreSQL zero-fills all of it at every start, and the default
  // 128 MB made a quarter of the CPU each test's database takes to open.
  const client = await PGlite.create({ loadDataDir: target.loadDataDir, startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] });
  const counted = wrapPgliteClient(client);
  await client.listen(CHANGES_CHANNEL, (payload) => changes.emit(payload));
  const db = drizzlePglite({ client, schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return { db: db as unknown as Db, kind: 'pglite', changes, statements: counted, claimSlot: pgliteSlot, close: () => client.close() };
}

const pgliteSlot = async (): Promise<HeldSlot> => ({ index: 0, lost: new Promise<void>(() => {}), release: async () => {} });

/**
 * Wraps PGlite's client for Drizzle, in memory: counts what it sends (queries, and BEGIN + COMMIT/ROLLBACK per
 * transaction), and sets the parsers Drizzle gives each query on the client instead: they are the same identity parsers every time
 * (timestamps, dates, intervals and their arrays as text), and PGlite copies its whole parser table (318 types) into
 * a new object for a query given any (~57 µs a statement). pglite-worker.mjs does the same on the database thread.
 * Like the thread's client, it runs statements prepared by name (`queryPrepared`, pglite-prepared.mjs; db/rows.ts).
 */
function wrapPgliteClient(client: PGlite): () => number {
  let count = 0;
  const runPrepared = preparedStatements(client);
  (client as PGlite & PreparedStatementClient).queryPrepared = (name, sql, params) => {
    count++;
    return runPrepared(name, sql, params);
  };
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);
  const withParsersSet = (options: QueryOptions | undefined): QueryOptions | undefined => {
    if (!options?.parsers) return options;
    const { parsers, ...rest } = options;
    Object.assign(client.parsers, parsers);
    return rest;
  };
  client.query = ((sql: string, params?: unknown[], options?: Parameters<PGlite['query']>[2]) => {
    count++;
    return query(sql, params, withParsersSet(options));
  }) as PGlite['query'];
  client.transaction = ((work: Parameters<PGlite['transaction']>[0]) => {
    count += 2;
    return transaction((tx) => {
      const txQuery = tx.query.bind(tx);
      tx.query = ((sql: string, params?: unknown[], options?: Parameters<typeof tx.query>[2]) => {
        count++;
        return txQuery(sql, params, withParsersSet(options));
      }) as typeof tx.query;
      return work(tx);
    });
  }) as PGlite['transaction'];
  return () => count;
}

/**
 * Every statement of ours is short, but the planner's cost estimates of the fair claim (jobs/claim.ts) over a queue of
 * thousands pass JIT's thresholds: compiling it took 0.7 s of a claim that runs in milliseconds (bench/REPORT.md).
 * Set per connection (a SET, not a startup option, which a pooler such as PgBouncer may refuse).
 */
const NO_JIT = 'SET jit = off';

async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const changes = createChangeHub();
  let statements = 0;
  // A new connection is set up before the pool hands it out (pg-pool's onConnect is awaited): its first query no
  // longer queues behind the LISTEN on a busy client, which node-postgres deprecates (a warning at every start).
  const setUp = async (client: pg.ClientBase) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      statements++;
      return query(...args);
    };
    // Listening before any query of ours on this connection: it hears its own commits before they resolve.
    client.on('notification', (message) => {
      if (message.channel === CHANGES_CHANNEL && message.payload) changes.emit(message.payload);
    });
    await (query(`LISTEN ${CHANGES_CHANNEL}; ${NO_JIT}`) as Promise<unknown>).catch(() => undefined);
  };
  const pool = new pg.Pool({ connectionString: url, max: poolSize, onConnect: setUp });
  // An idle client that loses its connection emits 'error'; without a listener that would crash the process.
  pool.on('error', () => undefined);
  const lockClient = await pool.connect();
  try {
    await lockClient.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const locked = drizzlePg({ client: lockClient, schema });
    await migratePg(locked, { migrationsFolder: MIGRATIONS_FOLDER });
    // PostgreSQL only (PGlite keeps a plain table): logs partitioned by month, converted once, months ahead made
    // (unless a backup holds the table: then housekeeping makes them later, see ensureExecutionPartitions).
    await partitionExecutions(locked);
    await ensureExecutionPartitions(locked);
  } finally {
    await lockClient.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    lockClient.release();
  }
  const listener = listenForChanges(url, changes);
  const db = drizzlePg({ client: pool, schema });
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    changes,
    statements: () => statements,
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    claimSlot: (namespace, max) => claimPostgresSlot(url, namespace, max),
    close: async () => {
      await listener.stop();
      await pool.end();
    },
  };
}

async function claimPostgresSlot(url: string, namespace: number, max: number): Promise<HeldSlot> {
  const client = new pg.Client({ connectionString: url });
  let markLost: () => void = () => {};
  const lost = new Promise<void>((resolve) => (markLost = resolve));
  client.on('error', () => markLost());
  client.on('end', () => markLost());
  await client.connect();
  try {
    for (let index = 0; index < max; index++) {
      const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS held', [namespace, index]);
      if (rows[0]?.held) return { index, lost, release: () => client.end().catch(() => undefined) };
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  await client.end().catch(() => undefined);
  throw new Error(`All ${max} slots are taken`);
}

/**
 * The connection that hears other processes' changes while this process's pool sits idle. The feed is live only
 * while it listens; each reconnect drops every cache (changes may have gone unheard in between).
 */
function listenForChanges(url: string, changes: ChangeHub): { stop(): Promise<void> } {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  changes.setLive(false);
  const lost = (broken: pg.Client) => {
    if (client !== broken) return;
    client = undefined;
    changes.setLive(false);
    broken.end().catch(() => undefined);
    if (!stopped) retry = setTimeout(connect, LISTENER_RETRY_MS);
  };
  const connect = () => {
    retry = undefined;
    const next = new pg.Client({ connectionString: url });
    client = next;
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    next.on('notification', (message) => {
      if (message.channel === CHANGES_CHANNEL && message.payload) changes.emit(message.payload);
    });
    next
      .connect()
      .then(() => next.query(`LISTEN ${CHANGES_CHANNEL}`))
      .then(() => {
        if (client === next && !stopped) changes.setLive(true);
      })
      .catch(() => lost(next));
  };
  connect();
  return {
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

export function pgliteDataDir(dataDir: string): string {
  return join(dataDir, 'pglite');
}

/** A read replica that cannot be reached is a 503 of its own, not a 500: the primary and the rest of the API are fine. */
export const READ_REPLICA_UNAVAILABLE = 'READ_REPLICA_UNAVAILABLE';

export interface ReadReplicaOptions {
  poolSize?: number;
  /** Opening a connection (TCP and PostgreSQL's startup) gives up after this long. */
  connectTimeoutMs?: number;
  /**
   * A read is cancelled by the replica after this long (statement_timeout); the client gives up on the connection
   * READ_CLIENT_GRACE_MS later, for a replica that stopped answering altogether (a partition keeps the socket open).
   */
  statementTimeoutMs?: number;
}

/** Long enough for a page of logs on a busy replica; a reader waiting longer than that is better told to retry. */
export const READ_STATEMENT_TIMEOUT_MS = 15_000;
export const READ_CONNECT_TIMEOUT_MS = 5_000;
/** The replica's own cancel normally comes first (keeping the connection); this catches one that never answers. */
const READ_CLIENT_GRACE_MS = 2_000;

/**
 * A read-only pool on a replica (DATABASE_READ_URL) for the logs API's reads: no migrations (the primary's are
 * replicated), no change listener (a replica cannot LISTEN to the primary's notifications). Without its time-outs a
 * replica that accepts connections and never answers would hold each logs request forever; a failure to reach it
 * becomes AppError 503 READ_REPLICA_UNAVAILABLE (http/errors.ts unwraps it from the query builder's error).
 */
export function openReadReplica(url: string, options: ReadReplicaOptions = {}): { db: Db; close(): Promise<void> } {
  const statementTimeoutMs = options.statementTimeoutMs ?? READ_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 5,
    connectionTimeoutMillis: options.connectTimeoutMs ?? READ_CONNECT_TIMEOUT_MS,
    query_timeout: statementTimeoutMs + READ_CLIENT_GRACE_MS,
    // A SET rather than a startup option, as NO_JIT (a pooler may refuse startup options); awaited before the pool
    // hands the connection out, as openPostgres's. A replica that cannot serve fails the connection (the pool ends it
    // and the read answers 503, as it did when its query queued behind the SET); another refusal is let pass.
    onConnect: async (client: pg.ClientBase) => {
      await client.query(`${NO_JIT}; SET statement_timeout = ${Math.floor(statementTimeoutMs)}`).catch((error: unknown) => {
        if (replicaUnavailable(error)) throw error;
      });
    },
  });
  pool.on('error', () => undefined);
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  (pool as unknown as { query: typeof query }).query = (...args) =>
    query(...args).catch((error: unknown) => {
      throw replicaUnavailable(error) ?? error;
    });
  return { db: drizzlePg({ client: pool, schema }) as unknown as Db, close: () => pool.end() };
}

/**
 * The failures that say "the replica cannot serve now", as the client should hear them; null for any other error
 * (a bad query, a missing grant), which stays a 500. SQLSTATE classes 08 (connection), 53 (resources: too many
 * connections), 57 (operator intervention: shut down, starting up, statement_timeout) and 40001 (on a standby, a
 * read cancelled by a conflict with recovery); without a SQLSTATE, the socket's and node-postgres's own failures.
 */
function replicaUnavailable(error: unknown): AppError | null {
  if (!(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  const timedOut = code === '57014' || /timeout/i.test(error.message);
  const unavailable =
    error instanceof pg.DatabaseError
      ? typeof code === 'string' && (/^(08|53|57)/.test(code) || code === '40001')
      : (typeof code === 'string' && /^E[A-Z]+$/.test(code)) || /timeout|terminated|connect/i.test(error.message);
  if (!unavailable) return null;
  const message = timedOut
    ? 'The read replica (DATABASE_READ_URL) did not answer in time; try again later'
    : 'The read replica (DATABASE_READ_URL) is unavailable; try again later';
  // The log keeps what the driver said as the cause (http/errors.ts logs every 5xx).
  return Object.assign(new AppError(READ_REPLICA_UNAVAILABLE, 503, message), { cause: error });
}

/** Cheapest query there is: does the database answer (GET /ready, services/readiness.ts). */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
