// API keys: `sk-sluice-` + 32 base62 characters (~190 bits). Only the SHA-256 hash and the last four
// characters are stored; the key is shown once, at creation.
import { timingSafeEqual } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { apiKeys, users } from '../db/schema.js';
import { notFound } from '../errors.js';
import { newId, randomBase62 } from '../ids.js';
import type { AppContext } from './app-context.js';
import { cached, topics } from './cache/app-caches.js';
import { sha256Hex } from './crypto.js';

export const API_KEY_PREFIX = 'sk-sluice-';
const KEY_BODY_LENGTH = 32;

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

interface KnownKey {
  keyHash: string;
  principal: Principal;
}

async function readKey(db: Db, hash: string): Promise<KnownKey | null> {
  const [row] = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!row) return null;
  const principal: Principal = {
    userId: row.user.id,
    email: row.user.email,
    plan: row.user.plan,
    keyId: row.key.id,
    keyWorkspaceId: row.key.workspaceId,
  };
  return { keyHash: row.key.keyHash, principal: Object.freeze(principal) };
}

/**
 * Resolves a presented key to its principal, or null. From the cache: a revoked key stops working as soon as the
 * revocation commits (the change feed drops it in every process). Its use is noted for `lastUsedAt` (api-key-usage.ts).
 */
export async function authenticateApiKey(app: Pick<AppContext, 'db' | 'caches' | 'keyUsage'>, presented: string): Promise<Principal | null> {
  if (!presented.startsWith(API_KEY_PREFIX) || presented.length > 200) return null;
  const hash = hashApiKey(presented);
  const known = await cached(app.caches, 'principals', hash, async () => {
    const value = await readKey(app.db, hash);
    const changes = [topics.apiKey(hash)];
    if (value) changes.push(topics.user(value.principal.userId));
    return { value, topics: changes };
  });
  // The lookup already matched; the constant-time compare keeps the final decision free of timing leaks.
  if (!known || !timingSafeEqual(Buffer.from(known.keyHash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  app.keyUsage.touch(known.principal.keyId);
  return known.principal;
}

export async function listApiKeys(app: Pick<AppContext, 'db' | 'keyUsage'>, userId: string): Promise<ApiKeyView[]> {
  // This process's own recent uses first, so the list is never behind the requests just made.
  await app.keyUsage.flush();
  const rows = await app.db
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
