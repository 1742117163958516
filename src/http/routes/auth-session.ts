// Web app sign-in (docs/decisions.md "Web app"): email + password → an httpOnly, SameSite=Lax session cookie, plus a
// CSRF token the app echoes in X-CSRF-Token on state-changing requests. Mounted at /api/v1/auth.
import { $, OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { deleteCookie } from 'hono/cookie';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { MAX_PASSWORD_LENGTH } from '../../services/passwords.js';
import {
  deleteSessionByToken,
  EMAIL_PATTERN,
  SESSION_COOKIE,
  sessionPrincipal,
  signIn,
  signUp,
  type SessionUser,
} from '../../services/sessions.js';
import { completeSetup, setupNeeded, setupTokenMatches } from '../../services/setup.js';
import { listWorkspaces } from '../../services/workspaces.js';
import { sessionCookie, sessionOf, writeSessionCookie } from '../auth.js';
import { limitBody } from '../body.js';
import { clientAddress } from '../client-address.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { readBody } from '../validation.js';

const credentials = z.strictObject({
  email: z.string().trim().max(320).regex(EMAIL_PATTERN, 'must be an email address'),
  password: z.string().min(1, 'must not be empty').max(MAX_PASSWORD_LENGTH),
});

const setupBody = z.strictObject({
  token: z.string().max(200),
  email: credentials.shape.email,
  password: credentials.shape.password,
});

const setupQuery = z.object({ token: z.string().optional().describe('The setup token the server printed at start') });

const smallBody = limitBody(16 * 1024);

/**
 * Sign-in and sign-up only take JSON: an HTML form on another site cannot send that content type without a CORS
 * preflight, so it cannot sign a victim's browser in to an attacker's account (login CSRF).
 */
function requireJson(c: Context<AppEnv>) {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 415, 'Send the request body as application/json');
  }
}

function sessionBody(user: SessionUser, csrfToken: string, expiresAt: Date) {
  return { user, csrfToken, expiresAt: expiresAt.toISOString() };
}

export const authSessionRoutes = $(
  new OpenAPIHono<AppEnv>()
    // Bodies carry the session's CSRF token: nothing between the server and the browser may keep a copy.
    .use(async (c, next) => {
      await next();
      c.header('Cache-Control', 'no-store');
    }),
)
  // What the sign-in page needs to know before anyone is signed in.
  .openapi(
    operation({
      method: 'get',
      path: '/options',
      summary: 'Whether sign-up is allowed and whether first-run setup is pending',
      auth: 'none',
      response: 'AuthOptions',
    }),
    async (c) => {
      const { config, db } = c.get('app');
      return c.json({ signupAllowed: config.allowSignup, setupNeeded: await setupNeeded(db) });
    },
  )
  // First run (services/setup.ts): what the setup page shows before the owner exists.
  .openapi(
    operation({
      method: 'get',
      path: '/setup',
      summary: 'First run: whether the owner account is still to be created, and whether ?token= is the setup token',
      auth: 'none',
      query: setupQuery,
      response: 'SetupState',
    }),
    async (c) => {
      const { config, db, setupToken } = c.get('app');
      const needed = await setupNeeded(db);
      const tokenValid = setupTokenMatches(setupToken, c.req.query('token'));
      // The configured admin email is offered to the holder of the link only.
      return c.json({ needed, tokenValid, ...(needed && tokenValid ? { suggestedEmail: config.adminEmail } : {}) });
    },
  )
  .openapi(
    operation({
      method: 'post',
      path: '/setup',
      middleware: smallBody,
      summary: 'First run: create the owner account with the setup token (signs in)',
      body: setupBody,
      auth: 'none',
      success: 201,
      response: 'SignedIn',
      conflict: 'The owner account exists already (SETUP_COMPLETE)',
      errors: [403, 415],
    }),
    async (c) => {
      requireJson(c);
      const { config, db, setupToken } = c.get('app');
      const body = await readBody(c, setupBody);
      const { token, session, user } = await completeSetup(db, {
        expectedToken: setupToken,
        token: body.token,
        email: body.email,
        password: body.password,
        plan: config.defaultPlan,
      });
      writeSessionCookie(c, token, session.expiresAt);
      return c.json(sessionBody(user, session.csrfToken, session.expiresAt), 201);
    },
  )
  .openapi(
    operation({
      method: 'post',
      path: '/sign-in',
      middleware: smallBody,
      summary: 'Web app sign-in (sets the session cookie)',
      body: credentials,
      auth: 'none',
      response: 'SignedIn',
      errors: [401, 415, 429],
    }),
    async (c) => {
      requireJson(c);
      const body = await readBody(c, credentials);
      const { token, session, user } = await signIn(c.get('app').db, { ...body, clientAddress: clientAddress(c) });
      writeSessionCookie(c, token, session.expiresAt);
      return c.json(sessionBody(user, session.csrfToken, session.expiresAt));
    },
  )
  .openapi(
    operation({
      method: 'post',
      path: '/sign-up',
      middleware: smallBody,
      summary: 'Web app sign-up (when SLUICE_ALLOW_SIGNUP=true)',
      body: credentials,
      auth: 'none',
      success: 201,
      response: 'SignedIn',
      conflict: 'An account with this email already exists (CONFLICT)',
      errors: [403, 415],
    }),
    async (c) => {
      const { config, db } = c.get('app');
      if (!config.allowSignup) throw new AppError('FORBIDDEN', 403, 'Sign-up is switched off on this server; ask an administrator');
      requireJson(c);
      const body = await readBody(c, credentials);
      const { token, session, user } = await signUp(db, { ...body, plan: config.defaultPlan });
      writeSessionCookie(c, token, session.expiresAt);
      return c.json(sessionBody(user, session.csrfToken, session.expiresAt), 201);
    },
  )
  // Ending one's own session needs no CSRF token: the worst a forged request can do is sign the user out.
  .openapi(
    operation({ method: 'post', path: '/sign-out', summary: 'End the web app session', auth: 'optional-session', success: 204 }),
    async (c) => {
      const token = sessionCookie(c);
      if (token) await deleteSessionByToken(c.get('app').db, token);
      deleteCookie(c, SESSION_COOKIE, { path: '/' });
      return c.body(null, 204);
    },
  )
  .openapi(
    operation({
      method: 'get',
      path: '/session',
      summary: 'The signed-in user, CSRF token and workspaces',
      auth: 'session',
      response: 'Session',
    }),
    async (c) => {
      const session = await sessionOf(c);
      if (!session) throw new AppError('UNAUTHORIZED', 401, 'Not signed in');
      const workspaces = await listWorkspaces(c.get('app').db, sessionPrincipal(session));
      return c.json({
        ...sessionBody(session.user, session.csrfToken, session.expiresAt),
        workspaces: workspaces.map((w) => ({ id: w.id, name: w.name, plan: w.plan, role: w.role })),
      });
    },
  );
