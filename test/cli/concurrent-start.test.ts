// Several processes starting at once on a fresh PostgreSQL with the same SLUICE_BOOTSTRAP_API_KEY, as
// deploy/compose.yaml starts them (issue 21): every one of them comes up, and they provision one admin, one Default
// workspace and one key between them. Before the bootstrap took turns, one of them usually exited on the unique index
// of api_keys and the others each made their own Default workspace.
//
// A real process takes seconds to start on a busy machine, so a few rounds start real `sluice serve` processes and
// the ten rounds after them start the same path (createAppContext: migrate, then bootstrap) three times at once in
// this process, each with its own connection pool — to the database, three processes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createAppContext } from '../../src/app/context.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { findKeyByValue, generateApiKey } from '../../src/services/api-keys.js';
import { createBlankPostgresDatabase } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { startSluice } from '../support/process.js';

const PROCESS_ROUNDS = 3;
const ROUNDS = 10;
const STARTS = 3;
const ADMIN_EMAIL = 'boss@example.com';

/** One round's fresh database and data directory, and what every start of that round is given. */
async function freshRound() {
  const database = await createBlankPostgresDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-concurrent-start-'));
  const key = generateApiKey();
  const env = {
    DATABASE_URL: database.url,
    SLUICE_SECRET: 'cli-test-secret-cli-test-secret-0123456',
    SLUICE_DATA_DIR: dataDir,
    SLUICE_BOOTSTRAP_API_KEY: key,
    SLUICE_ADMIN_EMAIL: ADMIN_EMAIL,
  };
  const cleanUp = async () => {
    await database.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url: database.url, key, env, cleanUp };
}

/** Settled starts: the ones that came up, and every failure's message. */
function outcomes<T>(started: PromiseSettledResult<T>[]) {
  return {
    up: started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : [])),
    failures: started.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : [])),
  };
}

/** What the starts provisioned between them; `bootstrapKeys` counts keys of the admin scoped to its Default. */
async function countProvisioned(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select (select count(*)::int from users) as users,
              (select count(*)::int from workspaces where name = 'Default') as defaults,
              (select count(*)::int from workspace_members) as members,
              (select count(*)::int from api_keys) as keys,
              (select count(*)::int from api_keys k join users u on u.id = k.user_id join workspaces w on w.id = k.workspace_id
                where u.email = $1 and w.name = 'Default' and w.owner_id = u.id) as "bootstrapKeys"`,
      [ADMIN_EMAIL],
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

const ONE_OF_EVERYTHING = { users: 1, defaults: 1, members: 1, keys: 1, bootstrapKeys: 1 };

const suite = 'starting together on a fresh PostgreSQL (needs TEST_DATABASE_URL)';
describe.runIf(process.env.TEST_DATABASE_URL)(suite, { timeout: 600_000 }, () => {
  it(`${STARTS} serve processes with one bootstrap key, ${PROCESS_ROUNDS} rounds: all ready, the key works on each, one of everything`, async () => {
    for (let round = 1; round <= PROCESS_ROUNDS; round++) {
      const fresh = await freshRound();
      const starts = Array.from({ length: STARTS }, () => startSluice(fresh.env));
      const { up: servers, failures } = outcomes(await Promise.allSettled(starts));
      try {
        expect(failures, `round ${round}`).toEqual([]);
        for (const server of servers) {
          await eventually(async () => (await fetch(`${server.url}/ready`)).status === 200, 30_000, 'every process to be ready');
          const me = await fetch(`${server.url}/api/v1/me`, { headers: { 'x-api-key': fresh.key } });
          expect(me.status).toBe(200);
          const body = (await me.json()) as { email: string; workspaces: Array<{ name: string }> };
          expect(body.email).toBe(ADMIN_EMAIL);
          expect(body.workspaces.map((w) => w.name)).toEqual(['Default']);
        }
        expect(await countProvisioned(fresh.url), `round ${round}`).toEqual(ONE_OF_EVERYTHING);
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
        await fresh.cleanUp();
      }
    }
  });

  it(`${STARTS} app starts at once with one bootstrap key, ${ROUNDS} rounds: none fails, one of everything`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const fresh = await freshRound();
      const config = loadConfig({ ...fresh.env, LOG_LEVEL: 'silent' });
      const starts = Array.from({ length: STARTS }, () => createAppContext(config, createLogger('silent')));
      const { up: apps, failures } = outcomes(await Promise.allSettled(starts));
      try {
        expect(failures, `round ${round}`).toEqual([]);
        expect(await countProvisioned(fresh.url), `round ${round}`).toEqual(ONE_OF_EVERYTHING);
        for (const app of apps) expect(await findKeyByValue(app.db, fresh.key)).toMatchObject({ revokedAt: null });
      } finally {
        await Promise.all(apps.map((app) => app.close()));
        await fresh.cleanUp();
      }
    }
  });
});
