// Tenant isolation in one place: which workspaces a principal reaches. Personal keys reach every workspace
// the owner is a member of; workspace keys only their own (and only while the owner is still a member).
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { workspaceMembers } from '../db/schema.js';
import { forbidden } from '../errors.js';
import type { Principal } from './api-keys.js';

export async function canAccessWorkspace(db: Db, principal: Principal, workspaceId: string): Promise<boolean> {
  if (principal.keyWorkspaceId && principal.keyWorkspaceId !== workspaceId) return false;
  const [member] = await db
    .select({ userId: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, principal.userId)))
    .limit(1);
  return Boolean(member);
}

/** For a workspace the caller named explicitly: 403 when it is out of reach. */
export async function assertWorkspaceAccess(db: Db, principal: Principal, workspaceId: string): Promise<void> {
  if (!(await canAccessWorkspace(db, principal, workspaceId))) throw forbidden();
}
