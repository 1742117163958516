import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { assertWorkspaceAccess } from '../../services/access.js';
import { generateApiKey, listApiKeys, revokeApiKey, storeApiKey, toApiKeyView } from '../../services/api-keys.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { id, name } from '../schemas.js';
import { parseId, readBody } from '../validation.js';

const apiKeyCreate = z.strictObject({ name, workspaceId: id.nullable().optional() });

export const apiKeyRoutes = new OpenAPIHono<AppEnv>()
  .openapi(operation({ method: 'get', path: '/', summary: 'List API keys (hints only)', response: 'ApiKeyList' }), async (c) => {
    const principal = c.get('principal');
    const keys = await listApiKeys(c.get('app'), principal.userId);
    // A workspace key sees only the keys of its own workspace; personal keys stay out of its reach.
    const visible = principal.keyWorkspaceId ? keys.filter((k) => k.workspaceId === principal.keyWorkspaceId) : keys;
    return c.json({ data: visible });
  })
  .openapi(
    operation({
      method: 'post',
      path: '/',
      summary: 'Create an API key (shown once)',
      body: apiKeyCreate,
      success: 201,
      response: 'CreatedApiKeyResponse',
    }),
    async (c) => {
      const principal = c.get('principal');
      const body = await readBody(c, apiKeyCreate);
      const workspaceId = body.workspaceId ?? null;
      // A workspace key must not mint a key that reaches further than itself.
      if (principal.keyWorkspaceId && workspaceId !== principal.keyWorkspaceId) {
        throw new AppError('FORBIDDEN', 403, 'A workspace-scoped API key can only create keys for its own workspace');
      }
      const { db } = c.get('app');
      if (workspaceId) await assertWorkspaceAccess(db, principal, workspaceId);
      const key = generateApiKey();
      const row = await storeApiKey(db, { key, userId: principal.userId, workspaceId, name: body.name });
      return c.json({ data: { ...toApiKeyView(row), key } }, 201);
    },
  )
  .openapi(operation({ method: 'delete', path: '/{keyId}', summary: 'Revoke an API key', success: 204 }), async (c) => {
    const principal = c.get('principal');
    const { db } = c.get('app');
    const keyId = parseId(c.req.param('keyId'), 'API key id', 'keyId');
    if (principal.keyWorkspaceId) {
      const own = (await listApiKeys(c.get('app'), principal.userId)).find((k) => k.id === keyId);
      if (!own || own.workspaceId !== principal.keyWorkspaceId) throw new AppError('NOT_FOUND', 404, 'API key not found');
    }
    await revokeApiKey(db, principal.userId, keyId);
    return c.body(null, 204);
  });
