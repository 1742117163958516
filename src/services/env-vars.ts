// Workspace environment variables, referenced as {{NAME}} in block configs. Values are encrypted at rest and
// never returned by the API (only names and update times); the engine receives them decrypted per run.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { envVars } from '../db/schema.js';
import { notFound } from '../errors.js';
import type { AppContext } from './app-context.js';
import { cached, topics } from './cache/app-caches.js';
import type { Cipher } from './crypto.js';

export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export async function listEnvVarNames(db: Db, workspaceId: string) {
  const rows = await db
    .select({ name: envVars.name, updatedAt: envVars.updatedAt })
    .from(envVars)
    .where(eq(envVars.workspaceId, workspaceId))
    .orderBy(asc(envVars.name));
  return rows.map((r) => ({ name: r.name, updatedAt: r.updatedAt.toISOString() }));
}

export async function setEnvVars(db: Db, cipher: Cipher, workspaceId: string, values: Record<string, string>) {
  await db.transaction(async (tx) => {
    for (const [name, value] of Object.entries(values)) {
      const valueEncrypted = cipher.encrypt(value);
      await tx
        .insert(envVars)
        .values({ workspaceId, name, valueEncrypted })
        .onConflictDoUpdate({ target: [envVars.workspaceId, envVars.name], set: { valueEncrypted, updatedAt: new Date() } });
    }
  });
}

export async function deleteEnvVar(db: Db, workspaceId: string, name: string) {
  const rows = await db
    .delete(envVars)
    .where(and(eq(envVars.workspaceId, workspaceId), eq(envVars.name, name)))
    .returning({ name: envVars.name });
  if (rows.length === 0) throw notFound('Environment variable');
}

/** Decrypted values for one run, from the cache (decrypted once per change, not once per run). */
export function loadEnvForRun(app: Pick<AppContext, 'db' | 'cipher' | 'caches'>, workspaceId: string): Promise<Readonly<Record<string, string>>> {
  return cached(app.caches, 'envVars', workspaceId, async () => ({
    value: Object.freeze(await decryptedEnv(app.db, app.cipher, workspaceId)),
    topics: [topics.envVars(workspaceId)],
  }));
}

async function decryptedEnv(db: Db, cipher: Cipher, workspaceId: string): Promise<Record<string, string>> {
  const rows = await db.select().from(envVars).where(eq(envVars.workspaceId, workspaceId));
  return Object.fromEntries(rows.map((r) => [r.name, cipher.decrypt(r.valueEncrypted)]));
}
