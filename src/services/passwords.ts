// Password hashing for web sign-in: scrypt (memory-hard, in node:crypto) with a random per-user salt.
// Stored as `scrypt$<log2 N>$<r>$<p>$<salt b64url>$<hash b64url>`, so the cost can be raised later while
// older hashes still verify with the parameters they were made with.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** N = 2^15, r = 8, p = 3: one of OWASP's equivalent scrypt settings (32 MiB per hash, a few hundred ms). */
const DEFAULT_COST = { log2N: 15, r: 8, p: 3 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
export const MIN_PASSWORD_LENGTH = 8;
/** Long enough for any passphrase, short enough that hashing a hostile body costs nothing extra. */
export const MAX_PASSWORD_LENGTH = 1024;

function scryptAsync(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

function optionsFor(log2N: number, r: number, p: number): ScryptOptions {
  const N = 2 ** log2N;
  // Node refuses work above maxmem (default 32 MiB); 128 * N * r is what scrypt needs, plus headroom.
  return { N, r, p, maxmem: 128 * N * r * 2 + 1024 * 1024 };
}

export async function hashPassword(password: string): Promise<string> {
  const { log2N, r, p } = DEFAULT_COST;
  const salt = randomBytes(SALT_LENGTH);
  const key = await scryptAsync(password, salt, KEY_LENGTH, optionsFor(log2N, r, p));
  return ['scrypt', log2N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash of nothing in particular, so an unknown email costs the same time as a wrong password. */
let dummyHash: Promise<string> | undefined;

/** Constant-time check of a password against a stored hash; a malformed or missing hash never matches. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    await verifyPassword(password, await dummyHash);
    return false;
  }
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [log2N, r, p] = parts.slice(1, 4).map(Number);
  if (![log2N, r, p].every(Number.isInteger) || log2N < 10 || log2N > 22 || r < 1 || r > 32 || p < 1 || p > 16) return false;
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  if (salt.length === 0 || expected.length === 0) return false;
  const actual = await scryptAsync(password, salt, expected.length, optionsFor(log2N, r, p));
  return timingSafeEqual(actual, expected);
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  return null;
}
