// Invite links (docs/api.md "Members and invites"): one-time, expiring, stored hashed; accepting creates the account
// (or checks an existing one's password), joins the workspace and signs in.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceInvites, workspaceMembers } from '../../src/db/schema.js';
import { setUserPassword } from '../../src/services/sessions.js';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const invitesPath = () => `/api/v1/workspaces/${t.workspaceId}/invites`;

async function createInvite(body: Record<string, unknown> = { role: 'viewer' }) {
  const res = await t.request('POST', invitesPath(), { body });
  expect(res.status).toBe(201);
  const token = new URL(res.body.data.url).searchParams.get('token')!;
  return { id: res.body.data.id as string, token, body: res.body.data };
}

const accept = (token: string, body: Record<string, unknown>) =>
  t.request('POST', `/api/v1/invites/${token}/accept`, { apiKey: null, body });

describe('invite links', () => {
  it('creates a link shown once, stores only its hash, and lists it pending without the token', async () => {
    const created = await createInvite({ role: 'viewer', email: 'Vera@Example.com', expiresInHours: 24 });
    expect(created.body).toMatchObject({ role: 'viewer', email: 'vera@example.com' });
    expect(created.body.url).toMatch(/\/invite\?token=[A-Za-z0-9]{32}$/);
    const hours = (Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)) / 3600_000;
    expect(hours).toBe(24);
    const rows = await t.app.db.select().from(workspaceInvites);
    expect(JSON.stringify(rows)).not.toContain(created.token);
    const list = await t.request('GET', invitesPath());
    expect(list.body.data.find((i: { id: string }) => i.id === created.id)).toEqual({
      id: created.id,
      role: 'viewer',
      email: 'vera@example.com',
      createdAt: created.body.createdAt,
      expiresAt: created.body.expiresAt,
    });
    expect(list.text).not.toContain(created.token);
  });

  it('defaults to a week, refuses more than 30 days, and refuses the owner role', async () => {
    const created = await createInvite({ role: 'editor' });
    expect((Date.parse(created.body.expiresAt) - Date.parse(created.body.createdAt)) / 3600_000).toBe(168);
    const tooLong = await t.request('POST', invitesPath(), { body: { role: 'viewer', expiresInHours: 721 } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details[0].path).toBe('expiresInHours');
    expect((await t.request('POST', invitesPath(), { body: { role: 'owner' } })).status).toBe(400);
  });

  it('shows what it offers, then joins a new account signed in, once', async () => {
    const { token } = await createInvite({ role: 'viewer' });
    const preview = await t.request('GET', `/api/v1/invites/${token}`, { apiKey: null });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ workspaceId: t.workspaceId, workspaceName: 'Default', role: 'viewer', email: null });

    const joined = await accept(token, { email: 'nina@example.com', password: 'nina-password-1' });
    expect(joined.status).toBe(200);
    expect(joined.body.user.email).toBe('nina@example.com');
    const cookie = joined.headers.get('set-cookie')!.split(';')[0];
    const session = await t.request('GET', '/api/v1/auth/session', { apiKey: null, headers: { cookie } });
    expect(session.body.workspaces).toContainEqual({ id: t.workspaceId, name: 'Default', plan: 'free', role: 'viewer' });
    // The new account signs in with the password it set.
    const signIn = await t.request('POST', '/api/v1/auth/sign-in', { apiKey: null, body: { email: 'nina@example.com', password: 'nina-password-1' } });
    expect(signIn.status).toBe(200);

    // One-time: the link is spent.
    const again = await t.request('GET', `/api/v1/invites/${token}`, { apiKey: null });
    expect(again.status).toBe(410);
    expect(again.body.code).toBe('INVITE_USED');
    const second = await accept(token, { email: 'other@example.com', password: 'other-password-1' });
    expect(second.status).toBe(410);
    expect(second.body.code).toBe('INVITE_USED');
    // …and no longer pending.
    expect((await t.request('GET', invitesPath())).text).not.toContain('nina@example.com');
  });

  it('refuses an expired link with 410', async () => {
    const { id, token } = await createInvite();
    await t.app.db.update(workspaceInvites).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(workspaceInvites.id, id));
    const preview = await t.request('GET', `/api/v1/invites/${token}`, { apiKey: null });
    expect(preview.status).toBe(410);
    expect(preview.body).toEqual({ code: 'INVITE_EXPIRED', error: 'This invite link has expired; ask for a new one' });
    expect((await accept(token, { email: 'late@example.com', password: 'late-password-1' })).body.code).toBe('INVITE_EXPIRED');
    expect((await t.request('GET', invitesPath())).body.data.map((i: { id: string }) => i.id)).not.toContain(id);
  });

  it('revokes: the link then answers 404, and another workspace cannot revoke it', async () => {
    const { id, token } = await createInvite();
    const other = await t.request('POST', '/api/v1/workspaces', { apiKey: t.personalKey, body: { name: 'Other' } });
    const wrong = await t.request('DELETE', `/api/v1/workspaces/${other.body.data.id}/invites/${id}`, { apiKey: t.personalKey });
    expect(wrong.status).toBe(404);
    expect((await t.request('DELETE', `${invitesPath()}/${id}`)).status).toBe(204);
    expect((await t.request('GET', `/api/v1/invites/${token}`, { apiKey: null })).status).toBe(404);
    expect((await accept(token, { email: 'rev@example.com', password: 'rev-password-1' })).status).toBe(404);
    expect((await t.request('DELETE', `${invitesPath()}/${id}`)).status).toBe(404);
    expect((await t.request('GET', '/api/v1/invites/notatokenatall', { apiKey: null })).status).toBe(404);
  });

  it('holds an invite naming an address to that address', async () => {
    const { token } = await createInvite({ role: 'editor', email: 'named@example.com' });
    const wrong = await accept(token, { email: 'someone-else@example.com', password: 'pass-word-123' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('This invite is for another email address');
    expect((await accept(token, { email: 'NAMED@example.com', password: 'pass-word-123' })).status).toBe(200);
  });

  it('asks an existing account for its password, and leaves the link usable after a wrong one', async () => {
    await setUserPassword(t.app.db, { email: 'existing@example.com', password: 'existing-pass-1', plan: 'free' });
    const { token } = await createInvite({ role: 'editor' });
    const wrong = await accept(token, { email: 'existing@example.com', password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    const right = await accept(token, { email: 'existing@example.com', password: 'existing-pass-1' });
    expect(right.status).toBe(200);
    const members = await t.request('GET', `/api/v1/workspaces/${t.workspaceId}/members`);
    expect(members.body.data.find((m: { email: string }) => m.email === 'existing@example.com').role).toBe('editor');
  });

  it('refuses an address whose account has no password (it would hand that account over)', async () => {
    await t.request('POST', `/api/v1/workspaces/${t.workspaceId}/members`, { body: { email: 'nopass@example.com', role: 'viewer' } });
    const { token } = await createInvite();
    const res = await accept(token, { email: 'nopass@example.com', password: 'takeover-pass-1' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/no password yet/);
  });

  it('refuses a short password for a new account with the field named', async () => {
    const { token } = await createInvite();
    const res = await accept(token, { email: 'short@example.com', password: 'short' });
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe('password');
  });

  it('lets only one of two simultaneous accepts win', async () => {
    const { id, token } = await createInvite();
    const [a, b] = await Promise.all([
      accept(token, { email: 'racer-a@example.com', password: 'racer-pass-a' }),
      accept(token, { email: 'racer-b@example.com', password: 'racer-pass-b' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 410]);
    const [row] = await t.app.db.select().from(workspaceInvites).where(eq(workspaceInvites.id, id));
    const winner = a.status === 200 ? a : b;
    expect(row.usedBy).toBe(winner.body.user.id);
    const joined = await t.app.db.select().from(workspaceMembers).where(eq(workspaceMembers.workspaceId, t.workspaceId));
    const users = joined.map((m) => m.userId);
    expect(users).toContain(winner.body.user.id);
    // The loser got no membership (nor, being new, an account that can sign in).
    const loserEmail = a.status === 200 ? 'racer-b@example.com' : 'racer-a@example.com';
    const signIn = await t.request('POST', '/api/v1/auth/sign-in', { apiKey: null, body: { email: loserEmail, password: 'racer-pass-b' } });
    expect(signIn.status).toBe(401);
  });

  it('takes JSON only', async () => {
    const { token } = await createInvite();
    const res = await t.request('POST', `/api/v1/invites/${token}/accept`, {
      apiKey: null,
      rawBody: 'email=a@b.c&password=xxxxxxxxx',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
  });
});
