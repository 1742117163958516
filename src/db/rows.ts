// Raw statements (data-modifying CTEs, SKIP LOCKED claims) through Drizzle's `execute`: both drivers answer with
// `{ rows }`, typed here once instead of at every call.
import type { SQL } from 'drizzle-orm';
import type { Db } from './client.js';

export async function rowsOf<Row = Record<string, unknown>>(db: Db, statement: SQL): Promise<Row[]> {
  const result = (await db.execute(statement)) as unknown as { rows: Row[] };
  return result.rows;
}
