// Authentication: an API key (X-API-Key; header names are case-insensitive, Hono's lookup already is) or, for the
// web app, a session cookie. A request that sends a key is judged by the key alone, exactly as before sessions
// existed. A cookie-authenticated request that changes state must echo the session's CSRF token in X-CSRF-Token.
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { AppError, unauthorized } from '../errors.js';
import { authenticateApiKey } from '../services/api-keys.js';
import {
  authenticateSession,
  csrfTokenMatches,
  SESSION_COOKIE,
  sessionPrincipal,
  type AuthenticatedSession,
} from '../services/sessions.js';
import type { AppEnv } from './env.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'x-csrf-token';

export function sessionCookie(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE) || undefined;
}

/** The session cookie expires with its session, so the browser forgets it when the server does. */
export function writeSessionCookie(c: Context<AppEnv>, token: string, expiresAt: Date) {
  setCookie(c, SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: c.get('app').config.baseUrl.startsWith('https://'),
    expires: expiresAt,
  });
}

/** The session a request's cookie names, or null; a session this request kept alive gets its cookie renewed. */
export async function sessionOf(c: Context<AppEnv>): Promise<AuthenticatedSession | null> {
  const token = sessionCookie(c);
  const session = token ? await authenticateSession(c.get('app').db, token) : null;
  if (token && session?.renewed) writeSessionCookie(c, token, session.expiresAt);
  return session;
}

export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const presented = c.req.header('x-api-key')?.trim();
  if (!presented) {
    if (!sessionCookie(c)) throw unauthorized('Missing API key: send it in the X-API-Key header');
    const session = await sessionOf(c);
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
