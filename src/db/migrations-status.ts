// Which of this build's migrations the database has not applied. Drizzle's migrator records each applied migration as
// a row of drizzle.__drizzle_migrations (the same table on PostgreSQL and PGlite) whose created_at is the `when` of
// its entry in drizzle/meta/_journal.json; a migration is applied when its `when` is among those rows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_FOLDER, type Db } from './client.js';
import { rowsOf } from './rows.js';

interface JournalEntry {
  tag: string;
  when: number;
}

let journal: JournalEntry[] | undefined;

/** The migrations this build ships, oldest first (read once: the files do not change under a running process). */
export function shippedMigrations(): JournalEntry[] {
  if (!journal) {
    const text = readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8');
    journal = (JSON.parse(text) as { entries: JournalEntry[] }).entries.map(({ tag, when }) => ({ tag, when }));
  }
  return journal;
}

/** Tags of the shipped migrations the database lacks; all of them when it has no migrations table at all. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const shipped = shippedMigrations();
  const [exists] = await rowsOf<{ table: string | null }>(db, sql`select to_regclass('drizzle.__drizzle_migrations')::text as "table"`);
  if (!exists?.table) return shipped.map((entry) => entry.tag);
  const applied = await rowsOf<{ created_at: string | number }>(db, sql`select created_at from drizzle.__drizzle_migrations`);
  const appliedAt = new Set(applied.map((row) => Number(row.created_at)));
  return shipped.filter((entry) => !appliedAt.has(entry.when)).map((entry) => entry.tag);
}
