// The API trigger: a workflow as an authenticated HTTP endpoint. The HTTP layer checks declared types before the
// run; this block only lays the request body out as docs/api.md 4.1 describes (`<api.field>`, `<api.input.field>`).
import { z } from 'zod';
import { apiTriggerForm } from './forms.js';
import { triggerBlock } from './define-block.js';

export const INPUT_FIELD_TYPES = ['string', 'number', 'boolean', 'json', 'files'] as const;
export type InputFieldType = (typeof INPUT_FIELD_TYPES)[number];

export const inputFieldSchema = z.object({
  // Field names become reference path segments (`<api.name>`), so they must be identifiers to be reachable.
  name: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must start with a letter or underscore and hold only letters, digits and _')
    .refine((name) => name !== 'input', '"input" is reserved for the whole request body (<api.input>)'),
  type: z.enum(INPUT_FIELD_TYPES).default('string'),
  /** Used by manual runs from the editor in place of a request. */
  value: z.unknown().optional(),
  required: z.boolean().optional(),
  description: z.string().optional(),
});
export type InputField = z.infer<typeof inputFieldSchema>;

export const apiTriggerConfigSchema = z.object({
  inputFormat: z
    .array(inputFieldSchema)
    .default([])
    .refine((fields) => new Set(fields.map((f) => f.name)).size === fields.length, 'field names must be unique'),
});
export type ApiTriggerConfig = z.infer<typeof apiTriggerConfigSchema>;

export const apiTriggerBlock = triggerBlock<ApiTriggerConfig>('api', apiTriggerForm, apiTriggerConfigSchema, async (ctx) => {
  const body = ctx.trigger.input;
  const fields = ctx.config.inputFormat;
  // No Input Format: the raw body only at <api.input> (docs/api.md 4.1).
  if (fields.length === 0) return { output: { input: body } };
  const manual = ctx.trigger.type === 'manual';
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    if (Object.hasOwn(body, field.name)) values[field.name] = body[field.name];
    else values[field.name] = manual && field.value !== undefined ? field.value : null;
  }
  // Declared fields appear both at the top level and under `input`, which also keeps undeclared keys.
  return { output: { ...values, input: { ...body, ...values } } };
});
