// A real Sluice server (test/support/app.ts) with a worker, and a client pointed at it.
import { expect } from 'vitest';
import { createAppWorker } from '../../../src/app/worker.js';
import type { Worker } from '../../../src/jobs/worker.js';
import { startTestApp, type TestApp } from '../../../test/support/app.js';
import { createSluiceClient, SluiceError, type SluiceClient } from '../src/index.js';

export interface ClientTestServer {
  t: TestApp;
  client: SluiceClient;
  close(): Promise<void>;
}

export async function startClientTestServer(env: Record<string, string> = {}): Promise<ClientTestServer> {
  const t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: 'unlimited', ...env });
  const worker: Worker = createAppWorker(t.app, { pollIntervalMs: 50 });
  await worker.start();
  return {
    t,
    client: createSluiceClient({ baseUrl: t.url, apiKey: t.apiKey }),
    close: async () => {
      await worker.stop(1000);
      await t.close();
    },
  };
}

export { echoState } from '../../../test/support/states.js';
export { eventually, makeState } from '../../../test/support/workflows.js';

/** The SluiceError a call is refused with (fails the test when it resolves, or rejects with anything else). */
export async function refusal(promise: PromiseLike<unknown>): Promise<SluiceError> {
  const error = await Promise.resolve(promise).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(SluiceError);
  return error as SluiceError;
}
