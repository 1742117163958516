// The OpenAPI 3.1 document (`GET /api/openapi.json`, SPEC §9), built from the same zod schemas the routes validate
// with, so the description cannot drift from what the server accepts.
import { z } from 'zod';
import { logsQuerySchema } from '../services/logs/params.js';
import { credentials } from './routes/auth-session.js';
import { chatBody } from './routes/chat.js';
import { manualRunBody } from './routes/manual-run.js';
import { deliveryListQuery, subscriptionCreate, subscriptionUpdate } from './routes/webhooks.js';
import * as schemas from './schemas.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface Operation {
  summary: string;
  body?: z.ZodType;
  query?: z.ZodObject;
  /** No API key (signed URLs, public endpoints). */
  public?: boolean;
  success?: number;
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
  '/api/v1/me': { get: { summary: 'Who the API key belongs to' } },
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
    get: { summary: 'List workflows of a workspace', query: schemas.workflowListQuery },
    post: { summary: 'Create a workflow with a state', body: schemas.workflowCreate, success: 201 },
  },
  '/api/v1/workflows/{workflowId}': {
    get: { summary: 'Read a workflow and its draft state' },
    patch: { summary: 'Update name, description, folder or draft state', body: schemas.workflowUpdate },
    delete: { summary: 'Delete a workflow', success: 204 },
  },
  '/api/v1/workflows/{workflowId}/deploy': {
    post: { summary: 'Deploy the draft as the next version' },
    delete: { summary: 'Undeploy' },
  },
  '/api/v1/workflows/{workflowId}/deployments': { get: { summary: 'Deployment history' } },
  '/api/v1/workflows/{workflowId}/deployments/{version}/activate': { post: { summary: 'Activate an earlier version' } },
  '/api/workflows/{workflowId}/status': { get: { summary: 'isDeployed, deployedAt, needsRedeployment' } },
  '/api/workflows/{workflowId}/execute': {
    post: { summary: 'Run the active deployment (JSON, SSE with stream: true, async with X-Execution-Mode: async)', body: executeBody },
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
  '/api/v1/logs': { get: { summary: 'Query execution logs (cursor-paginated, rate-limited)', query: logsQuerySchema } },
  '/api/v1/logs/{logId}': { get: { summary: 'Log detail' } },
  '/api/v1/logs/executions/{executionId}': { get: { summary: 'Execution detail with the state that ran' } },
  '/api/files/{fileId}': { get: { summary: 'Download an uploaded file through its signed URL', public: true } },
  '/api/v1/workflows/{workflowId}/run': {
    post: { summary: 'Manual run of the draft with the Input Format values (SSE progress unless ?stream=false)', body: manualRunBody },
  },
  '/api/webhooks/trigger/{path}': {
    post: { summary: 'Inbound webhook trigger (any content type; optional X-Sluice-Signature)', public: true },
  },
  '/api/v1/auth/options': { get: { summary: 'Whether sign-up is allowed', public: true } },
  '/api/v1/auth/sign-in': { post: { summary: 'Web app sign-in (sets the session cookie)', body: credentials, public: true } },
  '/api/v1/auth/sign-up': { post: { summary: 'Web app sign-up (when SLUICE_ALLOW_SIGNUP=true)', body: credentials, public: true } },
  '/api/v1/auth/sign-out': { post: { summary: 'End the web app session' } },
  '/api/v1/auth/session': { get: { summary: 'The signed-in user and CSRF token' } },
  '/api/jobs/{taskId}': { get: { summary: 'Status of an async execution' } },
  '/api/v1/workflows/{workflowId}/webhooks': {
    get: { summary: 'List completion webhook subscriptions' },
    post: { summary: 'Create a subscription (secret is write-only)', body: subscriptionCreate, success: 201 },
  },
  '/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}': {
    get: { summary: 'Read a subscription' },
    patch: { summary: 'Update a subscription', body: subscriptionUpdate },
    delete: { summary: 'Delete a subscription', success: 204 },
  },
  '/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}/test': { post: { summary: 'Send a signed test event' } },
  '/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}/deliveries': {
    get: { summary: 'Delivery history with attempts', query: deliveryListQuery },
  },
  '/api/v1/workflows/{workflowId}/webhooks/deliveries/{deliveryId}/redeliver': {
    post: { summary: 'Send a delivery again (new delivery id, same event)', success: 202 },
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

let cached: unknown;

export function openApiDocument(baseUrl: string): unknown {
  cached ??= {
    openapi: '3.1.0',
    info: { title: 'Sluice API', version: '1.0.0', description: 'Workflows as authenticated HTTP endpoints.' },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: { Error: errorBody },
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
              responses: {
                [String(op.success ?? 200)]: { description: 'Success' },
                default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
              },
            },
          ]),
        ),
      ]),
    ),
  };
  return cached;
}
