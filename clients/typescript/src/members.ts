// The people of a workspace: members and their roles, and invite links (owners and admins change them).
import type { Api, RequestOptions } from './api.js';
import type { CreatedInvite, Invite, InviteCreate, Member, MemberUpdate } from './types.js';

export function memberCalls({ api, answer }: Api) {
  const memberPath = (workspaceId: string, userId: string) => ({ path: { workspaceId, userId } });
  return {
    list: (workspaceId: string, opts: RequestOptions = {}): Promise<Member[]> =>
      answer(api.GET('/api/v1/workspaces/{workspaceId}/members', { params: { path: { workspaceId } }, signal: opts.signal })).then((r) => r.data),
    /** Gives a member another role (`admin`, `editor` or `viewer`); the owner's cannot change. */
    changeRole: (workspaceId: string, userId: string, role: MemberUpdate['role'], opts: RequestOptions = {}): Promise<Member> =>
      answer(
        api.PATCH('/api/v1/workspaces/{workspaceId}/members/{userId}', { params: memberPath(workspaceId, userId), body: { role }, signal: opts.signal }),
      ).then((r) => r.data),
    remove: (workspaceId: string, userId: string, opts: RequestOptions = {}): Promise<void> =>
      answer(api.DELETE('/api/v1/workspaces/{workspaceId}/members/{userId}', { params: memberPath(workspaceId, userId), signal: opts.signal })).then(
        () => undefined,
      ),
    /** A one-time invite link; `url` is only in this answer. */
    invite: (workspaceId: string, body: InviteCreate, opts: RequestOptions = {}): Promise<CreatedInvite> =>
      answer(api.POST('/api/v1/workspaces/{workspaceId}/invites', { params: { path: { workspaceId } }, body, signal: opts.signal })).then(
        (r) => r.data,
      ),
    pendingInvites: (workspaceId: string, opts: RequestOptions = {}): Promise<Invite[]> =>
      answer(api.GET('/api/v1/workspaces/{workspaceId}/invites', { params: { path: { workspaceId } }, signal: opts.signal })).then((r) => r.data),
    revokeInvite: (workspaceId: string, inviteId: string, opts: RequestOptions = {}): Promise<void> =>
      answer(
        api.DELETE('/api/v1/workspaces/{workspaceId}/invites/{inviteId}', { params: { path: { workspaceId, inviteId } }, signal: opts.signal }),
      ).then(() => undefined),
  };
}
