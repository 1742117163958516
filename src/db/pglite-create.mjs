// `node pglite-create.mjs <dir> <migrations folder>`: creates a new PGlite database in <dir> (initdb), applies the
// migrations, then exits. Run as a short-lived child process by pglite-thread.ts: creating a database peaks at
// ~800 MB and PGlite keeps much of that reachable afterwards, so the long-running server only ever opens a directory
// that is ready (~0.5 s, a fraction of the memory).
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { fsyncTree, openPgliteDirectory } from './pglite-open.mjs';

const [dir, migrationsFolder] = process.argv.slice(2);
try {
  const db = await openPgliteDirectory(dir);
  // The first migrations build every table; done here, their working memory goes away with this process too.
  await migrate(drizzle({ client: db }), { migrationsFolder });
  await db.close();
  // initdb writes without syncing; everything is on disk before the directory is renamed into place.
  fsyncTree(dir);
  process.exit(0);
} catch (err) {
  // The parent reports this line; a stack trace would say nothing more to the person starting Sluice.
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
