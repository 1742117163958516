// Request schema pieces every route module shares; each route's own body and query schemas sit beside its handler.
import { z } from 'zod';

export const id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'must be an id');
export const name = z.string().trim().min(1, 'must not be empty').max(200);
