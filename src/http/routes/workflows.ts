import { Hono } from 'hono';
import type { Context } from 'hono';
import { assertWorkspaceAccess } from '../../services/access.js';
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
import { requireApiKey } from '../auth.js';
import type { AppEnv } from '../env.js';
import { id, versionParam, workflowCreate, workflowImport, workflowListQuery, workflowUpdate } from '../schemas.js';
import { parseWith, readBody, readQuery } from '../validation.js';

function loadWorkflow(c: Context<AppEnv>) {
  const workflowId = parseWith(id, c.req.param('workflowId'), 'workflow id', 'workflowId');
  return getWorkflowForPrincipal(c.get('app').db, c.get('principal'), workflowId);
}

export const workflowRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const query = readQuery(c, workflowListQuery);
    const { db } = c.get('app');
    await assertWorkspaceAccess(db, c.get('principal'), query.workspaceId);
    return c.json({ data: await listWorkflows(db, query) });
  })
  .post('/', async (c) => {
    const body = await readBody(c, workflowCreate);
    const { db } = c.get('app');
    await assertWorkspaceAccess(db, c.get('principal'), body.workspaceId);
    return c.json({ data: toWorkflowView(await createWorkflow(db, body)) }, 201);
  })
  .post('/import', async (c) => {
    const body = await readBody(c, workflowImport);
    const { db } = c.get('app');
    await assertWorkspaceAccess(db, c.get('principal'), body.workspaceId);
    const { row, missingEnvironment } = await importWorkflow(db, body);
    return c.json({ data: toWorkflowView(row), missingEnvironment }, 201);
  })
  .get('/:workflowId', async (c) => c.json({ data: toWorkflowView(await loadWorkflow(c)) }))
  .get('/:workflowId/export', async (c) => {
    const { document, replacedSecrets } = exportWorkflow(await loadWorkflow(c));
    return c.json({ data: document, replacedSecrets });
  })
  .patch('/:workflowId', async (c) => {
    const row = await loadWorkflow(c);
    const body = await readBody(c, workflowUpdate);
    return c.json({ data: toWorkflowView(await updateWorkflow(c.get('app').db, row, body)) });
  })
  .delete('/:workflowId', async (c) => {
    const row = await loadWorkflow(c);
    await deleteWorkflow(c.get('app').db, row.id);
    return c.body(null, 204);
  })
  .post('/:workflowId/deploy', async (c) => {
    const row = await loadWorkflow(c);
    const deployment = await deployWorkflow(c.get('app').db, row.id, c.get('principal').userId);
    return c.json({ version: deployment.version, deployedAt: deployment.createdAt.toISOString() });
  })
  .delete('/:workflowId/deploy', async (c) => {
    const row = await loadWorkflow(c);
    await undeployWorkflow(c.get('app').db, row);
    return c.json({ isDeployed: false });
  })
  .get('/:workflowId/deployments', async (c) => {
    const row = await loadWorkflow(c);
    return c.json({ data: await listDeployments(c.get('app').db, row) });
  })
  .post('/:workflowId/deployments/:version/activate', async (c) => {
    const row = await loadWorkflow(c);
    const version = parseWith(versionParam, c.req.param('version'), 'version', 'version');
    const { deployment, deployedAt } = await activateDeployment(c.get('app').db, row, version);
    return c.json({ version: deployment.version, deployedAt });
  });

/** `GET /api/workflows/{id}/status` (docs/api.md 4.8; outside /v1 like execute). */
export const workflowStatusRoutes = new Hono<AppEnv>().get('/:workflowId/status', requireApiKey, async (c) => {
  const row = await loadWorkflow(c);
  return c.json(await workflowStatus(c.get('app').db, row));
});
