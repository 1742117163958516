// Types of pglite-prepared.mjs (plain JavaScript, shared with the database thread).
import type { PGlite, Results } from '@electric-sql/pglite';

export function preparedStatements(db: PGlite): (name: string, text: string, params: unknown[]) => Promise<Results<Record<string, unknown>>>;

/** A PGlite client (in memory, or the database thread's) that runs statements prepared by name. */
export interface PreparedStatementClient {
  queryPrepared(name: string, sql: string, params: unknown[]): Promise<{ rows: unknown[] }>;
}
