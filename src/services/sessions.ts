// Browser sessions of the web app. The cookie carries a random token; only its SHA-256 is stored, so a database
// leak yields no usable session. Each session has its own CSRF token, which state-changing requests must echo in
// the X-CSRF-Token header (double submit against the stored value).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Plan } from '../config.js';
import type { Db } from '../db/client.js';
import { RELAXED_COMMIT, RELAXED_COMMIT_TAKEN } from '../db/relaxed.js';
import { sessions, users } from '../db/schema.js';
import { AppError } from '../errors.js';
import { randomBase62 } from '../ids.js';
import type { Principal } from './api-keys.js';
import { sha256Hex } from './crypto.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import { addToRateWindow } from './rate-limiter.js';
import { createWorkspace, findOrCreateUser } from './workspaces.js';

export const SESSION_COOKIE = 'sluice_session';
/** A session idle this long ends; activity slides it forward. */
export const SESSION_IDLE_MS = 14 * 24 * 3600 * 1000;
/** However active, a session ends this long after sign-in. */
export const SESSION_MAX_AGE_MS = 30 * 24 * 3600 * 1000;
/** lastSeenAt / expiresAt are written at most this often, so a session is not a write on every request. */
const TOUCH_RESOLUTION_MS = 5 * 60 * 1000;
/** Failed sign-in attempts per email per minute before further attempts get 429, shared by every process. */
export const SIGN_IN_ATTEMPTS_PER_MINUTE = 10;
/** Failed sign-in attempts per client address per minute, across all emails (one source cannot try many accounts). */
export const SIGN_IN_ATTEMPTS_PER_ADDRESS_PER_MINUTE = 30;

const SESSION_ID_PREFIX = 'ses_';

export interface SessionUser {
  id: string;
  email: string;
  plan: string;
}

export interface AuthenticatedSession {
  sessionId: string;
  csrfToken: string;
  expiresAt: Date;
  /** True when this request slid the expiry forward: the browser's cookie must be given the new one. */
  renewed: boolean;
  user: SessionUser;
}

/** Session principals carry the session id where API-key principals carry the key id. */
export function isSessionPrincipal(principal: Principal): boolean {
  return principal.keyId.startsWith(SESSION_ID_PREFIX);
}

export function sessionPrincipal(session: AuthenticatedSession): Principal {
  return {
    userId: session.user.id,
    email: session.user.email,
    plan: session.user.plan,
    keyId: session.sessionId,
    keyWorkspaceId: null,
  };
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Loose on purpose: the bootstrap admin is `admin@localhost`, which strict email grammars refuse. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

export async function createSession(db: Db, userId: string, now = new Date()): Promise<{ token: string; session: typeof sessions.$inferSelect }> {
  const token = randomBase62(43);
  const [session] = await db
    .insert(sessions)
    .values({
      id: SESSION_ID_PREFIX + randomBase62(20),
      tokenHash: sha256Hex(token),
      userId,
      csrfToken: randomBytes(24).toString('base64url'),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_IDLE_MS),
    })
    .returning();
  return { token, session };
}

/** The live session a cookie token names, or null. Slides the idle expiry forward, within the absolute cap. */
export async function authenticateSession(db: Db, token: string, now = new Date()): Promise<AuthenticatedSession | null> {
  if (token.length < 20 || token.length > 200 || !/^[A-Za-z0-9]+$/.test(token)) return null;
  const hash = sha256Hex(token);
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hash), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row || !timingSafeEqual(Buffer.from(row.session.tokenHash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  let expiresAt = row.session.expiresAt;
  const lastSeen = row.session.lastSeenAt ?? row.session.createdAt;
  const renewed = now.getTime() - lastSeen.getTime() > TOUCH_RESOLUTION_MS;
  if (renewed) {
    const cap = row.session.createdAt.getTime() + SESSION_MAX_AGE_MS;
    expiresAt = new Date(Math.min(now.getTime() + SESSION_IDLE_MS, cap));
    // Relaxed: a lost touch only lets the session end up to TOUCH_RESOLUTION_MS sooner.
    await db.execute(sql`
      with ${RELAXED_COMMIT}
      update sessions set last_seen_at = ${now.toISOString()}::timestamptz, expires_at = ${expiresAt.toISOString()}::timestamptz
      where id = ${row.session.id} and ${RELAXED_COMMIT_TAKEN}`);
  }
  return {
    sessionId: row.session.id,
    csrfToken: row.session.csrfToken,
    expiresAt,
    renewed,
    user: { id: row.user.id, email: row.user.email, plan: row.user.plan },
  };
}

export function csrfTokenMatches(session: AuthenticatedSession, presented: string | undefined): boolean {
  if (!presented) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(session.csrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function deleteSessionByToken(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, sha256Hex(token)));
}

export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function pruneExpiredSessions(db: Db, now = new Date()): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}

const tooManyAttempts = (retryAfterSeconds: number) =>
  new AppError('RATE_LIMIT_EXCEEDED', 429, 'Too many sign-in attempts; wait a minute and try again', undefined, {
    'Retry-After': String(retryAfterSeconds),
  });

const SIGN_IN_WINDOW_MS = 60_000;
const emailBucket = (email: string) => `signin:${sha256Hex(email)}`;
const addressBucket = (address: string) => `signin-addr:${sha256Hex(address)}`;

function signInWindow(now: Date) {
  const start = Math.floor(now.getTime() / SIGN_IN_WINDOW_MS) * SIGN_IN_WINDOW_MS;
  return { start: new Date(start), retryAfterSeconds: Math.max(1, Math.ceil((start + SIGN_IN_WINDOW_MS - now.getTime()) / 1000)) };
}

/**
 * Counts one attempt in a bucket's current window and returns the count including it: a single upsert, so
 * concurrent attempts (in any process) each see a different count and at most `limit` of them get through.
 */
const countAttempt = (db: Db, bucket: string, windowStart: Date): Promise<number> => addToRateWindow(db, bucket, windowStart, 1);

/** Takes back the attempt of a successful sign-in, so signing in does not use up the allowance. */
async function returnAttempt(db: Db, bucket: string, windowStart: Date): Promise<void> {
  await db.execute(sql`
    with ${RELAXED_COMMIT}
    update rate_limit_windows set count = greatest(count - 1, 0)
    where bucket = ${bucket} and window_start = ${windowStart.toISOString()}::timestamptz and ${RELAXED_COMMIT_TAKEN}`);
}

/**
 * Counts the attempt against its client address and its email before any password is checked, and refuses it
 * (429, no hashing) once either is over its limit for this minute. Counting first is what makes the limit hold
 * under concurrency: checking a count and adding to it after the slow hash let every parallel guess through.
 */
async function admitSignInAttempt(db: Db, email: string, address: string, now: Date): Promise<string[]> {
  const { start, retryAfterSeconds } = signInWindow(now);
  const counted = [addressBucket(address)];
  if ((await countAttempt(db, counted[0], start)) > SIGN_IN_ATTEMPTS_PER_ADDRESS_PER_MINUTE) throw tooManyAttempts(retryAfterSeconds);
  counted.push(emailBucket(email));
  if ((await countAttempt(db, counted[1], start)) > SIGN_IN_ATTEMPTS_PER_MINUTE) throw tooManyAttempts(retryAfterSeconds);
  return counted;
}

const invalidCredentials = () => new AppError('UNAUTHORIZED', 401, 'Invalid email or password');

/**
 * The password check of a sign-in, with its limits: also what accepting an invite as an existing user goes through, so
 * an invite link is no way around the lock-out. Answers the user, or throws 401 / 429.
 */
export async function checkSignInPassword(db: Db, input: { email: string; password: string; clientAddress: string }, now = new Date()) {
  const email = normalizeEmail(input.email);
  const counted = await admitSignInAttempt(db, email, input.clientAddress, now);
  const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  const ok = await verifyPassword(input.password, user?.passwordHash);
  if (!user || !ok) throw invalidCredentials();
  // Only failures count: a success hands its attempt back (it does not wipe the failures before it).
  const { start } = signInWindow(now);
  await Promise.all(counted.map((bucket) => returnAttempt(db, bucket, start)));
  return user;
}

/**
 * Checks email and password; the same answer (and about the same time) for an unknown email and a wrong password.
 * `clientAddress` is where the request came from (see http/client-address.ts), for the per-address limit.
 */
export async function signIn(db: Db, input: { email: string; password: string; clientAddress: string }, now = new Date()) {
  const user = await checkSignInPassword(db, input, now);
  // Expired sessions of this user go now (through the user index), so the table never grows without bound.
  await db.delete(sessions).where(and(eq(sessions.userId, user.id), lt(sessions.expiresAt, now)));
  const { token, session } = await createSession(db, user.id, now);
  return { token, session, user: { id: user.id, email: user.email, plan: user.plan } };
}

/**
 * Self-service sign-up (only when SLUICE_ALLOW_SIGNUP is true): a new user with a Default workspace. An email that
 * already exists is refused, even one without a password yet (someone added to a workspace by email): without email
 * verification, claiming it would hand that person's workspaces to whoever typed the address first.
 */
export async function signUp(db: Db, input: { email: string; password: string; plan: Plan }, now = new Date()) {
  const email = normalizeEmail(input.email);
  const problem = passwordProblem(input.password);
  if (problem) throw new AppError('VALIDATION_ERROR', 400, 'Invalid request body', [{ path: 'password', message: problem }]);
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (existing) throw new AppError('CONFLICT', 409, 'An account with this email already exists; sign in instead');
  const passwordHash = await hashPassword(input.password);
  const user = await findOrCreateUser(db, email, input.plan);
  // Lost a race with a concurrent sign-up or invitation of the same address: refuse rather than claim it.
  const [claimed] = await db
    .update(users)
    .set({ passwordHash })
    .where(and(eq(users.id, user.id), sql`${users.passwordHash} is null`))
    .returning();
  if (!claimed) throw new AppError('CONFLICT', 409, 'An account with this email already exists; sign in instead');
  await createWorkspace(db, user.id, 'Default');
  const { token, session } = await createSession(db, user.id, now);
  return { token, session, user: { id: user.id, email: user.email, plan: user.plan } };
}

/**
 * Sets (or replaces) a user's password from the admin CLI. Creates the user with a Default workspace when the email
 * is new, so a fresh install can get its first browser login without an API key. Ends the user's existing sessions.
 */
export async function setUserPassword(db: Db, input: { email: string; password: string; plan: Plan }) {
  const email = normalizeEmail(input.email);
  if (!EMAIL_PATTERN.test(email) || email.length > 320) throw new AppError('VALIDATION_ERROR', 400, `"${input.email}" is not an email address`);
  const problem = passwordProblem(input.password);
  if (problem) throw new AppError('VALIDATION_ERROR', 400, `The password ${problem}`);
  const [existing] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  const user = existing ?? (await findOrCreateUser(db, email, input.plan));
  if (!existing) await createWorkspace(db, user.id, 'Default');
  await db.update(users).set({ passwordHash: await hashPassword(input.password) }).where(eq(users.id, user.id));
  await deleteUserSessions(db, user.id);
  return { userId: user.id, email: user.email, created: !existing };
}
