// The OpenAPI 3.1 document (`GET /api/openapi.json`, SPEC §9), built from the same zod schemas the routes validate
// with, so the description cannot drift from what the server accepts; responses are described by response-schemas.ts
// (checked against real answers by test/http/openapi-responses.test.ts). The TypeScript client's types are generated
// from this document (clients/typescript, `npm run generate -w sluice-client`).
import { z } from 'zod';
import { logsQuerySchema } from '../services/logs/params.js';
import { credentials, setupBody } from './routes/auth-session.js';
import { chatBody } from '../services/triggers/chat.js';
import { manualRunBody } from '../services/triggers/manual.js';
import { resumeBody } from '../services/runs/approvals.js';
import { pausedRunsQuery } from './routes/executions.js';
import { deliveryListQuery, subscriptionCreate, subscriptionUpdate } from './routes/webhooks.js';
import { responseSchemas, type ResponseSchemaName } from './response-schemas.js';
import * as schemas from './schemas.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface Operation {
  summary: string;
  body?: z.ZodType;
  query?: z.ZodObject;
  /** No API key (signed URLs, public endpoints). */
  public?: boolean;
  success?: number;
  /** The success body, a schema of response-schemas.ts. */
  response?: ResponseSchemaName;
  /** Further documented answers: status → body schema (and media type when it is not JSON). */
  more?: Record<number, { description: string; schema?: ResponseSchemaName; eventStream?: true }>;
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

const paths: Record<string, Partial<Record<Method, Operation>>> = {
  '/api/v1/me': { get: { summary: 'Who the API key belongs to', response: 'Me' } },
  '/api/v1/workspaces': {
    get: { summary: 'List reachable workspaces' },
    post: { summary: 'Create a workspace', body: schemas.workspaceCreate, success: 201 },
  },
  '/api/v1/workspaces/{workspaceId}/members': {
    get: { summary: 'List members' },
    post: { summary: 'Add a member by email', body: schemas.memberAdd, success: 201 },
  },
  '/api/v1/workspaces/{workspaceId}/members/{userId}': { delete: { summary: 'Remove a member', success: 204 } },
  '/api/v1/workspaces/{workspaceId}/env': {
    get: { summary: 'List environment variable names (values are write-only)' },
    put: { summary: 'Set environment variables', body: schemas.envVarsSet },
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
    delete: { summary: 'Undeploy', response: 'Undeployed' },
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
      response: 'ExecuteResult',
      more: {
        202: { description: 'Queued (X-Execution-Mode: async), or paused at an approval block', schema: 'ExecuteAcceptedOrPaused' },
        500: { description: 'The run failed', schema: 'ExecuteFailure' },
      },
    },
  },
  '/api/users/me/usage-limits': { get: { summary: 'Execution rate limits and usage of the caller' } },
  '/api/v1/folders': {
    get: { summary: 'List folders', query: schemas.workspaceQuery },
    post: { summary: 'Create a folder', body: schemas.folderCreate, success: 201 },
  },
  '/api/v1/folders/{folderId}': {
    get: { summary: 'Read a folder' },
    patch: { summary: 'Rename or move a folder', body: schemas.folderUpdate },
    delete: { summary: 'Delete a folder (its workflows move to the root)', success: 204 },
  },
  '/api/v1/api-keys': {
    get: { summary: 'List API keys (hints only)' },
    post: { summary: 'Create an API key (shown once)', body: schemas.apiKeyCreate, success: 201 },
  },
  '/api/v1/api-keys/{keyId}': { delete: { summary: 'Revoke an API key', success: 204 } },
  '/api/v1/logs': {
    get: { summary: 'Query execution logs (cursor-paginated, rate-limited)', query: logsQuerySchema, response: 'LogPage' },
  },
  '/api/v1/logs/{logId}': { get: { summary: 'Log detail', response: 'LogDetail' } },
  '/api/v1/logs/executions/{executionId}': { get: { summary: 'Execution detail with the state that ran', response: 'ExecutionDetail' } },
  '/api/v1/executions/{executionId}/cancel': {
    post: {
      summary: 'Cancel a queued, running or paused execution wherever it runs (200 cancelled, 202 still stopping, 409 finished)',
      response: 'CancelAnswer',
      more: { 202: { description: 'Asked to stop; still stopping', schema: 'CancelAnswer' } },
    },
  },
  '/api/v1/executions/{executionId}/resume': {
    post: {
      summary: 'Approve or reject a run paused at an approval block; it goes on in a worker (409 when it is not waiting)',
      body: resumeBody,
      success: 202,
      response: 'ResumeAccepted',
    },
  },
  '/api/v1/executions': {
    get: { summary: 'Runs of a workspace waiting for an approval (status=paused)', query: pausedRunsQuery, response: 'PausedRunList' },
  },
  '/api/files/{fileId}': { get: { summary: 'Download an uploaded file through its signed URL', public: true } },
  '/health': { get: { summary: 'Liveness: the process answers (no database call)', public: true } },
  '/ready': {
    get: { summary: 'Readiness: database, migrations and worker checks; 503 names the failing ones', public: true },
  },
  '/api/v1/workflows/{workflowId}/run': {
    post: { summary: 'Manual run of the draft with the Input Format values (SSE progress unless ?stream=false)', body: manualRunBody },
  },
  '/api/webhooks/trigger/{path}': {
    post: { summary: 'Inbound webhook trigger (any content type; optional X-Sluice-Signature)', public: true },
  },
  '/api/v1/auth/options': { get: { summary: 'Whether sign-up is allowed and whether first-run setup is pending', public: true } },
  '/api/v1/auth/setup': {
    get: { summary: 'First run: whether the owner account is still to be created, and whether ?token= is the setup token', public: true },
    post: { summary: 'First run: create the owner account with the setup token (signs in)', body: setupBody, public: true, success: 201 },
  },
  '/api/v1/auth/sign-in': { post: { summary: 'Web app sign-in (sets the session cookie)', body: credentials, public: true } },
  '/api/v1/auth/sign-up': { post: { summary: 'Web app sign-up (when SLUICE_ALLOW_SIGNUP=true)', body: credentials, public: true } },
  '/api/v1/auth/sign-out': { post: { summary: 'End the web app session' } },
  '/api/v1/auth/session': { get: { summary: 'The signed-in user and CSRF token' } },
  '/api/jobs/{taskId}': { get: { summary: 'Status of an async execution', response: 'JobStatus' } },
  '/api/v1/workflows/{workflowId}/webhooks': {
    get: { summary: 'List completion webhook subscriptions', response: 'SubscriptionList' },
    post: {
      summary: 'Create a subscription (secret is write-only)',
      body: subscriptionCreate,
      success: 201,
      response: 'SubscriptionResponse',
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
  '/api/chat/{workflowId}': { post: { summary: 'Chat with a deployed workflow (streams by default)', body: chatBody } },
};

function parameters(path: string, query?: z.ZodObject) {
  const inPath = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  if (!query) return inPath;
  const schema = json(query) as { properties?: Record<string, unknown>; required?: string[] };
  const inQuery = Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: s,
  }));
  return [...inPath, ...inQuery];
}

const errorResponse = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const ref = (name: ResponseSchemaName) => ({ $ref: `#/components/schemas/${name}` });

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

function responses(op: Operation) {
  const success = op.success ?? 200;
  const body = op.response ? { content: { 'application/json': { schema: ref(op.response) } } } : {};
  const out: Record<string, unknown> = { [String(success)]: { description: 'Success', ...body } };
  for (const [status, extra] of Object.entries(op.more ?? {})) {
    out[status] = { description: extra.description, ...(extra.schema ? { content: { 'application/json': { schema: ref(extra.schema) } } } : {}) };
  }
  out.default = errorResponse;
  return out;
}

let cached: unknown;

export function openApiDocument(baseUrl: string): unknown {
  cached ??= {
    openapi: '3.1.0',
    info: { title: 'Sluice API', version: '1.0.0', description: 'Workflows as authenticated HTTP endpoints.' },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: { Error: errorBody, ...responseComponents() },
    },
    security: [{ apiKey: [] }],
    paths: Object.fromEntries(
      Object.entries(paths).map(([path, operations]) => [
        path,
        Object.fromEntries(
          Object.entries(operations).map(([method, op]) => [
            method,
            {
              summary: op.summary,
              ...(op.public ? { security: [] } : {}),
              parameters: parameters(path, op.query),
              ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: json(op.body) } } } } : {}),
              responses: responses(op),
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
