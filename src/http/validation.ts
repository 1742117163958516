// Request parsing: JSON bodies, query strings and path ids through zod, with errors in the shape of docs/api.md 3.
import type { Context } from 'hono';
import type { z } from 'zod';
import { isStorableText, storableText, UNSTORABLE_TEXT_MESSAGE } from '../services/storable-text.js';
import { AppError, zodDetails } from '../errors.js';
import { assertJsonNesting } from '../json-nesting.js';
import { id, isId } from './schemas.js';

export function parseWith<T>(schema: z.ZodType<T>, value: unknown, what: string, prefix = ''): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError('VALIDATION_ERROR', 400, `Invalid ${what}`, zodDetails(result.error, prefix));
  return result.data;
}

/**
 * A path parameter that must be an id: a well-formed one is returned as it is; anything else goes through the `id` schema
 * for its 400 VALIDATION_ERROR naming `param`.
 */
export function parseId(value: string | undefined, what: string, param: string): string {
  return isId(value) ? value : parseWith(id, value, what, param);
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
  // PostgreSQL cannot store U+0000 or a lone surrogate; saying so beats a failed write or a silently changed name.
  // Both reach the parsed value only through a `\u` escape or a raw NUL: the text test is a cheap pre-filter.
  const unstorable = MAYBE_UNSTORABLE.test(text) || text.includes('\0') ? unstorablePath(parsed) : undefined;
  if (unstorable !== undefined) {
    const details = [{ path: unstorable, message: UNSTORABLE_TEXT_MESSAGE }];
    throw new AppError('VALIDATION_ERROR', 400, `Text in the request body ${UNSTORABLE_TEXT_MESSAGE}`, details);
  }
  return parsed;
}

export async function readBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  return parseWith(schema, await readJson(c), 'request body');
}

export function readQuery<T>(c: Context, schema: z.ZodType<T>): T {
  return parseWith(schema, c.req.query(), 'query parameters');
}

const MAYBE_UNSTORABLE = /\\u(?:0000|d[89a-f])/i;

interface Visit {
  item: unknown;
  key: string;
  parent: Visit | null;
}

/**
 * The dotted path of the first string or key the database could not store (`''` for the body itself), else undefined.
 * Iterative: the nesting limit already holds, but a walk over user data never relies on that to stay on the stack.
 * Each visit links to its parent, so a path is only built for the one that is reported.
 */
function unstorablePath(value: unknown): string | undefined {
  const pathOf = (visit: Visit | null, last?: string) => {
    const keys = last === undefined ? [] : [last];
    for (let v = visit; v?.parent; v = v.parent) keys.unshift(v.key);
    return keys.join('.');
  };
  const stack: Visit[] = [{ item: value, key: '', parent: null }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { item } = visit;
    if (typeof item === 'string') {
      if (!isStorableText(item)) return pathOf(visit);
    } else if (Array.isArray(item)) {
      item.forEach((child, index) => stack.push({ item: child, key: String(index), parent: visit }));
    } else if (item && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        // The key is shown as it would be stored, so the answer itself stays well-formed.
        if (!isStorableText(key)) return pathOf(visit, storableText(key));
        stack.push({ item: child, key, parent: visit });
      }
    }
  }
  return undefined;
}
