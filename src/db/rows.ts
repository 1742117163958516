// Raw statements (data-modifying CTEs, SKIP LOCKED claims) through Drizzle's `execute`: both drivers answer with
// `{ rows }`, typed here once instead of at every call.
import { createHash } from 'node:crypto';
import { DrizzleQueryError, is, type SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import { PgliteSession } from 'drizzle-orm/pglite';
import type { Db } from './client.js';
import { databaseErrorCode, NO_SUCH_STATEMENT } from './errors.js';
import type { PreparedStatementClient } from './pglite-prepared.mjs';

export async function rowsOf<Row = Record<string, unknown>>(db: Db, statement: SQL): Promise<Row[]> {
  const result = (await db.execute(statement)) as unknown as { rows: Row[] };
  return result.rows;
}

/** Statement names by their text (a hash each). */
const namesByText = new Map<string, string>();
const MAX_NAMES = 1_000;
/**
 * Shapes a database runs prepared, at most: each holds ~200 KB of every session that ran it (measured on PostgreSQL;
 * on PGlite, WASM memory that is never given back). A batch's shape is the set of its CTEs (record-statement.ts), a
 * claim's the job kinds it asks for and whether it sweeps leases (jobs/claim.ts): a handful recur, the rest are rare,
 * and the first ones seen are the common ones. Beyond them a statement runs unnamed.
 */
const MAX_PREPARED = 32;
/** The shapes each database runs prepared (each driver prepares a name in a session the first time it runs there). */
const preparedIn = new WeakMap<Db, Set<string>>();

/**
 * `rowsOf` for a statement run very often in a few shapes (the run recorder's batch, a worker's claim): it is prepared
 * once per database session under a name taken from its text, so the database parses it once and, after five runs,
 * keeps a generic plan instead of planning it at every call (the batch statement of the execute bench, per run: 188 →
 * 123 µs of PostgreSQL's CPU, 353 → 203 µs in PGlite; a worker's claim of four kinds 2.0 → 0.4 ms on PostgreSQL, 12.7
 * → 1.1 ms in PGlite). Its shape must not depend on values: the values travel apart, as bind parameters.
 * Values must be text without NUL, numbers, booleans or null (the statements going this way pass rows as JSON text).
 */
export async function rowsOfPrepared<Row = Record<string, unknown>>(db: Db, statement: SQL): Promise<Row[]> {
  const query = (db as unknown as { dialect: PgDialect }).dialect.sqlToQuery(statement);
  let prepared = preparedIn.get(db);
  if (!prepared) preparedIn.set(db, (prepared = new Set()));
  const name = nameOf(query.sql);
  if (!prepared.has(name) && prepared.size >= MAX_PREPARED) return rowsOf<Row>(db, statement);
  prepared.add(name);
  if (!is(db._.session, PgliteSession)) {
    // node-postgres prepares a named statement on each pooled connection the first time it runs there; one that a
    // session lost (a DISCARD ALL by a pooler) it sends again after the failure.
    const run = async () => ((await db._.session.prepareQuery(query, undefined, name, false).execute()) as { rows: Row[] }).rows;
    return run().catch((error: unknown) => {
      if (databaseErrorCode(error) !== NO_SUCH_STATEMENT) throw error;
      return run();
    });
  }
  // PGlite's client prepares every query unnamed: its clients run a named one over the wire protocol
  // (pglite-prepared.mjs), preparing it again when the session lost it.
  const client = (db._.session as unknown as { client: PreparedStatementClient }).client;
  const values = query.params.map(checkedValue);
  try {
    return (await client.queryPrepared(name, query.sql, values)).rows as Row[];
  } catch (error) {
    // As the drivers' errors do: the error names the statement's own SQL and keeps the values apart (a failed query's
    // text is what gets logged, log-errors.ts).
    throw new DrizzleQueryError(query.sql, query.params, error as Error);
  }
}

function nameOf(text: string): string {
  let name = namesByText.get(text);
  if (name === undefined) {
    if (namesByText.size >= MAX_NAMES) namesByText.clear();
    name = `sluice_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    namesByText.set(text, name);
  }
  return name;
}

/** A value as rowsOfPrepared takes it, else a clear error before anything is sent. */
function checkedValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean' && typeof value !== 'bigint') {
    throw new TypeError(`rowsOfPrepared takes text, numbers, booleans and null as values, not ${typeof value}`);
  }
  if (typeof value === 'string' && value.includes('\0')) throw new TypeError('rowsOfPrepared cannot pass text holding U+0000: PostgreSQL text cannot hold it');
  return value;
}
