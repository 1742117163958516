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

/** The template dump, read once per worker process: the files a worker runs share this module (isolate: false). */
let template: Blob | undefined;

export async function createTestDatabase(): Promise<TestDatabase> {
  if (!TEST_DATABASE_URL) {
    template ??= new Blob([readFileSync(inject('pgliteTemplate'))]);
    const database = await openDatabase({ kind: 'pglite', loadDataDir: template });
    return { database, drop: () => database.close() };
  }
  const blank = await createBlankPostgresDatabase();
  const database = await openDatabase({ kind: 'postgres', url: blank.url, poolSize: 5 });
  return {
    database,
    url: blank.url,
    drop: async () => {
      await database.close();
      await blank.drop();
    },
  };
}

/** PostgreSQL only: a throw-away database with nothing in it, not even the migrations (a first start's database). */
export async function createBlankPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!TEST_DATABASE_URL) throw new Error('createBlankPostgresDatabase needs TEST_DATABASE_URL');
  const name = `sluice_test_${randomBase62(12).toLowerCase()}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
