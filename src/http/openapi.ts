// The OpenAPI 3.1 document (`GET /api/openapi.json`, README "API overview"), built from the same zod schemas the routes validate
// with, so the description cannot drift from what the server accepts; responses are described by response-schemas.ts
// (checked against real answers by test/http/openapi-responses.test.ts). The TypeScript client's types are generated
// from this document (clients/typescript, `npm run generate -w sluice-client`). test/http/openapi-document.test.ts
// checks that every route the app registers is here (and nothing else), and validates the document.
//
// Headers, security and error answers are not written per route: each operation states its traits (`auth`, `run`,
// `rateLimited`, `conflict`…) and the helpers below turn them into parameters, response headers and the error
// responses that apply (components.responses, all in the shape of the Error schema).
import { z } from 'zod';
import { MAX_IDEMPOTENCY_KEY_LENGTH, REPLAYED_HEADER } from '../services/idempotency.js';
import { EXECUTION_ID_HEADER } from '../services/runs/answers.js';
import { SESSION_COOKIE } from '../services/sessions.js';
import { CONVERSATION_ID_HEADER, chatBody } from '../services/triggers/chat.js';
import { REQUEST_ID_HEADER } from '../observability/request-id.js';
import { logsQuerySchema } from '../services/logs/params.js';
import { manualRunBody } from '../services/triggers/manual.js';
import { resumeBody } from '../services/runs/approvals.js';
import { credentials, setupBody } from './routes/auth-session.js';
import { pausedRunsQuery } from './routes/executions.js';
import { deliveryListQuery, subscriptionCreate, subscriptionUpdate } from './routes/webhooks.js';
import { responseSchemas, type ResponseSchemaName } from './response-schemas.js';
import * as schemas from './schemas.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: `key` an API key or the web app's session cookie (the default); `session` the cookie only;
 * `optional-session` answers with or without one (sign-out); `chat` a key, a session, or nobody for a public chat;
 * `metrics` a bearer token when SLUICE_METRICS_TOKEN is set; `none` no credentials (probes, signed URLs, sign-in).
 */
type Auth = 'key' | 'session' | 'optional-session' | 'chat' | 'metrics' | 'none';

/** Which run an operation starts: decides the request headers it reads and the headers its answers carry. */
type Run = 'execute' | 'chat' | 'webhook' | 'manual';

interface Operation {
  summary: string;
  body?: z.ZodType;
  /** A body of any content type (the inbound webhook trigger): not JSON-validated, but size-limited. */
  rawBody?: true;
  query?: z.ZodObject;
  auth?: Auth;
  run?: Run;
  /** Counted against the logs API rate limit: X-RateLimit-* on answers, 429 with Retry-After. */
  rateLimited?: true;
  /** Documented 409 answers (what conflicts). */
  conflict?: string;
  /** Further error answers the operation gives beyond those its traits imply. */
  errors?: ErrorStatus[];
  success?: number;
  /** The success body, a schema of response-schemas.ts. */
  response?: ResponseSchemaName;
  /** A success body that is not a response-schemas.ts schema (media type → schema). */
  content?: Record<string, unknown>;
  /** Server-Sent Events the success answer may be instead: what its `data:` lines carry (schemas named in text). */
  events?: string;
  /** Further documented answers: status → body schema. */
  more?: Record<number, { description: string; schema?: ResponseSchemaName }>;
}

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

const errorBody = {
  type: 'object',
  required: ['error', 'code'],
  properties: {
    error: { type: 'string' },
    code: { type: 'string' },
    details: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
  },
};

const executeBody = z
  .object({
    stream: z.boolean().optional().describe('true switches the response to Server-Sent Events'),
    selectedOutputs: z.array(z.string()).optional().describe('blockName.attribute items to stream'),
  })
  .catchall(z.unknown())
  .describe('The declared Input Format fields, plus the control keys');

/** Query strings that routes read one parameter at a time (c.req.query) rather than through a schema. */
const signedUrlQuery = z.object({
  expires: z.string().describe('Expiry of the signed URL, as issued'),
  signature: z.string().describe('Signature of the signed URL, as issued'),
});
const setupQuery = z.object({ token: z.string().optional().describe('The setup token the server printed at start') });
const manualRunQuery = z.object({
  stream: z.enum(['true', 'false']).optional().describe('false answers one JSON body at the end instead of SSE progress'),
});

const ref = (name: ResponseSchemaName) => ({ $ref: `#/components/schemas/${name}` });

const paths: Record<string, Partial<Record<Method, Operation>>> = {
  '/api/v1/me': { get: { summary: 'Who the API key belongs to', response: 'Me' } },
  '/api/v1/block-types': {
    get: { summary: 'The block types workflows are built from: palette entry, form fields, outputs, config JSON Schema', response: 'BlockTypeList' },
  },
  '/api/v1/workspaces': {
    get: { summary: 'List reachable workspaces', response: 'WorkspaceList' },
    post: { summary: 'Create a workspace', body: schemas.workspaceCreate, success: 201, response: 'WorkspaceResponse' },
  },
  '/api/v1/workspaces/{workspaceId}/members': {
    get: { summary: 'List members', response: 'MemberList' },
    post: { summary: 'Add a member by email', body: schemas.memberAdd, success: 201, response: 'AddedMemberResponse' },
  },
  '/api/v1/workspaces/{workspaceId}/members/{userId}': { delete: { summary: 'Remove a member', success: 204 } },
  '/api/v1/workspaces/{workspaceId}/env': {
    get: { summary: 'List environment variable names (values are write-only)', response: 'EnvVarList' },
    put: { summary: 'Set environment variables (answers the whole list)', body: schemas.envVarsSet, response: 'EnvVarList' },
  },
  '/api/v1/workspaces/{workspaceId}/env/{name}': { delete: { summary: 'Delete an environment variable', success: 204 } },
  '/api/v1/workflows': {
    get: { summary: 'List workflows of a workspace', query: schemas.workflowListQuery, response: 'WorkflowList' },
    post: { summary: 'Create a workflow with a state', body: schemas.workflowCreate, success: 201, response: 'WorkflowResponse' },
  },
  '/api/v1/workflows/{workflowId}': {
    get: { summary: 'Read a workflow and its draft state', response: 'WorkflowResponse' },
    patch: { summary: 'Update name, description, folder or draft state', body: schemas.workflowUpdate, response: 'WorkflowResponse' },
    delete: { summary: 'Delete a workflow', success: 204 },
  },
  '/api/v1/workflows/{workflowId}/export': {
    get: { summary: 'Export as a sluice.workflow document (literal secrets replaced by {{VARIABLE}} references)', response: 'WorkflowExport' },
  },
  '/api/v1/workflows/import': {
    post: {
      summary: 'Create a draft workflow from a sluice.workflow document',
      body: schemas.workflowImport,
      success: 201,
      response: 'WorkflowImportResult',
    },
  },
  '/api/v1/workflows/{workflowId}/deploy': {
    post: { summary: 'Deploy the draft as the next version', response: 'DeployResult' },
    delete: { summary: 'Undeploy', response: 'Undeployed', conflict: 'The workflow is not deployed (WORKFLOW_NOT_DEPLOYED)' },
  },
  '/api/v1/workflows/{workflowId}/deployments': { get: { summary: 'Deployment history', response: 'DeploymentList' } },
  '/api/v1/workflows/{workflowId}/deployments/{version}/activate': {
    post: { summary: 'Activate an earlier version', response: 'DeployResult' },
  },
  '/api/workflows/{workflowId}/status': { get: { summary: 'isDeployed, deployedAt, needsRedeployment', response: 'WorkflowStatus' } },
  '/api/workflows/{workflowId}/execute': {
    post: {
      summary: 'Run the active deployment (JSON, SSE with stream: true, async with X-Execution-Mode: async)',
      body: executeBody,
      run: 'execute',
      response: 'ExecuteResult',
      events: 'with stream: true, a StreamChunk (#/components/schemas/StreamChunk) per streamed piece of the selectedOutputs, then a StreamDone',
      conflict:
        'The workflow is not deployed (WORKFLOW_NOT_DEPLOYED), a call with this Idempotency-Key is still running or was ' +
        'made with another body (IDEMPOTENCY_CONFLICT), or the run was cancelled (EXECUTION_CANCELLED)',
      more: {
        202: { description: 'Queued (X-Execution-Mode: async), or paused at an approval block', schema: 'ExecuteAcceptedOrPaused' },
        500: { description: 'The run failed', schema: 'ExecuteFailure' },
      },
    },
  },
  '/api/users/me/usage-limits': { get: { summary: 'Execution rate limits and usage of the caller', response: 'UsageLimits' } },
  '/api/v1/folders': {
    get: { summary: 'List folders', query: schemas.workspaceQuery, response: 'FolderList' },
    post: { summary: 'Create a folder', body: schemas.folderCreate, success: 201, response: 'FolderResponse' },
  },
  '/api/v1/folders/{folderId}': {
    get: { summary: 'Read a folder', response: 'FolderResponse' },
    patch: { summary: 'Rename or move a folder', body: schemas.folderUpdate, response: 'FolderResponse' },
    delete: { summary: 'Delete a folder (its workflows move to the root)', success: 204 },
  },
  '/api/v1/api-keys': {
    get: { summary: 'List API keys (hints only)', response: 'ApiKeyList' },
    post: { summary: 'Create an API key (shown once)', body: schemas.apiKeyCreate, success: 201, response: 'CreatedApiKeyResponse' },
  },
  '/api/v1/api-keys/{keyId}': { delete: { summary: 'Revoke an API key', success: 204 } },
  '/api/v1/logs': {
    get: {
      summary: 'Query execution logs (cursor-paginated, rate-limited)',
      query: logsQuerySchema,
      rateLimited: true,
      response: 'LogPage',
    },
  },
  '/api/v1/logs/{logId}': { get: { summary: 'Log detail', rateLimited: true, response: 'LogDetail' } },
  '/api/v1/logs/executions/{executionId}': {
    get: { summary: 'Execution detail with the state that ran', rateLimited: true, response: 'ExecutionDetail' },
  },
  '/api/v1/executions/{executionId}/cancel': {
    post: {
      summary: 'Cancel a queued, running or paused execution wherever it runs (200 cancelled, 202 still stopping, 409 finished)',
      response: 'CancelAnswer',
      conflict: 'The execution has already finished (EXECUTION_NOT_RUNNING)',
      more: { 202: { description: 'Asked to stop; still stopping', schema: 'CancelAnswer' } },
    },
  },
  '/api/v1/executions/{executionId}/resume': {
    post: {
      summary: 'Approve or reject a run paused at an approval block; it goes on in a worker (409 when it is not waiting)',
      body: resumeBody,
      success: 202,
      response: 'ResumeAccepted',
      conflict: 'The execution is not waiting for an approval (EXECUTION_NOT_PAUSED)',
    },
  },
  '/api/v1/executions': {
    get: { summary: 'Runs of a workspace waiting for an approval (status=paused)', query: pausedRunsQuery, response: 'PausedRunList' },
  },
  '/api/files/{fileId}': {
    get: {
      summary: 'Download an uploaded file through its signed URL (403 when the link is invalid or expired)',
      auth: 'none',
      query: signedUrlQuery,
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      errors: [403, 503],
    },
  },
  '/health': { get: { summary: 'Liveness: the process answers (no database call)', auth: 'none', response: 'Health' } },
  '/ready': {
    get: {
      summary: 'Readiness: database, migrations and worker checks; 503 names the failing ones',
      auth: 'none',
      response: 'Readiness',
      more: { 503: { description: 'Not ready: the failing checks are named', schema: 'Readiness' } },
    },
  },
  '/api/openapi.json': {
    get: {
      summary: 'This OpenAPI 3.1 document (the interactive reference is at /docs)',
      auth: 'none',
      content: { 'application/json': { schema: { type: 'object' } } },
    },
  },
  '/metrics': {
    get: {
      summary: 'Prometheus metrics (404 when SLUICE_METRICS_ENABLED=false; bearer token when SLUICE_METRICS_TOKEN is set)',
      auth: 'metrics',
      content: { 'text/plain': { schema: { type: 'string' } } },
      errors: [404],
    },
  },
  '/api/v1/workflows/{workflowId}/run': {
    post: {
      summary: 'Manual run of the draft with the Input Format values (SSE progress unless ?stream=false)',
      body: manualRunBody,
      query: manualRunQuery,
      run: 'manual',
      response: 'ExecuteResult',
      events: 'a RunProgress (#/components/schemas/RunProgress) per engine event, then a StreamDone with the executionId',
      more: { 500: { description: 'The run failed (?stream=false)', schema: 'ExecuteFailure' } },
    },
  },
  '/api/webhooks/trigger/{path}': {
    post: {
      summary: 'Inbound webhook trigger (any content type; optional X-Sluice-Signature). The path may contain slashes.',
      auth: 'none',
      rawBody: true,
      run: 'webhook',
      response: 'WebhookAccepted',
      conflict: 'The workflow is not deployed (WORKFLOW_NOT_DEPLOYED), or the run was cancelled (EXECUTION_CANCELLED)',
      errors: [401],
      more: {
        202: { description: 'The run paused at an approval block', schema: 'ExecutionPaused' },
        500: { description: 'The run failed', schema: 'ExecuteFailure' },
      },
    },
  },
  '/api/v1/auth/options': {
    get: { summary: 'Whether sign-up is allowed and whether first-run setup is pending', auth: 'none', response: 'AuthOptions' },
  },
  '/api/v1/auth/setup': {
    get: {
      summary: 'First run: whether the owner account is still to be created, and whether ?token= is the setup token',
      auth: 'none',
      query: setupQuery,
      response: 'SetupState',
    },
    post: {
      summary: 'First run: create the owner account with the setup token (signs in)',
      body: setupBody,
      auth: 'none',
      success: 201,
      response: 'SignedIn',
      conflict: 'The owner account exists already (SETUP_COMPLETE)',
      errors: [403, 415],
    },
  },
  '/api/v1/auth/sign-in': {
    post: {
      summary: 'Web app sign-in (sets the session cookie)',
      body: credentials,
      auth: 'none',
      response: 'SignedIn',
      errors: [401, 415, 429],
    },
  },
  '/api/v1/auth/sign-up': {
    post: {
      summary: 'Web app sign-up (when SLUICE_ALLOW_SIGNUP=true)',
      body: credentials,
      auth: 'none',
      success: 201,
      response: 'SignedIn',
      conflict: 'An account with this email already exists (CONFLICT)',
      errors: [403, 415],
    },
  },
  '/api/v1/auth/sign-out': { post: { summary: 'End the web app session', auth: 'optional-session', success: 204 } },
  '/api/v1/auth/session': { get: { summary: 'The signed-in user, CSRF token and workspaces', auth: 'session', response: 'Session' } },
  '/api/jobs/{taskId}': { get: { summary: 'Status of an async execution', response: 'JobStatus' } },
  '/api/v1/workflows/{workflowId}/webhooks': {
    get: { summary: 'List completion webhook subscriptions', response: 'SubscriptionList' },
    post: {
      summary: 'Create a subscription (secret is write-only)',
      body: subscriptionCreate,
      success: 201,
      response: 'SubscriptionResponse',
      conflict: 'The workflow has as many subscriptions as it may (LIMIT_EXCEEDED)',
    },
  },
  '/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}': {
    get: { summary: 'Read a subscription', response: 'SubscriptionResponse' },
    patch: { summary: 'Update a subscription', body: subscriptionUpdate, response: 'SubscriptionResponse' },
    delete: { summary: 'Delete a subscription', success: 204 },
  },
  '/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}/test': {
    post: { summary: 'Send a signed test event', success: 202, response: 'DeliveryResponse' },
  },
  '/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}/deliveries': {
    get: { summary: 'Delivery history with attempts', query: deliveryListQuery, response: 'DeliveryPage' },
  },
  '/api/v1/workflows/{workflowId}/webhooks/deliveries/{deliveryId}/redeliver': {
    post: { summary: 'Send a delivery again (new delivery id, same event)', success: 202, response: 'DeliveryResponse' },
  },
  '/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}/deliveries/{deliveryId}/redeliver': {
    post: {
      summary: 'Send a delivery of this subscription again (the same as the route without the subscription id)',
      success: 202,
      response: 'DeliveryResponse',
    },
  },
  '/api/chat/{workflowId}': {
    post: {
      summary: 'Chat with a deployed workflow (streams by default); no credentials needed when the chat is public',
      body: chatBody,
      auth: 'chat',
      run: 'chat',
      response: 'ChatResult',
      events:
        'unless stream: false, a StreamChunk (#/components/schemas/StreamChunk) per streamed piece of the selectedOutputs, ' +
        'then a ChatStreamDone (#/components/schemas/ChatStreamDone)',
      more: {
        202: { description: 'The run paused at an approval block (stream: false)', schema: 'ExecutionPaused' },
        500: { description: 'The run failed (stream: false)', schema: 'ChatFailure' },
      },
      // A key (or session) without access to the workflow's workspace.
      errors: [403],
      conflict: 'The workflow is not deployed (WORKFLOW_NOT_DEPLOYED), or the run was cancelled (EXECUTION_CANCELLED)',
    },
  },
};

// ── Headers ──

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/** Response headers (components.headers), named as the server sends them. */
const responseHeaders = {
  [REQUEST_ID_HEADER]: {
    description: 'The request id: the caller\'s own X-Request-Id when it is 1–128 characters of A-Z a-z 0-9 . _ : -, else a new one',
    required: true,
    schema: { type: 'string' },
  },
  [EXECUTION_ID_HEADER]: { description: 'The execution this answer is about (its log is GET /api/v1/logs/executions/{id})', schema: { type: 'string' } },
  'X-RateLimit-Limit': {
    description: 'Requests allowed per one-minute window on the plan (absent when the plan is unlimited)',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the current window ends (ISO 8601)', schema: { type: 'string', format: 'date-time' } },
  'Retry-After': { description: 'Seconds to wait before trying again', required: true, schema: { type: 'integer' } },
  [CONVERSATION_ID_HEADER]: { description: 'The conversation this chat answer belongs to', schema: { type: 'string' } },
  [REPLAYED_HEADER]: {
    description: '`true` when this is the stored answer of an earlier call with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

type HeaderName = keyof typeof responseHeaders;

const headersOf = (names: readonly HeaderName[]) => Object.fromEntries(names.map((name) => [name, headerRef(name)]));

/** Request header parameters (components.parameters). */
const requestHeaders = {
  ExecutionMode: {
    name: 'X-Execution-Mode',
    in: 'header',
    required: false,
    description: '`async` queues the run and answers 202 with a task id (GET /api/jobs/{taskId}); anything else runs it now',
    schema: { type: 'string', enum: ['sync', 'async'] },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'A repeat with the same key and body gets the first answer again (Idempotent-Replayed: true) instead of a second run; ' +
      'the same key with another body or mode is 409 IDEMPOTENCY_CONFLICT',
    schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
  },
  RequestId: {
    name: REQUEST_ID_HEADER,
    in: 'header',
    required: false,
    description: 'Your id for this request: echoed in the X-Request-Id response header and kept on the execution log',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
};

/** The request headers a run-starting operation reads. */
const RUN_REQUEST_HEADERS: Record<Run, (keyof typeof requestHeaders)[]> = {
  execute: ['ExecutionMode', 'IdempotencyKey', 'RequestId'],
  chat: ['RequestId'],
  webhook: ['RequestId'],
  manual: ['RequestId'],
};

/** The headers a run's answers carry besides X-Request-Id (manual runs are not rate limited). */
function successHeaders(op: Operation): HeaderName[] {
  const names: HeaderName[] = [REQUEST_ID_HEADER];
  if (op.run) names.push(EXECUTION_ID_HEADER);
  if (op.run && op.run !== 'manual') names.push(...RATE_LIMIT_HEADERS);
  if (op.rateLimited) names.push(...RATE_LIMIT_HEADERS);
  if (op.run === 'chat') names.push(CONVERSATION_ID_HEADER);
  if (op.run === 'execute') names.push(REPLAYED_HEADER);
  return names;
}

// ── Parameters ──

const pathParameterDescriptions: Record<string, string> = {
  path: 'The webhook path configured on the trigger block; may contain slashes',
};

function parameters(path: string, op: Operation) {
  const inPath = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    ...(pathParameterDescriptions[name] ? { description: pathParameterDescriptions[name] } : {}),
    schema: { type: 'string' },
  }));
  const headers = op.run ? RUN_REQUEST_HEADERS[op.run].map(parameterRef) : [];
  if (!op.query) return [...inPath, ...headers];
  const schema = json(op.query) as { properties?: Record<string, unknown>; required?: string[] };
  const inQuery = Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: s,
  }));
  return [...inPath, ...inQuery, ...headers];
}

// ── Security ──

const SECURITY: Record<Auth, Array<Record<string, string[]>>> = {
  key: [{ apiKey: [] }, { sessionCookie: [] }],
  session: [{ sessionCookie: [] }],
  'optional-session': [{ sessionCookie: [] }, {}],
  chat: [{ apiKey: [] }, { sessionCookie: [] }, {}],
  metrics: [{}, { metricsToken: [] }],
  none: [],
};

// ── Errors ──

type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 408 | 409 | 413 | 415 | 429 | 503;

/** The error answers (components.responses): the Error body, with the headers each one carries. */
const errorResponses: Record<ErrorStatus, { name: string; description: string; headers?: readonly HeaderName[] }> = {
  400: { name: 'BadRequest', description: 'VALIDATION_ERROR (details name each problem), or INVALID_JSON for an unreadable body' },
  401: { name: 'Unauthorized', description: 'UNAUTHORIZED: missing, invalid or revoked credentials' },
  402: { name: 'UsageLimitExceeded', description: 'USAGE_LIMIT_EXCEEDED: the workspace owner\'s usage limit for the period is reached' },
  403: { name: 'Forbidden', description: 'FORBIDDEN: no access to that workspace, or a session request without X-CSRF-Token' },
  404: { name: 'NotFound', description: 'NOT_FOUND: no such resource (or none the caller can see)' },
  408: { name: 'ExecutionTimeout', description: 'EXECUTION_TIMEOUT: the run took longer than the execution time-out' },
  409: { name: 'Conflict', description: 'The request conflicts with the current state (code says which)' },
  413: { name: 'PayloadTooLarge', description: 'PAYLOAD_TOO_LARGE: the request body is over the limit' },
  415: { name: 'UnsupportedMediaType', description: 'UNSUPPORTED_MEDIA_TYPE: send the body as application/json' },
  429: {
    name: 'TooManyRequests',
    description: 'RATE_LIMIT_EXCEEDED: wait Retry-After seconds (X-RateLimit-* on execution and logs limits)',
    headers: ['Retry-After', ...RATE_LIMIT_HEADERS],
  },
  503: { name: 'ServiceUnavailable', description: 'A backing service (file storage) is unavailable; try again later' },
};

/** The error answers an operation gives: implied by its traits, plus the ones it names. */
function errorStatuses(path: string, op: Operation): ErrorStatus[] {
  const auth = op.auth ?? 'key';
  const hasPathParams = path.includes('{');
  const statuses = new Set<ErrorStatus>(op.errors);
  if (op.body || op.query || op.rawBody || (hasPathParams && op.auth !== 'none')) statuses.add(400);
  if (auth === 'key' || auth === 'session' || auth === 'chat') statuses.add(401);
  if (auth === 'metrics') statuses.add(401);
  if (auth === 'key') statuses.add(403);
  if (hasPathParams) statuses.add(404);
  if (op.conflict) statuses.add(409);
  if (op.body || op.rawBody) statuses.add(413);
  if (op.rateLimited || (op.run && op.run !== 'manual')) statuses.add(429);
  if (op.run) statuses.add(402);
  if (op.run && op.run !== 'manual') statuses.add(408);
  return [...statuses].sort((a, b) => a - b);
}

const errorBodyContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

function errorResponseComponents() {
  return Object.fromEntries(
    Object.values(errorResponses).map(({ name, description, headers }) => [
      name,
      { description, headers: headersOf([REQUEST_ID_HEADER, ...(headers ?? [])]), content: errorBodyContent },
    ]),
  );
}

/** The response bodies as components, each named; a body that contains another named one refers to it. */
function responseComponents(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(responseSchemas)) registry.add(schema, { id });
  const { schemas: converted } = z.toJSONSchema(registry, {
    uri: (id) => `#/components/schemas/${id}`,
    io: 'output',
    unrepresentable: 'any',
  });
  return Object.fromEntries(
    Object.entries(converted).map(([id, { $schema: _schema, $id: _id, ...schema }]) => [id, schema]),
  );
}

function responses(path: string, op: Operation) {
  const success = op.success ?? 200;
  const headers = headersOf(successHeaders(op));
  const events = op.events
    ? { 'text/event-stream': { schema: { type: 'string', description: `data: lines, each one JSON record: ${op.events}; then data: [DONE]` } } }
    : {};
  const body = op.response
    ? { content: { 'application/json': { schema: ref(op.response) }, ...events } }
    : op.content
      ? { content: { ...op.content, ...events } }
      : {};
  const out: Record<string, unknown> = { [String(success)]: { description: 'Success', headers, ...body } };
  for (const [status, extra] of Object.entries(op.more ?? {})) {
    out[status] = {
      description: extra.description,
      headers,
      ...(extra.schema ? { content: { 'application/json': { schema: ref(extra.schema) } } } : {}),
    };
  }
  for (const status of errorStatuses(path, op)) {
    if (out[String(status)]) continue;
    const { name } = errorResponses[status];
    out[String(status)] =
      status === 409 && op.conflict
        ? { description: op.conflict, headers: headersOf([REQUEST_ID_HEADER]), content: errorBodyContent }
        : { $ref: `#/components/responses/${name}` };
  }
  out.default = { description: 'Any other error (500 INTERNAL_ERROR)', headers: headersOf([REQUEST_ID_HEADER]), content: errorBodyContent };
  return out;
}

function requestBody(op: Operation) {
  if (op.rawBody) {
    return { requestBody: { required: false, content: { '*/*': { schema: {} } } } };
  }
  if (!op.body) return {};
  // The manual run's body is optional: an empty one runs with the Input Format values.
  return { requestBody: { required: op.run !== 'manual', content: { 'application/json': { schema: json(op.body) } } } };
}

let cached: unknown;

export function openApiDocument(baseUrl: string): unknown {
  cached ??= {
    openapi: '3.1.0',
    info: {
      title: 'Sluice API',
      version: '1.0.0',
      description:
        'Workflows as authenticated HTTP endpoints. Every answer carries X-Request-Id; errors are the Error schema ' +
        '({error, code, details?}). The interactive reference is at /docs.',
    },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description:
            'The web app session (POST /api/v1/auth/sign-in). State-changing requests also send the session\'s CSRF token in ' +
            'X-CSRF-Token. A request that sends X-API-Key is judged by the key alone.',
        },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'SLUICE_METRICS_TOKEN, when it is set' },
      },
      schemas: { Error: errorBody, ...responseComponents() },
      headers: responseHeaders,
      parameters: requestHeaders,
      responses: errorResponseComponents(),
    },
    security: SECURITY.key,
    paths: Object.fromEntries(
      Object.entries(paths).map(([path, operations]) => [
        path,
        Object.fromEntries(
          Object.entries(operations).map(([method, op]) => [
            method,
            {
              summary: op.summary,
              security: SECURITY[op.auth ?? 'key'],
              parameters: parameters(path, op),
              ...requestBody(op),
              responses: responses(path, op),
            },
          ]),
        ),
      ]),
    ),
    // Completion webhooks this server sends (README "Receiving completion webhooks").
    webhooks: {
      'workflow.execution.completed': {
        post: {
          summary: 'A run completed (signed with the subscription secret: Service-signature t=…,v1=…)',
          requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookEvent') } } },
          responses: { '200': { description: 'Any 2xx acknowledges the delivery' } },
        },
      },
    },
  };
  return cached;
}
