// Users and workspaces: creating them, membership, and the bootstrap of the first admin.
import { and, asc, eq } from 'drizzle-orm';
import type { Plan } from '../config.js';
import type { Db } from '../db/client.js';
import { users, workspaceMembers, workspaces } from '../db/schema.js';
import { AppError, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { requireRole, toWorkspaceRole, type WorkspaceRole } from './access.js';
import { findKeyByValue, storeApiKey, type Principal } from './api-keys.js';
import { lockOwnerProvisioning } from './owner-lock.js';

/** The roles a member can be given; `owner` is only ever the workspace's creator. */
export const ASSIGNABLE_ROLES = ['admin', 'editor', 'viewer'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

const MANAGE_MEMBERS = 'manage members';

export interface WorkspaceView {
  id: string;
  name: string;
  plan: string;
  ownerId: string;
  role: string;
  createdAt: string;
}

export async function findOrCreateUser(db: Db, email: string, plan: Plan): Promise<typeof users.$inferSelect> {
  const normalized = email.trim().toLowerCase();
  const [existing] = await db.select().from(users).where(eq(users.email, normalized)).limit(1);
  if (existing) return existing;
  const [created] = await db
    .insert(users)
    .values({ id: newId('usr'), email: normalized, plan })
    .onConflictDoNothing({ target: users.email })
    .returning();
  if (created) return created;
  // Lost a race with another process creating the same user.
  const [raced] = await db.select().from(users).where(eq(users.email, normalized)).limit(1);
  return raced;
}

export async function createWorkspace(db: Db, ownerId: string, name: string): Promise<string> {
  const id = newId('ws');
  await db.transaction(async (tx) => {
    await tx.insert(workspaces).values({ id, name, ownerId });
    await tx.insert(workspaceMembers).values({ workspaceId: id, userId: ownerId, role: 'owner' });
  });
  return id;
}

/** The workspaces a principal reaches, with the plan of each workspace's owner (limits follow the owner). */
export async function listWorkspaces(db: Db, principal: Principal): Promise<WorkspaceView[]> {
  const rows = await db
    .select({ ws: workspaces, role: workspaceMembers.role, plan: users.plan })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .innerJoin(users, eq(users.id, workspaces.ownerId))
    .where(eq(workspaceMembers.userId, principal.userId))
    .orderBy(asc(workspaces.createdAt), asc(workspaces.id));
  return rows
    .filter((r) => !principal.keyWorkspaceId || r.ws.id === principal.keyWorkspaceId)
    .map((r) => ({
      id: r.ws.id,
      name: r.ws.name,
      plan: r.plan,
      ownerId: r.ws.ownerId,
      role: toWorkspaceRole(r.role),
      createdAt: r.ws.createdAt.toISOString(),
    }));
}

export async function listMembers(db: Db, workspaceId: string) {
  const rows = await db
    .select({ userId: users.id, email: users.email, role: workspaceMembers.role, joinedAt: workspaceMembers.createdAt })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, workspaceId))
    .orderBy(asc(workspaceMembers.createdAt));
  return rows.map((r) => ({ ...r, role: toWorkspaceRole(r.role), joinedAt: r.joinedAt.toISOString() }));
}

async function memberRole(db: Db, workspaceId: string, userId: string): Promise<WorkspaceRole | undefined> {
  const [row] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
    .limit(1);
  return row ? toWorkspaceRole(row.role) : undefined;
}

type Actor = Pick<Principal, 'userId' | 'keyWorkspaceId'>;

export async function addMember(
  db: Db,
  input: { workspaceId: string; actor: Actor; email: string; role: AssignableRole; plan: Plan },
) {
  await requireRole(db, input.actor, input.workspaceId, 'admin', MANAGE_MEMBERS);
  const user = await findOrCreateUser(db, input.email, input.plan);
  const existing = await memberRole(db, input.workspaceId, user.id);
  if (existing === 'owner') throw new AppError('VALIDATION_ERROR', 400, 'The workspace owner is already a member');
  // A member already there keeps the date they joined; only the role changes.
  const [row] = await db
    .insert(workspaceMembers)
    .values({ workspaceId: input.workspaceId, userId: user.id, role: input.role })
    .onConflictDoUpdate({ target: [workspaceMembers.workspaceId, workspaceMembers.userId], set: { role: input.role } })
    .returning({ joinedAt: workspaceMembers.createdAt });
  return { userId: user.id, email: user.email, role: input.role, joinedAt: row.joinedAt.toISOString() };
}

/** Only owners and admins change membership; the owner cannot be demoted. */
export async function changeMemberRole(db: Db, input: { workspaceId: string; actor: Actor; userId: string; role: AssignableRole }) {
  await requireRole(db, input.actor, input.workspaceId, 'admin', MANAGE_MEMBERS);
  const role = await memberRole(db, input.workspaceId, input.userId);
  if (!role) throw notFound('Member');
  if (role === 'owner') throw new AppError('VALIDATION_ERROR', 400, 'The workspace owner cannot be demoted');
  await db
    .update(workspaceMembers)
    .set({ role: input.role })
    .where(and(eq(workspaceMembers.workspaceId, input.workspaceId), eq(workspaceMembers.userId, input.userId)));
  const member = (await listMembers(db, input.workspaceId)).find((m) => m.userId === input.userId);
  if (!member) throw notFound('Member');
  return member;
}

export async function removeMember(db: Db, input: { workspaceId: string; actor: Actor; userId: string }) {
  await requireRole(db, input.actor, input.workspaceId, 'admin', MANAGE_MEMBERS);
  const role = await memberRole(db, input.workspaceId, input.userId);
  if (!role) throw notFound('Member');
  if (role === 'owner') throw new AppError('VALIDATION_ERROR', 400, 'The workspace owner cannot be removed');
  await db
    .delete(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, input.workspaceId), eq(workspaceMembers.userId, input.userId)));
}

export interface BootstrapResult {
  apiKey: string;
  userId: string;
  workspaceId: string;
  created: boolean;
}

/**
 * Bootstrap (README "First steps"): make sure the admin user, a `Default` workspace and the given key exist.
 * Idempotent: a key that is already stored is left alone (whoever it belongs to now).
 */
export async function bootstrapAdmin(db: Db, input: { apiKey: string; adminEmail: string; plan: Plan }): Promise<BootstrapResult> {
  // Processes started together with the same key take turns (owner-lock.ts): each later one finds the key stored.
  return db.transaction(async (tx) => {
    await lockOwnerProvisioning(tx);
    const existing = await findKeyByValue(tx, input.apiKey);
    if (existing) {
      return { apiKey: input.apiKey, userId: existing.userId, workspaceId: existing.workspaceId ?? '', created: false };
    }
    const admin = await findOrCreateUser(tx, input.adminEmail, input.plan);
    const [owned] = await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(and(eq(workspaces.ownerId, admin.id), eq(workspaces.name, 'Default')))
      .limit(1);
    const workspaceId = owned?.id ?? (await createWorkspace(tx, admin.id, 'Default'));
    await storeApiKey(tx, { key: input.apiKey, userId: admin.id, workspaceId, name: 'Bootstrap key' });
    return { apiKey: input.apiKey, userId: admin.id, workspaceId, created: true };
  });
}
