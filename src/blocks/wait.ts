// The wait block: pauses its branch. Bounded so a typo cannot park a run (and its worker slot) for days.
import { z } from 'zod';
import { waitForm } from './forms.js';
import { defineBlock } from './define-block.js';

export const MAX_WAIT_MS = 10 * 60 * 1000;

export const waitConfigSchema = z.object({
  ms: z.coerce
    .number()
    .int()
    .min(0, 'must not be negative')
    .max(MAX_WAIT_MS, `must be at most ${MAX_WAIT_MS} ms (10 minutes)`),
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
    await sleep(ctx.config.ms, ctx.signal);
    return { output: { waitedMs: ctx.config.ms } };
  },
});
