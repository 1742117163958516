import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import type { Context } from 'hono';
import { assertWorkspaceAccess, requireRole } from '../../services/access.js';
import {
  activateDeployment,
  createWorkflow,
  deleteWorkflow,
  deployWorkflow,
  getWorkflowForPrincipal,
  listDeployments,
  listWorkflows,
  toWorkflowView,
  undeployWorkflow,
  updateWorkflow,
  workflowStatus,
} from '../../services/workflows.js';
import { exportWorkflow, importWorkflow } from '../../services/workflow-transfer.js';
import { listQueuedRuns } from '../../runs/index.js';
import { requireApiKey } from '../auth.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { id, name } from '../schemas.js';
import { parseId, parseWith, readBody, readQuery } from '../validation.js';

const workflowCreate = z.strictObject({
  workspaceId: id,
  name,
  description: z.string().max(2000).optional(),
  folderId: id.nullable().optional(),
  state: z.unknown().optional(),
});
const workflowUpdate = z
  .strictObject({
    name: name.optional(),
    description: z.string().max(2000).optional(),
    folderId: id.nullable().optional(),
    state: z.unknown().optional(),
    /** POST /api/chat/{id} without an API key (README "Other triggers", chat). */
    chatPublic: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'nothing to update');
const workflowListQuery = z.object({ workspaceId: id, folderId: id.optional() });
/** POST /api/v1/workflows/import: a document from GET …/export (services/workflow-transfer.ts). */
const workflowImport = z.strictObject({
  workspaceId: id,
  document: z.unknown(),
  folderId: id.nullable().optional(),
  /** Overrides the document's name. */
  name: name.optional(),
  credentials: z
    .record(z.string(), id)
    .optional()
    .describe("The document's credential names mapped to credential ids of the workspace; a name not mapped here takes the workspace's credential of the same name and type"),
});
/** A page of the queued runs (always from the first: the queue moves too fast for a cursor to mean much). */
const queuedRunsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) });
const versionParam = z.coerce.number().int().min(1).max(1_000_000);

function loadWorkflow(c: Context<AppEnv>) {
  const workflowId = parseId(c.req.param('workflowId'), 'workflow id', 'workflowId');
  return getWorkflowForPrincipal(c.get('app').db, c.get('principal'), workflowId);
}

/** A workflow the caller may change: 404 out of reach, 403 when its role there is below editor (`action` says what). */
async function loadWorkflowToChange(c: Context<AppEnv>, action: string) {
  const row = await loadWorkflow(c);
  await requireRole(c.get('app').db, c.get('principal'), row.workspaceId, 'editor', action);
  return row;
}

export const workflowRoutes = new OpenAPIHono<AppEnv>()
  .openapi(
    operation({ method: 'get', path: '/', summary: 'List workflows of a workspace', query: workflowListQuery, response: 'WorkflowList' }),
    async (c) => {
      const query = readQuery(c, workflowListQuery);
      const { db } = c.get('app');
      await assertWorkspaceAccess(db, c.get('principal'), query.workspaceId);
      return c.json({ data: await listWorkflows(db, query) });
    },
  )
  .openapi(
    operation({
      method: 'post',
      path: '/',
      summary: 'Create a workflow with a state',
      body: workflowCreate,
      success: 201,
      response: 'WorkflowResponse',
    }),
    async (c) => {
      const body = await readBody(c, workflowCreate);
      const { db } = c.get('app');
      await requireRole(db, c.get('principal'), body.workspaceId, 'editor', 'create workflows');
      return c.json({ data: toWorkflowView(await createWorkflow(db, body)) }, 201);
    },
  )
  .openapi(
    operation({
      method: 'post',
      path: '/import',
      summary: 'Create a draft workflow from a sluice.workflow document',
      body: workflowImport,
      success: 201,
      response: 'WorkflowImportResult',
    }),
    async (c) => {
      const body = await readBody(c, workflowImport);
      const { db } = c.get('app');
      await requireRole(db, c.get('principal'), body.workspaceId, 'editor', 'import workflows');
      const { row, missingEnvironment } = await importWorkflow(db, body);
      return c.json({ data: toWorkflowView(row), missingEnvironment }, 201);
    },
  )
  .openapi(
    operation({ method: 'get', path: '/{workflowId}', summary: 'Read a workflow and its draft state', response: 'WorkflowResponse' }),
    async (c) => c.json({ data: toWorkflowView(await loadWorkflow(c)) }),
  )
  .openapi(
    operation({
      method: 'get',
      path: '/{workflowId}/export',
      summary: 'Export as a sluice.workflow document (literal secrets replaced by {{VARIABLE}} references)',
      response: 'WorkflowExport',
    }),
    async (c) => {
      const { document, replacedSecrets } = await exportWorkflow(c.get('app').db, await loadWorkflow(c));
      return c.json({ data: document, replacedSecrets });
    },
  )
  .openapi(
    operation({
      method: 'get',
      path: '/{workflowId}/queued-runs',
      summary: "The workflow's queued async runs in the order a worker claims them, each with its place and why it waits",
      query: queuedRunsQuery,
      response: 'QueuedRunList',
    }),
    async (c) => {
      // Read like the workflow's logs: any member of its workspace; another workspace's workflow is 404.
      const row = await loadWorkflow(c);
      const query = readQuery(c, queuedRunsQuery);
      return c.json(await listQueuedRuns(c.get('app').db, row, { limit: query.limit, now: Date.now() }));
    },
  )
  .openapi(
    operation({
      method: 'patch',
      path: '/{workflowId}',
      summary: 'Update name, description, folder or draft state',
      body: workflowUpdate,
      response: 'WorkflowResponse',
    }),
    async (c) => {
      const row = await loadWorkflowToChange(c, 'edit workflows');
      const body = await readBody(c, workflowUpdate);
      return c.json({ data: toWorkflowView(await updateWorkflow(c.get('app').db, row, body)) });
    },
  )
  .openapi(operation({ method: 'delete', path: '/{workflowId}', summary: 'Delete a workflow', success: 204 }), async (c) => {
    const row = await loadWorkflowToChange(c, 'delete workflows');
    await deleteWorkflow(c.get('app').db, row.id);
    return c.body(null, 204);
  })
  .openapi(
    operation({ method: 'post', path: '/{workflowId}/deploy', summary: 'Deploy the draft as the next version', response: 'DeployResult' }),
    async (c) => {
      const row = await loadWorkflowToChange(c, 'deploy workflows');
      const deployment = await deployWorkflow(c.get('app').db, row.id, c.get('principal').userId);
      return c.json({ version: deployment.version, deployedAt: deployment.createdAt.toISOString() });
    },
  )
  .openapi(
    operation({
      method: 'delete',
      path: '/{workflowId}/deploy',
      summary: 'Undeploy',
      response: 'Undeployed',
      conflict: 'The workflow is not deployed (WORKFLOW_NOT_DEPLOYED)',
    }),
    async (c) => {
      const row = await loadWorkflowToChange(c, 'undeploy workflows');
      await undeployWorkflow(c.get('app').db, row);
      return c.json({ isDeployed: false });
    },
  )
  .openapi(
    operation({ method: 'get', path: '/{workflowId}/deployments', summary: 'Deployment history', response: 'DeploymentList' }),
    async (c) => {
      const row = await loadWorkflow(c);
      return c.json({ data: await listDeployments(c.get('app').db, row) });
    },
  )
  .openapi(
    operation({
      method: 'post',
      path: '/{workflowId}/deployments/{version}/activate',
      summary: 'Activate an earlier version',
      response: 'DeployResult',
    }),
    async (c) => {
      const row = await loadWorkflowToChange(c, 'roll back deployments');
      const version = parseWith(versionParam, c.req.param('version'), 'version', 'version');
      const { deployment, deployedAt } = await activateDeployment(c.get('app').db, row, version);
      return c.json({ version: deployment.version, deployedAt });
    },
  );

/** `GET /api/workflows/{id}/status` (docs/api.md 4.8; outside /v1 like execute). */
export const workflowStatusRoutes = new OpenAPIHono<AppEnv>().openapi(
  operation({
    method: 'get',
    path: '/{workflowId}/status',
    middleware: requireApiKey,
    summary: 'isDeployed, deployedAt, needsRedeployment',
    response: 'WorkflowStatus',
  }),
  async (c) => {
    const row = await loadWorkflow(c);
    return c.json(await workflowStatus(c.get('app').db, row));
  },
);
