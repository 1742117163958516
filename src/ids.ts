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
  | 'usr' | 'ws' | 'key' | 'fld' | 'wf' | 'dep' | 'log' | 'evt' | 'dlv' | 'sub' | 'job' | 'file' | 'req' | 'inv' | 'rrb' | 'cred' | 'mem' | 'conn';

/** 20 base62 characters ≈ 119 bits: unguessable, so ids double as capability-free but safe handles. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}

/**
 * An execution id: 20 characters as newId's, of which the first 9 are the time in milliseconds (base 36, lowercase:
 * one order under any collation) and the other 11 base62 (65 random bits). Its log's id is its pair (pairedLogId),
 * so the logs' primary key grows at its right edge, its pages left filled (61 bytes a log instead of 73 for random
 * ids, bench/REPORT.md log-storage), its inserts on one hot page instead of anywhere. Guessing one means guessing 2^65.
 */
export function newExecutionId(): string {
  return `exec_${Date.now().toString(36).padStart(9, '0')}${randomBase62(11)}`;
}

const PAIRED_EXECUTION_ID = /^exec_[0-9A-Za-z]{20}$/;

/**
 * A run's log id: its execution id's 20 characters under the log prefix (one log per execution). A lookup by
 * execution id then finds a log through the log's primary key, and the logs need no index of their execution ids but
 * for logs written before (db/execution-lookup.ts): ~73 bytes less a log (issue 28). Undefined for an id of another
 * shape than newExecutionId's (and newId's, which made execution ids before).
 */
export function pairedLogId(executionId: string): string | undefined {
  return PAIRED_EXECUTION_ID.test(executionId) ? `log_${executionId.slice(5)}` : undefined;
}
