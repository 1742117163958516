// The people of the current workspace: members with their roles, and invite links (a link is shown once, when it is
// made; then only its role, address and expiry). Owners and admins change them; everyone else sees the list.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { answer, api } from '../api';
import { InlineForm } from '../components/fields';
import { Badge, ConfirmCell, CopyButton, ErrorBox, formatTime, QueryView, Table } from '../components/ui';
import { canManageMembers } from '../roles';
import { useWorkspace } from '../session';
import type { CreatedInvite } from '../types';

const ASSIGNABLE = ['viewer', 'editor', 'admin'] as const;
type Assignable = (typeof ASSIGNABLE)[number];

const ROLE_HELP: Record<Assignable | 'owner', string> = {
  owner: 'everything, and cannot be removed',
  admin: 'edits and deploys; manages members and invites',
  editor: 'edits, runs and deploys workflows; environment variables and webhooks',
  viewer: 'reads workflows, runs and logs; changes nothing',
};

/** The link as this browser reaches the server: the token of the API's link on this page's own address. */
const linkOf = (invite: CreatedInvite) => `${window.location.origin}/invite?token=${new URL(invite.url).searchParams.get('token') ?? ''}`;

export function MembersPage() {
  const { workspace, session } = useWorkspace();
  const manager = canManageMembers(workspace.role);
  return (
    <div className="page narrow">
      <h1>Members · {workspace.name}</h1>
      <MemberList workspaceId={workspace.id} manager={manager} selfId={session.user.id} />
      {manager ? (
        <Invites workspaceId={workspace.id} />
      ) : (
        <p className="muted small" data-testid="members-hint">
          You are {workspace.role === 'editor' ? 'an editor' : `a ${workspace.role}`} here: only owners and admins invite people or change roles.
        </p>
      )}
      <section className="card">
        <h3>Roles</h3>
        <ul className="small">
          {(['owner', 'admin', 'editor', 'viewer'] as const).map((role) => (
            <li key={role}>
              <strong>{role}</strong>: {ROLE_HELP[role]}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function MemberList({ workspaceId, manager, selfId }: { workspaceId: string; manager: boolean; selfId: string }) {
  const client = useQueryClient();
  const inWorkspace = { params: { path: { workspaceId } } };
  const members = useQuery({
    queryKey: ['members', workspaceId],
    queryFn: () => answer(api.GET('/api/v1/workspaces/{workspaceId}/members', inWorkspace)).then((r) => r.data),
  });
  const refresh = () => void client.invalidateQueries({ queryKey: ['members', workspaceId] });
  const change = useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Assignable }) =>
      answer(api.PATCH('/api/v1/workspaces/{workspaceId}/members/{userId}', { params: { path: { workspaceId, userId } }, body: { role } })),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (userId: string) => answer(api.DELETE('/api/v1/workspaces/{workspaceId}/members/{userId}', { params: { path: { workspaceId, userId } } })),
    onSettled: refresh,
  });
  return (
    <section className="card" data-testid="members">
      <h3>Members</h3>
      <ErrorBox error={change.error ?? remove.error} />
      <QueryView query={members} what="members">
        {(list) => (
          <Table columns={['Email', 'Role', 'Joined', '']}>
            {list.map((m) => {
              const editable = manager && m.role !== 'owner' && m.userId !== selfId;
              return (
                <tr key={m.userId} data-testid="member-row">
                  <td>
                    {m.email} {m.userId === selfId && <span className="muted small">(you)</span>}
                  </td>
                  <td>
                    {editable ? (
                      <select
                        aria-label={`Role of ${m.email}`}
                        value={m.role}
                        disabled={change.isPending}
                        onChange={(e) => change.mutate({ userId: m.userId, role: e.target.value as Assignable })}
                      >
                        {ASSIGNABLE.map((role) => (
                          <option key={role} value={role}>
                            {role}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <Badge tone={m.role === 'owner' ? 'info' : 'muted'}>{m.role}</Badge>
                    )}
                  </td>
                  <td className="muted">{formatTime(m.joinedAt)}</td>
                  {editable ? (
                    <ConfirmCell label="Remove" confirmLabel={`Remove ${m.email}`} onConfirm={() => remove.mutate(m.userId)} />
                  ) : (
                    <td />
                  )}
                </tr>
              );
            })}
          </Table>
        )}
      </QueryView>
    </section>
  );
}

function Invites({ workspaceId }: { workspaceId: string }) {
  const client = useQueryClient();
  const inWorkspace = { params: { path: { workspaceId } } };
  const invites = useQuery({
    queryKey: ['invites', workspaceId],
    queryFn: () => answer(api.GET('/api/v1/workspaces/{workspaceId}/invites', inWorkspace)).then((r) => r.data),
  });
  const [role, setRole] = useState<Assignable>('viewer');
  const [email, setEmail] = useState('');
  const [created, setCreated] = useState<CreatedInvite | null>(null);
  const refresh = () => void client.invalidateQueries({ queryKey: ['invites', workspaceId] });
  const create = useMutation({
    mutationFn: () =>
      answer(api.POST('/api/v1/workspaces/{workspaceId}/invites', { ...inWorkspace, body: { role, ...(email.trim() ? { email: email.trim() } : {}) } })),
    onSuccess: ({ data }) => {
      setCreated(data);
      setEmail('');
      refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (inviteId: string) =>
      answer(api.DELETE('/api/v1/workspaces/{workspaceId}/invites/{inviteId}', { params: { path: { workspaceId, inviteId } } })),
    onSettled: refresh,
  });
  return (
    <section className="card" data-testid="invites">
      <h3>Invite people</h3>
      <p className="small muted">
        An invite link works once and for a week. Whoever opens it sets a password and joins with the role you pick; with an
        address, only that address can use it.
      </p>
      <InlineForm onSubmit={() => create.mutate()}>
        <select aria-label="Invite role" value={role} onChange={(e) => setRole(e.target.value as Assignable)}>
          {ASSIGNABLE.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        <input aria-label="Invite email (optional)" type="email" placeholder="Email (optional)" value={email} onChange={(e) => setEmail(e.target.value)} />
        <button className="btn primary" type="submit" disabled={create.isPending}>
          Create invite link
        </button>
      </InlineForm>
      <ErrorBox error={create.error ?? revoke.error} />
      {created && (
        <div className="secret-once" data-testid="created-invite">
          <Badge tone="warn">Copy it now</Badge> Invite link for {created.email ?? 'anyone'} as {created.role}:{' '}
          <code data-testid="invite-link">{linkOf(created)}</code> <CopyButton text={linkOf(created)} label="Copy link" />
          <button className="btn ghost small" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      <h4>Pending invites</h4>
      <QueryView query={invites} what="invites" empty="No pending invites.">
        {(list) => (
          <Table columns={['Role', 'Email', 'Expires', '']}>
            {list.map((i) => (
              <tr key={i.id} data-testid="invite-row">
                <td>{i.role}</td>
                <td>{i.email ?? <span className="muted">anyone with the link</span>}</td>
                <td className="muted">{formatTime(i.expiresAt)}</td>
                <ConfirmCell label="Revoke" confirmLabel="Revoke now" onConfirm={() => revoke.mutate(i.id)} />
              </tr>
            ))}
          </Table>
        )}
      </QueryView>
    </section>
  );
}
