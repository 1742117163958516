// Issue 15: a fresh server prints a setup link that works; offline commands run beside a live PGlite server stop with
// a message saying what to do instead and print no key; a second server on the same data directory is refused; once
// the server stops they work, and set-password names the address the server really used.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { migratedDataDir } from '../support/data-dir.js';
import { eventually } from '../support/eventually.js';
import { runSluice, SLUICE_BIN, startSluice, type SluiceProcess } from '../support/process.js';

let dataDir: string;
beforeAll(() => {
  dataDir = migratedDataDir('sluice-offline-');
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function setPassword(env: Record<string, string>, email: string, password: string) {
  const clean = { ...process.env };
  for (const name of Object.keys(clean)) if (name.startsWith('SLUICE_') || name === 'DATABASE_URL') delete clean[name];
  const child = spawn(process.execPath, [SLUICE_BIN, 'admin', 'set-password', '--email', email, '--password-stdin'], {
    env: { ...clean, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(`${password}\n`);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
    child.once('exit', (code) => done({ code, stdout, stderr })),
  );
}

const setupLinkIn = (output: string) => /First run: open (http:\/\/\S+\/setup\?token=[\w-]+) to create the owner account\./.exec(output)?.[1];

// PGlite only: with TEST_DATABASE_URL the suite runs on PostgreSQL, where the lock does not apply (the block below).
describe.skipIf(process.env.TEST_DATABASE_URL)('commands on an embedded (PGlite) data directory', { timeout: 180_000 }, () => {
  it('refuses offline commands and a second server while one serves, and says what to do instead', async () => {
    const env = { SLUICE_DATA_DIR: dataDir };
    let server: SluiceProcess | undefined = await startSluice(env);
    try {
      // Printed right after the "listening" line the helper waits for.
      const link = await eventually(() => setupLinkIn(server!.output()), 10_000, 'the setup link');
      expect(link!.startsWith(`${server.url}/setup?token=`)).toBe(true);
      // The link is not a log line: log storage never sees it.
      expect(server.output().split('\n').filter((line) => line.startsWith('{') && line.includes('/setup?'))).toEqual([]);

      const init = await runSluice(['init', '--json'], env);
      expect(init.code).toBe(1);
      expect(init.stdout).toBe('');
      expect(init.stderr).toContain(`is in use by another Sluice process (\`sluice serve\`, pid ${server.child.pid}, at ${server.url})`);
      expect(init.stderr).toContain(`Instead, without stopping it: open ${link} to create the owner account, then create a key under Settings → API keys.`);
      expect(init.stderr).toContain('Or stop that process and run `sluice init` again.');
      expect(init.stderr).not.toMatch(/sk-sluice-|\n\s+at /);

      const admin = await setPassword(env, 'owner@example.com', 'correct horse battery');
      expect(admin.code).toBe(1);
      expect(admin.stdout).toBe('');
      expect(admin.stderr).toContain('sluice admin set-password: the data directory');
      expect(admin.stderr).toContain(`Instead, without stopping it: open ${link} to create the owner account`);

      const second = await runSluice(['serve'], env);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain('Stop that process first, give this one another SLUICE_DATA_DIR, or use PostgreSQL');

      // The link works while the refused commands left the database alone: the owner is created in the browser's way.
      const token = new URL(link!).searchParams.get('token');
      const setup = await fetch(`${server.url}/api/v1/auth/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, email: 'owner@example.com', password: 'correct horse battery' }),
      });
      expect(setup.status).toBe(201);
      const later = await runSluice(['init'], env);
      expect(later.stderr).toContain(`sign in at ${server.url}/ and create a key under Settings → API keys.`);

      expect(await server.stop()).toBe(0);
      server = undefined;

      // Stopped: init works, and its key works on the next start (on the same data the owner was created in).
      const offline = await runSluice(['init', '--json'], env);
      expect(offline.code, offline.stderr).toBe(0);
      const { apiKey } = JSON.parse(offline.stdout) as { apiKey: string };
      const reset = await setPassword(env, 'owner@example.com', 'battery staple horse');
      expect(reset.code, reset.stderr).toBe(0);
      // The address the server used (an ephemeral port here), not the default 3000.
      expect(reset.stdout).toContain(`sign in at ${link!.split('/setup')[0]}/`);

      server = await startSluice(env);
      expect(setupLinkIn(server.output())).toBeUndefined();
      const me = await fetch(`${server.url}/api/v1/me`, { headers: { 'x-api-key': apiKey } });
      expect(me.status).toBe(200);
      const signIn = await fetch(`${server.url}/api/v1/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@example.com', password: 'battery staple horse' }),
      });
      expect(signIn.status).toBe(200);

      // No command prints a key that does not work: init with a revoked SLUICE_BOOTSTRAP_API_KEY refuses.
      const keys = (await (await fetch(`${server.url}/api/v1/api-keys`, { headers: { 'x-api-key': apiKey } })).json()) as {
        data: Array<{ id: string; name: string }>;
      };
      const revoked = await fetch(`${server.url}/api/v1/api-keys/${keys.data.find((k) => k.name === 'Bootstrap key')!.id}`, {
        method: 'DELETE',
        headers: { 'x-api-key': apiKey },
      });
      expect(revoked.status).toBe(204);
      expect(await server.stop()).toBe(0);
      server = undefined;
      const again = await runSluice(['init', '--json'], { ...env, SLUICE_BOOTSTRAP_API_KEY: apiKey });
      expect(again.code).toBe(1);
      expect(again.stdout).toBe('');
      expect(again.stderr).toContain('SLUICE_BOOTSTRAP_API_KEY names a key that was revoked');
    } finally {
      await server?.stop();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('commands on PostgreSQL', { timeout: 120_000 }, () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    await testDb.database.close();
  });
  afterAll(async () => testDb?.drop().catch(() => undefined));

  it('run beside a live server, and the key init prints works on that server at once', async () => {
    const env = {
      SLUICE_DATA_DIR: mkdtempSync(join(tmpdir(), 'sluice-pg-')),
      DATABASE_URL: testDb.url!,
      SLUICE_SECRET: 'pg-offline-secret-pg-offline-secret-0123',
    };
    const server = await startSluice(env);
    try {
      const init = await runSluice(['init', '--json'], env);
      expect(init.code, init.stderr).toBe(0);
      const { apiKey } = JSON.parse(init.stdout) as { apiKey: string };
      const me = await fetch(`${server.url}/api/v1/me`, { headers: { 'x-api-key': apiKey } });
      expect(me.status).toBe(200);
      const admin = await setPassword(env, 'admin@localhost', 'correct horse battery');
      expect(admin.code, admin.stderr).toBe(0);
      const signIn = await fetch(`${server.url}/api/v1/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@localhost', password: 'correct horse battery' }),
      });
      expect(signIn.status).toBe(200);
    } finally {
      await server.stop();
      rmSync(env.SLUICE_DATA_DIR, { recursive: true, force: true });
    }
  });
});
