// The wait block: pauses its branch for `ms`. Up to 7 days: a run nobody waits on (async, queue, schedule) parks for
// a wait longer than PARK_AFTER_MS — it frees its worker slot and is resumed at the due time on any process
// (runs/pause.ts); a shorter wait, and any wait of a run whose caller waits for its answer, sleeps in process.
import { z } from 'zod';
import { waitForm } from './forms.js';
import { defineBlock } from './define-block.js';

export const MAX_WAIT_MS = 7 * 24 * 60 * 60_000;
/** Waits up to this long sleep in process even where the run could park: parking costs two writes and a job. */
export const PARK_AFTER_MS = 5000;

export const waitConfigSchema = z.object({
  ms: z.coerce
    .number()
    .int()
    .min(0, 'must not be negative')
    .max(MAX_WAIT_MS, `must be at most ${MAX_WAIT_MS} ms (7 days)`),
});
export type WaitConfig = z.infer<typeof waitConfigSchema>;

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export const waitBlock = defineBlock<WaitConfig>(waitForm, {
  configSchema: waitConfigSchema,
  async run(ctx) {
    const { waitUntil } = ctx.services;
    if (waitUntil) await waitUntil({ blockId: ctx.blockId, dueAt: Date.now() + ctx.config.ms, signal: ctx.signal });
    else await sleep(ctx.config.ms, ctx.signal);
    return { output: { waitedMs: ctx.config.ms } };
  },
});
