// The editor's forms come from the block catalogue (src/blocks/forms.ts). These checks are what make a form wrong in
// a way the author would notice: a new block that starts invalid, a select offering a value the server refuses, a
// field the server ignores, a block type missing from the palette.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BLOCK_FORMS, loopForm, parallelForm, type BlockForm } from '../../src/blocks/forms.js';
import { blockRegistry } from '../../src/blocks/registry.js';
import { LoopSchema, ParallelSchema } from '../../src/workflow/index.js';

/** Each form with the schema that validates what it edits; containers' settings sit in the state beside their nodes. */
const formsWithSchemas: { form: BlockForm; schema: z.ZodObject }[] = [
  ...Object.values(blockRegistry).map((definition) => ({
    form: definition.form as BlockForm,
    schema: definition.configSchema as unknown as z.ZodObject,
  })),
  { form: loopForm, schema: LoopSchema.extend({ id: z.string().default('l'), nodes: z.array(z.string()).default([]) }) },
  { form: parallelForm, schema: ParallelSchema.extend({ id: z.string().default('p'), nodes: z.array(z.string()).default([]) }) },
];

/** What the author must still choose in a new block before it is valid (the editor shows it as a problem until then). */
const choices: Record<string, Record<string, unknown>> = {
  workflow: { workflowId: 'wf_chosen' },
  database: { credentialId: 'cred_chosen' },
  // Enough for every operation, so the select test sees each one accepted.
  redis: { credentialId: 'cred_chosen', key: 'k', value: 'v', field: 'f', channel: 'c', message: 'm' },
  email: { credentialId: 'cred_chosen', from: 'bot@example.com', to: 'ana@example.com' },
};

describe('block forms', () => {
  it('give every registered block type its form, and the palette lists exactly those and the containers', () => {
    for (const [type, definition] of Object.entries(blockRegistry)) {
      expect(definition.form, type).toBeDefined();
      expect(definition.form?.type).toBe(type);
      expect(Boolean(definition.form?.trigger), type).toBe(definition.trigger !== undefined);
    }
    expect(BLOCK_FORMS.map((form) => form.type).sort()).toEqual([...Object.keys(blockRegistry), 'loop', 'parallel'].sort());
  });

  it.each(formsWithSchemas.map(({ form, schema }) => ({ type: form.type, form, schema })))(
    '$type: a new block starts with a config its schema accepts, and every field is a config key',
    ({ form, schema }) => {
      const parsed = schema.safeParse({ ...form.defaultConfig(), ...choices[form.type] });
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      for (const field of form.fields) expect(Object.keys(schema.shape), field.key).toContain(field.key);
    },
  );

  it.each(formsWithSchemas.flatMap(({ form, schema }) => form.fields.filter((field) => field.kind === 'select').map((field) => ({ id: `${form.type}.${field.key}`, form, field, schema }))))(
    '$id: the select offers every value the server accepts and nothing else',
    ({ form, field, schema }) => {
      const withValue = (value: string) => schema.safeParse({ ...form.defaultConfig(), ...choices[form.type], [field.key]: value }).success;
      for (const option of field.options ?? []) expect(withValue(option), option).toBe(true);
      expect(withValue('not-an-option')).toBe(false);
      const declared = schema.shape[field.key];
      const values = declared instanceof z.ZodType ? enumValues(declared) : undefined;
      if (values) expect([...(field.options ?? [])].sort()).toEqual([...values].sort());
    },
  );

  it('shows a container\'s count or its items, whichever its mode uses', () => {
    const visible = (form: BlockForm, config: Record<string, unknown>) =>
      form.fields.filter((field) => field.when?.(config) ?? true).map((field) => field.key);
    expect(visible(loopForm, { loopType: 'for' })).toEqual(['loopType', 'iterations']);
    expect(visible(loopForm, { loopType: 'forEach' })).toEqual(['loopType', 'forEachItems']);
    expect(visible(parallelForm, { parallelType: 'collection' })).toEqual(['parallelType', 'distribution']);
  });
});

/** The options of an enum, looking through default/optional/preprocess wrappers; undefined for anything else. */
function enumValues(schema: z.ZodType): readonly string[] | undefined {
  if (schema instanceof z.ZodEnum) return schema.options as string[];
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodOptional) return enumValues(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe) return enumValues(schema.out as z.ZodType);
  return undefined;
}
