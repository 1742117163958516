// rowsOfPrepared (db/rows.ts), which the run recorder's batch statement goes through: a statement is prepared once per
// session under a name of its text and keeps a generic plan, yet every call answers with its own values (bind
// parameters: quotes, dollar signs and backslashes included, large ones too; U+0000 is refused clearly) and reads
// every column as a plain query does, each shape has its own name up to 32 per database, a statement the session lost
// is prepared again, a failure names the SQL and not the values, and a table dropped and made again under a prepared
// statement (retention drops whole partitions) does not break it. On PGlite in memory (the tests' database) and on
// disk, where the database runs on its own thread (db/pglite-thread.ts), and on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { openDatabase, type Database, type Db } from '../../src/db/client.js';
import { rowsOf, rowsOfPrepared } from '../../src/db/rows.js';
import { serializeError } from '../../src/log-errors.js';
import { createBlankPostgresDatabase, createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../support/database.js';

const kinds = TEST_DATABASE_URL ? ['PostgreSQL'] : ['PGlite in memory', 'PGlite on disk'];

// On disk, PGlite is created from scratch in a child process: allow for a loaded machine.
describe.each(kinds)('statements prepared by name, %s', { timeout: 120_000 }, (kind) => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    if (kind === 'PGlite on disk') {
      const root = mkdtempSync(join(tmpdir(), 'sluice-prepared-'));
      database = await openDatabase({ kind: 'pglite', dataDir: join(root, 'pglite') });
      drop = async () => {
        await database.close();
        rmSync(root, { recursive: true, force: true });
      };
    } else if (TEST_DATABASE_URL) {
      // One connection, so that pg_prepared_statements (which lists the asking session's own) sees every call.
      const blank = await createBlankPostgresDatabase();
      database = await openDatabase({ kind: 'postgres', url: blank.url, poolSize: 1 });
      drop = async () => {
        await database.close();
        await blank.drop();
      };
    } else {
      const test: TestDatabase = await createTestDatabase();
      database = test.database;
      drop = test.drop;
    }
  });
  afterAll(() => drop?.(), 60_000);

  it('answers every call with its own values, and one prepared statement per shape is planned once', async () => {
    const { db } = database;
    const texts = ["it's", '$v$ and $v0$', 'a$v', 'x$v$ y$v0', 'back\\slash \\\' quote', 'ends in \\', '{"a": "b\\"c"}', 'é ✓ 𝄞', ''];
    for (let n = 0; n < 8; n++) {
      expect(await rowsOfPrepared<{ v: number }>(db, sql`select ${n}::int + 1 as v`)).toEqual([{ v: n + 1 }]);
    }
    for (let n = 0; n < 8; n++) {
      const text = texts[n % texts.length];
      expect(await rowsOfPrepared<{ s: string }>(db, sql`select ${text}::text || 'y' as s`)).toEqual([{ s: `${text}y` }]);
    }
    expect(await rowsOfPrepared<{ j: unknown }>(db, sql`select ${JSON.stringify({ q: "it's", d: '$v$' })}::jsonb as j`)).toEqual([
      { j: { q: "it's", d: '$v$' } },
    ]);
    expect(await rowsOfPrepared<{ n: null }>(db, sql`select ${null}::int as n`)).toEqual([{ n: null }]);
    const prepared = await rowsOf<{ statement: string; generic: number; custom: number }>(
      db,
      sql`select statement, generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements
          where statement like '%$1::int + 1 as v' or statement like '%$1::text || ''y'' as s' order by statement`,
    );
    expect(prepared.map((p) => p.statement)).toEqual(['select $1::int + 1 as v', "select $1::text || 'y' as s"]);
    for (const p of prepared) {
      expect(p.generic + p.custom).toBe(8);
      // PostgreSQL plans the first five calls for their values, then keeps a generic plan when it costs no more.
      expect(p.generic).toBe(3);
    }
  });

  it('reads every column as a plain query of the same statement does', async () => {
    const { db } = database;
    const statement = () =>
      sql`select ${'2026-11-28T12:00:00.123Z'}::timestamptz as at, ${'2026-11-28'}::date as day, ${'1 hour'}::interval as span,
        array[${'2026-11-28T12:00:00Z'}::timestamptz] as ats, ${'{"a": [1, "x"]}'}::jsonb as j, ${3}::int as n, ${true}::boolean as b,
        ${'1.50'}::numeric as x, ${'abc'}::text as t`;
    const plain = await rowsOf(db, statement());
    for (let n = 0; n < 3; n++) expect(await rowsOfPrepared(db, statement())).toEqual(plain);
    // Times as their text, as every Drizzle query of this project reads them.
    expect(typeof plain[0].at).toBe('string');
  });

  it('prepares a shape once when calls of it overlap, and again after a failed attempt', async () => {
    const { db } = database;
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => rowsOfPrepared<{ v: number }>(db, sql`select ${i}::int * 2 as v`)));
    expect(answers).toEqual(Array.from({ length: 6 }, (_, i) => [{ v: i * 2 }]));
    const later = () => rowsOfPrepared<{ x: number }>(db, sql`select x from prepared_later where x > ${0}::int`);
    const failed = (await later().catch((error: Error & { cause?: Error }) => error)) as Error & { cause?: Error };
    expect(failed.cause?.message ?? failed.message).toMatch(/"prepared_later" does not exist/);
    await db.execute(sql`create table prepared_later (x int)`);
    await db.execute(sql`insert into prepared_later values (4)`);
    expect(await later()).toEqual([{ x: 4 }]);
  });

  it('fails naming the statement and not its values: a failed batch logs no user data', async () => {
    const { db } = database;
    const failed = (await rowsOfPrepared(db, sql`select ${'{"card": "4111-secret"'}::jsonb as card`).catch((error: Error) => error)) as Error & {
      query?: string;
    };
    expect(failed).toBeInstanceOf(Error);
    expect(failed.query).toBe('select $1::jsonb as card');
    const logged = JSON.stringify(serializeError(failed));
    expect(logged).toContain('Failed query: select $1::jsonb as card');
    expect(logged).toMatch(/invalid input syntax for type json/);
    expect(logged).not.toContain('4111-secret');
    // The shape was prepared before its value failed (its first call): the next call with a good value runs it.
    expect(await rowsOfPrepared(db, sql`select ${'{"card": "ok"}'}::jsonb as card`)).toEqual([{ card: { card: 'ok' } }]);
  });

  it('answers a statement whose values are large, and refuses text holding U+0000 with a clear error', async () => {
    const { db } = database;
    const big = 'y'.repeat(40_000);
    expect(await rowsOfPrepared<{ n: number }>(db, sql`select length(${big}::text) as n`)).toEqual([{ n: 40_000 }]);
    // Bound, not parsed: a large value runs prepared like any other.
    const listed = await rowsOf(db, sql`select 1 from pg_prepared_statements where statement like '%length($1::text) as n'`);
    expect(listed).toHaveLength(1);
    const nul = (await rowsOfPrepared(db, sql`select ${'a\u0000b'}::text as t`).catch((error: Error) => error)) as Error;
    expect(nul).toBeInstanceOf(Error);
    if (database.kind === 'pglite') expect(nul.message).toMatch(/U\+0000/);
    expect(await rowsOfPrepared<{ v: number }>(db, sql`select ${1}::int + 1 as v`)).toEqual([{ v: 2 }]);
  });

  it('prepares a statement again when the session lost it, and counts one prepared by another client as prepared', async () => {
    const { db } = database;
    const read = (n: number) => rowsOfPrepared<{ v: number }>(db, sql`select ${n}::int * 3 as v`);
    expect(await read(1)).toEqual([{ v: 3 }]);
    await db.execute(sql`deallocate all`);
    expect(await read(2)).toEqual([{ v: 6 }]);
    expect(await read(3)).toEqual([{ v: 9 }]);
    if (database.kind === 'pglite') {
      // A second Drizzle object on the same session runs it too.
      const again = drizzle({ client: (db as unknown as { $client: PGlite }).$client }) as unknown as Db;
      expect(await rowsOfPrepared<{ v: number }>(again, sql`select ${4}::int * 3 as v`)).toEqual([{ v: 12 }]);
    }
  });

  it('runs at most 32 shapes prepared per database, the others unnamed', async () => {
    const { db } = database;
    for (let n = 0; n < 40; n++) {
      expect(await rowsOfPrepared<{ v: number }>(db, sql`select ${n}::int + ${sql.raw(String(1000 + n))} as v`)).toEqual([{ v: 1000 + 2 * n }]);
    }
    const [{ count }] = await rowsOf<{ count: number }>(db, sql`select count(*)::int as count from pg_prepared_statements where statement like '%::int + 10__ as v'`);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(32);
  });

  it('keeps working when a table it reads is dropped and made again', async () => {
    const { db } = database;
    await db.execute(sql`create table prepared_probe (x int)`);
    await db.execute(sql`insert into prepared_probe values (1)`);
    const read = () => rowsOfPrepared<{ x: number }>(db, sql`select x from prepared_probe where x >= ${0}::int order by x`);
    for (let n = 0; n < 6; n++) expect(await read()).toEqual([{ x: 1 }]);
    await db.execute(sql`drop table prepared_probe`);
    const gone = (await read().catch((error: Error & { cause?: Error }) => error)) as Error & { cause?: Error };
    expect(gone).toBeInstanceOf(Error);
    expect(gone.cause?.message ?? gone.message).toMatch(/"prepared_probe" does not exist/);
    await db.execute(sql`create table prepared_probe (x int)`);
    await db.execute(sql`insert into prepared_probe values (2), (3)`);
    expect(await read()).toEqual([{ x: 2 }, { x: 3 }]);
  });
});
