// First run in the browser: while no user has a password, whoever holds the setup token may create the owner account
// (a password, a Default workspace, a session). The token guards against whoever reaches the port first.
//
// The token is derived from the server secret rather than stored: every process sharing the secret prints and accepts
// the same link, a restart does not invalidate the link printed before it, and it needs no table. It is single use in
// effect: once any user has a password, setup is over and the token opens nothing.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq, isNotNull } from 'drizzle-orm';
import type { Plan } from '../config.js';
import type { Db } from '../db/client.js';
import { users, workspaceMembers, workspaces } from '../db/schema.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { lockOwnerProvisioning } from './owner-lock.js';
import { hashPassword, passwordProblem } from './passwords.js';
import { createSession, EMAIL_PATTERN } from './sessions.js';

export const SETUP_PATH = '/setup';

export function setupToken(secret: string): string {
  return createHmac('sha256', secret).update('sluice/first-run-setup/v1').digest('base64url').slice(0, 32);
}

export function setupLink(baseUrl: string, token: string): string {
  return `${baseUrl}${SETUP_PATH}?token=${token}`;
}

export function setupTokenMatches(expected: string, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** True while no user can sign in: nobody has a password yet. */
export async function setupNeeded(db: Db): Promise<boolean> {
  const [someone] = await db.select({ id: users.id }).from(users).where(isNotNull(users.passwordHash)).limit(1);
  return !someone;
}

const setupDone = () =>
  new AppError('SETUP_COMPLETE', 409, 'The owner account exists already; sign in instead (an owner can add people to workspaces)');

/**
 * Creates the owner: the user (or the existing one with that email, such as a bootstrap admin made for an API key)
 * gets the password, a Default workspace when it owns none, and a session. Refused once any user has a password.
 */
export async function completeSetup(
  db: Db,
  input: { expectedToken: string; token: unknown; email: string; password: string; plan: Plan },
) {
  if (!setupTokenMatches(input.expectedToken, input.token)) {
    throw new AppError('SETUP_TOKEN_INVALID', 403, 'This setup link is not valid: open the link the server printed when it started');
  }
  const email = input.email.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(email)) {
    throw new AppError('VALIDATION_ERROR', 400, 'Invalid request body', [{ path: 'email', message: 'must be an email address' }]);
  }
  const problem = passwordProblem(input.password);
  if (problem) throw new AppError('VALIDATION_ERROR', 400, 'Invalid request body', [{ path: 'password', message: problem }]);
  // Cheap refusal before the slow hash; the transaction below decides for real.
  if (!(await setupNeeded(db))) throw setupDone();
  const passwordHash = await hashPassword(input.password);

  const userId = await db.transaction(async (tx) => {
    // Serialises concurrent setup attempts (any process), and setup against a bootstrap, so exactly one creates the owner.
    await lockOwnerProvisioning(tx);
    const [someone] = await tx.select({ id: users.id }).from(users).where(isNotNull(users.passwordHash)).limit(1);
    if (someone) throw setupDone();
    const [existing] = await tx.select().from(users).where(eq(users.email, email)).limit(1);
    const id = existing?.id ?? newId('usr');
    if (existing) await tx.update(users).set({ passwordHash }).where(eq(users.id, id));
    else await tx.insert(users).values({ id, email, plan: input.plan, passwordHash });
    const [owned] = await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.ownerId, id))
      .limit(1);
    if (!owned) {
      const workspaceId = newId('ws');
      await tx.insert(workspaces).values({ id: workspaceId, name: 'Default', ownerId: id });
      await tx.insert(workspaceMembers).values({ workspaceId, userId: id, role: 'owner' });
    }
    return id;
  });
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  const { token, session } = await createSession(db, user.id);
  return { token, session, user: { id: user.id, email: user.email, plan: user.plan } };
}
