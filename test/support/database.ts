// A fresh, migrated database per test app: PGlite from the shared template, or — when TEST_DATABASE_URL is
// set — a throw-away database created on that PostgreSQL server and dropped afterwards.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.js';
import { randomBase62 } from '../../src/ids.js';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

export interface TestDatabase {
  database: Database;
  /** Set on PostgreSQL: the URL of this test's own database (for a second process). */
  url?: string;
  drop(): Promise<void>;
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) {
    const template = readFileSync(inject('pgliteTemplate'));
    const database = await openDatabase({ kind: 'pglite', loadDataDir: new Blob([template]) });
    return { database, drop: () => database.close() };
  }
  const name = `sluice_test_${randomBase62(12).toLowerCase()}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 5 });
  return {
    database,
    url: url.toString(),
    drop: async () => {
      await database.close();
      await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
