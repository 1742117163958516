// Opaque, URL-safe ids with a type prefix (docs/api.md 1), and the random base62 text API keys are made of.
import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes are drawn from the system in blocks and handed out from there: one call per id cost more than the
 * rest of making it (ids are made several times per run). Each byte is used once.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function nextRandomByte(): number {
  if (poolOffset >= pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  return pool[poolOffset++];
}

/** Uniform base62 text: rejection sampling avoids the modulo bias of `byte % 62`. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = nextRandomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

export type IdPrefix =
  | 'usr' | 'ws' | 'key' | 'fld' | 'wf' | 'dep' | 'log' | 'exec' | 'evt' | 'dlv' | 'sub' | 'job' | 'file' | 'req' | 'inv' | 'rrb' | 'cred' | 'mem' | 'conn';

/** 20 base62 characters ≈ 119 bits: unguessable, so ids double as capability-free but safe handles. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}
