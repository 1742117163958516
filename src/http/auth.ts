// API key authentication. Header names are case-insensitive (Hono's header lookup already is).
import { createMiddleware } from 'hono/factory';
import { unauthorized } from '../errors.js';
import { authenticateApiKey } from '../services/api-keys.js';
import type { AppEnv } from './env.js';

export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const presented = c.req.header('x-api-key')?.trim();
  if (!presented) throw unauthorized('Missing API key: send it in the X-API-Key header');
  const principal = await authenticateApiKey(c.get('app').db, presented);
  if (!principal) throw unauthorized('Invalid or revoked API key');
  c.set('principal', principal);
  await next();
});
