// An embedded database on disk: created on first open (in a child process, renamed into place when complete),
// reopened as is afterwards, and never made over a directory that holds something else.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'sluice-pglite-dir-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function countUsers(dataDir: string): Promise<number> {
  const database = await openDatabase({ kind: 'pglite', dataDir });
  try {
    const rows = await database.db.execute(sql`select count(*)::int as n from users`);
    return (rows as unknown as { rows: Array<{ n: number }> }).rows[0].n;
  } finally {
    await database.close();
  }
}

// Each test initialises PGlite from scratch in a child process: allow for a loaded machine.
describe('embedded database directory', { timeout: 120_000 }, () => {
  it('creates a migrated database on first open, keeps its rows across a reopen, and leaves nothing beside it', async () => {
    const dataDir = join(root, 'data', 'pglite');
    const first = await openDatabase({ kind: 'pglite', dataDir });
    await first.db.execute(sql`insert into users (id, email) values ('u1', 'a@example.com')`);
    await first.close();

    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(readdirSync(join(root, 'data'))).toEqual(['pglite']);
    expect(await countUsers(dataDir)).toBe(1);
  });

  it('replaces what an interrupted creation left beside the directory', async () => {
    const dataDir = join(root, 'pglite');
    mkdirSync(`${dataDir}.creating`);
    writeFileSync(join(`${dataDir}.creating`, 'PG_VERSION'), 'half made');

    expect(await countUsers(dataDir)).toBe(0);
    expect(readdirSync(root)).toEqual(['pglite']);
  });

  it('refuses a directory that holds files but no database, and leaves them alone', async () => {
    const dataDir = join(root, 'pglite');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'notes.txt'), 'mine');

    await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow(/holds files but no database/);
    expect(readdirSync(dataDir)).toEqual(['notes.txt']);
  });
});
