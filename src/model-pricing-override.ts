// The shape of SLUICE_MODEL_PRICING: `{"<model>": {"input": <USD per 1M>, "output": <USD per 1M>}}`. A module of its own,
// beside config.ts rather than in llm/, so configuration validates it at start-up without depending on the model code.
import { z } from 'zod';

export const modelPriceSchema = z.object({
  input: z.number().min(0).max(1_000_000),
  output: z.number().min(0).max(1_000_000),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

const overrideSchema = z.record(z.string().min(1), modelPriceSchema);

/** Parses the variable's text; throws an Error whose message says what is wrong. */
export function parseModelPricingOverride(text: string): Record<string, ModelPrice> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('must be JSON such as {"my-model":{"input":1,"output":2}} (USD per 1M tokens)');
  }
  const parsed = overrideSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new Error(`must map model names to {"input","output"} USD per 1M tokens (${where}${issue?.message ?? 'invalid'})`);
  }
  return parsed.data;
}
