// Tenant isolation and roles in one place: which workspaces a principal reaches, and what its role there lets it do.
// Personal keys reach every workspace the owner is a member of; workspace keys only their own (and only while the
// owner is still a member). A key acts with its owner's role in the workspace.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { workspaceMembers } from '../db/schema.js';
import { AppError, forbidden } from '../errors.js';
import type { Principal } from './api-keys.js';
import type { AppContext } from './app-context.js';
import { cached, topics } from './cache/app-caches.js';

/** Weakest first: each role may do everything the ones before it may. */
export const WORKSPACE_ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

type Reach = Pick<Principal, 'userId' | 'keyWorkspaceId'>;

/** Rows written before roles had these names (`member`) read as editors. */
export function toWorkspaceRole(stored: string): WorkspaceRole {
  return (WORKSPACE_ROLES as readonly string[]).includes(stored) ? (stored as WorkspaceRole) : 'editor';
}

const rank = (role: WorkspaceRole) => WORKSPACE_ROLES.indexOf(role);

export const atLeast = (role: WorkspaceRole, needed: WorkspaceRole) => rank(role) >= rank(needed);

const ROLE_NAMES: Record<WorkspaceRole, string> = { viewer: 'Viewers', editor: 'Editors', admin: 'Admins', owner: 'Owners' };

/**
 * What a role-refusal says: the role and the action, e.g. "Viewers cannot deploy workflows". `action` is what the
 * caller tried, in the plural-subject form ("deploy workflows", "manage members").
 */
function refusal(role: WorkspaceRole, action: string) {
  return new AppError('FORBIDDEN', 403, `${ROLE_NAMES[role]} cannot ${action}`);
}

/** The principal's role in the workspace, or undefined when the workspace is out of its reach. */
export async function workspaceRole(db: Db, principal: Reach, workspaceId: string): Promise<WorkspaceRole | undefined> {
  if (principal.keyWorkspaceId && principal.keyWorkspaceId !== workspaceId) return undefined;
  const [member] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, principal.userId)))
    .limit(1);
  return member ? toWorkspaceRole(member.role) : undefined;
}

export async function canAccessWorkspace(db: Db, principal: Principal, workspaceId: string): Promise<boolean> {
  return (await workspaceRole(db, principal, workspaceId)) !== undefined;
}

/** The same rule on the execution path, from the cached member list of the workspace. */
async function cachedWorkspaceRole(app: AppContext, principal: Reach, workspaceId: string): Promise<WorkspaceRole | undefined> {
  if (principal.keyWorkspaceId && principal.keyWorkspaceId !== workspaceId) return undefined;
  const members = await cached<ReadonlyMap<string, WorkspaceRole>>(app.caches, 'workspaceMembers', workspaceId, async () => {
    const rows = await app.db
      .select({ userId: workspaceMembers.userId, role: workspaceMembers.role })
      .from(workspaceMembers)
      .where(eq(workspaceMembers.workspaceId, workspaceId));
    return { value: new Map(rows.map((r) => [r.userId, toWorkspaceRole(r.role)])), topics: [topics.workspaceMembers(workspaceId)] };
  });
  return members.get(principal.userId);
}

export async function canRunInWorkspace(app: AppContext, principal: Reach, workspaceId: string): Promise<boolean> {
  return (await cachedWorkspaceRole(app, principal, workspaceId)) !== undefined;
}

/** Whether the principal's cached role there is at least `needed` (where a refusal is silence, as in a cancel broadcast). */
export async function hasRunRole(app: AppContext, principal: Reach, workspaceId: string, needed: WorkspaceRole): Promise<boolean> {
  const role = await cachedWorkspaceRole(app, principal, workspaceId);
  return role !== undefined && atLeast(role, needed);
}

/** For a workspace the caller named explicitly: 403 when it is out of reach. */
export async function assertWorkspaceAccess(db: Db, principal: Principal, workspaceId: string): Promise<void> {
  if (!(await canAccessWorkspace(db, principal, workspaceId))) throw forbidden();
}

/**
 * The one check every write makes: 403 unless the principal's role in the workspace is at least `needed`. A workspace
 * out of reach is refused the same way as by assertWorkspaceAccess (callers that load a row first have answered 404).
 */
export async function requireRole(
  db: Db,
  principal: Reach,
  workspaceId: string,
  needed: WorkspaceRole,
  action: string,
): Promise<WorkspaceRole> {
  const role = await workspaceRole(db, principal, workspaceId);
  if (!role) throw forbidden();
  if (!atLeast(role, needed)) throw refusal(role, action);
  return role;
}

/** requireRole on the execution path (cancel, approve), from the cached member list. */
export async function requireRunRole(
  app: AppContext,
  principal: Reach,
  workspaceId: string,
  needed: WorkspaceRole,
  action: string,
): Promise<void> {
  const role = await cachedWorkspaceRole(app, principal, workspaceId);
  if (!role) throw forbidden();
  if (!atLeast(role, needed)) throw refusal(role, action);
}
