// Structured answers: the block's responseFormat (a JSON Schema) is sent to the model, and the model's text is parsed
// as JSON and validated against that schema, so later blocks can rely on its shape.
import { z } from 'zod';
import type { JsonResponseFormat } from './types.js';

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * Accepts the shapes people paste: a bare JSON Schema, OpenAI's `{type: 'json_schema', json_schema: {name, schema}}`,
 * or `{name, schema}`; as an object or as JSON text. Returns a message when it is none of them.
 */
export function normalizeResponseFormat(input: unknown): JsonResponseFormat | string {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return 'responseFormat must be a JSON Schema object (or its JSON text)';
    }
  }
  const record = asRecord(value);
  if (!record) return 'responseFormat must be a JSON Schema object';
  const envelope = asRecord(record.json_schema) ?? (asRecord(record.schema) ? record : undefined);
  const schema = envelope ? asRecord(envelope.schema) : record;
  if (!schema) return 'responseFormat.schema must be a JSON Schema object';
  const rawName = typeof envelope?.name === 'string' ? envelope.name : 'response';
  // OpenAI restricts schema names to this alphabet; anything else is replaced rather than rejected.
  const name = rawName.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'response';
  return { name, schema };
}

/** Compiles the schema once so an unusable schema fails before the model is paid for. */
export function compileSchema(format: JsonResponseFormat): z.ZodType | string {
  try {
    return z.fromJSONSchema(format.schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    return `responseFormat is not a usable JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** For providers without a schema parameter: the instruction that goes into the system prompt. */
export function jsonInstruction(format: JsonResponseFormat): string {
  return `Respond with only a JSON value, no prose and no code fences, that matches this JSON Schema:\n${JSON.stringify(format.schema)}`;
}

/** Models often wrap JSON in a Markdown code fence even when told not to; that wrapper is not part of the answer. */
function stripCodeFence(text: string): string {
  const match = /^\s*```[A-Za-z0-9_-]*\s*\n([\s\S]*?)\n?\s*```\s*$/.exec(text);
  return match ? match[1]! : text;
}

export type JsonAnswer = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJsonAnswer(text: string, schema: z.ZodType): JsonAnswer {
  let value: unknown;
  try {
    value = JSON.parse(stripCodeFence(text));
  } catch {
    const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    return { ok: false, error: `The model's answer is not valid JSON: ${JSON.stringify(shown)}` };
  }
  const checked = schema.safeParse(value);
  if (!checked.success) {
    const issues = checked.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`);
    return { ok: false, error: `The model's answer does not match responseFormat: ${issues.join('; ')}` };
  }
  return { ok: true, value };
}
