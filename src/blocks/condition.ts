// The condition block: evaluates its branches in order in the sandbox; the first truthy one activates its
// `condition-<id>` edge, `else` is the fallback. With no match and no else, no edge is activated at all.
import { z } from 'zod';
import { evaluateExpression } from '../sandbox/index.js';
import { referencesAsInputs } from './references-as-data.js';
import { conditionForm } from './forms.js';
import { defineBlock } from './define-block.js';

/** Edge handles default to `source` in the engine, so an empty handle activates no edge. */
export const NO_EDGE_HANDLE = '';

const titleSchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase().replace(/\s+/g, ' ') : value),
  z.enum(['if', 'else if', 'else']),
);

export const conditionConfigSchema = z.object({
  conditions: z
    .array(z.object({ id: z.string().min(1), title: titleSchema, expression: z.string().default('') }))
    .min(1, 'needs at least one condition')
    .refine((list) => new Set(list.map((c) => c.id)).size === list.length, 'condition ids must be unique'),
});
export type ConditionConfig = z.infer<typeof conditionConfigSchema>;

export const conditionBlock = defineBlock<ConditionConfig>(conditionForm, {
  configSchema: conditionConfigSchema,
  resolveReferences: false,
  async run(ctx) {
    const { conditions } = ctx.config;
    for (const condition of conditions) {
      if (condition.title === 'else' || condition.expression.trim() === '') continue;
      const { code, inputs } = referencesAsInputs(condition.expression, ctx);
      const outcome = await evaluateExpression({
        expression: code,
        inputs,
        limits: ctx.services.sandbox,
        signal: ctx.signal,
        tenant: ctx.services.tenant,
      });
      if (!outcome.ok) {
        const reason = outcome.error ?? 'evaluation error';
        return { output: { error: `Condition "${condition.title}" (${condition.id}) failed: ${reason}` } };
      }
      if (outcome.result) return selected(condition.id);
    }
    const fallback = conditions.find((condition) => condition.title === 'else');
    if (fallback) return selected(fallback.id);
    return { output: { selectedOption: null, conditionResult: false }, sourceHandle: NO_EDGE_HANDLE };
  },
});

function selected(id: string) {
  return { output: { selectedOption: id, conditionResult: true }, sourceHandle: `condition-${id}` };
}
