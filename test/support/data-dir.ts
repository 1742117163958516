// A SLUICE_DATA_DIR for a `sluice` process a test spawns. A process started on an empty one first makes its embedded
// database (initdb and every migration in a child process: ~4 s of CPU, most of a start-up); a test that is not about
// that first start is given a copy of the one global setup made the same way (global-setup.ts), and its process opens
// it as it would open its own from an earlier start.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { pgliteDataDir } from '../../src/db/client.js';

/**
 * A new data directory holding a migrated embedded database with nothing in it (no owner, no key, no secret: those are
 * made at the process's start as on a first start). On the PostgreSQL pass global setup makes no template, and the
 * directory is empty: there the processes use DATABASE_URL, and one that opens PGlite makes its own.
 */
export function migratedDataDir(prefix: string): string {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const template = inject('pgliteDataDirTemplate');
  if (template) cpSync(template, pgliteDataDir(dataDir), { recursive: true });
  return dataDir;
}
