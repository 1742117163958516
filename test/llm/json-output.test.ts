// responseFormat: the shapes accepted, and how the model's text is checked against the schema.
import { describe, expect, it } from 'vitest';
import { compileSchema, normalizeResponseFormat, parseJsonAnswer } from '../../src/llm/index.js';

const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

function compiled(input: unknown) {
  const format = normalizeResponseFormat(input);
  if (typeof format === 'string') throw new Error(format);
  const zod = compileSchema(format);
  if (typeof zod === 'string') throw new Error(zod);
  return { format, zod };
}

describe('normalizeResponseFormat', () => {
  it('accepts a bare schema, OpenAI envelope, {name, schema} and JSON text', () => {
    expect(normalizeResponseFormat(schema)).toEqual({ name: 'response', schema });
    expect(normalizeResponseFormat({ type: 'json_schema', json_schema: { name: 'place', schema } })).toEqual({ name: 'place', schema });
    expect(normalizeResponseFormat({ name: 'my place!', schema })).toEqual({ name: 'my_place_', schema });
    expect(normalizeResponseFormat(JSON.stringify(schema))).toEqual({ name: 'response', schema });
  });

  it('explains what is wrong with anything else', () => {
    expect(normalizeResponseFormat('{oops')).toMatch(/must be a JSON Schema/);
    expect(normalizeResponseFormat([1, 2])).toMatch(/must be a JSON Schema/);
  });
});

describe('parseJsonAnswer', () => {
  it('returns the parsed value when it matches, code fence or not', () => {
    const { zod } = compiled(schema);
    expect(parseJsonAnswer('{"city":"Oslo"}', zod)).toEqual({ ok: true, value: { city: 'Oslo' } });
    expect(parseJsonAnswer('```json\n{"city":"Oslo"}\n```', zod)).toEqual({ ok: true, value: { city: 'Oslo' } });
  });

  it('names the mismatching field', () => {
    const { zod } = compiled(schema);
    const answer = parseJsonAnswer('{"town":"Oslo"}', zod);
    expect(answer).toMatchObject({ ok: false });
    expect(!answer.ok && answer.error).toMatch(/does not match responseFormat: city:/);
  });

  it('says when the text is not JSON', () => {
    const { zod } = compiled(schema);
    expect(parseJsonAnswer('The city is Oslo', zod)).toEqual({ ok: false, error: `The model's answer is not valid JSON: "The city is Oslo"` });
  });
});
