// A block's run policy: retries, a time limit per attempt, and what a failure means for the run. It sits beside
// `config` on every block (any type), so the engine applies it the same way whatever the block does.
import { z } from 'zod';

/** Which failures of an attempt are retried: an error in its output, or running past `timeoutMs`. */
export const RETRY_ON = ['error', 'timeout'] as const;
export type RetryOn = (typeof RETRY_ON)[number];

export const MAX_ATTEMPTS = 10;
/** The longest wait between two attempts, whatever backoffMs and backoffFactor multiply up to. */
export const MAX_BACKOFF_MS = 10 * 60_000;
export const MAX_BACKOFF_FACTOR = 10;
export const MAX_BLOCK_TIMEOUT_MS = 60 * 60_000;

/** What an absent field means; the stored state keeps only what the author wrote. */
export const POLICY_DEFAULTS = {
  backoffMs: 1_000,
  backoffFactor: 2,
  retryOn: RETRY_ON as readonly RetryOn[],
  onError: 'fail',
} as const;

const wholeMs = (max: number, min: number) =>
  z
    .int('must be a whole number of milliseconds')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max} (${max / 60_000} minutes)`);

export const RetryPolicySchema = z.strictObject({
  maxAttempts: z.int('must be a whole number').min(1, 'must be at least 1').max(MAX_ATTEMPTS, `must be at most ${MAX_ATTEMPTS}`),
  backoffMs: wholeMs(MAX_BACKOFF_MS, 0).optional(),
  backoffFactor: z.number().min(1, 'must be at least 1').max(MAX_BACKOFF_FACTOR, `must be at most ${MAX_BACKOFF_FACTOR}`).optional(),
  on: z
    .array(z.enum(RETRY_ON, { error: 'must be "error" or "timeout"' }))
    .min(1, 'must name at least one kind of failure')
    .refine((kinds) => new Set(kinds).size === kinds.length, 'must not repeat a kind of failure')
    .optional(),
});

export const BlockPolicySchema = z.strictObject({
  retry: RetryPolicySchema.optional(),
  /** Time limit of one attempt (of the whole container run for loops and parallels). */
  timeoutMs: wholeMs(MAX_BLOCK_TIMEOUT_MS, 1).optional(),
  /** `continue`: a failure (after any retries) is the block's output `{error}` and the run goes on. */
  onError: z.enum(['fail', 'continue'], { error: 'must be "fail" or "continue"' }).optional(),
});

export type RetryPolicy = z.infer<typeof RetryPolicySchema>;
export type BlockPolicy = z.infer<typeof BlockPolicySchema>;

/** The wait before attempt `next` (2, 3, …): backoffMs × backoffFactor^(next − 2), capped. */
export function backoffBefore(retry: RetryPolicy, next: number): number {
  const base = retry.backoffMs ?? POLICY_DEFAULTS.backoffMs;
  const factor = retry.backoffFactor ?? POLICY_DEFAULTS.backoffFactor;
  return Math.min(base * factor ** Math.max(0, next - 2), MAX_BACKOFF_MS);
}
