// Tenant isolation in one place: which workspaces a principal reaches. Personal keys reach every workspace
// the owner is a member of; workspace keys only their own (and only while the owner is still a member).
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { workspaceMembers } from '../db/schema.js';
import { forbidden } from '../errors.js';
import type { Principal } from './api-keys.js';
import type { AppContext } from './app-context.js';
import { cached, topics } from './cache/app-caches.js';

type Reach = Pick<Principal, 'userId' | 'keyWorkspaceId'>;

const reaches = (principal: Reach, workspaceId: string, isMember: boolean) =>
  isMember && (!principal.keyWorkspaceId || principal.keyWorkspaceId === workspaceId);

export async function canAccessWorkspace(db: Db, principal: Principal, workspaceId: string): Promise<boolean> {
  if (principal.keyWorkspaceId && principal.keyWorkspaceId !== workspaceId) return false;
  const [member] = await db
    .select({ userId: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, principal.userId)))
    .limit(1);
  return reaches(principal, workspaceId, Boolean(member));
}

/** The same rule on the execution path, from the cached member list of the workspace. */
export async function canRunInWorkspace(app: AppContext, principal: Reach, workspaceId: string): Promise<boolean> {
  if (principal.keyWorkspaceId && principal.keyWorkspaceId !== workspaceId) return false;
  const members = await cached<ReadonlySet<string>>(app.caches, 'workspaceMembers', workspaceId, async () => {
    const rows = await app.db
      .select({ userId: workspaceMembers.userId })
      .from(workspaceMembers)
      .where(eq(workspaceMembers.workspaceId, workspaceId));
    return { value: new Set(rows.map((r) => r.userId)), topics: [topics.workspaceMembers(workspaceId)] };
  });
  return reaches(principal, workspaceId, members.has(principal.userId));
}

/** For a workspace the caller named explicitly: 403 when it is out of reach. */
export async function assertWorkspaceAccess(db: Db, principal: Principal, workspaceId: string): Promise<void> {
  if (!(await canAccessWorkspace(db, principal, workspaceId))) throw forbidden();
}
