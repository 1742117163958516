// PostgreSQL and MySQL/MariaDB for the database block: one statement per use, its parameters sent apart from its text
// (PostgreSQL's extended protocol, MySQL's prepared statements), so nothing a run resolves is ever spliced into SQL.
// Each credential version gets one pool per process (at most SQL_POOL_MAX connections, closed when idle), rows past
// the cap are counted but not kept, and a statement that runs past its time-out is cancelled on the server.
import type mysql from 'mysql2';
import pg from 'pg';
import { onFirstUse } from '../lazy-import.js';
import { abortReason, untilAborted } from './abortable.js';
import type { ConnectionOpener } from './connection-cache.js';
import { tlsServername, type ConnectorRun } from './connector-run.js';
import type { CredentialData, ResolvedCredential } from './credential-data.js';
import { checkedConnectorAddress, type HostPolicy } from './host-policy.js';

const mysql2 = onFirstUse(() => import('mysql2'));

/** Most connections one credential holds open in one process, so a workspace cannot take a shared server's all. */
export const SQL_POOL_MAX = 5;
const CONNECT_TIMEOUT_MS = 10_000;
/** A pooled connection unused this long is closed (the pool itself goes when the connection cache finds it idle). */
const IDLE_CONNECTION_MS = 30_000;

export type SqlCredential = ResolvedCredential<'postgres' | 'mysql'>;
type SqlData = CredentialData<'postgres'>;

export interface SqlStatement {
  query: string;
  /** `$1`… (PostgreSQL) or `?` (MySQL) in the query, in order. */
  params: readonly unknown[];
  /** Rows kept; more are counted (`rowCount`) and reported as `truncated`. */
  maxRows: number;
  timeoutMs: number;
}

export interface SqlResult {
  rows: Record<string, unknown>[];
  /** Rows the statement returned or changed (all of them, also past the cap). */
  rowCount: number;
  truncated: boolean;
}

export class StatementTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`The statement ran longer than its time-out of ${timeoutMs} ms and was cancelled`);
  }
}

export function runSqlStatement(credential: SqlCredential, run: ConnectorRun, statement: SqlStatement): Promise<SqlResult> {
  return credential.type === 'postgres' ? runPostgres(credential, run, statement) : runMysql(credential, run, statement);
}

/** Opens a connection of its own (not a pooled one) and answers the server's version. */
export async function testSqlCredential(credential: SqlCredential, ctx: { policy: HostPolicy; signal: AbortSignal }): Promise<string> {
  if (credential.type === 'postgres') {
    const client = new pg.Client(await postgresOptions(credential.data, ctx.policy));
    client.on('error', () => {});
    const closeClient = () => void client.end().catch(() => {});
    ctx.signal.addEventListener('abort', closeClient, { once: true });
    try {
      await client.connect();
      const result = await client.query<{ version: string }>('select version() as version');
      return result.rows[0]?.version ?? 'Connected';
    } finally {
      ctx.signal.removeEventListener('abort', closeClient);
      closeClient();
    }
  }
  const connection = (await mysql2()).createConnection(await mysqlOptions(credential.data, ctx.policy));
  connection.on('error', () => {});
  const closeConnection = () => connection.destroy();
  ctx.signal.addEventListener('abort', closeConnection, { once: true });
  try {
    const [rows] = await connection.promise().query<mysql.RowDataPacket[]>('select version() as version');
    return `MySQL/MariaDB ${String(rows[0]?.version ?? '')}`.trim();
  } finally {
    ctx.signal.removeEventListener('abort', closeConnection);
    connection.end(() => {});
  }
}

// ---- PostgreSQL ----

/** Where and as whom both drivers connect: the host's checked address, never the name it resolved from. */
async function serverOptions(data: SqlData, policy: HostPolicy, defaultPort: number) {
  const address = await checkedConnectorAddress(data.host, policy);
  return { host: address, port: data.port ?? defaultPort, user: data.user, password: data.password ?? '', database: data.database };
}

async function postgresOptions(data: SqlData, policy: HostPolicy): Promise<pg.ClientConfig> {
  return {
    ...(await serverOptions(data, policy, 5432)),
    ssl: data.ssl ? { servername: tlsServername(data.host) } : undefined,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'sluice',
  };
}

function postgresPool(credential: SqlCredential, policy: HostPolicy): ConnectionOpener<{ pool: pg.Pool; options: pg.ClientConfig }> {
  return {
    kind: 'postgres',
    async open() {
      const options = await postgresOptions(credential.data, policy);
      const pool = new pg.Pool({ ...options, max: SQL_POOL_MAX, idleTimeoutMillis: IDLE_CONNECTION_MS, allowExitOnIdle: true });
      // An idle connection the server dropped is discarded by the pool; the next statement opens another.
      pool.on('error', () => {});
      return { pool, options };
    },
    close: ({ pool }) => pool.end(),
  };
}

async function runPostgres(credential: SqlCredential, run: ConnectorRun, statement: SqlStatement): Promise<SqlResult> {
  return run.connections.use(credential, postgresPool(credential, run.policy), async ({ pool, options }) => {
    const client = await untilAborted(pool.connect(), run.signal, (late) => late.release());
    let broken: Error | undefined;
    try {
      // Set on every use: the pool's connections serve blocks with other time-outs. The server cancels the statement.
      await client.query(`set statement_timeout = ${Math.trunc(statement.timeoutMs)}`);
      return await untilAborted(postgresStatement(client, statement), run.signal);
    } catch (error) {
      if (run.signal.aborted) {
        broken = abortReason(run.signal);
        void cancelPostgresBackend(options, (client as unknown as { processID: number }).processID);
        throw error;
      }
      if (!(error instanceof pg.DatabaseError)) broken = error instanceof Error ? error : new Error(String(error));
      else if (error.code === '57014') throw new StatementTimeoutError(statement.timeoutMs);
      throw error;
    } finally {
      // A connection that failed below SQL (or is still busy with a cancelled statement) is closed, not reused.
      client.release(broken);
    }
  });
}

function postgresStatement(client: pg.PoolClient, statement: SqlStatement): Promise<SqlResult> {
  return new Promise((resolve, reject) => {
    const rows: Record<string, unknown>[] = [];
    let seen = 0;
    // The extended protocol even without parameters: it runs exactly one statement (`a; b` is refused).
    const query = new pg.Query({
      text: statement.query,
      values: statement.params.map((value) => (value === undefined ? null : value)),
      queryMode: 'extended',
    } as pg.QueryConfig);
    // With a row listener pg keeps no rows itself: past the cap they are counted and dropped.
    query.on('row', (row: Record<string, unknown>) => {
      seen++;
      if (rows.length < statement.maxRows) rows.push(row);
    });
    query.on('error', reject);
    query.on('end', (result) => resolve({ rows, rowCount: result?.rowCount ?? seen, truncated: seen > rows.length }));
    client.query(query);
  });
}

/** Best effort: asks the server to stop a statement whose run was cancelled (its connection is closed anyway). */
async function cancelPostgresBackend(options: pg.ClientConfig, processId: number): Promise<void> {
  const client = new pg.Client(options);
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select pg_cancel_backend($1)', [processId]);
  } catch {
    // The statement ends at its own time-out at the latest.
  } finally {
    await client.end().catch(() => {});
  }
}

// ---- MySQL / MariaDB ----

async function mysqlOptions(data: SqlData, policy: HostPolicy): Promise<mysql.ConnectionOptions> {
  return {
    ...(await serverOptions(data, policy, 3306)),
    ssl: data.ssl ? ({ rejectUnauthorized: true, servername: tlsServername(data.host) } as mysql.SslOptions) : undefined,
    connectTimeout: CONNECT_TIMEOUT_MS,
    charset: 'utf8mb4',
    // Exact: BIGINT past 2^53 and DECIMAL come as strings rather than rounded numbers.
    supportBigNumbers: true,
    multipleStatements: false,
  };
}

function mysqlPool(credential: SqlCredential, policy: HostPolicy): ConnectionOpener<{ pool: mysql.Pool; options: mysql.ConnectionOptions }> {
  return {
    kind: 'mysql',
    async open() {
      const options = await mysqlOptions(credential.data, policy);
      const pool = (await mysql2()).createPool({
        ...options,
        connectionLimit: SQL_POOL_MAX,
        maxIdle: SQL_POOL_MAX,
        idleTimeout: IDLE_CONNECTION_MS,
        waitForConnections: true,
        maxPreparedStatements: 64,
      });
      // A pooled connection's late error (the server went away) is the pool's to drop, not the process's to crash on.
      pool.on('connection', (connection) => connection.on('error', () => {}));
      return { pool, options };
    },
    close: ({ pool }) => new Promise<void>((resolve) => pool.end(() => resolve())),
  };
}

function mysqlConnection(pool: mysql.Pool): Promise<mysql.PoolConnection> {
  return new Promise((resolve, reject) => pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection))));
}

async function runMysql(credential: SqlCredential, run: ConnectorRun, statement: SqlStatement): Promise<SqlResult> {
  return run.connections.use(credential, mysqlPool(credential, run.policy), async ({ pool, options }) => {
    // mysql2's pool waits for a free connection without limit; this wait has one.
    const waiting = AbortSignal.any([run.signal, AbortSignal.timeout(CONNECT_TIMEOUT_MS)]);
    const connection = await untilAborted(mysqlConnection(pool), waiting, (late) => late.release()).catch((error: unknown) => {
      if (!run.signal.aborted && waiting.aborted) throw new Error(`No connection of this credential came free within ${CONNECT_TIMEOUT_MS / 1000} s`);
      throw error;
    });
    let broken = false;
    try {
      return await untilAborted(mysqlStatement(connection, statement), run.signal);
    } catch (error) {
      const timedOut = (error as { code?: unknown }).code === 'PROTOCOL_SEQUENCE_TIMEOUT';
      if (run.signal.aborted || timedOut || (error as { fatal?: unknown }).fatal === true) {
        broken = true;
        if (run.signal.aborted || timedOut) void killMysqlQuery(options, connection.threadId);
      }
      if (timedOut && !run.signal.aborted) throw new StatementTimeoutError(statement.timeoutMs);
      throw error;
    } finally {
      if (broken) connection.destroy();
      else connection.release();
    }
  });
}

/** MySQL's binary protocol takes numbers, strings, booleans, dates and buffers; anything else is sent as JSON text. */
function mysqlParam(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value)) return JSON.stringify(value);
  return value;
}

function mysqlStatement(connection: mysql.PoolConnection, statement: SqlStatement): Promise<SqlResult> {
  return new Promise((resolve, reject) => {
    const rows: Record<string, unknown>[] = [];
    let seen = 0;
    let affected: number | undefined;
    let isHeader = false;
    // execute: a server-side prepared statement, whose parameters never enter the SQL text.
    const command = connection.execute({ sql: statement.query, values: statement.params.map(mysqlParam), timeout: statement.timeoutMs });
    // A statement without a result set (INSERT, UPDATE…) reports `fields` as undefined, then one header as its result.
    command.on('fields', (fields: unknown) => (isHeader = fields === undefined));
    command.on('result', (row: Record<string, unknown>) => {
      if (isHeader) {
        affected = Number(row.affectedRows ?? 0);
        return;
      }
      seen++;
      if (rows.length < statement.maxRows) rows.push({ ...row });
    });
    command.on('error', reject);
    command.on('end', () => resolve({ rows, rowCount: affected ?? seen, truncated: seen > rows.length }));
  });
}

/** Best effort: stops a statement on the server once its connection is given up (time-out, cancelled run). */
async function killMysqlQuery(options: mysql.ConnectionOptions, threadId: number | null): Promise<void> {
  if (threadId === null) return;
  const { createConnection } = await mysql2();
  return new Promise<void>((resolve) => {
    const connection = createConnection(options);
    connection.on('error', () => resolve());
    // The id is the driver's number for the connection, not anything from a run.
    connection.query(`KILL QUERY ${Math.trunc(threadId)}`, () => connection.end(() => resolve()));
  });
}
