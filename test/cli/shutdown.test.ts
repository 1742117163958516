// Stopping `sluice serve` (issue 12): once SIGTERM arrives, responses say `Connection: close`, so a client looping on
// one keep-alive connection cannot hold the server open, and a stream still running is cut at the drain deadline.
// Issue 21: whatever else holds the shutdown up (a database that does not answer, a start-up stuck on it), the process
// exits once the whole shutdown's deadline passes (src/cli/shutdown.ts), and at once on a second SIGTERM.
import { createServer, request, Agent, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { migratedDataDir } from '../support/data-dir.js';
import { eventually } from '../support/eventually.js';
import { MIGRATION_LOCK_ID } from '../../src/db/client.js';
import { runSluice, spawnSluice, startSluice, type SluiceProcess } from '../support/process.js';
import { makeState } from '../support/workflows.js';

let dataDir: string;
let testDb: TestDatabase | undefined;
let env: Record<string, string>;
let apiKey: string;
let workspaceId: string;

/** The upstream the workflows call: it holds every request until the test releases it. */
let upstream: Server;
let upstreamUrl: string;
const held: ServerResponse[] = [];

beforeAll(async () => {
  upstream = createServer((_req: IncomingMessage, res: ServerResponse) => void held.push(res));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/slow`;
  dataDir = migratedDataDir('sluice-shutdown-');
  env = { SLUICE_DATA_DIR: dataDir, SLUICE_ALLOW_PRIVATE_NETWORK: 'true' };
  if (process.env.TEST_DATABASE_URL) {
    testDb = await createTestDatabase();
    await testDb.database.close();
    env.DATABASE_URL = testDb.url!;
    env.SLUICE_SECRET = 'cli-test-secret-cli-test-secret-0123456';
  }
  const init = await runSluice(['init', '--json'], env);
  expect(init.code, init.stderr).toBe(0);
  ({ apiKey, workspaceId } = JSON.parse(init.stdout));
}, 120_000);
afterEach(() => {
  for (const res of held.splice(0)) res.destroy();
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  if (testDb) await testDb.drop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

/** A deployed workflow whose run waits on the upstream. */
async function slowWorkflow(url: string): Promise<string> {
  const state = makeState(
    [
      { id: 'start', type: 'api_trigger', config: { inputFormat: [] } },
      { id: 'call', type: 'api', config: { url: upstreamUrl, retries: 0, timeoutMs: 300_000 } },
      { id: 'respond', type: 'response', config: { body: { done: true } } },
    ],
    [
      ['start', 'call'],
      ['call', 'respond'],
    ],
  );
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  const created = await fetch(`${url}/api/v1/workflows`, { method: 'POST', headers, body: JSON.stringify({ workspaceId, name: 'Slow', state }) });
  expect(created.status).toBe(201);
  const { data } = (await created.json()) as { data: { id: string } };
  expect((await fetch(`${url}/api/v1/workflows/${data.id}/deploy`, { method: 'POST', headers })).status).toBe(200);
  return data.id;
}

/** A streamed run of a slow workflow, once it waits on the upstream; `body` settles when the stream ends or is cut. */
async function streamHeldUpstream(url: string) {
  const workflowId = await slowWorkflow(url);
  const stream = await fetch(`${url}/api/workflows/${workflowId}/execute`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ stream: true }),
  });
  expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const body = stream.text().then(
    (text) => ({ ended: 'closed', text }),
    (err: Error) => ({ ended: 'cut', text: err.message }),
  );
  await eventually(() => held.length === 1, 30_000, 'the run to call the upstream');
  return { body };
}

/** Waits for the process to exit (killing it if it does not, so a failing test leaves nothing behind). */
async function exitCode(server: Pick<SluiceProcess, 'child'>, withinMs = 30_000): Promise<number | null> {
  try {
    await eventually(() => server.child.exitCode !== null || server.child.signalCode !== null, withinMs, 'the server to exit');
    return server.child.exitCode;
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  }
}

interface Answer {
  path: string;
  status: number;
  connection: string | undefined;
  socket: number;
}

/**
 * One client on one keep-alive connection: GET /health back to back, with one slow execute among them (sent after
 * `healthChecks` answers), until the connection goes away. The socket number tells connections apart.
 */
function keepAliveClient(url: string, workflowId: string, healthChecks: number) {
  const { hostname, port } = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const socketNumbers = new WeakMap<object, number>();
  let sockets = 0;
  const answers: Answer[] = [];
  const finished = new Promise<void>((resolve) => {
    const send = () => {
      const path = answers.length === healthChecks ? `/api/workflows/${workflowId}/execute` : '/health';
      const method = path === '/health' ? 'GET' : 'POST';
      const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
      const req = request({ host: hostname, port, path, method, agent, headers }, (res) => {
        if (!socketNumbers.has(res.socket)) socketNumbers.set(res.socket, sockets++);
        const socket = socketNumbers.get(res.socket)!;
        res.resume();
        res.on('end', () => {
          answers.push({ path, status: res.statusCode!, connection: res.headers.connection, socket });
          send();
        });
      });
      // The server stopped listening (or cut the connection): the loop is over.
      req.on('error', () => {
        agent.destroy();
        resolve();
      });
      req.end(method === 'POST' ? '{}' : undefined);
    };
    send();
  });
  return { answers, finished, stop: () => agent.destroy() };
}

describe('sluice serve shutdown', { timeout: 120_000 }, () => {
  it('answers with Connection: close once SIGTERM arrives, so a keep-alive client cannot keep it running', async () => {
    const server = await startSluice(env);
    const workflowId = await slowWorkflow(server.url);
    const client = keepAliveClient(server.url, workflowId, 20);
    try {
      // The execute is in flight on the server (its run called the upstream) when the signal arrives.
      await eventually(() => held.length === 1, 30_000, 'the run to call the upstream');
      server.child.kill('SIGTERM');
      await eventually(() => server.output().includes('shutting down'), 10_000, 'the shutdown to begin');
      held[0].end('{}');
      expect(await exitCode(server)).toBe(0);
      await client.finished;
    } finally {
      client.stop();
    }

    const { answers } = client;
    expect(answers.slice(0, 20)).toEqual(Array(20).fill({ path: '/health', status: 200, connection: 'keep-alive', socket: 0 }));
    // The answer given during the drain closed the connection, and the client could not open another.
    expect(answers.slice(20)).toEqual([
      { path: `/api/workflows/${workflowId}/execute`, status: 200, connection: 'close', socket: 0 },
    ]);
  });

  it('cuts a stream still running when the drain deadline passes', async () => {
    const server = await startSluice({ ...env, SLUICE_HTTP_SHUTDOWN_GRACE_MS: '1000' });
    const { body } = await streamHeldUpstream(server.url);
    server.child.kill('SIGTERM');
    // The upstream never answers: only the deadline can end the stream.
    expect(await exitCode(server)).toBe(0);
    const received = await body;
    expect(received.text).not.toContain('[DONE]');
  });

  it('exits at once on a second SIGTERM, whatever the first is still waiting for', async () => {
    // The drain alone would wait two minutes for the stream below.
    const server = await startSluice({ ...env, SLUICE_HTTP_SHUTDOWN_GRACE_MS: '120000' });
    const { body } = await streamHeldUpstream(server.url);
    server.child.kill('SIGTERM');
    await eventually(() => server.output().includes('shutting down'), 10_000, 'the shutdown to begin');
    server.child.kill('SIGTERM');
    expect(await exitCode(server, 20_000)).toBe(1);
    expect(server.output()).toMatch(/"step":"http drain".*"msg":"second signal: exiting without finishing the shutdown"/);
    await body;
  });
});

/** Short graces, so the whole shutdown's deadline is theirs plus the fixed allowances (src/cli/shutdown.ts): 10.4 s. */
const SHORT_GRACES = { SLUICE_HTTP_SHUTDOWN_GRACE_MS: '200', SLUICE_WORKER_SHUTDOWN_GRACE_MS: '200' };
const SHORT_DEADLINE_MS = 10_400;
/** Slack for a loaded machine on top of the deadline; without the deadline these processes never exit. */
const MARGIN_MS = 15_000;

/** A connection of the test's own that holds what the server needs; released when the test ends. */
async function blocker(sql: string[]): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: testDb!.url });
  await client.connect();
  for (const statement of sql) await client.query(statement);
  return client;
}

const heldUp = 'sluice serve shutdown against a PostgreSQL that holds it up (needs TEST_DATABASE_URL)';
describe.runIf(process.env.TEST_DATABASE_URL)(heldUp, { timeout: 120_000 }, () => {
  it('exits at the deadline when closing waits on a database write that never returns', async () => {
    const server = await startSluice({ ...env, ...SHORT_GRACES });
    // Closing deletes this process's row in `runners`: with the table locked, that statement waits for good.
    const lock = await blocker(['begin', 'lock table runners in access exclusive mode']);
    try {
      server.child.kill('SIGTERM');
      expect(await exitCode(server, SHORT_DEADLINE_MS + MARGIN_MS)).toBe(1);
      expect(server.output()).toMatch(/"step":"close".*"msg":"shutdown deadline passed: exiting with work still pending"/);
    } finally {
      await lock.end();
    }
  });

  it('exits at the deadline when SIGTERM arrives during a start-up stuck on the database', async () => {
    // Start-up waits for the migrations' lock, which another process (here: the test) holds.
    const lock = await blocker([`select pg_advisory_lock(${MIGRATION_LOCK_ID})`]);
    const server = spawnSluice({ ...env, ...SHORT_GRACES });
    try {
      // pg_locks is the whole server's: only this database's waiter on that lock is the process under test.
      const waiting = `select 1 from pg_locks where locktype = 'advisory' and objid = ${MIGRATION_LOCK_ID} and not granted
        and database = (select oid from pg_database where datname = current_database())`;
      await eventually(async () => (await lock.query(waiting)).rowCount! > 0, 30_000, 'the start-up to wait for the migrations lock');
      server.child.kill('SIGTERM');
      expect(await exitCode(server, SHORT_DEADLINE_MS + MARGIN_MS)).toBe(1);
      expect(server.output()).toMatch(/"step":"start-up".*"msg":"shutdown deadline passed: exiting with work still pending"/);
    } finally {
      await lock.end();
    }
  });
});
