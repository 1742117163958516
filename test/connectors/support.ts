// Helpers for connector block tests: an app whose log lines are kept (to show no secret reaches them), credentials
// made through the API, and a workflow that runs one connector block and answers its outputs — or, on its error edge,
// its error with status 422.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { createAndDeploy, logDetailOf, makeState } from '../support/workflows.js';

export interface ConnectorApp {
  t: TestApp;
  /** Every log line the app wrote (level debug). */
  logText(): string;
}

export async function startConnectorApp(env: Record<string, string> = {}): Promise<ConnectorApp> {
  const chunks: string[] = [];
  const logTo = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const t = await startTestApp({ LOG_LEVEL: 'debug', SLUICE_LIMIT_LOGS_FREE: 'unlimited', ...env }, { logTo });
  return { t, logText: () => chunks.join('') };
}

/** A short name unique to this run of the tests (tables, keys, users), so parallel and repeated runs never collide. */
export const uniqueName = (prefix: string) => `${prefix}_${randomBytes(5).toString('hex')}`;

export async function createCredential(
  t: TestApp,
  type: string,
  data: Record<string, unknown>,
  as: { workspaceId?: string; apiKey?: string } = {},
): Promise<string> {
  const res = await t.request('POST', '/api/v1/credentials', {
    apiKey: as.apiKey,
    body: { workspaceId: as.workspaceId ?? t.workspaceId, name: uniqueName(type), type, data },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
}

export interface InputField {
  name: string;
  type: 'string' | 'number' | 'boolean' | 'json' | 'files';
}

/**
 * Deploys API trigger → the block (named `blk`) → a response of `{<output>: <blk.output>}`, and on the block's error
 * edge a response `422 {error: <blk.error>}`.
 */
export async function deployBlock(
  t: TestApp,
  block: { type: string; config: Record<string, unknown> },
  outputs: string[],
  inputs: InputField[] = [],
): Promise<string> {
  const state = makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: inputs } },
      { id: 'blk', type: block.type, name: 'blk', config: block.config },
      { id: 'ok', type: 'response', name: 'Ok', config: { status: 200, body: Object.fromEntries(outputs.map((o) => [o, `<blk.${o}>`])) } },
      { id: 'failed', type: 'response', name: 'Failed', config: { status: 422, body: { error: '<blk.error>' } } },
    ],
    [
      ['start', 'blk'],
      ['blk', 'ok'],
      ['blk', 'failed', 'error'],
    ],
  );
  return createAndDeploy(t, state, uniqueName(block.type));
}

export interface Executed {
  status: number;
  body: any;
  text: string;
  executionId: string;
}

export async function execute(t: TestApp, workflowId: string, input: Record<string, unknown> = {}): Promise<Executed> {
  const res = await t.request('POST', `/api/workflows/${workflowId}/execute`, { body: input });
  return { status: res.status, body: res.body, text: res.text, executionId: res.headers.get('x-execution-id') ?? res.body?.executionId };
}

/** Runs once and checks that `secret` is in neither the answer, the run's log detail nor the app's log lines. */
export async function executeKeepingSecret(app: ConnectorApp, workflowId: string, input: Record<string, unknown>, secret: string): Promise<Executed> {
  const run = await execute(app.t, workflowId, input);
  expect(run.text).not.toContain(secret);
  const detail = await logDetailOf(app.t, run.executionId);
  expect(JSON.stringify(detail)).not.toContain(secret);
  expect(app.logText()).not.toContain(secret);
  return run;
}
