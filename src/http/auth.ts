// Authentication: an API key (X-API-Key; header names are case-insensitive, Hono's lookup already is) or, for the
// web app, a session cookie. A request that sends a key is judged by the key alone, exactly as before sessions
// existed. A cookie-authenticated request that changes state must echo the session's CSRF token in X-CSRF-Token.
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { AppError, unauthorized } from '../errors.js';
import { authenticateApiKey } from '../services/api-keys.js';
import { authenticateSession, csrfTokenMatches, SESSION_COOKIE, sessionPrincipal } from '../services/sessions.js';
import type { AppEnv } from './env.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'x-csrf-token';

export function sessionCookie(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE) || undefined;
}

export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const presented = c.req.header('x-api-key')?.trim();
  const db = c.get('app').db;
  if (!presented) {
    const token = sessionCookie(c);
    if (!token) throw unauthorized('Missing API key: send it in the X-API-Key header');
    const session = await authenticateSession(db, token);
    if (!session) throw unauthorized('Your session has expired; sign in again');
    if (!SAFE_METHODS.has(c.req.method) && !csrfTokenMatches(session, c.req.header(CSRF_HEADER))) {
      throw new AppError('FORBIDDEN', 403, 'Missing or invalid X-CSRF-Token header for a session request');
    }
    c.set('principal', sessionPrincipal(session));
    return next();
  }
  const principal = await authenticateApiKey(c.get('app'), presented);
  if (!principal) throw unauthorized('Invalid or revoked API key');
  c.set('principal', principal);
  await next();
});
