// Runs once per `npm test`: provides one migrated PGlite data directory (a dump) that every test file loads instead
// of initialising and migrating a database of its own (~0.5 s instead of ~4 s). The dump is kept in .test-cache
// under a name made from what shapes it (the migrations, client.ts, the PGlite version): a run after another with the
// same schema skips the ~4 s (and ~800 MB) of making it, at the start of the run when no test file can start yet.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { MIGRATIONS_FOLDER, openDatabase } from '../../src/db/client.js';
import { buildWeb } from '../../web/build-if-stale.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

const CACHE = resolve('.test-cache');
const CLIENT_SOURCE = fileURLToPath(new URL('../../src/db/client.ts', import.meta.url));
const PREFIX = 'pglite-template-';
const TEMPLATE_NAME = /^pglite-template-[0-9a-f]{16}\.tar$/;

export default async function setup(project: TestProject): Promise<void> {
  // The browser tests serve web/dist: built here once when stale, not by each browser-test file at the same time
  // into the same folder.
  await buildWeb({ quiet: true });
  // The PostgreSQL pass (vitest.config.ts) opens no test database on PGlite: no template to make.
  if (process.env.TEST_DATABASE_URL) return;
  mkdirSync(CACHE, { recursive: true });
  const file = join(CACHE, `${PREFIX}${templateKey()}.tar`);
  if (!existsSync(file)) {
    const database = await openDatabase({ kind: 'pglite' });
    const client = (database.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
    const dump = await client.dumpDataDir('none');
    await database.close();
    // Written aside and renamed: a run started meanwhile never loads half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  }
  // A dump for an older schema is of no further use (41 MB each).
  for (const name of readdirSync(CACHE)) {
    if (TEMPLATE_NAME.test(name) && join(CACHE, name) !== file) rmSync(join(CACHE, name), { force: true });
  }
  project.provide('pgliteTemplate', file);
}

/** Changes with any migration, with how the database is opened (client.ts) and with the PGlite release installed. */
function templateKey(): string {
  const hash = createHash('sha256');
  hash.update(pgliteVersion()).update(readFileSync(CLIENT_SOURCE));
  const migrations = readdirSync(MIGRATIONS_FOLDER, { recursive: true, encoding: 'utf8' }).sort();
  for (const name of migrations) {
    const path = join(MIGRATIONS_FOLDER, name);
    if (!name.endsWith('.sql') && !name.endsWith('.json')) continue;
    hash.update(name).update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 16);
}

// The package exports no ./package.json: read from the folder above its entry point that holds it.
function pgliteVersion(): string {
  for (let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (name === '@electric-sql/pglite' && version) return version;
  }
  throw new Error('@electric-sql/pglite: package.json not found');
}
