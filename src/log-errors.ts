// How errors appear in the log: without the user data they may carry. A failed query's message repeats its
// parameters ("Failed query: …\nparams: …": request bodies, trace spans, emails), and a PostgreSQL error repeats
// values in its `detail` ("Key (email)=(x) already exists"), `where` ("JSON data, line 1: …") and some messages
// ('invalid input syntax for type uuid: "…"'). So a query error is logged as its SQL text plus the database's
// code and names (constraint, table, column), with quoted values blanked and no stack (it would repeat the
// message); any other error keeps its message and stack, and its causes go through the same rules.
import { DrizzleQueryError } from 'drizzle-orm';

/** PostgreSQL error fields that name what failed without repeating the values involved. */
const DATABASE_ERROR_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'dataType', 'schema', 'routine'] as const;
const MAX_CAUSE_DEPTH = 5;

export interface SerializedError {
  type: string;
  message: string;
  [field: string]: unknown;
}

const isQueryError = (err: Error): err is Error & { query: string } =>
  err instanceof DrizzleQueryError || (typeof (err as { query?: unknown }).query === 'string' && 'params' in err);

/** pg's and PGlite's DatabaseError (also as rebuilt from the embedded database thread): a SQLSTATE and a severity. */
const isDatabaseError = (err: Error): boolean => {
  const { code, severity } = err as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
};

/** Blanks the quoted value in messages like `invalid input syntax for type uuid: "…"` or `value "…" is out of range`. */
export function withoutQuotedValues(message: string): string {
  return message.replace(/(:\s*|\bvalue\s+)"(?:[^"]|"")*"/g, '$1"[redacted]"');
}

function databaseError(err: Error): SerializedError {
  const out: SerializedError = { type: err.name || 'DatabaseError', message: withoutQuotedValues(err.message) };
  for (const field of DATABASE_ERROR_FIELDS) {
    const value = (err as unknown as Record<string, unknown>)[field];
    if (value !== undefined && value !== null && typeof value !== 'object') out[field] = value;
  }
  return out;
}

/** Own fields worth keeping from other errors (code, statusCode, errno, …): plain values only, no payloads. */
function plainFields(err: Error): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err)) {
    if (key === 'cause' || key === 'message' || key === 'stack') continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[key] = value;
  }
  return out;
}

export function serializeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return err;
  let out: SerializedError;
  // Database errors first: PGlite's also carry `query` and `params`.
  if (isDatabaseError(err)) {
    out = databaseError(err);
  } else if (isQueryError(err)) {
    out = { type: 'DrizzleQueryError', message: `Failed query: ${err.query}` };
  } else {
    out = { type: err.constructor?.name || err.name, message: err.message, stack: err.stack, ...plainFields(err) };
  }
  if (err.cause !== undefined && depth < MAX_CAUSE_DEPTH) out.cause = serializeError(err.cause, depth + 1);
  return out;
}
