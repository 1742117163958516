// Raw statements (data-modifying CTEs, SKIP LOCKED claims) through Drizzle's `execute`: both drivers answer with
// `{ rows }`, typed here once instead of at every call.
import { createHash } from 'node:crypto';
import { DrizzleQueryError, is, sql, type SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import { PgliteSession } from 'drizzle-orm/pglite';
import type { Db } from './client.js';

export async function rowsOf<Row = Record<string, unknown>>(db: Db, statement: SQL): Promise<Row[]> {
  const result = (await db.execute(statement)) as unknown as { rows: Row[] };
  return result.rows;
}

/** Statement names by text; a statement run this way comes in a few shapes, so this stays small. */
const namesByText = new Map<string, string>();
const MAX_NAMES = 1_000;
/** PGlite: the statements prepared (or being prepared) in each database's one session, by name. */
const preparedIn = new WeakMap<Db, Map<string, Promise<void>>>();

/**
 * `rowsOf` for a statement run very often in a few shapes (the run recorder's batch): it is prepared once per
 * database session under a name taken from its text, so the database parses it once and, after five runs, keeps a
 * generic plan instead of planning it at every call (the batch statement of the execute bench, per run: 188 → 123 µs
 * of PostgreSQL's CPU; 353 → 203 µs in PGlite). Its shape must not depend on values: the values travel apart.
 * Values must be text, numbers, booleans or null (the statements going this way pass rows as JSON text), and `db` the
 * database itself, not a transaction: what PGlite has prepared is remembered per database.
 */
export async function rowsOfPrepared<Row = Record<string, unknown>>(db: Db, statement: SQL): Promise<Row[]> {
  const query = (db as unknown as { dialect: PgDialect }).dialect.sqlToQuery(statement);
  let name = namesByText.get(query.sql);
  if (name === undefined) {
    if (namesByText.size >= MAX_NAMES) namesByText.clear();
    name = `sluice_${createHash('sha256').update(query.sql).digest('hex').slice(0, 32)}`;
    namesByText.set(query.sql, name);
  }
  if (!is(db._.session, PgliteSession)) {
    // node-postgres prepares a named statement on each pooled connection the first time it runs there.
    const result = (await db._.session.prepareQuery(query, undefined, name, false).execute()) as { rows: Row[] };
    return result.rows;
  }
  // PGlite's client prepares every query unnamed, so the statement is prepared in SQL, and EXECUTE, which takes no
  // bind parameters, gets the values as literals (one session: what it prepared stays until the database closes).
  // Calls that overlap wait for the same PREPARE; one that failed is tried again by the next call.
  let prepared = preparedIn.get(db);
  if (!prepared) preparedIn.set(db, (prepared = new Map()));
  let preparing = prepared.get(name);
  if (!preparing) {
    preparing = db.execute(sql.raw(`prepare ${name} as ${query.sql}`)).then(() => undefined);
    prepared.set(name, preparing);
    preparing.catch(() => prepared.delete(name!));
  }
  await preparing;
  try {
    return await rowsOf<Row>(db, sql.raw(`execute ${name}(${query.params.map(literal).join(', ')})`));
  } catch (error) {
    // The EXECUTE's text holds the values (request bodies, traces), and a failed query's text is what gets logged
    // (log-errors.ts): the error names the statement's own SQL and keeps the values apart, as the driver's would.
    const cause = error instanceof DrizzleQueryError && error.cause instanceof Error ? error.cause : (error as Error);
    throw new DrizzleQueryError(query.sql, query.params, cause);
  }
}

/** A value as an SQL literal of unknown type, which EXECUTE turns into its parameter's type as a bind value would. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean' && typeof value !== 'bigint') {
    throw new TypeError(`rowsOfPrepared takes text, numbers, booleans and null as values, not ${typeof value}`);
  }
  const text = String(value);
  // Dollar-quoted: nothing inside is an escape, whatever standard_conforming_strings says; the tag is one the text lacks.
  let tag = '$v$';
  for (let n = 0; text.includes(tag); n++) tag = `$v${n}$`;
  return `${tag}${text}${tag}`;
}
