// The function block: user JavaScript (an async function body) in the QuickJS sandbox. Its config is not
// resolved by the engine: references reach the code as data (see references-as-data.ts).
import { z } from 'zod';
import { runUserCode } from '../sandbox/index.js';
import { referencesAsInputs } from './references-as-data.js';
import { functionForm } from './forms.js';
import { defineBlock } from './define-block.js';

export const functionConfigSchema = z.object({
  code: z.string().default(''),
});
export type FunctionConfig = z.infer<typeof functionConfigSchema>;

export const functionBlock = defineBlock<FunctionConfig>(functionForm, {
  configSchema: functionConfigSchema,
  resolveReferences: false,
  async run(ctx) {
    const { code, inputs } = referencesAsInputs(ctx.config.code, ctx);
    const outcome = await runUserCode({ code, inputs, limits: ctx.services.sandbox, signal: ctx.signal, tenant: ctx.services.tenant });
    const output: Record<string, unknown> = {
      result: outcome.ok ? (outcome.result ?? null) : null,
      stdout: outcome.stdout,
    };
    if (!outcome.ok) output.error = outcome.error ?? 'Function failed';
    return { output };
  },
});
