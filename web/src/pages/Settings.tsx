// Settings: API keys (a new key is shown once; then only its name and last four characters) and the workspace's
// environment variables (values are write-only: the API never returns them, so the page shows them masked).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { answer, api } from '../api';
import { InlineForm } from '../components/fields';
import { Badge, ConfirmCell, CopyButton, ErrorBox, formatTime, QueryView, Table } from '../components/ui';
import { canEdit } from '../roles';
import { reloadSession, useWorkspace } from '../session';
import type { CreatedApiKey } from '../types';

export function SettingsPage() {
  return (
    <div className="page narrow">
      <h1>Settings</h1>
      <ApiKeys />
      <EnvVars />
      <Workspaces />
    </div>
  );
}

function ApiKeys() {
  const client = useQueryClient();
  const { workspace } = useWorkspace();
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: () => answer(api.GET('/api/v1/api-keys')).then((r) => r.data) });
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'workspace' | 'personal'>('workspace');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const create = useMutation({
    mutationFn: () =>
      answer(api.POST('/api/v1/api-keys', { body: { name: name.trim(), workspaceId: scope === 'workspace' ? workspace.id : null } })),
    onSuccess: ({ data }) => {
      setCreated(data);
      setName('');
      void client.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => answer(api.DELETE('/api/v1/api-keys/{keyId}', { params: { path: { keyId: id } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['api-keys'] }),
  });
  return (
    <section className="card" data-testid="api-keys">
      <h3>API keys</h3>
      <p className="small muted">Keys call the execute endpoint and the logs API. A key is shown once, when it is created.</p>
      <InlineForm onSubmit={() => name.trim() && create.mutate()}>
        <input aria-label="Key name" placeholder="Key name, e.g. CI" value={name} onChange={(e) => setName(e.target.value)} />
        <select aria-label="Key scope" value={scope} onChange={(e) => setScope(e.target.value as 'workspace' | 'personal')}>
          <option value="workspace">Only workspace “{workspace.name}”</option>
          <option value="personal">All my workspaces</option>
        </select>
        <button className="btn primary" type="submit" disabled={create.isPending || !name.trim()}>
          Create key
        </button>
      </InlineForm>
      <ErrorBox error={create.error ?? revoke.error} />
      {created && (
        <div className="secret-once" data-testid="created-key">
          <Badge tone="warn">Copy it now</Badge> Key “{created.name}”: <code>{created.key}</code> <CopyButton text={created.key} />
          <button className="btn ghost small" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      <QueryView query={keys} what="keys" empty="No keys yet.">
        {(list) => (
          <Table columns={['Name', 'Key', 'Scope', 'Created', 'Last used', '']}>
            {list.map((k) => (
              <tr key={k.id} data-testid="key-row">
                <td>{k.name}</td>
                <td>
                  <code>{k.hint}</code>
                </td>
                <td>{k.scope === 'personal' ? 'all workspaces' : 'workspace'}</td>
                <td className="muted">{formatTime(k.createdAt)}</td>
                <td className="muted">{k.lastUsedAt ? formatTime(k.lastUsedAt) : 'never'}</td>
                <ConfirmCell label="Revoke" confirmLabel="Revoke now" onConfirm={() => revoke.mutate(k.id)} />
              </tr>
            ))}
          </Table>
        )}
      </QueryView>
    </section>
  );
}

function EnvVars() {
  const client = useQueryClient();
  const { workspace } = useWorkspace();
  const inWorkspace = { params: { path: { workspaceId: workspace.id } } };
  const vars = useQuery({
    queryKey: ['env', workspace.id],
    queryFn: () => answer(api.GET('/api/v1/workspaces/{workspaceId}/env', inWorkspace)).then((r) => r.data),
  });
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const editing = canEdit(workspace.role);
  const save = useMutation({
    mutationFn: () => answer(api.PUT('/api/v1/workspaces/{workspaceId}/env', { ...inWorkspace, body: { variables: { [name.trim()]: value } } })),
    onSuccess: () => {
      setName('');
      setValue('');
      void client.invalidateQueries({ queryKey: ['env', workspace.id] });
    },
  });
  const remove = useMutation({
    mutationFn: (n: string) =>
      answer(api.DELETE('/api/v1/workspaces/{workspaceId}/env/{name}', { params: { path: { workspaceId: workspace.id, name: n } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['env', workspace.id] }),
  });
  return (
    <section className="card" data-testid="env-vars">
      <h3>Environment variables · {workspace.name}</h3>
      <p className="small muted">
        Use them in any block as <code>{'{{NAME}}'}</code>. Values are encrypted at rest and never shown again; set a name again to replace its value.
      </p>
      {!editing && (
        <p className="small muted" data-testid="viewer-hint">
          Viewers see the names only and cannot change variables. Ask a workspace owner or admin for the editor role.
        </p>
      )}
      {editing && (
        <InlineForm onSubmit={() => name.trim() && save.mutate()}>
          <input aria-label="Variable name" placeholder="NAME" value={name} onChange={(e) => setName(e.target.value.toUpperCase().replace(/[^A-Z0-9_]/g, '_'))} />
          <input aria-label="Variable value" type="password" autoComplete="off" placeholder="value" value={value} onChange={(e) => setValue(e.target.value)} />
          <button className="btn primary" type="submit" disabled={save.isPending || !name.trim()}>
            Save variable
          </button>
        </InlineForm>
      )}
      <ErrorBox error={save.error ?? remove.error} />
      <QueryView query={vars} empty="No variables yet.">
        {(list) => (
          <Table>
            {list.map((v) => (
              <tr key={v.name}>
                <td>
                  <code>{v.name}</code>
                </td>
                <td className="muted">••••••••</td>
                <td className="muted">updated {formatTime(v.updatedAt)}</td>
                {editing ? <ConfirmCell label="Delete" onConfirm={() => remove.mutate(v.name)} /> : <td />}
              </tr>
            ))}
          </Table>
        )}
      </QueryView>
    </section>
  );
}

function Workspaces() {
  const { workspaces, selectWorkspace } = useWorkspace();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => answer(api.POST('/api/v1/workspaces', { body: { name: name.trim() } })),
    onSuccess: async ({ data }) => {
      setName('');
      await reloadSession();
      selectWorkspace(data.id);
    },
  });
  return (
    <section className="card">
      <h3>Workspaces</h3>
      <ul>
        {workspaces.map((w) => (
          <li key={w.id}>
            {w.name} <span className="muted small">({w.role}, plan {w.plan})</span>
          </li>
        ))}
      </ul>
      <InlineForm onSubmit={() => name.trim() && create.mutate()}>
        <input aria-label="Workspace name" placeholder="New workspace" value={name} onChange={(e) => setName(e.target.value)} />
        <button className="btn" type="submit" disabled={create.isPending || !name.trim()}>
          Create workspace
        </button>
      </InlineForm>
      <ErrorBox error={create.error} />
    </section>
  );
}
