// Invite links (docs/api.md "Members and invites"): an owner or admin creates a one-time, expiring link with a role;
// whoever opens it sets a password (or, with an account already, gives theirs) and joins the workspace signed in.
// The token is shown once and only its SHA-256 is stored, as for API keys.
import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { Plan } from '../config.js';
import type { Db } from '../db/client.js';
import { users, workspaceInvites, workspaceMembers, workspaces } from '../db/schema.js';
import { AppError, badRequest, notFound } from '../errors.js';
import { newId, randomBase62 } from '../ids.js';
import { requireRole } from './access.js';
import type { Principal } from './api-keys.js';
import { sha256Hex } from './crypto.js';
import { hashPassword, passwordProblem } from './passwords.js';
import { checkSignInPassword, createSession, EMAIL_PATTERN } from './sessions.js';
import type { AssignableRole } from './workspaces.js';

export const INVITE_PATH = '/invite';
export const DEFAULT_INVITE_HOURS = 168;
export const MAX_INVITE_HOURS = 720;
const TOKEN_LENGTH = 32;
const MANAGE_INVITES = 'manage members';

type InviteRow = typeof workspaceInvites.$inferSelect;
type Actor = Pick<Principal, 'userId' | 'keyWorkspaceId'>;

export interface InviteView {
  id: string;
  role: AssignableRole;
  email: string | null;
  createdAt: string;
  expiresAt: string;
}

function toInviteView(row: InviteRow): InviteView {
  return {
    id: row.id,
    role: row.role as AssignableRole,
    email: row.email,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

export const inviteLink = (baseUrl: string, token: string) => `${baseUrl.replace(/\/+$/, '')}${INVITE_PATH}?token=${token}`;

const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function createInvite(
  db: Db,
  input: { workspaceId: string; actor: Actor; role: AssignableRole; email?: string; expiresInHours?: number; baseUrl: string },
  now = new Date(),
): Promise<InviteView & { url: string }> {
  await requireRole(db, input.actor, input.workspaceId, 'admin', MANAGE_INVITES);
  const token = randomBase62(TOKEN_LENGTH);
  const [row] = await db
    .insert(workspaceInvites)
    .values({
      id: newId('inv'),
      workspaceId: input.workspaceId,
      role: input.role,
      email: input.email ? normalizeEmail(input.email) : null,
      tokenHash: sha256Hex(token),
      createdBy: input.actor.userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + (input.expiresInHours ?? DEFAULT_INVITE_HOURS) * 3600_000),
    })
    .returning();
  return { ...toInviteView(row), url: inviteLink(input.baseUrl, token) };
}

/** The invites still waiting to be used (expired ones are left out). */
export async function listPendingInvites(db: Db, actor: Actor, workspaceId: string, now = new Date()): Promise<InviteView[]> {
  await requireRole(db, actor, workspaceId, 'admin', MANAGE_INVITES);
  const rows = await db
    .select()
    .from(workspaceInvites)
    .where(and(eq(workspaceInvites.workspaceId, workspaceId), isNull(workspaceInvites.usedAt), gt(workspaceInvites.expiresAt, now)))
    .orderBy(asc(workspaceInvites.createdAt));
  return rows.map(toInviteView);
}

/** Revoking forgets the invite: its link then answers 404, like one that never existed. */
export async function revokeInvite(db: Db, actor: Actor, workspaceId: string, inviteId: string): Promise<void> {
  await requireRole(db, actor, workspaceId, 'admin', MANAGE_INVITES);
  const deleted = await db
    .delete(workspaceInvites)
    .where(and(eq(workspaceInvites.id, inviteId), eq(workspaceInvites.workspaceId, workspaceId), isNull(workspaceInvites.usedAt)))
    .returning({ id: workspaceInvites.id });
  if (deleted.length === 0) throw notFound('Invite');
}

const inviteNotFound = () => new AppError('NOT_FOUND', 404, 'This invite link is not valid (it may have been revoked)');

/** The invite a token names, as long as it can still be used: 404 unknown or revoked, 410 expired or used. */
async function usableInvite(db: Db, token: string, now: Date): Promise<InviteRow> {
  if (token.length !== TOKEN_LENGTH || !/^[A-Za-z0-9]+$/.test(token)) throw inviteNotFound();
  const [row] = await db.select().from(workspaceInvites).where(eq(workspaceInvites.tokenHash, sha256Hex(token))).limit(1);
  if (!row) throw inviteNotFound();
  refuseSpent(row, now);
  return row;
}

function refuseSpent(row: InviteRow, now: Date): void {
  if (row.usedAt) throw new AppError('INVITE_USED', 410, 'This invite link has been used already; ask for a new one');
  if (row.expiresAt <= now) throw new AppError('INVITE_EXPIRED', 410, 'This invite link has expired; ask for a new one');
}

/** What the invite page shows before anyone signs in. */
export async function describeInvite(db: Db, token: string, now = new Date()) {
  const row = await usableInvite(db, token, now);
  const [workspace] = await db.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, row.workspaceId)).limit(1);
  if (!workspace) throw inviteNotFound();
  return {
    workspaceId: row.workspaceId,
    workspaceName: workspace.name,
    role: row.role as AssignableRole,
    email: row.email,
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * Accepting: a new address gets an account with the password given; an existing account must give its password
 * (counted like a sign-in). The invite is claimed, the membership added and the session created in one transaction,
 * and the claim only takes an unused, unexpired invite: of two accepts at once, the second finds it used.
 */
export async function acceptInvite(
  db: Db,
  input: { token: string; email: string; password: string; clientAddress: string; plan: Plan },
  now = new Date(),
) {
  const invite = await usableInvite(db, input.token, now);
  const email = normalizeEmail(input.email);
  if (!EMAIL_PATTERN.test(email)) throw badRequest('Invalid request body', [{ path: 'email', message: 'must be an email address' }]);
  if (invite.email && invite.email !== email) {
    throw badRequest('This invite is for another email address', [{ path: 'email', message: `must be ${invite.email}` }]);
  }
  const [existing] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  let newUser: { id: string; passwordHash: string } | null = null;
  if (existing && existing.passwordHash) {
    await checkSignInPassword(db, { email, password: input.password, clientAddress: input.clientAddress }, now);
  } else if (existing) {
    // Setting a password here would hand that account (and its other workspaces) to whoever holds the link.
    throw new AppError(
      'CONFLICT',
      409,
      'An account with this email exists but has no password yet; its owner must set one before accepting',
    );
  } else {
    const problem = passwordProblem(input.password);
    if (problem) throw badRequest('Invalid request body', [{ path: 'password', message: problem }]);
    newUser = { id: newId('usr'), passwordHash: await hashPassword(input.password) };
  }
  const userId = existing?.id ?? newUser!.id;

  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(workspaceInvites)
      .set({ usedAt: now, usedBy: existing ? userId : null })
      .where(and(eq(workspaceInvites.id, invite.id), isNull(workspaceInvites.usedAt), gt(workspaceInvites.expiresAt, now)))
      .returning();
    if (!claimed) {
      const [after] = await tx.select().from(workspaceInvites).where(eq(workspaceInvites.id, invite.id)).limit(1);
      if (!after) throw inviteNotFound();
      refuseSpent(after, now);
      throw inviteNotFound();
    }
    if (newUser) {
      const [created] = await tx
        .insert(users)
        .values({ id: newUser.id, email, plan: input.plan, passwordHash: newUser.passwordHash })
        .onConflictDoNothing({ target: users.email })
        .returning();
      if (!created) throw new AppError('CONFLICT', 409, 'An account with this email was created meanwhile; sign in and open the link again');
      await tx.update(workspaceInvites).set({ usedBy: userId }).where(eq(workspaceInvites.id, invite.id));
    }
    // Someone already a member keeps the role they have: an invite never demotes (nor promotes) them.
    await tx
      .insert(workspaceMembers)
      .values({ workspaceId: invite.workspaceId, userId, role: invite.role })
      .onConflictDoNothing({ target: [workspaceMembers.workspaceId, workspaceMembers.userId] });
    const { token, session } = await createSession(tx, userId, now);
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).limit(1);
    return { token, session, user: { id: user.id, email: user.email, plan: user.plan }, workspaceId: invite.workspaceId };
  });
}

