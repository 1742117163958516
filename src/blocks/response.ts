// The response block: what the execute endpoint answers with instead of the default result (SPEC §4).
import { z } from 'zod';
import type { BlockDefinition } from './types.js';
import { toText } from './values.js';

const headerListSchema = z.array(z.object({ key: z.string(), value: z.unknown() }));
const STATUS_MESSAGE = 'must be an HTTP status (100-599)';

export const responseConfigSchema = z.object({
  // Coerced because a status often arrives through a reference inside text, e.g. "<api.status>".
  status: z.coerce.number().int(STATUS_MESSAGE).min(100, STATUS_MESSAGE).max(599, STATUS_MESSAGE).default(200),
  headers: z.union([headerListSchema, z.record(z.string(), z.unknown())]).default([]),
  body: z.unknown().optional(),
});
export type ResponseConfig = z.infer<typeof responseConfigSchema>;

function headerObject(headers: ResponseConfig['headers']): Record<string, string> {
  const entries = Array.isArray(headers)
    ? headers.map(({ key, value }) => [key, value] as const)
    : Object.entries(headers);
  const result: Record<string, string> = {};
  for (const [key, value] of entries) {
    const name = key.trim();
    if (name !== '') result[name] = toText(value);
  }
  return result;
}

export const responseBlock: BlockDefinition<ResponseConfig> = {
  type: 'response',
  configSchema: responseConfigSchema,
  async run(ctx) {
    const { status, headers, body } = ctx.config;
    return { output: { status, headers: headerObject(headers), body: body ?? null } };
  },
};
