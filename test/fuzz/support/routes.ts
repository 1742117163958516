// Every route of the app, as the fuzz tests know it: how to fill its path parameters with something that exists,
// what body it reads and how much of one it takes, and a body it accepts (hostile values are mixed into that one so
// the request gets past the schema to wherever the value is used). test/fuzz/route-coverage.test.ts fails when the
// app registers a route that is missing here, so a new route cannot escape the fuzz.
import { FUZZ_OPENAPI_DOCUMENT, type FuzzFixture, type Pool } from './fixture.js';

/**
 * `json`: the handler parses a JSON body (the nesting limit applies). `json-or-empty`: the same, but an empty body
 * is fine. `webhook`: any content type, parsed by the type it declares. `none`: the handler reads no body.
 */
export type BodyKind = 'json' | 'json-or-empty' | 'webhook' | 'none';

export type AuthName = keyof FuzzFixture['auth'];

export interface FuzzRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Exactly as Hono registers it (`createApp(app).routes`). */
  pattern: string;
  body: BodyKind;
  /** Where each path parameter's known values come from. */
  params?: Record<string, Pool>;
  /** The query string that makes an otherwise valid request valid (without the leading `?`). */
  query?: (f: FuzzFixture) => string;
  /** A body the route accepts, when it takes one. */
  validBody?: (f: FuzzFixture) => Record<string, unknown>;
  /** The authentication that reaches the handler (default: the admin's personal key). */
  auth?: AuthName;
  /** The largest body the route reads, in bytes (when it reads one). */
  bodyLimit?: number;
  /** Hashes a password for a valid request (~100 ms): matrices send it a sample of their cases (sampleFor). */
  slow?: boolean;
}

/** Every case, or every fifth one for a slow route (its cases differ in what it ignores: the query, the auth). */
export const sampleFor = <T>(route: FuzzRoute, cases: readonly T[]): readonly T[] =>
  route.slow ? cases.filter((_, i) => i % 5 === 0) : cases;

/**
 * Which known resources the fixed cases aim at: both inbound webhook paths (open and signed) and both chats (private
 * and public), the first known resource elsewhere.
 */
export const picksOf = (route: FuzzRoute): number[] =>
  route.body === 'webhook' || route.pattern === '/api/chat/:workflowId' ? [0, 1] : [0];

/** Whether the handler reads the query string (the others get a sample of the hostile queries: Hono parses them alike). */
export const readsQuery = (route: FuzzRoute) => route.query !== undefined || route.body === 'webhook';

export const MANAGEMENT_LIMIT = 5 * 1024 * 1024;
export const AUTH_LIMIT = 16 * 1024;
export const SUBSCRIPTION_LIMIT = 64 * 1024;
/** SLUICE_MAX_REQUEST_BYTES of the fuzz app (fixture.ts). */
export const RUN_LIMIT = 256 * 1024;

const ws = (f: FuzzFixture) => `workspaceId=${f.pools.workspace[0]}`;
const hooks = '/api/v1/workflows/:workflowId/webhooks';

export const FUZZ_ROUTES: FuzzRoute[] = [
  { method: 'GET', pattern: '/health', body: 'none', auth: 'none' },
  { method: 'GET', pattern: '/api/openapi.json', body: 'none', auth: 'none' },
  // The interactive API reference: its page, Scalar's bundle and the script that starts it.
  { method: 'GET', pattern: '/docs', body: 'none', auth: 'none' },
  { method: 'GET', pattern: '/docs/init.js', body: 'none', auth: 'none' },
  { method: 'GET', pattern: '/docs/scalar.js', body: 'none', auth: 'none' },
  { method: 'GET', pattern: '/ready', body: 'none', auth: 'none' },
  // Without SLUICE_METRICS_TOKEN (the fuzz app sets none) anyone may scrape.
  { method: 'GET', pattern: '/metrics', body: 'none', auth: 'none' },

  // Web app sessions.
  { method: 'GET', pattern: '/api/v1/auth/options', body: 'none', auth: 'none' },
  {
    method: 'POST',
    pattern: '/api/v1/auth/sign-in',
    body: 'json',
    auth: 'none',
    bodyLimit: AUTH_LIMIT,
    slow: true,
    validBody: () => ({ email: 'nobody@fuzz.test', password: 'not the password' }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/auth/sign-up',
    body: 'json',
    auth: 'none',
    bodyLimit: AUTH_LIMIT,
    slow: true,
    validBody: () => ({ email: `new-${Math.random().toString(36).slice(2)}@fuzz.test`, password: 'a long enough password 1' }),
  },
  { method: 'POST', pattern: '/api/v1/auth/sign-out', body: 'none', auth: 'none' },
  // First-run setup: the fuzz app's users have passwords, so a valid token would still be refused (409); hostile
  // tokens, emails and passwords must be refused in the error shape.
  { method: 'GET', pattern: '/api/v1/auth/setup', body: 'none', auth: 'none', query: () => 'token=not-the-token' },
  {
    method: 'POST',
    pattern: '/api/v1/auth/setup',
    body: 'json',
    auth: 'none',
    bodyLimit: AUTH_LIMIT,
    slow: true,
    validBody: () => ({ token: 'not-the-token', email: 'owner@fuzz.test', password: 'a long enough password 1' }),
  },
  { method: 'GET', pattern: '/api/v1/auth/session', body: 'none', auth: 'memberSession' },

  { method: 'GET', pattern: '/api/v1/me', body: 'none' },
  { method: 'GET', pattern: '/api/v1/block-types', body: 'none' },

  // Workspaces, members, environment variables.
  { method: 'GET', pattern: '/api/v1/workspaces', body: 'none' },
  { method: 'POST', pattern: '/api/v1/workspaces', body: 'json', bodyLimit: MANAGEMENT_LIMIT, validBody: () => ({ name: 'fuzzed' }) },
  { method: 'GET', pattern: '/api/v1/workspaces/:workspaceId/members', body: 'none', params: { workspaceId: 'workspace' } },
  {
    method: 'POST',
    pattern: '/api/v1/workspaces/:workspaceId/members',
    body: 'json',
    params: { workspaceId: 'scratchWorkspace' },
    bodyLimit: MANAGEMENT_LIMIT,
    validBody: () => ({ email: 'someone@fuzz.test', role: 'editor' }),
  },
  {
    method: 'PATCH',
    pattern: '/api/v1/workspaces/:workspaceId/members/:userId',
    body: 'json',
    params: { workspaceId: 'scratchWorkspace', userId: 'member' },
    bodyLimit: MANAGEMENT_LIMIT,
    validBody: () => ({ role: 'editor' }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/workspaces/:workspaceId/invites',
    body: 'json',
    params: { workspaceId: 'scratchWorkspace' },
    bodyLimit: MANAGEMENT_LIMIT,
    validBody: () => ({ role: 'viewer', email: 'invited@fuzz.test', expiresInHours: 2 }),
  },
  { method: 'GET', pattern: '/api/v1/workspaces/:workspaceId/invites', body: 'none', params: { workspaceId: 'scratchWorkspace' } },
  {
    method: 'DELETE',
    pattern: '/api/v1/workspaces/:workspaceId/invites/:inviteId',
    body: 'none',
    params: { workspaceId: 'scratchWorkspace', inviteId: 'sacrificialInvite' },
  },
  // Invite links: the token is the capability. Accepting hashes a password for a new address.
  { method: 'GET', pattern: '/api/v1/invites/:token', body: 'none', auth: 'none', params: { token: 'inviteToken' } },
  {
    method: 'POST',
    pattern: '/api/v1/invites/:token/accept',
    body: 'json',
    auth: 'none',
    params: { token: 'inviteToken' },
    bodyLimit: AUTH_LIMIT,
    slow: true,
    validBody: () => ({ email: `joined-${Math.random().toString(36).slice(2)}@fuzz.test`, password: 'a long enough password 1' }),
  },
  {
    method: 'DELETE',
    pattern: '/api/v1/workspaces/:workspaceId/members/:userId',
    body: 'none',
    params: { workspaceId: 'scratchWorkspace', userId: 'member' },
  },
  { method: 'GET', pattern: '/api/v1/workspaces/:workspaceId/env', body: 'none', params: { workspaceId: 'scratchWorkspace' } },
  {
    method: 'PUT',
    pattern: '/api/v1/workspaces/:workspaceId/env',
    body: 'json',
    params: { workspaceId: 'scratchWorkspace' },
    bodyLimit: MANAGEMENT_LIMIT,
    validBody: () => ({ variables: { FUZZED: 'value' } }),
  },
  {
    method: 'DELETE',
    pattern: '/api/v1/workspaces/:workspaceId/env/:name',
    body: 'none',
    params: { workspaceId: 'scratchWorkspace', name: 'envName' },
  },

  // Workflows and deployments.
  { method: 'GET', pattern: '/api/v1/workflows', body: 'none', query: ws },
  {
    method: 'POST',
    pattern: '/api/v1/workflows',
    body: 'json',
    bodyLimit: MANAGEMENT_LIMIT,
    validBody: (f) => ({ workspaceId: f.pools.workspace[0], name: 'fuzzed' }),
  },
  { method: 'GET', pattern: '/api/v1/workflows/:workflowId', body: 'none', params: { workflowId: 'runnableWorkflow' } },
  { method: 'GET', pattern: '/api/v1/workflows/:workflowId/export', body: 'none', params: { workflowId: 'runnableWorkflow' } },
  {
    method: 'GET',
    pattern: '/api/v1/workflows/:workflowId/queued-runs',
    body: 'none',
    params: { workflowId: 'runnableWorkflow' },
    query: () => 'limit=5',
  },
  {
    method: 'POST',
    pattern: '/api/v1/workflows/import',
    body: 'json',
    bodyLimit: MANAGEMENT_LIMIT,
    validBody: (f) => ({
      workspaceId: f.pools.scratchWorkspace[0],
      document: { format: 'sluice.workflow', version: 1, name: 'imported', description: '', state: { blocks: {}, edges: [], loops: {}, parallels: {} } },
    }),
  },
  {
    method: 'PATCH',
    pattern: '/api/v1/workflows/:workflowId',
    body: 'json',
    params: { workflowId: 'scratchWorkflow' },
    bodyLimit: MANAGEMENT_LIMIT,
    validBody: () => ({ name: 'renamed' }),
  },
  { method: 'DELETE', pattern: '/api/v1/workflows/:workflowId', body: 'none', params: { workflowId: 'sacrificialWorkflow' } },
  { method: 'POST', pattern: '/api/v1/workflows/:workflowId/deploy', body: 'none', params: { workflowId: 'scratchWorkflow' } },
  { method: 'DELETE', pattern: '/api/v1/workflows/:workflowId/deploy', body: 'none', params: { workflowId: 'scratchWorkflow' } },
  { method: 'GET', pattern: '/api/v1/workflows/:workflowId/deployments', body: 'none', params: { workflowId: 'runnableWorkflow' } },
  {
    method: 'POST',
    pattern: '/api/v1/workflows/:workflowId/deployments/:version/activate',
    body: 'none',
    params: { workflowId: 'scratchWorkflow', version: 'version' },
  },

  // Completion webhook subscriptions, their deliveries and test events.
  { method: 'GET', pattern: hooks, body: 'none', params: { workflowId: 'runnableWorkflow' } },
  {
    method: 'POST',
    pattern: hooks,
    body: 'json',
    params: { workflowId: 'scratchWorkflow' },
    bodyLimit: SUBSCRIPTION_LIMIT,
    validBody: () => ({ url: 'http://127.0.0.1:9/fuzz' }),
  },
  {
    method: 'POST',
    pattern: `${hooks}/deliveries/:deliveryId/redeliver`,
    body: 'none',
    params: { workflowId: 'hookedWorkflow', deliveryId: 'delivery' },
  },
  {
    method: 'GET',
    pattern: `${hooks}/:subscriptionId`,
    body: 'none',
    params: { workflowId: 'hookedWorkflow', subscriptionId: 'subscription' },
  },
  {
    method: 'PATCH',
    pattern: `${hooks}/:subscriptionId`,
    body: 'json',
    params: { workflowId: 'scratchWorkflow', subscriptionId: 'scratchSubscription' },
    bodyLimit: SUBSCRIPTION_LIMIT,
    validBody: () => ({ active: true }),
  },
  {
    method: 'DELETE',
    pattern: `${hooks}/:subscriptionId`,
    body: 'none',
    params: { workflowId: 'scratchWorkflow', subscriptionId: 'sacrificialSubscription' },
  },
  {
    method: 'POST',
    pattern: `${hooks}/:subscriptionId/test`,
    body: 'none',
    params: { workflowId: 'hookedWorkflow', subscriptionId: 'subscription' },
  },
  {
    method: 'GET',
    pattern: `${hooks}/:subscriptionId/deliveries`,
    body: 'none',
    params: { workflowId: 'hookedWorkflow', subscriptionId: 'subscription' },
    query: () => 'limit=5',
  },
  {
    method: 'POST',
    pattern: `${hooks}/:subscriptionId/deliveries/:deliveryId/redeliver`,
    body: 'none',
    params: { workflowId: 'hookedWorkflow', subscriptionId: 'subscription', deliveryId: 'delivery' },
  },

  // Agent conversation memories.
  { method: 'GET', pattern: '/api/v1/workflows/:workflowId/memories', body: 'none', params: { workflowId: 'hookedWorkflow' }, query: () => 'limit=5' },
  {
    method: 'GET',
    pattern: '/api/v1/workflows/:workflowId/memories/:key',
    body: 'none',
    params: { workflowId: 'hookedWorkflow', key: 'memoryKey' },
    query: () => 'limit=5',
  },
  {
    method: 'DELETE',
    pattern: '/api/v1/workflows/:workflowId/memories/:key',
    body: 'none',
    params: { workflowId: 'scratchWorkflow', key: 'sacrificialMemoryKey' },
  },

  // The editor's Run button (the draft; JSON answer with ?stream=false, else SSE).
  {
    method: 'POST',
    pattern: '/api/v1/workflows/:workflowId/run',
    body: 'json-or-empty',
    params: { workflowId: 'runnableWorkflow' },
    query: () => 'stream=false',
    bodyLimit: RUN_LIMIT,
    validBody: () => ({ input: { q: 1 } }),
  },

  // Folders.
  { method: 'GET', pattern: '/api/v1/folders', body: 'none', query: ws },
  {
    method: 'POST',
    pattern: '/api/v1/folders',
    body: 'json',
    bodyLimit: MANAGEMENT_LIMIT,
    validBody: (f) => ({ workspaceId: f.pools.workspace[0], name: 'fuzzed' }),
  },
  { method: 'GET', pattern: '/api/v1/folders/:folderId', body: 'none', params: { folderId: 'folder' } },
  {
    method: 'PATCH',
    pattern: '/api/v1/folders/:folderId',
    body: 'json',
    params: { folderId: 'scratchFolder' },
    bodyLimit: MANAGEMENT_LIMIT,
    validBody: () => ({ name: 'renamed' }),
  },
  { method: 'DELETE', pattern: '/api/v1/folders/:folderId', body: 'none', params: { folderId: 'sacrificialFolder' } },

  // Credentials.
  { method: 'GET', pattern: '/api/v1/credentials', body: 'none', query: ws },
  {
    method: 'POST',
    pattern: '/api/v1/credentials',
    body: 'json',
    bodyLimit: MANAGEMENT_LIMIT,
    validBody: (f) => ({ workspaceId: f.pools.workspace[0], name: `fuzzed ${Math.random()}`, type: 'http', data: { scheme: 'bearer', token: 't' } }),
  },
  { method: 'GET', pattern: '/api/v1/credentials/:credentialId', body: 'none', params: { credentialId: 'credential' } },
  {
    method: 'PATCH',
    pattern: '/api/v1/credentials/:credentialId',
    body: 'json',
    params: { credentialId: 'credential' },
    bodyLimit: MANAGEMENT_LIMIT,
    validBody: () => ({ data: { token: 'rotated' } }),
  },
  { method: 'POST', pattern: '/api/v1/credentials/:credentialId/test', body: 'none', params: { credentialId: 'credential' } },
  { method: 'DELETE', pattern: '/api/v1/credentials/:credentialId', body: 'none', params: { credentialId: 'sacrificialCredential' } },

  // OpenAPI connectors.
  { method: 'GET', pattern: '/api/v1/connectors', body: 'none', query: ws },
  {
    method: 'POST',
    pattern: '/api/v1/connectors',
    body: 'json',
    bodyLimit: MANAGEMENT_LIMIT,
    validBody: (f) => ({ workspaceId: f.pools.workspace[0], name: `fuzzed ${Math.random()}`, document: FUZZ_OPENAPI_DOCUMENT }),
  },
  { method: 'GET', pattern: '/api/v1/connectors/:connectorId', body: 'none', params: { connectorId: 'connector' } },
  { method: 'DELETE', pattern: '/api/v1/connectors/:connectorId', body: 'none', params: { connectorId: 'sacrificialConnector' } },

  // API keys.
  { method: 'GET', pattern: '/api/v1/api-keys', body: 'none' },
  { method: 'POST', pattern: '/api/v1/api-keys', body: 'json', bodyLimit: MANAGEMENT_LIMIT, validBody: () => ({ name: 'fuzzed' }) },
  { method: 'DELETE', pattern: '/api/v1/api-keys/:keyId', body: 'none', params: { keyId: 'sacrificialKey' } },

  // Logs.
  { method: 'GET', pattern: '/api/v1/logs', body: 'none', query: ws },
  { method: 'GET', pattern: '/api/v1/logs/executions/:executionId', body: 'none', params: { executionId: 'execution' } },
  { method: 'GET', pattern: '/api/v1/logs/:logId', body: 'none', params: { logId: 'log' } },
  // Finished runs: 409; unknown ids: 404 after the cancel request found no process running them.
  { method: 'POST', pattern: '/api/v1/executions/:executionId/cancel', body: 'none', params: { executionId: 'execution' } },
  {
    method: 'POST',
    pattern: '/api/v1/executions/:executionId/resume',
    body: 'json',
    params: { executionId: 'execution' },
    validBody: () => ({ approved: true, data: { note: 'ok' } }),
    bodyLimit: MANAGEMENT_LIMIT,
  },
  { method: 'GET', pattern: '/api/v1/executions', body: 'none', query: (f) => `${ws(f)}&status=paused` },
  // A dry run: the checks of a re-run without running one.
  {
    method: 'POST',
    pattern: '/api/v1/executions/:executionId/rerun',
    body: 'json-or-empty',
    params: { executionId: 'execution' },
    validBody: () => ({ fromBlock: 'start', dryRun: true }),
    bodyLimit: MANAGEMENT_LIMIT,
  },
  {
    method: 'POST',
    pattern: '/api/v1/executions/:executionId/retry',
    body: 'json-or-empty',
    params: { executionId: 'failedExecution' },
    validBody: () => ({ dryRun: true }),
    bodyLimit: MANAGEMENT_LIMIT,
  },
  // Bulk re-runs: aimed at an execution id that exists nowhere, so a valid request queues nothing.
  {
    method: 'POST',
    pattern: '/api/v1/executions/rerun',
    body: 'json',
    validBody: (f) => ({ workspaceId: f.pools.workspace[0], filter: { executionId: 'exec_none' }, fromFailedBlock: true, limit: 1 }),
    bodyLimit: MANAGEMENT_LIMIT,
  },
  { method: 'GET', pattern: '/api/v1/executions/rerun/:batchId', body: 'none', params: { batchId: 'rerunBatch' } },
  // An MCP server's tools, of the fixture's real MCP server (an unreachable one is a documented 502, checks.ts).
  {
    method: 'POST',
    pattern: '/api/v1/mcp/tools',
    body: 'json',
    validBody: (f) => ({ workspaceId: f.pools.workspace[0], url: f.mcpUrl }),
    bodyLimit: MANAGEMENT_LIMIT,
  },

  // Unversioned API: runs, their status, usage, jobs, inbound triggers, signed downloads.
  { method: 'GET', pattern: '/api/workflows/:workflowId/status', body: 'none', params: { workflowId: 'runnableWorkflow' } },
  {
    method: 'POST',
    pattern: '/api/workflows/:workflowId/execute',
    body: 'json',
    params: { workflowId: 'runnableWorkflow' },
    bodyLimit: RUN_LIMIT,
    validBody: () => ({ q: 1 }),
  },
  { method: 'GET', pattern: '/api/users/me/usage-limits', body: 'none' },
  { method: 'GET', pattern: '/api/jobs/:taskId', body: 'none', params: { taskId: 'job' } },
  {
    method: 'POST',
    pattern: '/api/webhooks/trigger/:path{.+}',
    body: 'webhook',
    params: { path: 'webhookPath' },
    auth: 'none',
    bodyLimit: RUN_LIMIT,
    validBody: () => ({ event: 'fuzzed' }),
  },
  {
    method: 'POST',
    pattern: '/api/chat/:workflowId',
    body: 'json',
    params: { workflowId: 'chatWorkflow' },
    bodyLimit: RUN_LIMIT,
    validBody: () => ({ message: 'hello', stream: false }),
  },
  { method: 'GET', pattern: '/api/files/:fileId', body: 'none', params: { fileId: 'file' }, auth: 'none', query: (f) => f.fileQuery },
];

/** Routes that read a JSON body (the nesting limit, NUL and surrogate rules apply to them). */
export const JSON_ROUTES = FUZZ_ROUTES.filter((r) => r.body !== 'none');

const PARAM = /:([A-Za-z]+)(\{[^}]*\})?/g;

/** The names of a pattern's path parameters, in order. */
export const paramNames = (pattern: string) => [...pattern.matchAll(PARAM)].map((m) => m[1]!);

/** The path with each parameter replaced by the given (already encoded, or deliberately raw) text. */
export function fillPath(pattern: string, values: Record<string, string>): string {
  return pattern.replace(PARAM, (_m, name: string) => values[name] ?? 'missing');
}

/** The path aimed at the first known value of every parameter. */
export function knownPath(f: FuzzFixture, route: FuzzRoute, pick = 0): string {
  const values: Record<string, string> = {};
  for (const [name, pool] of Object.entries(route.params ?? {})) {
    const known = f.pools[pool];
    values[name] = encodeURIComponent(known[pick % known.length]!).replaceAll('%2F', '/');
  }
  return fillPath(route.pattern, values);
}
