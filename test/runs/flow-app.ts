// The set-up shared by the flow control tests in one process (PGlite, or PostgreSQL with TEST_DATABASE_URL): an app,
// a recording upstream, and a worker that a test starts when it wants queued runs to go, stopped after each test so
// the next one starts with its runs queued. Registers its own hooks in the file or describe that calls it.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createAppWorker } from '../../src/app/worker.js';
import type { Worker } from '../../src/jobs/worker.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { startRecordingServer, type RecordingServer } from './flow-support.js';

export interface FlowApp {
  readonly t: TestApp;
  readonly server: RecordingServer;
  /** Starts this test's worker (stopped once the test ends). */
  startWorker(pollIntervalMs?: number): Promise<void>;
}

export function useFlowApp(env: Record<string, string> = {}, holdMs = 150): FlowApp {
  let t: TestApp;
  let server: RecordingServer;
  let worker: Worker | undefined;
  beforeAll(async () => {
    t = await startTestApp(env);
    server = await startRecordingServer(holdMs);
  });
  afterEach(async () => {
    await worker?.stop(2000);
    worker = undefined;
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });
  return {
    get t() {
      return t;
    },
    get server() {
      return server;
    },
    async startWorker(pollIntervalMs = 50) {
      worker = createAppWorker(t.app, { pollIntervalMs });
      await worker.start();
    },
  };
}
