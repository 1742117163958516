import { OpenAPIHono } from '@hono/zod-openapi';
import { listWorkspaces } from '../../services/workspaces.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';

export const meRoutes = new OpenAPIHono<AppEnv>().openapi(
  operation({ method: 'get', path: '/', summary: 'Who the API key belongs to', response: 'Me' }),
  async (c) => {
    const principal = c.get('principal');
    const workspaces = await listWorkspaces(c.get('app').db, principal);
    return c.json({
      userId: principal.userId,
      email: principal.email,
      workspaces: workspaces.map((w) => ({ id: w.id, name: w.name, plan: w.plan })),
    });
  },
);
