// Starts the real HTTP app on an ephemeral port against a fresh database, with an admin, a workspace and a key.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { generateApiKey, storeApiKey } from '../../src/services/api-keys.js';
import { createAppContext, type AppContext } from '../../src/app/context.js';
import { bootstrapAdmin } from '../../src/services/workspaces.js';
import { startHttpServer } from '../../src/server.js';
import { createTestDatabase } from './database.js';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw text body, sent as is (for malformed JSON tests). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Defaults to the admin key; null sends no key. */
  apiKey?: string | null;
}

export interface TestApp {
  url: string;
  /** The test database's URL on PostgreSQL (for a second process); undefined on PGlite. */
  databaseUrl?: string;
  app: AppContext;
  config: Config;
  /** The bootstrap key: workspace-scoped to Default, as bootstrap provisions it (docs/api.md 2). */
  apiKey: string;
  /** A personal key of the same admin (reaches all the admin's workspaces). */
  personalKey: string;
  userId: string;
  workspaceId: string;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Where the app's log lines go (with LOG_LEVEL set in `env`); by default the logger is silent. */
  logTo?: NodeJS.WritableStream;
}

export async function startTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-test-'));
  const config = loadConfig({
    SLUICE_SECRET: 'test-secret-test-secret-test-secret-0123',
    SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
    LOG_LEVEL: env.LOG_LEVEL ?? 'silent',
    SLUICE_DATA_DIR: dataDir,
    PORT: '0',
    // The test user is on the free plan, whose logs API allows 10 requests a minute: a test that polls for a log would
    // wait out the window (up to a minute) instead of failing or passing. The limit itself is tested with its own
    // values (test/http/logs-rate-limit.test.ts).
    SLUICE_LIMIT_LOGS_FREE: '100000',
    ...env,
  });
  const testDb = await createTestDatabase();
  const app = await createAppContext(config, createLogger(config.logLevel, options.logTo), testDb.database);
  const admin = await bootstrapAdmin(app.db, { apiKey: generateApiKey(), adminEmail: 'admin@localhost', plan: 'free' });
  const personalKey = generateApiKey();
  await storeApiKey(app.db, { key: personalKey, userId: admin.userId, workspaceId: null, name: 'personal' });
  await app.startRunner();
  const server = await startHttpServer(app, { port: 0, host: '127.0.0.1' });

  const request = async <T>(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.apiKey === undefined ? admin.apiKey : options.apiKey;
    if (key !== null) headers['x-api-key'] = key;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(server.url + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON; keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };

  return {
    url: server.url,
    databaseUrl: testDb.url,
    app,
    config,
    apiKey: admin.apiKey,
    personalKey,
    userId: admin.userId,
    workspaceId: admin.workspaceId,
    request,
    close: async () => {
      await server.close();
      await app.close();
      await testDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
