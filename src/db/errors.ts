// The SQLSTATE of a failed statement, for the few failures a caller handles as an outcome rather than an error (a
// lock wait given up, a table another process dropped). Drizzle wraps the driver's error (pg's or PGlite's, both
// with `code`) in a DrizzleQueryError whose `cause` it is, so the chain of causes is read, not only the error.

/** SQLSTATE 55P03 lock_not_available: a statement waited longer than `lock_timeout`. */
export const LOCK_NOT_AVAILABLE = '55P03';
/** SQLSTATE 42P01 undefined_table. */
export const UNDEFINED_TABLE = '42P01';
/**
 * SQLSTATE 26000 invalid_sql_statement_name: no prepared statement of that name in the session (pglite-prepared.mjs,
 * which the database thread runs without TypeScript, says it again).
 */
export const NO_SUCH_STATEMENT = '26000';

export function databaseErrorCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
