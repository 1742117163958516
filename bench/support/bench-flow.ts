// The execute bench's flow (POST JSON → API block to a local echo → response) run in-process, for the benches that
// measure what its runs store (log-storage, delivery-storage): a throw-away database (PGlite, or a database created on
// BENCH_DATABASE_URL's server and dropped afterwards), a local echo, an app with an admin and the flow's state.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createAppContext } from '../../src/app/context.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { createApp } from '../../src/http/app.js';
import { randomBase62 } from '../../src/ids.js';
import { createLogger } from '../../src/logger.js';
import { generateApiKey } from '../../src/services/api-keys.js';
import { bootstrapAdmin } from '../../src/services/workspaces.js';

/** 54 bytes, as in the issue; and a 2.5 KB one, where the payload rather than the span envelope makes the row. */
export const BENCH_FLOW_BODIES = [
  JSON.stringify({ order: 'A-1042', customer: 'c_77', qty: 3, ok: true }),
  JSON.stringify({ order: 'A-1042', lines: Array.from({ length: 40 }, (_, i) => ({ sku: `SKU-${1000 + i}`, name: `Item number ${i} of the order`, qty: i % 5 })) }),
];

export async function openBenchDatabase(serverUrl: string | undefined): Promise<{ database: Database; drop(): Promise<void>; kind: string }> {
  if (!serverUrl) {
    const database = await openDatabase({ kind: 'pglite' });
    return { database, drop: () => database.close(), kind: 'PGlite' };
  }
  const name = `sluice_bench_${randomBase62(8).toLowerCase()}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 });
  return {
    database,
    kind: 'PostgreSQL',
    drop: async () => {
      await database.close();
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/** A loopback server answering every request with its own body. */
export async function startEcho(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

export const benchFlowState = (echoUrl: string) => ({
  blocks: {
    start: { id: 'start', type: 'api_trigger', name: 'API', config: {} },
    call: { id: 'call', type: 'api', name: 'Call', config: { url: `${echoUrl}/echo`, method: 'POST', body: '<api.input>', retries: 0 } },
    out: { id: 'out', type: 'response', name: 'Out', config: { body: { result: '<call.data>' } } },
  },
  edges: [
    { id: 'e1', source: 'start', target: 'call' },
    { id: 'e2', source: 'call', target: 'out' },
  ],
});

/**
 * Sluice in this process on `database`, without a socket: its app context, and `call` for the HTTP API as an admin.
 * `close()` closes the app, drops the database and removes the data directory.
 */
export async function startBenchApp(serverUrl: string | undefined, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-'));
  const { database, drop, kind } = await openBenchDatabase(serverUrl);
  const config = loadConfig({ SLUICE_SECRET: 'bench-secret-bench-secret-bench-0123', LOG_LEVEL: 'silent', SLUICE_DATA_DIR: dataDir, SLUICE_ALLOW_PRIVATE_NETWORK: 'true', ...env });
  const app = await createAppContext(config, createLogger('silent'), database);
  const http = createApp(app);
  const admin = await bootstrapAdmin(app.db, { apiKey: generateApiKey(), adminEmail: 'bench@localhost', plan: 'free' });
  const call = async (method: string, path: string, body?: string) => {
    const res = await http.request(path, { method, headers: { 'x-api-key': admin.apiKey, 'content-type': 'application/json' }, body });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  };
  const close = async () => {
    await app.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { app, kind, call, close, workspaceId: admin.workspaceId };
}
