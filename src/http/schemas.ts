// Request schema pieces every route module shares; each route's own body and query schemas sit beside its handler.
import { z } from 'zod';

const ID_CHARACTERS = /^[A-Za-z0-9_-]+$/;
const ID_MAX_LENGTH = 64;

export const id = z.string().min(1).max(ID_MAX_LENGTH).regex(ID_CHARACTERS, 'must be an id');

/** Whether `id` accepts the value, without zod's parse (which showed in profiles of the execute path). */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= ID_MAX_LENGTH && ID_CHARACTERS.test(value);
}
export const name = z.string().trim().min(1, 'must not be empty').max(200);
