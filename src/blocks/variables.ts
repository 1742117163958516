// The variables block: sets workflow variables, read afterwards as `<variable.name>`.
import { z } from 'zod';
import { variablesForm } from './forms.js';
import { defineBlock } from './define-block.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const variablesConfigSchema = z.object({
  assignments: z
    .array(
      z.object({
        // Names are reference path segments, so identifiers only; "error" would make the output look like a failure.
        name: z
          .string()
          .regex(IDENTIFIER, 'must start with a letter or underscore and hold only letters, digits and _')
          .refine((name) => name !== 'error', '"error" is reserved: an output field named error marks a failure'),
        value: z.unknown(),
      }),
    )
    .default([]),
});
export type VariablesConfig = z.infer<typeof variablesConfigSchema>;

export const variablesBlock = defineBlock<VariablesConfig>(variablesForm, {
  configSchema: variablesConfigSchema,
  // Has no effect outside the run: after a pause it runs again rather than being replayed.
  replay: 'rerun',
  async run(ctx) {
    const assigned: Record<string, unknown> = {};
    for (const { name, value } of ctx.config.assignments) {
      // An unresolved value (undefined) becomes null so the variable exists and reads back the same everywhere.
      const stored = value === undefined ? null : value;
      ctx.setVariable(name, stored);
      assigned[name] = stored;
    }
    return { output: assigned };
  },
});
