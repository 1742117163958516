// Raw statements (data-modifying CTEs, SKIP LOCKED claims) through Drizzle's `execute`: both drivers answer with
// `{ rows }`, typed here once instead of at every call.
import { createHash } from 'node:crypto';
import { DrizzleQueryError, is, sql, type SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import { PgliteSession } from 'drizzle-orm/pglite';
import type { Db } from './client.js';
import { databaseErrorCode } from './errors.js';

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
/**
 * PGlite reads a statement's values as part of its SQL text when they are literals: above this much, parsing them
 * costs more than the plan saves (measured break-even ~64 KB), so a bigger batch runs unnamed.
 */
const MAX_LITERALS_LENGTH = 32 * 1024;
/**
 * The shapes each database runs prepared, by name; on PGlite with the PREPARE in its one session (or under way),
 * on PostgreSQL settled at once (the driver prepares them per connection).
 */
const preparedIn = new WeakMap<Db, Map<string, Promise<void>>>();
/** SQLSTATE 26000: no prepared statement of that name in this session; 42P05: one already exists. */
const NO_SUCH_STATEMENT = '26000';
const ALREADY_PREPARED = '42P05';

/**
 * `rowsOf` for a statement run very often in a few shapes (the run recorder's batch, a worker's claim): it is prepared
 * once per database session under a name taken from its text, so the database parses it once and, after five runs,
 * keeps a generic plan instead of planning it at every call (the batch statement of the execute bench, per run: 188 →
 * 123 µs of PostgreSQL's CPU, 353 → 203 µs in PGlite; a worker's claim of four kinds 2.0 → 0.4 ms on PostgreSQL, 12.7
 * → 1.1 ms in PGlite). Its shape must not depend on values: the values travel apart.
 * Values must be text without NUL, numbers, booleans or null (the statements going this way pass rows as JSON text).
 */
export async function rowsOfPrepared<Row = Record<string, unknown>>(db: Db, statement: SQL): Promise<Row[]> {
  const query = (db as unknown as { dialect: PgDialect }).dialect.sqlToQuery(statement);
  let prepared = preparedIn.get(db);
  if (!prepared) preparedIn.set(db, (prepared = new Map()));
  const name = nameOf(query.sql);
  if (!prepared.has(name) && prepared.size >= MAX_PREPARED) return rowsOf<Row>(db, statement);
  if (!is(db._.session, PgliteSession)) {
    prepared.set(name, SETTLED);
    // node-postgres prepares a named statement on each pooled connection the first time it runs there; one that a
    // session lost (a DISCARD ALL by a pooler) it sends again after the failure.
    return againIfLost(async () => ((await db._.session.prepareQuery(query, undefined, name, false).execute()) as { rows: Row[] }).rows);
  }
  // PGlite's client prepares every query unnamed, so the statement is prepared in SQL, and EXECUTE, which takes no
  // bind parameters, gets the values as literals.
  const literals = query.params.map(literal);
  if (literals.reduce((sum, l) => sum + l.length, 0) > MAX_LITERALS_LENGTH) return rowsOf<Row>(db, statement);
  const execute = sql.raw(`execute ${name}(${literals.join(', ')})`);
  try {
    return await againIfLost(
      async () => {
        await preparedOnce(prepared, db, name, query.sql);
        return rowsOf<Row>(db, execute);
      },
      // Deallocated in the session since (a DEALLOCATE or DISCARD): prepared again.
      () => prepared.delete(name),
    );
  } catch (error) {
    // The EXECUTE's text holds the values (request bodies, traces), and a failed query's text is what gets logged
    // (log-errors.ts): the error names the statement's own SQL and keeps the values apart, as the driver's would.
    const cause = error instanceof DrizzleQueryError && error.cause instanceof Error ? error.cause : (error as Error);
    throw new DrizzleQueryError(query.sql, query.params, cause);
  }
}

/** Runs `run`, and once more if the session no longer had the prepared statement (after `forget`). */
function againIfLost<T>(run: () => Promise<T>, forget: () => void = () => {}): Promise<T> {
  return run().catch((error: unknown) => {
    if (databaseErrorCode(error) !== NO_SUCH_STATEMENT) throw error;
    forget();
    return run();
  });
}

const SETTLED = Promise.resolve();

function nameOf(text: string): string {
  let name = namesByText.get(text);
  if (name === undefined) {
    if (namesByText.size >= MAX_NAMES) namesByText.clear();
    name = `sluice_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    namesByText.set(text, name);
  }
  return name;
}

/**
 * PGlite: PREPAREs `name` in the database's session unless it already did. Calls that overlap wait for the same
 * PREPARE; one that failed is tried again by the next call; one that finds the name taken (another Drizzle object on
 * the same session prepared it: the name is the text's) counts as prepared.
 */
function preparedOnce(prepared: Map<string, Promise<void>>, db: Db, name: string, text: string): Promise<void> {
  let preparing = prepared.get(name);
  if (!preparing) {
    preparing = db.execute(sql.raw(`prepare ${name} as ${text}`)).then(
      () => undefined,
      (error: unknown) => {
        if (databaseErrorCode(error) === ALREADY_PREPARED) return;
        prepared.delete(name);
        throw error;
      },
    );
    prepared.set(name, preparing);
  }
  return preparing;
}

/**
 * A value as an SQL literal of unknown type, which EXECUTE turns into its parameter's type as a bind value would: an
 * escape string (E'…', backslashes and quotes doubled), read the same whatever standard_conforming_strings says.
 */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean' && typeof value !== 'bigint') {
    throw new TypeError(`rowsOfPrepared takes text, numbers, booleans and null as values, not ${typeof value}`);
  }
  const text = String(value);
  if (text.includes('\0')) throw new TypeError('rowsOfPrepared cannot pass text holding U+0000: PostgreSQL text cannot hold it');
  return `E'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}
