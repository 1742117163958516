// Web app sessions (issue 9): email + password sign-in, an httpOnly SameSite cookie, CSRF-protected writes, sign-up
// only when configured, and the built app served at `/` without ever shadowing the API.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../src/db/schema.js';
import { generateApiKey } from '../../src/services/api-keys.js';
import { hashPassword, verifyPassword } from '../../src/services/passwords.js';
import { sha256Hex } from '../../src/services/crypto.js';
import { setUserPassword, SIGN_IN_ATTEMPTS_PER_MINUTE } from '../../src/services/sessions.js';
import { bootstrapAdmin } from '../../src/services/workspaces.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { echoState } from '../support/states.js';
import { createAndDeploy } from '../support/workflows.js';

const PASSWORD = 'correct horse battery';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SLUICE_LIMIT_LOGS_FREE: '10' });
  await setUserPassword(t.app.db, { email: 'admin@localhost', password: PASSWORD, plan: 'free' });
});
afterAll(async () => t?.close());

interface Session {
  cookie: string;
  csrfToken: string;
  setCookie: string;
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(t.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function signIn(email = 'admin@localhost', password = PASSWORD): Promise<Session> {
  const res = await post('/api/v1/auth/sign-in', { email, password });
  expect(res.status).toBe(200);
  const setCookie = res.headers.get('set-cookie')!;
  const body = (await res.json()) as { csrfToken: string };
  return { cookie: setCookie.split(';')[0], csrfToken: body.csrfToken, setCookie };
}

/** A request authenticated by the session cookie only (no API key). */
function asSession(session: Session, method: string, path: string, options: { body?: unknown; csrf?: string | null } = {}) {
  const headers: Record<string, string> = { cookie: session.cookie };
  if (options.csrf !== null) headers['x-csrf-token'] = options.csrf ?? session.csrfToken;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return t.request(method, path, { apiKey: null, headers, rawBody: options.body === undefined ? undefined : JSON.stringify(options.body) });
}

describe('passwords', () => {
  it('hashes with scrypt and a per-user salt, and verifies in constant time', async () => {
    const a = await hashPassword('hunter2hunter2');
    const b = await hashPassword('hunter2hunter2');
    expect(a).toMatch(/^scrypt\$15\$8\$3\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('hunter2hunter2', a)).toBe(true);
    expect(await verifyPassword('hunter2hunter3', a)).toBe(false);
    expect(await verifyPassword('hunter2hunter2', null)).toBe(false);
    expect(await verifyPassword('x', 'scrypt$99$8$1$AAAA$AAAA')).toBe(false);
    expect(await verifyPassword('x', 'plain')).toBe(false);
  });
});

describe('sign-in', () => {
  it('sets an httpOnly SameSite=Lax cookie and returns the session CSRF token; the password is stored hashed', async () => {
    const session = await signIn();
    expect(session.setCookie).toMatch(/^sluice_session=[A-Za-z0-9]{43};/);
    expect(session.setCookie).toMatch(/HttpOnly/);
    expect(session.setCookie).toMatch(/SameSite=Lax/);
    expect(session.setCookie).toMatch(/Path=\//);
    expect(session.setCookie).not.toMatch(/Secure/); // http base URL in tests
    expect(session.csrfToken.length).toBeGreaterThanOrEqual(32);

    const [row] = await t.app.db.select().from(users).where(eq(users.email, 'admin@localhost'));
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    expect(row.passwordHash).not.toContain(PASSWORD);
    // Only the token's hash is stored.
    const token = session.cookie.split('=')[1];
    expect(JSON.stringify(await t.app.db.select().from(sessions))).not.toContain(token);
  });

  it('answers a wrong password and an unknown email alike', async () => {
    for (const [email, password] of [
      ['admin@localhost', 'wrong password'],
      ['nobody@example.com', PASSWORD],
    ]) {
      const res = await post('/api/v1/auth/sign-in', { email, password });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'Invalid email or password', code: 'UNAUTHORIZED' });
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('matches the email case-insensitively and refuses bodies that are not JSON', async () => {
    await signIn('Admin@LOCALHOST', PASSWORD);
    const form = await fetch(`${t.url}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `email=admin%40localhost&password=${encodeURIComponent(PASSWORD)}`,
    });
    expect(form.status).toBe(415);
    const bad = await post('/api/v1/auth/sign-in', { email: 'admin@localhost' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('VALIDATION_ERROR');
  });

  it('limits sign-in attempts per email per minute (429 with Retry-After)', async () => {
    const email = 'target@example.com';
    // The window is a fixed minute: if it rolls over mid-test the count restarts, so allow for one restart.
    const statuses: number[] = [];
    let limited: Response | undefined;
    while (!limited && statuses.length <= 2 * SIGN_IN_ATTEMPTS_PER_MINUTE + 1) {
      const res = await post('/api/v1/auth/sign-in', { email, password: 'guess' });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(limited, `statuses: ${statuses.join(',')}`).toBeDefined();
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(SIGN_IN_ATTEMPTS_PER_MINUTE);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited!.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
  }, 60_000);
});

describe('session-authenticated API', () => {
  it('reaches the management API with the cookie, like a personal key of the user', async () => {
    const session = await signIn();
    const me = await asSession(session, 'GET', '/api/v1/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ userId: t.userId, email: 'admin@localhost' });
    const current = await asSession(session, 'GET', '/api/v1/auth/session');
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({ user: { id: t.userId }, csrfToken: session.csrfToken });
    expect(current.body.workspaces).toEqual([{ id: t.workspaceId, name: 'Default', plan: 'free', role: 'owner' }]);
    expect(current.headers.get('cache-control')).toBe('no-store');
  });

  it('renews the cookie when use keeps the session alive, so the browser does not drop a live session', async () => {
    const session = await signIn();
    // Used again at once: nothing to renew.
    expect((await asSession(session, 'GET', '/api/v1/me')).headers.get('set-cookie')).toBeNull();
    // Last used ten minutes ago, due to end in a day: this request slides it, and the cookie follows.
    const token = session.cookie.split('=')[1];
    await t.app.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 10 * 60_000), expiresAt: new Date(Date.now() + 24 * 3_600_000) })
      .where(eq(sessions.tokenHash, sha256Hex(token)));
    const renewed = await asSession(session, 'GET', '/api/v1/auth/session');
    expect(renewed.status).toBe(200);
    const cookie = renewed.headers.get('set-cookie')!;
    expect(cookie).toContain(session.cookie);
    const expires = Date.parse(/Expires=([^;]+)/.exec(cookie)![1]);
    expect(expires - Date.now()).toBeGreaterThan(13 * 24 * 3_600_000);
    expect(Math.abs(Date.parse(renewed.body.expiresAt) - expires)).toBeLessThan(1_000);
  });

  it('renews the cookie on a run\'s answer too, beside the run\'s own headers', async () => {
    const wf = await createAndDeploy(t, echoState());
    const session = await signIn();
    const token = session.cookie.split('=')[1];
    await t.app.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 10 * 60_000), expiresAt: new Date(Date.now() + 24 * 3_600_000) })
      .where(eq(sessions.tokenHash, sha256Hex(token)));
    const res = await asSession(session, 'POST', `/api/workflows/${wf}/execute`, { body: { q: 'hi' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ echoed: 'hi' });
    expect(res.headers.get('set-cookie')).toContain(session.cookie);
    expect(res.headers.get('x-execution-id')).toMatch(/^exec_/);
    expect(res.headers.get('content-type')).toBe('application/json');
  });

  it('refuses state-changing requests without the matching X-CSRF-Token, and allows them with it', async () => {
    const session = await signIn();
    const body = { workspaceId: t.workspaceId, name: 'From the browser', state: echoState() };
    for (const csrf of [null, 'wrong-token', `${session.csrfToken}x`]) {
      const res = await asSession(session, 'POST', '/api/v1/workflows', { body, csrf });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    // Another session's token does not fit this session.
    const other = await signIn();
    expect((await asSession(session, 'POST', '/api/v1/workflows', { body, csrf: other.csrfToken })).status).toBe(403);

    const created = await asSession(session, 'POST', '/api/v1/workflows', { body });
    expect(created.status).toBe(201);
    // Reads need no token.
    expect((await asSession(session, 'GET', `/api/v1/workflows/${created.body.data.id}`, { csrf: null })).status).toBe(200);
  });

  it('keeps API-key behaviour unchanged: a sent key is judged alone, whatever cookie comes with it', async () => {
    const session = await signIn();
    const bad = await t.request('GET', '/api/v1/me', { apiKey: 'sk-sluice-unknownunknownunknownunknown', headers: { cookie: session.cookie } });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe('Invalid or revoked API key');
    const none = await t.request('GET', '/api/v1/me', { apiKey: null });
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('Missing API key: send it in the X-API-Key header');
    // Key requests need no CSRF token.
    const created = await t.request('POST', '/api/v1/workflows', { body: { workspaceId: t.workspaceId, name: 'by key' } });
    expect(created.status).toBe(201);
  });

  it("cannot reach another user's workspace or workflow", async () => {
    const outsider = await bootstrapAdmin(t.app.db, { apiKey: generateApiKey(), adminEmail: 'eve@example.com', plan: 'free' });
    const theirs = await t.request('POST', '/api/v1/workflows', {
      apiKey: outsider.apiKey,
      body: { workspaceId: outsider.workspaceId, name: 'private', state: echoState() },
    });
    const session = await signIn();
    expect((await asSession(session, 'GET', `/api/v1/workflows/${theirs.body.data.id}`)).status).toBe(404);
    expect((await asSession(session, 'GET', `/api/v1/workflows?workspaceId=${outsider.workspaceId}`)).status).toBe(403);
    expect((await asSession(session, 'DELETE', `/api/v1/workflows/${theirs.body.data.id}`)).status).toBe(404);
  });

  it('ends the session on sign-out, on expiry, and when the password changes', async () => {
    const session = await signIn();
    const out = await fetch(`${t.url}/api/v1/auth/sign-out`, { method: 'POST', headers: { cookie: session.cookie } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/sluice_session=;.*Max-Age=0/);
    expect((await asSession(session, 'GET', '/api/v1/me')).status).toBe(401);

    const expiring = await signIn();
    await t.app.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) });
    const expired = await asSession(expiring, 'GET', '/api/v1/me');
    expect(expired.status).toBe(401);
    expect(expired.body.error).toMatch(/sign in again/);

    const before = await signIn();
    await setUserPassword(t.app.db, { email: 'admin@localhost', password: PASSWORD, plan: 'free' });
    expect((await asSession(before, 'GET', '/api/v1/me')).status).toBe(401);
  });
});

describe('sign-up', () => {
  it('is switched off by default', async () => {
    const options = await t.request('GET', '/api/v1/auth/options', { apiKey: null });
    expect(options.body).toEqual({ signupAllowed: false, setupNeeded: false });
    const res = await post('/api/v1/auth/sign-up', { email: 'new@example.com', password: 'long enough' });
    expect(res.status).toBe(403);
  });

  it('creates an account with its own Default workspace when SLUICE_ALLOW_SIGNUP is true', async () => {
    const open = await startTestApp({ SLUICE_ALLOW_SIGNUP: 'true' });
    try {
      const short = await fetch(`${open.url}/api/v1/auth/sign-up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'new@example.com', password: 'short' }),
      });
      expect(short.status).toBe(400);
      const res = await fetch(`${open.url}/api/v1/auth/sign-up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'new@example.com', password: 'long enough' }),
      });
      expect(res.status).toBe(201);
      const cookie = res.headers.get('set-cookie')!.split(';')[0];
      const me = await open.request('GET', '/api/v1/me', { apiKey: null, headers: { cookie } });
      expect(me.body.email).toBe('new@example.com');
      expect(me.body.workspaces).toEqual([{ id: expect.stringMatching(/^ws_/), name: 'Default', plan: 'free' }]);
      // An existing address (even one without a password) cannot be claimed.
      for (const email of ['new@example.com', 'admin@localhost']) {
        const again = await fetch(`${open.url}/api/v1/auth/sign-up`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'another password' }),
        });
        expect(again.status).toBe(409);
      }
    } finally {
      await open.close();
    }
  });
});

describe('the web app at /', () => {
  it('serves the app (or a not-built page) as HTML for app paths, never for API paths', async () => {
    for (const path of ['/', '/workflows/wf_123/api', '/logs']) {
      const res = await fetch(t.url + path);
      expect([200, 503]).toContain(res.status);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
      expect(await res.text()).toMatch(/<html|Sluice/);
    }
    for (const path of ['/api/nope', '/api/v1/nope', '/api']) {
      const res = await fetch(t.url + path);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    const health = await fetch(`${t.url}/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    // A POST to an app path is not the app.
    expect((await fetch(`${t.url}/workflows`, { method: 'POST' })).status).toBe(404);
  });

  it('never serves files outside the build directory', async () => {
    for (const path of ['/..%2f..%2fpackage.json', '/%2e%2e/%2e%2e/package.json', '/assets/..%2f..%2f..%2fpackage.json']) {
      const res = await fetch(t.url + path);
      expect(await res.text()).not.toContain('"name": "sluice"');
    }
  });
});

describe('logs API from the web app', () => {
  it('does not count a signed-in person against the per-key logs rate limit', async () => {
    const session = await signIn();
    const free = Number((await t.request('GET', `/api/v1/logs?workspaceId=${t.workspaceId}`)).headers.get('x-ratelimit-limit'));
    expect(free).toBeGreaterThan(0);
    for (let i = 0; i < free + 2; i++) {
      const res = await asSession(session, 'GET', `/api/v1/logs?workspaceId=${t.workspaceId}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });
});
