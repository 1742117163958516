// How Sluice opens an on-disk PGlite database: PGlite's own start-up parameters (single-user mode, no parallel
// workers, …) plus a smaller buffer cache, and real fsyncs. Shared by the worker thread that serves queries and the
// child process that creates a new database, so both run Postgres with the same settings.
// Plain JavaScript: the worker thread and the child process run without the tsx loader.
import { fsyncSync, openSync, closeSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * shared_buffers: PostgreSQL's default 128 MB is allocated and zero-filled at start-up inside PGlite's WASM memory, so
 * all of it is resident from the first second and never given back. 16 MB holds Sluice's hot rows; pages that do not
 * fit are re-read from the OS page cache.
 *
 * Durability: PGlite starts Postgres with `-F` (fsync off), and its Node file system has no fsync at all, so a commit
 * would reach the OS but not the disk — lost in a power cut. Sluice drops `-F`, has Postgres sync its WAL with plain
 * fsync (`fdatasync` is a no-op in this build) and gives the Node file system a real fsync: a committed run is on
 * disk, as on PostgreSQL. Group commit (runs/run-recorder.ts) shares each flush among the runs of a batch.
 */
export const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
  '-c',
  'shared_buffers=16MB',
  '-c',
  'wal_sync_method=fsync',
];

export async function openPgliteDirectory(dataDir) {
  const db = await PGlite.create(dataDir, { startParams: PGLITE_START_PARAMS });
  // Every file of the mounted data directory shares this operations table.
  db.Module.NODEFS.stream_ops.fsync = (stream) => {
    fsyncSync(stream.nfd);
    return 0;
  };
  return db;
}

/** fsyncs every file and directory under `dir`, deepest first: a new database is on disk before it is used. */
export function fsyncTree(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) fsyncTree(path);
    else syncPath(path);
  }
  syncPath(dir);
}

function syncPath(path) {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
