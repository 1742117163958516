import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { credentialTypeSchema } from '../../connectors/credential-data.js';
import { notFound } from '../../errors.js';
import { assertWorkspaceAccess, canAccessWorkspace, requireRole } from '../../services/access.js';
import {
  createCredential,
  deleteCredential,
  findCredential,
  listCredentials,
  testCredential,
  toCredentialView,
  updateCredential,
} from '../../services/credentials.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { id, name } from '../schemas.js';
import { parseId, readBody, readQuery } from '../validation.js';

// The data's shape is checked per type by the service (a 400 names each wrong field, never echoing a value).
const credentialData = z.record(z.string(), z.unknown()).describe('Fields per type: docs/api.md "Credentials"');
const credentialCreate = z.strictObject({ workspaceId: id, name, type: credentialTypeSchema, data: credentialData });
const credentialUpdate = z
  .strictObject({
    name: name.optional(),
    data: credentialData.optional().describe('Merged over the stored data: send only the fields that change (null removes one)'),
  })
  .refine((v) => Object.keys(v).length > 0, 'nothing to update');
const workspaceQuery = z.object({ workspaceId: id });

const CHANGE = 'change credentials';

async function loadCredential(c: Context<AppEnv>) {
  const credentialId = parseId(c.req.param('credentialId'), 'credential id', 'credentialId');
  const { db } = c.get('app');
  const row = await findCredential(db, credentialId);
  if (!row || !(await canAccessWorkspace(db, c.get('principal'), row.workspaceId))) throw notFound('Credential');
  return row;
}

async function loadCredentialToChange(c: Context<AppEnv>) {
  const row = await loadCredential(c);
  await requireRole(c.get('app').db, c.get('principal'), row.workspaceId, 'editor', CHANGE);
  return row;
}

export const credentialRoutes = new OpenAPIHono<AppEnv>()
  .openapi(
    operation({ method: 'get', path: '/', summary: 'List credentials (secret values are write-only)', query: workspaceQuery, response: 'CredentialList' }),
    async (c) => {
      const { workspaceId } = readQuery(c, workspaceQuery);
      const { db, cipher } = c.get('app');
      await assertWorkspaceAccess(db, c.get('principal'), workspaceId);
      return c.json({ data: await listCredentials(db, cipher, workspaceId) });
    },
  )
  .openapi(
    operation({ method: 'post', path: '/', summary: 'Store a credential', body: credentialCreate, success: 201, response: 'CredentialResponse' }),
    async (c) => {
      const body = await readBody(c, credentialCreate);
      const { db, cipher } = c.get('app');
      const principal = c.get('principal');
      await requireRole(db, principal, body.workspaceId, 'editor', CHANGE);
      return c.json({ data: await createCredential(db, cipher, { ...body, createdBy: principal.userId }) }, 201);
    },
  )
  .openapi(operation({ method: 'get', path: '/{credentialId}', summary: 'Read a credential (without its secrets)', response: 'CredentialResponse' }), async (c) =>
    c.json({ data: toCredentialView(await loadCredential(c), c.get('app').cipher) }),
  )
  .openapi(
    operation({
      method: 'patch',
      path: '/{credentialId}',
      summary: 'Rename a credential or rotate its data',
      body: credentialUpdate,
      response: 'CredentialResponse',
    }),
    async (c) => {
      const row = await loadCredentialToChange(c);
      const body = await readBody(c, credentialUpdate);
      const { db, cipher } = c.get('app');
      return c.json({ data: await updateCredential(db, cipher, row, body as { name?: string; data?: Record<string, unknown> }) });
    },
  )
  .openapi(operation({ method: 'delete', path: '/{credentialId}', summary: 'Delete a credential', success: 204 }), async (c) => {
    await deleteCredential(c.get('app').db, await loadCredentialToChange(c));
    return c.body(null, 204);
  })
  .openapi(
    operation({
      method: 'post',
      path: '/{credentialId}/test',
      summary: 'Open a connection with a credential and answer what the server said',
      response: 'CredentialTestResponse',
    }),
    async (c) => {
      const row = await loadCredentialToChange(c);
      return c.json({ data: await testCredential(c.get('app'), row) });
    },
  );
