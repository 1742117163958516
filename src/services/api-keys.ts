// API keys: `sk-sluice-` + 32 base62 characters (~190 bits). Only the SHA-256 hash and the last four
// characters are stored; the key is shown once, at creation.
import { timingSafeEqual } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { withRelaxedCommit } from '../db/relaxed.js';
import { apiKeys, users } from '../db/schema.js';
import { notFound } from '../errors.js';
import { newId, randomBase62 } from '../ids.js';
import { sha256Hex } from './crypto.js';

export const API_KEY_PREFIX = 'sk-sluice-';
const KEY_BODY_LENGTH = 32;
/** lastUsedAt is refreshed at most this often, so authentication is not a write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBase62(KEY_BODY_LENGTH);
}

export const hashApiKey = (key: string) => sha256Hex(key);

/** Who is calling: the key's owner, and the one workspace the key is bound to (null for a personal key). */
export interface Principal {
  userId: string;
  email: string;
  plan: string;
  keyId: string;
  keyWorkspaceId: string | null;
}

export interface ApiKeyView {
  id: string;
  name: string;
  workspaceId: string | null;
  scope: 'personal' | 'workspace';
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
}

type ApiKeyRow = typeof apiKeys.$inferSelect;

export function toApiKeyView(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    workspaceId: row.workspaceId,
    scope: row.workspaceId ? 'workspace' : 'personal',
    hint: `${API_KEY_PREFIX}…${row.lastFour}`,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

export async function storeApiKey(
  db: Db,
  input: { key: string; userId: string; workspaceId: string | null; name: string },
): Promise<ApiKeyRow> {
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId('key'),
      userId: input.userId,
      workspaceId: input.workspaceId,
      name: input.name,
      keyHash: hashApiKey(input.key),
      lastFour: input.key.slice(-4),
    })
    .returning();
  return row;
}

export async function findKeyByValue(db: Db, key: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, hashApiKey(key))).limit(1);
  return row;
}

/** Resolves a presented key to its principal, or null. Revoked keys stop working at once (no cache). */
export async function authenticateApiKey(db: Db, presented: string): Promise<Principal | null> {
  if (!presented.startsWith(API_KEY_PREFIX) || presented.length > 200) return null;
  const hash = hashApiKey(presented);
  const [row] = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
    .limit(1);
  // The index lookup already matched; the constant-time compare keeps the final decision free of timing leaks.
  if (!row || !timingSafeEqual(Buffer.from(row.key.keyHash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  const now = Date.now();
  if (!row.key.lastUsedAt || now - row.key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await withRelaxedCommit(db, (tx) =>
      tx.update(apiKeys).set({ lastUsedAt: new Date(now) }).where(eq(apiKeys.id, row.key.id)),
    );
  }
  return {
    userId: row.user.id,
    email: row.user.email,
    plan: row.user.plan,
    keyId: row.key.id,
    keyWorkspaceId: row.key.workspaceId,
  };
}

export async function listApiKeys(db: Db, userId: string): Promise<ApiKeyView[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt));
  return rows.map(toApiKeyView);
}

export async function revokeApiKey(db: Db, userId: string, keyId: string): Promise<void> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (rows.length === 0) throw notFound('API key');
}
