// OpenAPI connectors (docs/api.md "Connectors (OpenAPI)"): import a document into a workspace, list and read its
// operations, delete it. The API block then calls an operation by `{connectorId, operationId}`.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { notFound } from '../../errors.js';
import { assertWorkspaceAccess, canAccessWorkspace, requireRole } from '../../services/access.js';
import { createConnector, deleteConnector, findConnector, listConnectors, toConnectorView } from '../../services/connectors.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { id, name } from '../schemas.js';
import { parseId, readBody, readQuery } from '../validation.js';

const connectorCreate = z.strictObject({
  workspaceId: id,
  name,
  document: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .describe('An OpenAPI 3.0 or 3.1 document: JSON or YAML text, or the JSON object itself (at most 2 MB; internal $refs only)'),
});
const workspaceQuery = z.object({ workspaceId: id });

const CHANGE = 'change connectors';

async function loadConnector(c: Context<AppEnv>) {
  const connectorId = parseId(c.req.param('connectorId'), 'connector id', 'connectorId');
  const { db } = c.get('app');
  const row = await findConnector(db, connectorId);
  if (!row || !(await canAccessWorkspace(db, c.get('principal'), row.workspaceId))) throw notFound('Connector');
  return row;
}

export const connectorRoutes = new OpenAPIHono<AppEnv>()
  .openapi(
    operation({ method: 'get', path: '/', summary: "List a workspace's OpenAPI connectors", query: workspaceQuery, response: 'ConnectorSummaryList' }),
    async (c) => {
      const { workspaceId } = readQuery(c, workspaceQuery);
      const { db } = c.get('app');
      await assertWorkspaceAccess(db, c.get('principal'), workspaceId);
      return c.json({ data: await listConnectors(db, workspaceId) });
    },
  )
  .openapi(
    operation({
      method: 'post',
      path: '/',
      summary: 'Import an OpenAPI document as a connector',
      body: connectorCreate,
      success: 201,
      response: 'ConnectorResponse',
      conflict: 'A connector of that name exists in the workspace (CONNECTOR_NAME_TAKEN)',
    }),
    async (c) => {
      const body = await readBody(c, connectorCreate);
      const { db } = c.get('app');
      const principal = c.get('principal');
      await requireRole(db, principal, body.workspaceId, 'editor', CHANGE);
      return c.json({ data: await createConnector(db, { ...body, createdBy: principal.userId }) }, 201);
    },
  )
  .openapi(operation({ method: 'get', path: '/{connectorId}', summary: 'Read a connector and its operations', response: 'ConnectorResponse' }), async (c) =>
    c.json({ data: toConnectorView(await loadConnector(c)) }),
  )
  .openapi(operation({ method: 'delete', path: '/{connectorId}', summary: 'Delete a connector', success: 204 }), async (c) => {
    const row = await loadConnector(c);
    const { db } = c.get('app');
    await requireRole(db, c.get('principal'), row.workspaceId, 'editor', CHANGE);
    await deleteConnector(db, row);
    return c.body(null, 204);
  });
