// Symmetric encryption of secrets at rest (env var values, webhook secrets) and content hashing.
// The key is derived from SLUICE_SECRET, so every process sharing that secret can read what another wrote.
import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes } from 'node:crypto';

export interface Cipher {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export function createCipher(secret: string): Cipher {
  const key = Buffer.from(hkdfSync('sha256', secret, 'sluice', 'sluice/at-rest-encryption/v1', 32));
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    decrypt(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unreadable encrypted value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * One-shot `crypto.hash` (Node ≥ 20.12): no Hash object per call, about half the cost of createHash — this runs on
 * every API-key request (the key's hash finds its principal).
 */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** JSON with object keys sorted, so equal states hash equally whatever order their keys were written in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  });
}

export function contentHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/**
 * The key a run's workflow state is kept under in `state_snapshots`, and so in every log's `snapshot_hash`: the first
 * 16 bytes of its content hash (`stateHash`, or the state's own) in base64url, 22 characters where the hex hash took
 * 64, 43 bytes less in each log's row (issue 28). A key that is not a hex hash (one read back from a log) is kept.
 * Logs written before keep their hex keys, which still name their snapshots.
 */
export function snapshotKey(stateHash: string | undefined, state: unknown): string {
  const hash = stateHash ?? contentHash(state);
  return hash.length === 64 ? Buffer.from(hash.slice(0, 32), 'hex').toString('base64url') : hash;
}
