// Members and invite links through sluice-client, against a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal, startClientTestServer, type ClientTestServer } from './support.js';

let s: ClientTestServer;
beforeAll(async () => {
  s = await startClientTestServer();
});
afterAll(async () => s?.close());

describe('members and invites', () => {
  it('invites by link, lists and revokes pending invites, and changes a member role', async () => {
    const ws = s.t.workspaceId;
    const invite = await s.client.members.invite(ws, { role: 'viewer', email: 'vic@example.com' });
    expect(invite).toMatchObject({ role: 'viewer', email: 'vic@example.com' });
    expect(invite.url).toMatch(/\/invite\?token=/);
    expect(await s.client.members.pendingInvites(ws)).toEqual([
      { id: invite.id, role: 'viewer', email: 'vic@example.com', createdAt: invite.createdAt, expiresAt: invite.expiresAt },
    ]);
    const token = new URL(invite.url).searchParams.get('token')!;
    const accepted = await fetch(`${s.t.url}/api/v1/invites/${token}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'vic@example.com', password: 'vic-password-1' }),
    });
    expect(accepted.status).toBe(200);
    expect(await s.client.members.pendingInvites(ws)).toEqual([]);

    const vic = (await s.client.members.list(ws)).find((m) => m.email === 'vic@example.com')!;
    expect(vic.role).toBe('viewer');
    expect((await s.client.members.changeRole(ws, vic.userId, 'editor')).role).toBe('editor');
    await s.client.members.remove(ws, vic.userId);
    expect((await s.client.members.list(ws)).map((m) => m.email)).not.toContain('vic@example.com');

    const other = await s.client.members.invite(ws, { role: 'editor' });
    await s.client.members.revokeInvite(ws, other.id);
    expect(await refusal(s.client.members.revokeInvite(ws, other.id))).toMatchObject({ status: 404 });
  });
});
