import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { InlineForm, NamedSelect } from '../components/fields';
import { Badge, ConfirmButton, ConfirmCell, ErrorBox, formatTime, QueryView, Table } from '../components/ui';
import { starterState } from '../editor/catalog';
import { useWorkflowList } from '../queries';
import { Link, navigate, useLocation } from '../router';
import { useWorkspace } from '../session';
import type { Folder, Workflow } from '../types';

export function WorkflowListPage() {
  const { workspace } = useWorkspace();
  const { search } = useLocation();
  const folderId = search.get('folder');
  const client = useQueryClient();

  const folders = useQuery({
    queryKey: ['folders', workspace.id],
    queryFn: () => api<{ data: Folder[] }>(`/api/v1/folders?workspaceId=${workspace.id}`).then((r) => r.data),
  });
  const workflows = useWorkflowList(workspace.id);
  const invalidate = () => {
    void client.invalidateQueries({ queryKey: ['workflows', workspace.id] });
    void client.invalidateQueries({ queryKey: ['folders', workspace.id] });
  };

  const [newName, setNewName] = useState('');
  const create = useMutation({
    mutationFn: (name: string) =>
      api<{ data: Workflow }>('/api/v1/workflows', {
        method: 'POST',
        body: { workspaceId: workspace.id, name, folderId: folderId ?? null, state: starterState() },
      }),
    onSuccess: ({ data }) => {
      invalidate();
      navigate(`/workflows/${data.id}`);
    },
  });
  const update = useMutation({
    mutationFn: ({ id, ...patch }: { id: string; name?: string; folderId?: string | null }) =>
      api(`/api/v1/workflows/${id}`, { method: 'PATCH', body: patch }),
    onSuccess: invalidate,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/api/v1/workflows/${id}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });

  const [folderName, setFolderName] = useState('');
  const createFolder = useMutation({
    mutationFn: (name: string) => api('/api/v1/folders', { method: 'POST', body: { workspaceId: workspace.id, name } }),
    onSuccess: () => {
      setFolderName('');
      invalidate();
    },
  });
  const renameFolder = useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => api(`/api/v1/folders/${id}`, { method: 'PATCH', body: { name } }),
    onSuccess: invalidate,
  });
  const deleteFolder = useMutation({
    mutationFn: (id: string) => api(`/api/v1/folders/${id}`, { method: 'DELETE' }),
    onSuccess: () => {
      navigate('/workflows');
      invalidate();
    },
  });

  const visible = (workflows.data ?? []).filter((w) => !folderId || w.folderId === folderId);
  const currentFolder = folders.data?.find((f) => f.id === folderId);

  return (
    <div className="page with-sidebar">
      <aside className="sidebar">
        <h3>Folders</h3>
        <ul className="folder-list">
          <li>
            <Link to="/workflows" className={!folderId ? 'active' : ''}>
              All workflows
            </Link>
          </li>
          {folders.data?.map((f) => (
            <li key={f.id}>
              <Link to={`/workflows?folder=${f.id}`} className={folderId === f.id ? 'active' : ''}>
                {f.name}
              </Link>
            </li>
          ))}
        </ul>
        <InlineForm onSubmit={() => folderName.trim() && createFolder.mutate(folderName.trim())}>
          <input placeholder="New folder" value={folderName} onChange={(e) => setFolderName(e.target.value)} aria-label="New folder name" />
          <button className="btn small" type="submit" disabled={createFolder.isPending}>
            Add
          </button>
        </InlineForm>
        <ErrorBox error={createFolder.error} />
      </aside>
      <section className="main-col">
        <div className="page-head">
          <h1>
            {currentFolder ? (
              <EditableText
                value={currentFolder.name}
                label="Folder name"
                onSave={(name) => renameFolder.mutate({ id: currentFolder.id, name })}
              />
            ) : (
              'Workflows'
            )}
          </h1>
          {currentFolder && (
            <ConfirmButton confirmLabel="Delete folder" onConfirm={() => deleteFolder.mutate(currentFolder.id)}>
              Delete folder
            </ConfirmButton>
          )}
          <InlineForm className="grow-right" onSubmit={() => create.mutate(newName.trim() || 'Untitled workflow')}>
            <input
              placeholder="Workflow name"
              value={newName}
              onChange={(e) => setNewName(e.target.value)}
              aria-label="New workflow name"
            />
            <button className="btn primary" type="submit" disabled={create.isPending}>
              New workflow
            </button>
          </InlineForm>
        </div>
        <ErrorBox error={create.error ?? update.error ?? remove.error ?? renameFolder.error ?? deleteFolder.error} />
        <QueryView
          query={workflows}
          what="workflows"
          retry
          list={visible}
          empty="No workflows here yet. Give one a name above and press “New workflow”."
        >
          <Table columns={['Name', 'Status', 'Folder', 'Updated', '']}>
            {visible.map((w) => (
              <tr key={w.id} data-testid="workflow-row">
                <td>
                  <EditableText
                    value={w.name}
                    label="Workflow name"
                    link={`/workflows/${w.id}`}
                    onSave={(name) => update.mutate({ id: w.id, name })}
                  />
                </td>
                <td>{w.isDeployed ? <Badge tone="ok">Deployed v{w.activeVersion}</Badge> : <Badge tone="muted">Draft</Badge>}</td>
                <td>
                  <NamedSelect
                    label="Folder"
                    items={folders.data}
                    none="—"
                    value={w.folderId ?? ''}
                    onChange={(folderId) => update.mutate({ id: w.id, folderId: folderId || null })}
                  />
                </td>
                <td className="muted">{formatTime(w.updatedAt)}</td>
                <ConfirmCell label="Delete" onConfirm={() => remove.mutate(w.id)} />
              </tr>
            ))}
          </Table>
        </QueryView>
      </section>
    </div>
  );
}

/** Text that turns into an input on "Rename"; Enter saves, Escape cancels. */
export function EditableText({
  value,
  onSave,
  label,
  link,
}: {
  value: string;
  onSave: (value: string) => void;
  label: string;
  link?: string;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  if (editing) {
    return (
      <InlineForm
        onSubmit={() => {
          setEditing(false);
          if (draft.trim() && draft.trim() !== value) onSave(draft.trim());
        }}
      >
        <input
          autoFocus
          aria-label={label}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => e.key === 'Escape' && setEditing(false)}
        />
        <button className="btn small" type="submit">
          Save
        </button>
      </InlineForm>
    );
  }
  return (
    <span className="editable">
      {link ? <Link to={link}>{value}</Link> : value}
      <button
        className="btn ghost small"
        title={`Rename`}
        onClick={() => {
          setDraft(value);
          setEditing(true);
        }}
      >
        Rename
      </button>
    </span>
  );
}
