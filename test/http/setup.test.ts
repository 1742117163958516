// First run in the browser (issue 15): while no user has a password, the setup token opens the owner account; the
// token is required, exactly one owner is created however many try at once, and the account can make API keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

function postSetup(app: TestApp, body: unknown) {
  return fetch(`${app.url}/api/v1/auth/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('first-run setup', () => {
  it('tells the page whether setup is pending and whether the link is right', async () => {
    const wrong = await t.request('GET', '/api/v1/auth/setup?token=nope', { apiKey: null });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toEqual({ needed: true, tokenValid: false });
    const right = await t.request('GET', `/api/v1/auth/setup?token=${t.app.setupToken}`, { apiKey: null });
    expect(right.body).toEqual({ needed: true, tokenValid: true, suggestedEmail: 'admin@localhost' });
    const options = await t.request('GET', '/api/v1/auth/options', { apiKey: null });
    expect(options.body).toEqual({ signupAllowed: false, setupNeeded: true });
  });

  it('refuses a wrong token, a weak password and a non-JSON body without creating anyone', async () => {
    const wrong = await postSetup(t, { token: 'x'.repeat(32), email: 'owner@example.com', password: 'long enough pw' });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ code: 'SETUP_TOKEN_INVALID' });
    const weak = await postSetup(t, { token: t.app.setupToken, email: 'owner@example.com', password: 'short' });
    expect(weak.status).toBe(400);
    expect((await weak.json()).details).toEqual([{ path: 'password', message: 'must be at least 8 characters' }]);
    const form = await fetch(`${t.url}/api/v1/auth/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${t.app.setupToken}&email=a@b.c&password=long+enough+pw`,
    });
    expect(form.status).toBe(415);
    const still = await t.request('GET', '/api/v1/auth/setup', { apiKey: null });
    expect(still.body.needed).toBe(true);
  });

  it('gives the bootstrap admin a password in its own workspace, signs in, and the session makes a working key', async () => {
    const res = await postSetup(t, { token: t.app.setupToken, email: 'Admin@Localhost', password: 'correct horse battery' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { user: { id: string; email: string }; csrfToken: string };
    expect(body.user).toMatchObject({ id: t.userId, email: 'admin@localhost' });
    const cookie = res.headers.get('set-cookie')!.split(';')[0];

    const session = await t.request('GET', '/api/v1/auth/session', { apiKey: null, headers: { cookie } });
    expect(session.body.workspaces.map((w: { id: string }) => w.id)).toEqual([t.workspaceId]);
    const key = await t.request('POST', '/api/v1/api-keys', {
      apiKey: null,
      headers: { cookie, 'x-csrf-token': body.csrfToken },
      body: { name: 'first key', workspaceId: t.workspaceId },
    });
    expect(key.status).toBe(201);
    const me = await t.request('GET', '/api/v1/me', { apiKey: key.body.data.key });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'admin@localhost', workspaces: [{ id: t.workspaceId }] });

    // Over: the link opens nothing any more, and the sign-in page stops pointing at it.
    const again = await postSetup(t, { token: t.app.setupToken, email: 'other@example.com', password: 'another password' });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'SETUP_COMPLETE' });
    const state = await t.request('GET', `/api/v1/auth/setup?token=${t.app.setupToken}`, { apiKey: null });
    expect(state.body).toEqual({ needed: false, tokenValid: true });
    const options = await t.request('GET', '/api/v1/auth/options', { apiKey: null });
    expect(options.body.setupNeeded).toBe(false);
    const signIn = await fetch(`${t.url}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@localhost', password: 'correct horse battery' }),
    });
    expect(signIn.status).toBe(200);
  });

  it('creates exactly one owner when several people race for the link', async () => {
    const race = await startTestApp();
    try {
      const emails = ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com'];
      const answers = await Promise.all(
        emails.map((email) => postSetup(race, { token: race.app.setupToken, email, password: 'correct horse battery' })),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409]);
      const winner = emails[answers.findIndex((a) => a.status === 201)];
      const cookie = answers.find((a) => a.status === 201)!.headers.get('set-cookie')!.split(';')[0];
      const session = await race.request('GET', '/api/v1/auth/session', { apiKey: null, headers: { cookie } });
      expect(session.body.user.email).toBe(winner);
      // A new user gets a Default workspace of its own.
      expect(session.body.workspaces).toEqual([expect.objectContaining({ name: 'Default', role: 'owner' })]);
      for (const loser of emails.filter((e) => e !== winner)) {
        const signIn = await fetch(`${race.url}/api/v1/auth/sign-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: loser, password: 'correct horse battery' }),
        });
        expect(signIn.status).toBe(401);
      }
    } finally {
      await race.close();
    }
  });
});
