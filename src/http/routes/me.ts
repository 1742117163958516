import { Hono } from 'hono';
import { listWorkspaces } from '../../services/workspaces.js';
import type { AppEnv } from '../env.js';

export const meRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const principal = c.get('principal');
  const workspaces = await listWorkspaces(c.get('app').db, principal);
  return c.json({
    userId: principal.userId,
    email: principal.email,
    workspaces: workspaces.map((w) => ({ id: w.id, name: w.name, plan: w.plan })),
  });
});
