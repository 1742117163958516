// The public side of invite links (services/invites.ts), mounted at /api/v1/invites: no key or session, since the
// token in the path is the capability. Accepting signs in like /auth/sign-in, with its body limit and lock-out.
import { $, OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { acceptInvite, describeInvite } from '../../services/invites.js';
import { MAX_PASSWORD_LENGTH } from '../../services/passwords.js';
import { writeSessionCookie } from '../auth.js';
import { limitBody } from '../body.js';
import { clientAddress } from '../client-address.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { readBody } from '../validation.js';

const acceptBody = z.strictObject({
  email: z.string().trim().min(1, 'must not be empty').max(320),
  password: z.string().min(1, 'must not be empty').max(MAX_PASSWORD_LENGTH),
});

const token = (value: string | undefined) => (value ?? '').slice(0, 200);

export const inviteRoutes = $(
  new OpenAPIHono<AppEnv>().use(async (c, next) => {
    await next();
    // The accept answer carries the session's CSRF token; the preview names a workspace to the link's holder only.
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
  }),
)
  .openapi(
    operation({
      method: 'get',
      path: '/{token}',
      summary: 'What an invite link offers (404 unknown or revoked; 410 INVITE_EXPIRED or INVITE_USED)',
      auth: 'none',
      response: 'InvitePreview',
      errors: [410],
    }),
    async (c) => c.json(await describeInvite(c.get('app').db, token(c.req.param('token')))),
  )
  .openapi(
    operation({
      method: 'post',
      path: '/{token}/accept',
      middleware: limitBody(16 * 1024),
      summary: 'Accept an invite: a new address sets its password, an existing account gives its own; joins and signs in',
      body: acceptBody,
      auth: 'none',
      response: 'SignedIn',
      conflict: 'The address has an account without a password, or one was created meanwhile (CONFLICT)',
      errors: [401, 410, 415, 429],
    }),
    async (c) => {
      // JSON only, as sign-in: a form on another site cannot post it without a CORS preflight (login CSRF).
      if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 415, 'Send the request body as application/json');
      }
      const body = await readBody(c, acceptBody);
      const { config, db } = c.get('app');
      const { token: sessionToken, session, user } = await acceptInvite(db, {
        token: token(c.req.param('token')),
        email: body.email,
        password: body.password,
        clientAddress: clientAddress(c),
        plan: config.defaultPlan,
      });
      writeSessionCookie(c, sessionToken, session.expiresAt);
      return c.json({ user, csrfToken: session.csrfToken, expiresAt: session.expiresAt.toISOString() });
    },
  );
