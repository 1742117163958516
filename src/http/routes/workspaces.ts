import { Hono } from 'hono';
import { AppError } from '../../errors.js';
import { assertWorkspaceAccess } from '../../services/access.js';
import { deleteEnvVar, listEnvVarNames, setEnvVars } from '../../services/env-vars.js';
import { addMember, createWorkspace, listMembers, listWorkspaces, removeMember } from '../../services/workspaces.js';
import type { AppEnv } from '../env.js';
import { envName, envVarsSet, id, memberAdd, workspaceCreate } from '../schemas.js';
import { parseWith, readBody } from '../validation.js';

export const workspaceRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json({ data: await listWorkspaces(c.get('app').db, c.get('principal')) }))
  .post('/', async (c) => {
    const principal = c.get('principal');
    if (principal.keyWorkspaceId) {
      throw new AppError('FORBIDDEN', 403, 'A workspace-scoped API key cannot create workspaces');
    }
    const body = await readBody(c, workspaceCreate);
    const { db } = c.get('app');
    const workspaceId = await createWorkspace(db, principal.userId, body.name);
    const created = (await listWorkspaces(db, principal)).find((w) => w.id === workspaceId);
    return c.json({ data: created }, 201);
  })
  .use('/:workspaceId/*', async (c, next) => {
    const workspaceId = parseWith(id, c.req.param('workspaceId'), 'workspace id', 'workspaceId');
    await assertWorkspaceAccess(c.get('app').db, c.get('principal'), workspaceId);
    await next();
  })
  .get('/:workspaceId/members', async (c) =>
    c.json({ data: await listMembers(c.get('app').db, c.req.param('workspaceId')) }),
  )
  .post('/:workspaceId/members', async (c) => {
    const body = await readBody(c, memberAdd);
    const { db, config } = c.get('app');
    const member = await addMember(db, {
      workspaceId: c.req.param('workspaceId'),
      actorId: c.get('principal').userId,
      email: body.email,
      role: body.role,
      plan: config.defaultPlan,
    });
    return c.json({ data: member }, 201);
  })
  .delete('/:workspaceId/members/:userId', async (c) => {
    await removeMember(c.get('app').db, {
      workspaceId: c.req.param('workspaceId'),
      actorId: c.get('principal').userId,
      userId: parseWith(id, c.req.param('userId'), 'user id', 'userId'),
    });
    return c.body(null, 204);
  })
  .get('/:workspaceId/env', async (c) =>
    c.json({ data: await listEnvVarNames(c.get('app').db, c.req.param('workspaceId')) }),
  )
  .put('/:workspaceId/env', async (c) => {
    const body = await readBody(c, envVarsSet);
    const { db, cipher } = c.get('app');
    await setEnvVars(db, cipher, c.req.param('workspaceId'), body.variables);
    return c.json({ data: await listEnvVarNames(db, c.req.param('workspaceId')) });
  })
  .delete('/:workspaceId/env/:name', async (c) => {
    const name = parseWith(envName, c.req.param('name'), 'variable name', 'name');
    await deleteEnvVar(c.get('app').db, c.req.param('workspaceId'), name);
    return c.body(null, 204);
  });
