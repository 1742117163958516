// For tests that kill a `sluice serve` process and start another on the same data: the embedded database of a data
// directory on the PGlite pass, a PostgreSQL database of its own on the PostgreSQL pass (TEST_DATABASE_URL). On that
// pass a process given only a data directory would create and migrate a PGlite database from nothing (global setup
// makes no template there, support/data-dir.ts) and check again what the PGlite pass checks; on PostgreSQL the restart
// is a check of its own. Apart from support/process.ts: importing this puts a file in the PostgreSQL pass
// (support/database-test-files.ts).
import { rmSync } from 'node:fs';
import { createTestDatabase } from './database.js';
import { migratedDataDir } from './data-dir.js';
import type { SluiceProcess } from './process.js';

/**
 * The environment to start each process with (the bootstrap key, loopback targets allowed, a quick worker), JSON calls
 * with that key to whichever process is up, and `dispose` for the data directory and database when the test ends.
 */
export async function restartableSluice(prefix: string, key: string) {
  const dataDir = migratedDataDir(prefix);
  const env: Record<string, string> = {
    SLUICE_DATA_DIR: dataDir,
    SLUICE_BOOTSTRAP_API_KEY: key,
    SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
    SLUICE_WORKER_POLL_MS: '100',
    SLUICE_LIMIT_LOGS_FREE: 'unlimited',
  };
  const testDb = process.env.TEST_DATABASE_URL ? await createTestDatabase() : undefined;
  if (testDb) {
    await testDb.database.close();
    Object.assign(env, { DATABASE_URL: testDb.url!, SLUICE_SECRET: 'restart-test-secret-restart-test-secret-01' });
  }
  const call = async (server: SluiceProcess, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const dispose = async () => {
    await testDb?.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { env, call, dispose };
}

export type RestartableSluice = Awaited<ReturnType<typeof restartableSluice>>;
