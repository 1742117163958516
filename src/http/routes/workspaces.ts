import { $, OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { assertWorkspaceAccess, requireRole } from '../../services/access.js';
import { deleteEnvVar, ENV_NAME_PATTERN, listEnvVarNames, setEnvVars } from '../../services/env-vars.js';
import { createInvite, DEFAULT_INVITE_HOURS, listPendingInvites, MAX_INVITE_HOURS, revokeInvite } from '../../services/invites.js';
import {
  addMember,
  ASSIGNABLE_ROLES,
  changeMemberRole,
  createWorkspace,
  listMembers,
  listWorkspaces,
  removeMember,
} from '../../services/workspaces.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { name } from '../schemas.js';
import { parseId, parseWith, readBody } from '../validation.js';

const workspaceCreate = z.strictObject({ name });
/** `member`, the name editors had before viewers existed, is still taken on input. */
const assignableRole = z
  .enum([...ASSIGNABLE_ROLES, 'member'])
  .transform((role) => (role === 'member' ? 'editor' : role))
  .describe('admin, editor or viewer (`member` is read as editor)');
const memberAdd = z.strictObject({ email: z.email().max(320), role: assignableRole.default('editor') });
const memberUpdate = z.strictObject({ role: assignableRole });
const inviteCreate = z.strictObject({
  role: assignableRole,
  email: z.email().max(320).optional().describe('Only this address may accept'),
  expiresInHours: z
    .number()
    .int()
    .min(1)
    .max(MAX_INVITE_HOURS)
    .default(DEFAULT_INVITE_HOURS)
    .describe(`Hours until the link stops working (default ${DEFAULT_INVITE_HOURS}, at most ${MAX_INVITE_HOURS})`),
});

const CHANGE_ENV = 'change environment variables';
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
    const workspaceId = parseId(c.req.param('workspaceId'), 'workspace id', 'workspaceId');
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
        actor: c.get('principal'),
        email: body.email,
        role: body.role,
        plan: config.defaultPlan,
      });
      return c.json({ data: member }, 201);
    },
  )
  .openapi(
    operation({
      method: 'patch',
      path: '/{workspaceId}/members/{userId}',
      summary: "Change a member's role (owners and admins; the owner cannot be demoted)",
      body: memberUpdate,
      response: 'MemberResponse',
    }),
    async (c) => {
      const body = await readBody(c, memberUpdate);
      const member = await changeMemberRole(c.get('app').db, {
        workspaceId: c.req.param('workspaceId'),
        actor: c.get('principal'),
        userId: parseId(c.req.param('userId'), 'user id', 'userId'),
        role: body.role,
      });
      return c.json({ data: member });
    },
  )
  .openapi(operation({ method: 'delete', path: '/{workspaceId}/members/{userId}', summary: 'Remove a member', success: 204 }), async (c) => {
    await removeMember(c.get('app').db, {
      workspaceId: c.req.param('workspaceId'),
      actor: c.get('principal'),
      userId: parseId(c.req.param('userId'), 'user id', 'userId'),
    });
    return c.body(null, 204);
  })
  .openapi(
    operation({
      method: 'post',
      path: '/{workspaceId}/invites',
      summary: 'Create a one-time invite link (owners and admins; the link is shown once)',
      body: inviteCreate,
      success: 201,
      response: 'CreatedInviteResponse',
    }),
    async (c) => {
      const body = await readBody(c, inviteCreate);
      const { db, config } = c.get('app');
      const invite = await createInvite(db, {
        workspaceId: c.req.param('workspaceId'),
        actor: c.get('principal'),
        role: body.role,
        email: body.email,
        expiresInHours: body.expiresInHours,
        baseUrl: config.baseUrl,
      });
      return c.json({ data: invite }, 201);
    },
  )
  .openapi(operation({ method: 'get', path: '/{workspaceId}/invites', summary: 'Pending invites (no links)', response: 'InviteList' }), async (c) =>
    c.json({ data: await listPendingInvites(c.get('app').db, c.get('principal'), c.req.param('workspaceId')) }),
  )
  .openapi(
    operation({ method: 'delete', path: '/{workspaceId}/invites/{inviteId}', summary: 'Revoke a pending invite', success: 204 }),
    async (c) => {
      const inviteId = parseId(c.req.param('inviteId'), 'invite id', 'inviteId');
      await revokeInvite(c.get('app').db, c.get('principal'), c.req.param('workspaceId'), inviteId);
      return c.body(null, 204);
    },
  )
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
      const { db, cipher } = c.get('app');
      await requireRole(db, c.get('principal'), c.req.param('workspaceId'), 'editor', CHANGE_ENV);
      const body = await readBody(c, envVarsSet);
      await setEnvVars(db, cipher, c.req.param('workspaceId'), body.variables);
      return c.json({ data: await listEnvVarNames(db, c.req.param('workspaceId')) });
    },
  )
  .openapi(
    operation({ method: 'delete', path: '/{workspaceId}/env/{name}', summary: 'Delete an environment variable', success: 204 }),
    async (c) => {
      const name = parseWith(envName, c.req.param('name'), 'variable name', 'name');
      await requireRole(c.get('app').db, c.get('principal'), c.req.param('workspaceId'), 'editor', CHANGE_ENV);
      await deleteEnvVar(c.get('app').db, c.req.param('workspaceId'), name);
      return c.body(null, 204);
    },
  );
