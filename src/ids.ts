// Opaque, URL-safe ids with a type prefix (SPEC §2), and the random base62 text API keys are made of.
import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 text: rejection sampling avoids the modulo bias of `byte % 62`. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export type IdPrefix = 'usr' | 'ws' | 'key' | 'fld' | 'wf' | 'dep' | 'log' | 'exec' | 'evt' | 'dlv' | 'sub' | 'job' | 'file';

/** 20 base62 characters ≈ 119 bits: unguessable, so ids double as capability-free but safe handles. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}
