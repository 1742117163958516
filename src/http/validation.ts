// Request parsing: JSON bodies, query strings and path ids through zod, with errors in the shape of docs/api.md 3.
import type { Context } from 'hono';
import type { z } from 'zod';
import { AppError, zodDetails } from '../errors.js';
import { assertJsonNesting } from '../json-nesting.js';


export function parseWith<T>(schema: z.ZodType<T>, value: unknown, what: string, prefix = ''): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError('VALIDATION_ERROR', 400, `Invalid ${what}`, zodDetails(result.error, prefix));
  return result.data;
}

/** Reads the body as JSON. Empty or malformed text is 400 INVALID_JSON, never a parser stack trace. */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (!text.trim()) throw new AppError('INVALID_JSON', 400, 'The request body must be JSON');
  assertJsonNesting(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    throw new AppError('INVALID_JSON', 400, 'The request body is not valid JSON');
  }
  // PostgreSQL cannot store U+0000; saying so beats a failed write. (The text test is only a cheap pre-filter.)
  if ((text.includes('u0000') || text.includes('\0')) && containsNul(parsed)) {
    throw new AppError('VALIDATION_ERROR', 400, 'Text in the request body must not contain NUL (\\u0000) characters');
  }
  return parsed;
}

export async function readBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  return parseWith(schema, await readJson(c), 'request body');
}

export function readQuery<T>(c: Context, schema: z.ZodType<T>): T {
  return parseWith(schema, c.req.query(), 'query parameters');
}

/** Iterative: the nesting limit already holds, but a walk over user data never relies on that to stay on the stack. */
function containsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (item.includes('\0')) return true;
    } else if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
    } else if (item && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (key.includes('\0')) return true;
        stack.push(child);
      }
    }
  }
  return false;
}
