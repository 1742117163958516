import { $, OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { assertWorkspaceAccess } from '../../services/access.js';
import { deleteEnvVar, ENV_NAME_PATTERN, listEnvVarNames, setEnvVars } from '../../services/env-vars.js';
import { addMember, createWorkspace, listMembers, listWorkspaces, MEMBER_ROLES, removeMember } from '../../services/workspaces.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { id, name } from '../schemas.js';
import { parseWith, readBody } from '../validation.js';

const workspaceCreate = z.strictObject({ name });
const memberAdd = z.strictObject({
  email: z.email().max(320),
  role: z.enum(MEMBER_ROLES.filter((r) => r !== 'owner') as ['admin', 'member']).default('member'),
});

const envName = z.string().regex(ENV_NAME_PATTERN, 'must be a valid variable name (letters, digits, _)');
const envVarsSet = z.strictObject({
  variables: z
    .record(envName, z.string().max(65_536))
    .refine((v) => Object.keys(v).length <= 500, 'at most 500 variables at once'),
});

const workspaces = new OpenAPIHono<AppEnv>()
  .openapi(operation({ method: 'get', path: '/', summary: 'List reachable workspaces', response: 'WorkspaceList' }), async (c) =>
    c.json({ data: await listWorkspaces(c.get('app').db, c.get('principal')) }),
  )
  .openapi(
    operation({ method: 'post', path: '/', summary: 'Create a workspace', body: workspaceCreate, success: 201, response: 'WorkspaceResponse' }),
    async (c) => {
      const principal = c.get('principal');
      if (principal.keyWorkspaceId) {
        throw new AppError('FORBIDDEN', 403, 'A workspace-scoped API key cannot create workspaces');
      }
      const body = await readBody(c, workspaceCreate);
      const { db } = c.get('app');
      const workspaceId = await createWorkspace(db, principal.userId, body.name);
      const created = (await listWorkspaces(db, principal)).find((w) => w.id === workspaceId);
      return c.json({ data: created }, 201);
    },
  );

// Every route below acts on one workspace the caller must reach. (`.use()` gives back Hono's type; `$` restores
// OpenAPIHono's, so the chain can go on declaring.)
export const workspaceRoutes = $(
  workspaces.use('/:workspaceId/*', async (c, next) => {
    const workspaceId = parseWith(id, c.req.param('workspaceId'), 'workspace id', 'workspaceId');
    await assertWorkspaceAccess(c.get('app').db, c.get('principal'), workspaceId);
    await next();
  }),
)
  .openapi(operation({ method: 'get', path: '/{workspaceId}/members', summary: 'List members', response: 'MemberList' }), async (c) =>
    c.json({ data: await listMembers(c.get('app').db, c.req.param('workspaceId')) }),
  )
  .openapi(
    operation({
      method: 'post',
      path: '/{workspaceId}/members',
      summary: 'Add a member by email',
      body: memberAdd,
      success: 201,
      response: 'AddedMemberResponse',
    }),
    async (c) => {
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
    },
  )
  .openapi(operation({ method: 'delete', path: '/{workspaceId}/members/{userId}', summary: 'Remove a member', success: 204 }), async (c) => {
    await removeMember(c.get('app').db, {
      workspaceId: c.req.param('workspaceId'),
      actorId: c.get('principal').userId,
      userId: parseWith(id, c.req.param('userId'), 'user id', 'userId'),
    });
    return c.body(null, 204);
  })
  .openapi(
    operation({
      method: 'get',
      path: '/{workspaceId}/env',
      summary: 'List environment variable names (values are write-only)',
      response: 'EnvVarList',
    }),
    async (c) => c.json({ data: await listEnvVarNames(c.get('app').db, c.req.param('workspaceId')) }),
  )
  .openapi(
    operation({
      method: 'put',
      path: '/{workspaceId}/env',
      summary: 'Set environment variables (answers the whole list)',
      body: envVarsSet,
      response: 'EnvVarList',
    }),
    async (c) => {
      const body = await readBody(c, envVarsSet);
      const { db, cipher } = c.get('app');
      await setEnvVars(db, cipher, c.req.param('workspaceId'), body.variables);
      return c.json({ data: await listEnvVarNames(db, c.req.param('workspaceId')) });
    },
  )
  .openapi(
    operation({ method: 'delete', path: '/{workspaceId}/env/{name}', summary: 'Delete an environment variable', success: 204 }),
    async (c) => {
      const name = parseWith(envName, c.req.param('name'), 'variable name', 'name');
      await deleteEnvVar(c.get('app').db, c.req.param('workspaceId'), name);
      return c.body(null, 204);
    },
  );
