// Stored credentials (docs/api.md "Credentials"): connection secrets a workspace's blocks name by id instead of
// carrying passwords in their configs. The data is validated per type, encrypted with the key that protects
// environment variables, and never returned: reads show the type, the name, the non-secret fields and which secret
// fields are set. A run resolves a credential only inside its own workspace.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  credentialDataSchemas,
  describeCredentialData,
  type CredentialType,
  type ResolvedCredential,
} from '../connectors/credential-data.js';
import type { Db } from '../db/client.js';
import { credentials } from '../db/schema.js';
import { badRequest, conflict, notFound, zodDetails } from '../errors.js';
import { newId } from '../ids.js';
import { testConnection } from '../connectors/test-connection.js';
import type { AppContext } from './app-context.js';
import type { Cipher } from './crypto.js';

type CredentialRow = typeof credentials.$inferSelect;

export interface CredentialView {
  id: string;
  workspaceId: string;
  name: string;
  type: CredentialType;
  /** The data's fields that are not secret (host, port, user, database, scheme, …). */
  fields: Record<string, unknown>;
  /** Names of the secret fields that hold a value (password, token, clientSecret, value). */
  secretsSet: string[];
  version: number;
  createdAt: string;
  updatedAt: string;
}

export function toCredentialView(row: CredentialRow, cipher: Cipher): CredentialView {
  const { fields, secretsSet } = describeCredentialData(decryptData(row, cipher));
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    type: row.type as CredentialType,
    fields,
    secretsSet,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function decryptData(row: CredentialRow, cipher: Cipher): Record<string, unknown> {
  return JSON.parse(cipher.decrypt(row.dataEncrypted)) as Record<string, unknown>;
}

/** The data checked against its type's shape; a 400 names every field that is wrong, never echoing a value. */
export function parseCredentialData(type: CredentialType, data: unknown): Record<string, unknown> {
  const parsed = (credentialDataSchemas[type] as z.ZodType).safeParse(data);
  if (!parsed.success) {
    throw badRequest(`The data does not fit a ${type} credential`, zodDetails(parsed.error, 'data'));
  }
  return parsed.data as Record<string, unknown>;
}

const duplicateName = (name: string) => conflict('CREDENTIAL_NAME_TAKEN', `A credential named "${name}" already exists in this workspace`);

export async function createCredential(
  db: Db,
  cipher: Cipher,
  input: { workspaceId: string; name: string; type: CredentialType; data: unknown; createdBy: string | null },
): Promise<CredentialView> {
  const data = parseCredentialData(input.type, input.data);
  const [row] = await db
    .insert(credentials)
    .values({
      id: newId('cred'),
      workspaceId: input.workspaceId,
      name: input.name,
      type: input.type,
      dataEncrypted: cipher.encrypt(JSON.stringify(data)),
      createdBy: input.createdBy,
    })
    .onConflictDoNothing({ target: [credentials.workspaceId, credentials.name] })
    .returning();
  if (!row) throw duplicateName(input.name);
  return toCredentialView(row, cipher);
}

export async function listCredentials(db: Db, cipher: Cipher, workspaceId: string): Promise<CredentialView[]> {
  const rows = await db.select().from(credentials).where(eq(credentials.workspaceId, workspaceId)).orderBy(asc(credentials.name));
  return rows.map((row) => toCredentialView(row, cipher));
}

export async function findCredential(db: Db, credentialId: string): Promise<CredentialRow | undefined> {
  const [row] = await db.select().from(credentials).where(eq(credentials.id, credentialId)).limit(1);
  return row;
}

/**
 * Renames a credential or rotates its data. `data` is merged over the stored data (send only the password to rotate
 * it); a changed `scheme` of an http credential starts from nothing, since its fields differ.
 */
export async function updateCredential(
  db: Db,
  cipher: Cipher,
  row: CredentialRow,
  patch: { name?: string; data?: Record<string, unknown> },
): Promise<CredentialView> {
  const type = row.type as CredentialType;
  let dataEncrypted: string | undefined;
  if (patch.data) {
    const stored = decryptData(row, cipher);
    const base = patch.data.scheme !== undefined && patch.data.scheme !== stored.scheme ? {} : stored;
    const merged = Object.fromEntries(Object.entries({ ...base, ...patch.data }).filter(([, value]) => value !== null));
    dataEncrypted = cipher.encrypt(JSON.stringify(parseCredentialData(type, merged)));
  }
  if (patch.name !== undefined && patch.name !== row.name) {
    const [taken] = await db
      .select({ id: credentials.id })
      .from(credentials)
      .where(and(eq(credentials.workspaceId, row.workspaceId), eq(credentials.name, patch.name)))
      .limit(1);
    if (taken) throw duplicateName(patch.name);
  }
  const [updated] = await db
    .update(credentials)
    .set({
      ...(patch.name !== undefined && { name: patch.name }),
      ...(dataEncrypted !== undefined && { dataEncrypted, version: sql`${credentials.version} + 1` }),
      updatedAt: new Date(),
    })
    .where(eq(credentials.id, row.id))
    .returning();
  if (!updated) throw notFound('Credential');
  return toCredentialView(updated, cipher);
}

export async function deleteCredential(db: Db, row: CredentialRow): Promise<void> {
  await db.delete(credentials).where(eq(credentials.id, row.id));
}

export function resolvedCredential(row: CredentialRow, cipher: Cipher): ResolvedCredential {
  return {
    id: row.id,
    name: row.name,
    type: row.type as CredentialType,
    data: decryptData(row, cipher) as ResolvedCredential['data'],
    version: String(row.version),
  };
}

/**
 * The credential a run's block names, decrypted, if it belongs to the run's workspace. Blocks of another workspace
 * are told it does not exist, exactly as if it did not.
 */
export async function loadCredentialForRun(db: Db, cipher: Cipher, workspaceId: string, credentialId: string): Promise<ResolvedCredential> {
  const row = typeof credentialId === 'string' && credentialId !== '' ? await findCredential(db, credentialId) : undefined;
  if (!row || row.workspaceId !== workspaceId) throw new Error(`Credential ${JSON.stringify(String(credentialId))} not found in this workspace`);
  return resolvedCredential(row, cipher);
}

/** Opens a connection with the stored data and answers what the server said (`POST /credentials/{id}/test`). */
export function testCredential(app: Pick<AppContext, 'cipher' | 'blockServices'>, row: CredentialRow) {
  const { connections, allowPrivateNetwork, allowedHosts } = app.blockServices;
  return testConnection(resolvedCredential(row, app.cipher), { connections, policy: { allowPrivateNetwork, allowedHosts } });
}
