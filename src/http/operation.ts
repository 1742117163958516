// One HTTP operation, declared once beside its handler: `operation({...})` turns what the route states (its summary,
// request schemas, answer and traits) into the @hono/zod-openapi route config that both registers the handler
// (`app.openapi(operation(...), handler)`) and describes it in the OpenAPI document (openapi.ts).
//
// Headers, security and error answers are not written per route: each operation states its traits (`auth`, `run`,
// `rateLimited`, `conflict`…) and the helpers below turn them into parameters, response headers and the error
// responses that apply (components.responses, all in the shape of the Error schema).
//
// Request schemas are converted with zod's own z.toJSONSchema (as the response schemas are, openapi.ts) and handed
// to the library as plain JSON Schema, so the library registers the route without adding its own validators: the
// handler parses with validation.ts, which keeps the API's error shape (docs/api.md 3), its JSON reading rules and
// the order of checks (a missing resource is 404 before its body is read).
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { REQUEST_ID_HEADER } from '../observability/request-id.js';
import { EXECUTION_ID_HEADER, MAX_IDEMPOTENCY_KEY_LENGTH, REPLAYED_HEADER } from '../runs/index.js';
import { CONVERSATION_ID_HEADER } from '../triggers/chat.js';
import type { AppEnv } from './env.js';
import type { ResponseSchemaName } from './response-schemas.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: `key` an API key or the web app's session cookie (the default); `session` the cookie only;
 * `optional-session` answers with or without one (sign-out); `chat` a key, a session, or nobody for a public chat;
 * `metrics` a bearer token when SLUICE_METRICS_TOKEN is set; `none` no credentials (probes, signed URLs, sign-in).
 */
type Auth = 'key' | 'session' | 'optional-session' | 'chat' | 'metrics' | 'none';

/** Which run an operation starts: decides the request headers it reads and the headers its answers carry. */
type Run = 'execute' | 'chat' | 'webhook' | 'manual' | 'rerun';

export interface Operation<P extends string = string> {
  method: Method;
  /** OpenAPI style (`/{workflowId}/deploy`), relative to where the route module is mounted (app.ts). */
  path: P;
  summary: string;
  /** Runs before the handler (authentication, a body limit of its own). */
  middleware?: MiddlewareHandler<AppEnv> | MiddlewareHandler<AppEnv>[];
  body?: z.ZodType;
  /** A body of any content type (the inbound webhook trigger): not JSON-validated, but size-limited. */
  rawBody?: true;
  query?: z.ZodObject;
  auth?: Auth;
  run?: Run;
  /** Counted against the logs API rate limit: X-RateLimit-* on answers, 429 with Retry-After. */
  rateLimited?: true;
  /** Honours Idempotency-Key itself (a bulk re-run): documents the header and Idempotent-Replayed. */
  idempotent?: true;
  /** Documented 409 answers (what conflicts). */
  conflict?: string;
  /** Further error answers the operation gives beyond those its traits imply. */
  errors?: ErrorStatus[];
  success?: number;
  /** The success body, a schema of response-schemas.ts. */
  response?: ResponseSchemaName;
  /** A success body that is not a response-schemas.ts schema (media type → schema). */
  content?: Record<string, { schema: Record<string, unknown> }>;
  /** Server-Sent Events the success answer may be instead: what its `data:` lines carry (schemas named in text). */
  events?: string;
  /** Further documented answers: status → body schema. */
  more?: Record<number, { description: string; schema?: ResponseSchemaName }>;
}

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;

const ref = (name: ResponseSchemaName) => ({ $ref: `#/components/schemas/${name}` });

// ── Headers ──

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/** Response headers (components.headers), named as the server sends them. */
export const responseHeaders = {
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
export const requestHeaders = {
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
  ExecutionPriority: {
    name: 'X-Execution-Priority',
    in: 'header',
    required: false,
    description:
      "An async run's priority, -100…100 (default: the workflow's flowControl.priority, else 0): a workspace's queued runs " +
      'with a higher priority are claimed first; outside the range is 400',
    schema: { type: 'integer', minimum: -100, maximum: 100 },
  },
  RequestId: {
    name: REQUEST_ID_HEADER,
    in: 'header',
    required: false,
    description: 'Your id for this request: echoed in the X-Request-Id response header and kept on the execution log',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
} as const;

/** The request headers a run-starting operation reads. */
const RUN_REQUEST_HEADERS: Record<Run, (keyof typeof requestHeaders)[]> = {
  execute: ['ExecutionMode', 'ExecutionPriority', 'IdempotencyKey', 'RequestId'],
  chat: ['RequestId'],
  webhook: ['RequestId'],
  manual: ['RequestId'],
  rerun: ['RequestId'],
};

/** The headers a run's answers carry besides X-Request-Id (manual runs are not rate limited). */
function successHeaders(op: Operation): HeaderName[] {
  const names: HeaderName[] = [REQUEST_ID_HEADER];
  if (op.run) names.push(EXECUTION_ID_HEADER);
  if (op.run && op.run !== 'manual') names.push(...RATE_LIMIT_HEADERS);
  if (op.rateLimited) names.push(...RATE_LIMIT_HEADERS);
  if (op.run === 'chat') names.push(CONVERSATION_ID_HEADER);
  if (op.run === 'execute' || op.idempotent) names.push(REPLAYED_HEADER);
  return names;
}

// ── Parameters ──

const pathParameterDescriptions: Record<string, string> = {
  path: 'The webhook path configured on the trigger block; may contain slashes',
};

function parameters(op: Operation) {
  const inPath = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name: name!,
    in: 'path' as const,
    required: true,
    ...(pathParameterDescriptions[name!] ? { description: pathParameterDescriptions[name!] } : {}),
    schema: { type: 'string' as const },
  }));
  const headers = op.run ? RUN_REQUEST_HEADERS[op.run].map(parameterRef) : op.idempotent ? [parameterRef('IdempotencyKey')] : [];
  if (!op.query) return [...inPath, ...headers];
  const schema = json(op.query) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  const inQuery = Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query' as const,
    required: schema.required?.includes(name) ?? false,
    schema: s,
  }));
  return [...inPath, ...inQuery, ...headers];
}

// ── Security ──

export const SECURITY: Record<Auth, Array<Record<string, string[]>>> = {
  key: [{ apiKey: [] }, { sessionCookie: [] }],
  session: [{ sessionCookie: [] }],
  'optional-session': [{ sessionCookie: [] }, {}],
  chat: [{ apiKey: [] }, { sessionCookie: [] }, {}],
  metrics: [{}, { metricsToken: [] }],
  none: [],
};

// ── Errors ──

type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 408 | 409 | 410 | 413 | 415 | 429 | 502 | 503;

/** The error answers (components.responses): the Error body, with the headers each one carries. */
const errorResponses: Record<ErrorStatus, { name: string; description: string; headers?: readonly HeaderName[] }> = {
  400: { name: 'BadRequest', description: 'VALIDATION_ERROR (details name each problem), or INVALID_JSON for an unreadable body' },
  401: { name: 'Unauthorized', description: 'UNAUTHORIZED: missing, invalid or revoked credentials' },
  402: { name: 'UsageLimitExceeded', description: 'USAGE_LIMIT_EXCEEDED: the workspace owner\'s usage limit for the period is reached' },
  403: {
    name: 'Forbidden',
    description: "FORBIDDEN: no access to that workspace, the caller's role there does not allow it (\"Viewers cannot deploy workflows\"), or a session request without X-CSRF-Token",
  },
  404: { name: 'NotFound', description: 'NOT_FOUND: no such resource (or none the caller can see)' },
  408: { name: 'ExecutionTimeout', description: 'EXECUTION_TIMEOUT: the run took longer than the execution time-out' },
  409: { name: 'Conflict', description: 'The request conflicts with the current state (code says which)' },
  410: { name: 'Gone', description: 'INVITE_EXPIRED, INVITE_USED (the invite link cannot be used any more) or EXECUTION_SNAPSHOT_GONE (what a re-run needs of that execution is no longer kept), EXECUTION_LOG_GONE (a redelivery of an event whose log retention deleted)' },
  413: { name: 'PayloadTooLarge', description: 'PAYLOAD_TOO_LARGE: the request body is over the limit' },
  415: { name: 'UnsupportedMediaType', description: 'UNSUPPORTED_MEDIA_TYPE: send the body as application/json' },
  429: {
    name: 'TooManyRequests',
    description:
      'RATE_LIMIT_EXCEEDED: wait Retry-After seconds (X-RateLimit-* on execution and logs limits); on runs also ' +
      "CONCURRENCY_LIMIT: the workflow's concurrency limit for that key is reached (flow control), try again after Retry-After; " +
      "THROTTLED: the workflow's throttle allows no more starts for that key in its period, Retry-After says when the next frees",
    headers: ['Retry-After', ...RATE_LIMIT_HEADERS],
  },
  502: { name: 'BadGateway', description: 'MCP_SERVER_UNREACHABLE: a server the request names could not be reached or did not answer as one' },
  503: {
    name: 'ServiceUnavailable',
    description:
      'A backing service is unavailable; try again later: FILE_STORAGE_UNAVAILABLE (file storage), READ_REPLICA_UNAVAILABLE (the read replica of the logs API, DATABASE_READ_URL)',
  },
};

/** The error answers an operation gives: implied by its traits, plus the ones it names. */
function errorStatuses(op: Operation): ErrorStatus[] {
  const auth = op.auth ?? 'key';
  const hasPathParams = op.path.includes('{');
  const statuses = new Set<ErrorStatus>(op.errors);
  if (op.body || op.query || op.rawBody || (hasPathParams && op.auth !== 'none')) statuses.add(400);
  if (auth === 'key' || auth === 'session' || auth === 'chat') statuses.add(401);
  if (auth === 'metrics') statuses.add(401);
  if (auth === 'key') statuses.add(403);
  if (hasPathParams) statuses.add(404);
  if (op.conflict) statuses.add(409);
  if (op.body || op.rawBody) statuses.add(413);
  // Every run may be refused by its workflow's flow control (CONCURRENCY_LIMIT, THROTTLED): manual runs too, though
  // they are not rate limited.
  if (op.rateLimited || op.run) statuses.add(429);
  if (op.run) statuses.add(402);
  if (op.run && op.run !== 'manual') statuses.add(408);
  return [...statuses].sort((a, b) => a - b);
}

export const errorBodyContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** components.responses: each error answer once, referred to by the operations it applies to. */
export function errorResponseComponents() {
  return Object.fromEntries(
    Object.values(errorResponses).map(({ name, description, headers }) => [
      name,
      { description, headers: headersOf([REQUEST_ID_HEADER, ...(headers ?? [])]), content: errorBodyContent },
    ]),
  );
}

function responses(op: Operation) {
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
  for (const status of errorStatuses(op)) {
    if (out[String(status)]) continue;
    const { name } = errorResponses[status];
    out[String(status)] =
      status === 409 && op.conflict
        ? { description: op.conflict, headers: headersOf([REQUEST_ID_HEADER]), content: errorBodyContent }
        : { $ref: `#/components/responses/${name}` };
  }
  out.default = { description: 'Any other error (500 INTERNAL_ERROR)', headers: headersOf([REQUEST_ID_HEADER]), content: errorBodyContent };
  // Plain JSON literals: TypeScript infers `type: string` where openapi3-ts wants its union; the document test validates them.
  return out as RouteConfig['responses'];
}

function requestBody(op: Operation) {
  if (op.rawBody) {
    return { requestBody: { required: false, content: { '*/*': { schema: {} } } } };
  }
  if (!op.body) return {};
  // The manual run's body is optional (an empty one runs with the Input Format values), as is a re-run's.
  return { requestBody: { required: op.run !== 'manual' && op.run !== 'rerun', content: { 'application/json': { schema: json(op.body) } } } };
}

/** The route config of one operation: what `app.openapi()` registers and the document describes. */
export function operation<const P extends string>(op: Operation<P>) {
  return createRoute({
    method: op.method,
    path: op.path,
    ...(op.middleware ? { middleware: op.middleware } : {}),
    summary: op.summary,
    security: SECURITY[op.auth ?? 'key'],
    parameters: parameters(op),
    ...requestBody(op),
    responses: responses(op),
  } as RouteConfig & { path: P; middleware?: MiddlewareHandler<AppEnv> | MiddlewareHandler<AppEnv>[] });
}
