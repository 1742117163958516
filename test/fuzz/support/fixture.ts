// The world the fuzz tests attack: a real app with an in-process worker, and one real resource behind every kind
// of path parameter, so a fuzzed request can reach past "not found" into body parsing, runs, logs and deliveries.
// Resources are grouped by what the fuzz may do to them: `stable` ones are only read or run (their behaviour is
// what the run properties rely on), `scratch` ones may be changed at will, `sacrificial` ones exist to be deleted.
import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import { createAppWorker } from '../../../src/app/worker.js';
import { appendMemory } from '../../../src/services/agent-memory.js';
import type { Worker } from '../../../src/jobs/worker.js';
import { startUpstream, type FakeUpstream } from '../../net/fake-upstream.js';
import { startTestApp, type TestApp } from '../../support/app.js';
import { startMcpServer } from '../../support/mcp-server.js';
import { eventually } from '../../support/eventually.js';
import { createAndDeploy, makeState, parseSse } from '../../support/workflows.js';
import { createRawClient, type RawClient } from './client.js';

/** Names of the pools of known values a path parameter can be filled from. */

/** A small OpenAPI document the connector routes import (docs/api.md "Connectors (OpenAPI)"). */
export const FUZZ_OPENAPI_DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Fuzz', version: '1' },
  servers: [{ url: 'http://127.0.0.1:9' }],
  paths: { '/items/{id}': { get: { operationId: 'getItem', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } } } },
};

export type Pool =
  | 'workspace'
  | 'scratchWorkspace'
  | 'runnableWorkflow'
  | 'hookedWorkflow'
  | 'scratchWorkflow'
  | 'sacrificialWorkflow'
  | 'chatWorkflow'
  | 'subscription'
  | 'scratchSubscription'
  | 'sacrificialSubscription'
  | 'delivery'
  | 'version'
  | 'folder'
  | 'scratchFolder'
  | 'sacrificialFolder'
  | 'credential'
  | 'sacrificialCredential'
  | 'connector'
  | 'sacrificialConnector'
  | 'sacrificialKey'
  | 'member'
  | 'sacrificialInvite'
  | 'inviteToken'
  | 'envName'
  | 'memoryKey'
  | 'sacrificialMemoryKey'
  | 'log'
  | 'execution'
  | 'failedExecution'
  | 'rerunBatch'
  | 'job'
  | 'file'
  | 'webhookPath';

export const WEBHOOK_SECRET = 'fuzz-webhook-secret';
export const FILE_FIELD = 'f';
const PASSWORD = 'correct horse battery staple 42';

export interface FuzzFixture {
  t: TestApp;
  client: RawClient;
  pools: Record<Pool, string[]>;
  /**
   * Workflows whose function throws an error that says "timed out" (API, chat and webhook triggers): their 500
   * EXECUTION_FAILED is the documented answer, never a 408.
   */
  failing: { workflowId: string; chatId: string; hookPath: string };
  apiWorkflowId: string;
  /** A real MCP server on loopback, so a valid tool listing succeeds. */
  mcpUrl: string;
  privateChatId: string;
  publicChatId: string;
  openHookPath: string;
  signedHookPath: string;
  /** Query string of the valid signed download link of an uploaded file (expires=…&signature=…). */
  fileQuery: string;
  /** Authentications a fuzzed request can carry (header sets). */
  auth: {
    adminKey: Record<string, string>;
    personalKey: Record<string, string>;
    outsiderKey: Record<string, string>;
    /** A signed-in member of the Default workspace, with its CSRF token. */
    memberSession: Record<string, string>;
    memberSessionWithoutCsrf: Record<string, string>;
    none: Record<string, string>;
  };
  /** Workspaces whose logs hold the runs of the fuzz (the ledger looks in each). */
  workspaces: string[];
  close(): Promise<void>;
}

const plain = (blocks: Parameters<typeof makeState>[0], edges: Parameters<typeof makeState>[1]) => makeState(blocks, edges);

/** Every run-capable workflow here succeeds on any input: a fuzzed run that fails is then a finding, not noise. */
const apiState = () =>
  plain(
    [
      {
        id: 'start',
        type: 'api_trigger',
        name: 'API',
        config: {
          inputFormat: [
            { name: 'q', type: 'json' },
            { name: 'n', type: 'number' },
            { name: 's', type: 'string' },
            { name: FILE_FIELD, type: 'files' },
          ],
        },
      },
      { id: 'echo', type: 'function', name: 'Echo', config: { code: 'return { q: <api.q>, n: <api.n>, s: <api.s>, input: <api.input> };' } },
    ],
    [['start', 'echo']],
  );

const respondState = () =>
  plain(
    [
      { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'json' }] } },
      { id: 'out', type: 'response', name: 'Out', config: { status: 201, body: { q: '<api.q>' } } },
    ],
    [['start', 'out']],
  );

const failingState = (trigger: { id: string; type: string; name: string; config?: Record<string, unknown> }) =>
  plain(
    [trigger, { id: 'boom', type: 'function', name: 'Boom', config: { code: 'throw new Error("the upstream service timed out");' } }],
    [[trigger.id, 'boom']],
  );

// Chat and webhook workflows use a variables block rather than a function: a sandbox run costs ~6× more CPU, and
// the matrices run these hundreds of times (the api workflow keeps a function block for the random fuzz).
const chatState = () =>
  plain(
    [
      { id: 'chat', type: 'chat_trigger', name: 'Chat' },
      { id: 'reply', type: 'variables', name: 'Reply', config: { assignments: [{ name: 'said', value: '<chat.message>' }] } },
    ],
    [['chat', 'reply']],
  );

const hookState = (path: string, secret?: string) =>
  plain(
    [
      { id: 'hook', type: 'webhook_trigger', name: 'Hook', config: { path, ...(secret ? { secret } : {}) } },
      {
        id: 'seen',
        type: 'variables',
        name: 'Seen',
        config: { assignments: [{ name: 'body', value: '<webhook.body>' }, { name: 'query', value: '<webhook.query>' }] },
      },
    ],
    [['hook', 'seen']],
  );

/** `X-Sluice-Signature` for `body` as the signed webhook trigger expects it. */
export function signWebhookBody(body: Buffer | string, at = Date.now()): string {
  const digest = createHmac('sha256', WEBHOOK_SECRET).update(`${at}.`).update(body).digest('hex');
  return `t=${at},v1=${digest}`;
}

export async function startFuzzFixture(name: string): Promise<FuzzFixture> {
  // FUZZ_CPU=1 prints what the file cost (client and server share this process; PostgreSQL's own work is not counted).
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  const t = await startTestApp({
    // Limits would turn most of the fuzz into 429s and 402s; the fuzz is about what lies behind them.
    SLUICE_LIMIT_SYNC_FREE: 'unlimited',
    SLUICE_LIMIT_ASYNC_FREE: 'unlimited',
    SLUICE_LIMIT_LOGS_FREE: 'unlimited',
    SLUICE_LIMIT_USAGE_USD_FREE: 'unlimited',
    SLUICE_ALLOW_SIGNUP: 'true',
    // Small, so oversized execute/chat/run/webhook bodies are cheap to send.
    SLUICE_MAX_REQUEST_BYTES: String(256 * 1024),
    SLUICE_WEBHOOK_MAX_ATTEMPTS: '1',
  });
  const worker: Worker = createAppWorker(t.app, { pollIntervalMs: 50 });
  await worker.start();
  const receiver: FakeUpstream = await startUpstream((_req, res) => res.writeHead(200).end('{"ok":true}'));
  const mcp = await startMcpServer();
  const client = createRawClient(t.url);
  const ok = async (method: string, path: string, body?: unknown, apiKey: string | null = t.personalKey, headers: Record<string, string> = {}) => {
    const res = await t.request(method, path, { body, apiKey, headers });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res;
  };

  // Workflows that run (stable), one that fails on purpose, and ones the fuzz may change or delete.
  const apiWorkflowId = await createAndDeploy(t, apiState(), `${name} api`);
  const respondWorkflowId = await createAndDeploy(t, respondState(), `${name} respond`);
  const failing = {
    workflowId: await createAndDeploy(t, failingState({ id: 'start', type: 'api_trigger', name: 'API' }), `${name} failing`),
    chatId: await createAndDeploy(t, failingState({ id: 'chat', type: 'chat_trigger', name: 'Chat' }), `${name} failing chat`),
    hookPath: `${name}-failing`,
  };
  await createAndDeploy(
    t,
    failingState({ id: 'hook', type: 'webhook_trigger', name: 'Hook', config: { path: failing.hookPath } }),
    `${name} failing hook`,
  );
  const privateChatId = await createAndDeploy(t, chatState(), `${name} chat`);
  const publicChatId = await createAndDeploy(t, chatState(), `${name} public chat`);
  await ok('PATCH', `/api/v1/workflows/${publicChatId}`, { chatPublic: true });
  const openHookPath = `${name}/open`;
  const signedHookPath = `${name}-signed`;
  await createAndDeploy(t, hookState(openHookPath), `${name} hook`);
  await createAndDeploy(t, hookState(signedHookPath, WEBHOOK_SECRET), `${name} signed hook`);
  const scratchWorkflowId = await createAndDeploy(t, apiState(), `${name} scratch`);
  await ok('POST', `/api/v1/workflows/${scratchWorkflowId}/deploy`); // a version 2 to activate back and forth
  const sacrificialWorkflows = [];
  for (let i = 0; i < 3; i++) sacrificialWorkflows.push(await createAndDeploy(t, apiState(), `${name} doomed ${i}`));

  // Workspaces, members, environment variables.
  const scratchWorkspace = (await ok('POST', '/api/v1/workspaces', { name: `${name} scratch` })).body.data.id as string;
  const gone = await ok('POST', `/api/v1/workspaces/${scratchWorkspace}/members`, { email: `gone-${name}@fuzz.test` });
  await ok('PUT', `/api/v1/workspaces/${scratchWorkspace}/env`, { variables: { FUZZ_VAR: 'value' } });
  const invites = [];
  for (let i = 0; i < 3; i++) invites.push((await ok('POST', `/api/v1/workspaces/${scratchWorkspace}/invites`, { role: 'viewer' })).body.data);

  // People: a member of Default signed in to the web app, and an outsider with a key of their own.
  const memberEmail = `member-${name}@fuzz.test`;
  const member = await ok('POST', '/api/v1/auth/sign-up', { email: memberEmail, password: PASSWORD }, null);
  await ok('POST', `/api/v1/workspaces/${t.workspaceId}/members`, { email: memberEmail, role: 'editor' });
  const memberCookie = (member.headers.get('set-cookie') ?? '').split(';')[0]!;
  const outsider = await ok('POST', '/api/v1/auth/sign-up', { email: `outsider-${name}@fuzz.test`, password: PASSWORD }, null);
  const outsiderCookie = (outsider.headers.get('set-cookie') ?? '').split(';')[0]!;
  const outsiderKey = (
    await ok('POST', '/api/v1/api-keys', { name: 'outsider' }, null, { cookie: outsiderCookie, 'x-csrf-token': outsider.body.csrfToken })
  ).body.data.key as string;

  // Folders and keys.
  const folder = (await ok('POST', '/api/v1/folders', { workspaceId: t.workspaceId, name: 'stable' })).body.data.id as string;
  const scratchFolder = (await ok('POST', '/api/v1/folders', { workspaceId: t.workspaceId, name: 'scratch' })).body.data.id as string;
  const sacrificialFolders = [];
  const sacrificialKeys = [];
  const credentialBody = (name: string) => ({ workspaceId: t.workspaceId, name, type: 'http', data: { scheme: 'bearer', token: 'fuzz-token' } });
  const credential = (await ok('POST', '/api/v1/credentials', credentialBody('stable'))).body.data.id as string;
  const sacrificialCredentials = [];
  const connectorBody = (name: string) => ({ workspaceId: t.workspaceId, name, document: FUZZ_OPENAPI_DOCUMENT });
  const connector = (await ok('POST', '/api/v1/connectors', connectorBody('stable'))).body.data.id as string;
  const sacrificialConnectors = [];
  for (let i = 0; i < 3; i++) {
    sacrificialCredentials.push((await ok('POST', '/api/v1/credentials', credentialBody(`doomed ${i}`))).body.data.id as string);
    sacrificialConnectors.push((await ok('POST', '/api/v1/connectors', connectorBody(`doomed ${i}`))).body.data.id as string);
    sacrificialFolders.push((await ok('POST', '/api/v1/folders', { workspaceId: t.workspaceId, name: `doomed ${i}` })).body.data.id as string);
    sacrificialKeys.push((await ok('POST', '/api/v1/api-keys', { name: `doomed ${i}` })).body.data.id as string);
  }

  // Subscriptions: one to a live receiver on a stable workflow, the others on the scratch workflow.
  const hooks = (wf: string) => `/api/v1/workflows/${wf}/webhooks`;
  const subscription = (await ok('POST', hooks(apiWorkflowId), { url: receiver.url, secret: 'receiver-secret' })).body.data.id as string;
  const scratchSubscription = (await ok('POST', hooks(scratchWorkflowId), { url: receiver.url })).body.data.id as string;
  const sacrificialSubscriptions = [];
  for (let i = 0; i < 3; i++) sacrificialSubscriptions.push((await ok('POST', hooks(scratchWorkflowId), { url: receiver.url })).body.data.id as string);

  // Agent conversation memories (an agent would write them; written directly, no model needed): one to read, some to delete.
  const remember = (workflowId: string, key: string) =>
    appendMemory(t.app.db, { workflowId, key, executionId: 'exec_fuzz' }, [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
    ]);
  await remember(apiWorkflowId, 'fuzz-conversation');
  const sacrificialMemoryKeys = ['doomed-0', 'doomed:1', 'doomed_2'];
  for (const key of sacrificialMemoryKeys) await remember(scratchWorkflowId, key);

  // One run of each kind that leaves something to look up: a log, a delivery, an async job, an uploaded file.
  const withFile = await ok('POST', `/api/workflows/${apiWorkflowId}/execute`, {
    [FILE_FIELD]: [{ type: 'file', data: `data:text/plain;base64,${Buffer.from('fuzz').toString('base64')}`, name: 'fuzz.txt', mime: 'text/plain' }],
  });
  const executionId = withFile.body.executionId as string;
  const fileUrl = new URL(withFile.body.output.result.input[FILE_FIELD][0].url as string);
  const fileId = fileUrl.pathname.split('/').pop()!;
  const job = await ok('POST', `/api/workflows/${apiWorkflowId}/execute`, { q: 1 }, t.personalKey, { 'x-execution-mode': 'async' });
  const log = await eventually(async () => {
    const res = await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}&executionId=${executionId}`);
    return res.body.data?.[0]?.id as string | undefined;
  }, 10_000, 'the first log');
  const delivery = await eventually(async () => {
    const res = await t.request('GET', `${hooks(apiWorkflowId)}/${subscription}/deliveries`);
    return res.body.data?.[0]?.id as string | undefined;
  }, 10_000, 'the first delivery');
  // A failed run for the retry route (a run that did not fail is not retried): it failed because of a workspace
  // variable that has changed since, so retrying it succeeds.
  const retryable = await createAndDeploy(
    t,
    plain(
      [
        { id: 'start', type: 'api_trigger', name: 'API' },
        { id: 'call', type: 'api', name: 'Call', config: { url: '{{FUZZ_RETRY_URL}}', method: 'GET', retries: 0 } },
      ],
      [['start', 'call']],
    ),
    `${name} retryable`,
  );
  await ok('PUT', `/api/v1/workspaces/${t.workspaceId}/env`, { variables: { FUZZ_RETRY_URL: 'not a url' } });
  const failedRun = await t.request('POST', `/api/workflows/${retryable}/execute`, { body: {} });
  expect(failedRun.status, failedRun.text).toBe(500);
  await ok('PUT', `/api/v1/workspaces/${t.workspaceId}/env`, { variables: { FUZZ_RETRY_URL: receiver.url } });
  // A bulk re-run that matched nothing: a batch to read, with nothing queued behind it.
  const batch = await t.request('POST', '/api/v1/executions/rerun', { body: { workspaceId: t.workspaceId, filter: { executionId: 'exec_none' } } });
  expect(batch.status, batch.text).toBe(202);
  const streamed = await ok('POST', `/api/v1/workflows/${apiWorkflowId}/run`, {});
  expect(parseSse(streamed.text).records.at(-1)).toBe('[DONE]');

  const header = (key: string) => ({ 'x-api-key': key });
  return {
    t,
    client,
    pools: {
      workspace: [t.workspaceId],
      scratchWorkspace: [scratchWorkspace],
      // The matrices aim at the first: a response block only, the cheapest run.
      runnableWorkflow: [respondWorkflowId, apiWorkflowId, privateChatId, publicChatId],
      // The workflow of `subscription` and `delivery`: their routes find them only under it.
      hookedWorkflow: [apiWorkflowId],
      scratchWorkflow: [scratchWorkflowId],
      sacrificialWorkflow: sacrificialWorkflows,
      chatWorkflow: [privateChatId, publicChatId],
      subscription: [subscription],
      scratchSubscription: [scratchSubscription],
      sacrificialSubscription: sacrificialSubscriptions,
      delivery: [delivery],
      version: ['1', '2'],
      folder: [folder],
      scratchFolder: [scratchFolder],
      sacrificialFolder: sacrificialFolders,
      credential: [credential],
      sacrificialCredential: sacrificialCredentials,
      connector: [connector],
      sacrificialConnector: sacrificialConnectors,
      sacrificialKey: sacrificialKeys,
      member: [gone.body.data.userId as string, t.userId],
      sacrificialInvite: invites.map((i: { id: string }) => i.id),
      inviteToken: invites.map((i: { url: string }) => new URL(i.url).searchParams.get('token')!),
      envName: ['FUZZ_VAR'],
      memoryKey: ['fuzz-conversation'],
      sacrificialMemoryKey: sacrificialMemoryKeys,
      log: [log],
      execution: [executionId],
      failedExecution: [failedRun.body.executionId as string],
      rerunBatch: [batch.body.data.batchId as string],
      job: [job.body.taskId as string],
      file: [fileId],
      webhookPath: [openHookPath, signedHookPath],
    },
    failing,
    apiWorkflowId,
    mcpUrl: mcp.url,
    privateChatId,
    publicChatId,
    openHookPath,
    signedHookPath,
    fileQuery: fileUrl.search.slice(1),
    auth: {
      adminKey: header(t.apiKey),
      personalKey: header(t.personalKey),
      outsiderKey: header(outsiderKey),
      memberSession: { cookie: memberCookie, 'x-csrf-token': member.body.csrfToken as string },
      memberSessionWithoutCsrf: { cookie: memberCookie },
      none: {},
    },
    workspaces: [t.workspaceId, scratchWorkspace],
    async close() {
      if (process.env.FUZZ_CPU) {
        const used = process.cpuUsage(cpuStart);
        const cpu = ((used.user + used.system) / 1e6).toFixed(1);
        console.log(`fuzz ${name}: ${cpu} s CPU, ${((performance.now() - wallStart) / 1000).toFixed(1)} s wall`);
      }
      client.close();
      await worker.stop(1_000);
      await receiver.close();
      await mcp.close();
      await t.close();
    },
  };
}
