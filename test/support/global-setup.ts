// Runs once per `npm test`: makes one migrated PGlite database that the tests copy instead of initialising and
// migrating one of their own (~0.5 s instead of ~4 s each). It is made as a first `sluice serve` makes it (initdb and
// the migrations in a child process, src/db/pglite-thread.ts) and kept two ways: as a data directory, which a test
// copies into the SLUICE_DATA_DIR of a process it spawns (support/data-dir.ts), and as a dump of it, which
// support/database.ts loads into an in-memory database. Both are kept in .test-cache under a name made from what
// shapes them (the migrations, how the database is opened and created, the PGlite version): a run after another with
// the same schema skips the ~4 s (and ~800 MB) of making them, at the start of the run when no test file can start yet.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { MIGRATIONS_FOLDER } from '../../src/db/client.js';
import { createPgliteDatabaseIfMissing } from '../../src/db/pglite-thread.js';
import { buildWeb } from '../../web/build-if-stale.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The dump of the migrated database (a tar file), for PGlite in memory. */
    pgliteTemplate: string;
    /** The migrated database as a data directory, never opened in place: copied (support/data-dir.ts). */
    pgliteDataDirTemplate: string;
  }
}

const CACHE = resolve('.test-cache');
/** How a database is opened, created and migrated: a change to any of them changes what the templates hold. */
const SHAPING_SOURCES = ['client.ts', 'pglite-thread.ts', 'pglite-create.mjs', 'pglite-open.mjs'].map((name) =>
  fileURLToPath(new URL(`../../src/db/${name}`, import.meta.url)),
);
const PREFIX = 'pglite-template-';
const TEMPLATE_NAME = /^pglite-template-[0-9a-f]{16}(\.tar)?$/;

export default async function setup(project: TestProject): Promise<void> {
  // The browser tests serve web/dist: built here once when stale, not by each browser-test file at the same time
  // into the same folder.
  await buildWeb({ quiet: true });
  // The PostgreSQL pass (vitest.config.ts) opens no test database on PGlite: no template to make.
  if (process.env.TEST_DATABASE_URL) return;
  mkdirSync(CACHE, { recursive: true });
  const key = templateKey();
  const dataDir = join(CACHE, `${PREFIX}${key}`);
  const file = `${dataDir}.tar`;
  // Made beside and renamed into place when complete (as at a first start): a run started meanwhile never copies half.
  await createPgliteDatabaseIfMissing(dataDir, MIGRATIONS_FOLDER);
  if (!existsSync(file)) {
    // Dumped from a copy: opening a database writes to its directory, and the template stays as it was made.
    const scratch = `${dataDir}.${process.pid}.dumping`;
    cpSync(dataDir, scratch, { recursive: true });
    try {
      const client = await PGlite.create(scratch);
      const dump = await client.dumpDataDir('none');
      await client.close();
      // Written aside and renamed: a run started meanwhile never loads half a file.
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      renameSync(partial, file);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  // Templates of an older schema are of no further use (41 MB each).
  for (const name of readdirSync(CACHE)) {
    if (TEMPLATE_NAME.test(name) && !name.startsWith(`${PREFIX}${key}`)) rmSync(join(CACHE, name), { recursive: true, force: true });
  }
  project.provide('pgliteTemplate', file);
  project.provide('pgliteDataDirTemplate', dataDir);
}

/** Changes with any migration, with how the database is opened and created, and with the PGlite release installed. */
function templateKey(): string {
  const hash = createHash('sha256');
  hash.update(pgliteVersion());
  for (const source of SHAPING_SOURCES) hash.update(readFileSync(source));
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
