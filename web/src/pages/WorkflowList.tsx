import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { answer, api, ApiError } from '../api';
import { InlineForm, NamedSelect } from '../components/fields';
import { Badge, ConfirmButton, ConfirmCell, ErrorBox, formatTime, QueryView, Table } from '../components/ui';
import { starterState } from '../editor/starter';
import { useCredentialList, useWorkflowList } from '../queries';
import { canEdit, VIEWER_HINT } from '../roles';
import { Link, navigate, useLocation } from '../router';
import { useWorkspace } from '../session';
import type { Workflow } from '../types';

interface ImportRequest {
  document: unknown;
  name?: string;
  /** The document's credential names → credentials of this workspace (asked for when the import answers 400). */
  credentials?: Record<string, string>;
}

/** Asks which of this workspace's credentials stand for the ones an imported workflow names and none matched. */
function CredentialMapping({ workspaceId, names, onImport }: { workspaceId: string; names: string[]; onImport: (credentials: Record<string, string>) => void }) {
  const credentials = useCredentialList(workspaceId);
  const [chosen, setChosen] = useState<Record<string, string>>({});
  return (
    <div className="card" data-testid="credential-mapping">
      <p className="small">The workflow uses stored credentials this workspace has none of by that name. Pick the credential to use for each:</p>
      {names.map((name) => (
        <label key={name} className="field">
          <span>{name}</span>
          <NamedSelect
            label={`Credential for ${name}`}
            items={credentials.data?.map((c) => ({ id: c.id, name: `${c.name} (${c.type})` }))}
            value={chosen[name] ?? ''}
            none="— choose —"
            onChange={(id) => setChosen((all) => ({ ...all, [name]: id }))}
          />
        </label>
      ))}
      <button className="btn primary small" disabled={names.some((n) => !chosen[n])} onClick={() => onImport(chosen)}>
        Import with these credentials
      </button>
    </div>
  );
}

export function WorkflowListPage() {
  const { workspace } = useWorkspace();
  const { search } = useLocation();
  const folderId = search.get('folder');
  const client = useQueryClient();
  // A viewer's list offers no changes (the server would refuse them); renaming still asks it and shows its answer.
  const editing = canEdit(workspace.role);

  const folders = useQuery({
    queryKey: ['folders', workspace.id],
    queryFn: () => answer(api.GET('/api/v1/folders', { params: { query: { workspaceId: workspace.id } } })).then((r) => r.data),
  });
  const workflows = useWorkflowList(workspace.id);
  const invalidate = () => {
    void client.invalidateQueries({ queryKey: ['workflows', workspace.id] });
    void client.invalidateQueries({ queryKey: ['folders', workspace.id] });
  };

  const [newName, setNewName] = useState('');
  const create = useMutation({
    mutationFn: (name: string) =>
      answer(api.POST('/api/v1/workflows', { body: { workspaceId: workspace.id, name, folderId: folderId ?? null, state: starterState() } })),
    onSuccess: ({ data }) => {
      invalidate();
      navigate(`/workflows/${data.id}`);
    },
  });
  const update = useMutation({
    mutationFn: ({ id, ...patch }: { id: string; name?: string; folderId?: string | null }) =>
      answer(api.PATCH('/api/v1/workflows/{workflowId}', { params: { path: { workflowId: id } }, body: patch })),
    onSuccess: invalidate,
  });
  const remove = useMutation({
    mutationFn: (id: string) => answer(api.DELETE('/api/v1/workflows/{workflowId}', { params: { path: { workflowId: id } } })),
    onSuccess: invalidate,
  });

  // Export / import / duplicate: the export document of the API (README "Export and import"), as a file or a copy.
  const exportDocument = (id: string) =>
    answer(api.GET('/api/v1/workflows/{workflowId}/export', { params: { path: { workflowId: id } } })).then((r) => r.data);
  const importDocument = useMutation({
    mutationFn: ({ document, name, credentials }: ImportRequest) =>
      answer(
        api.POST('/api/v1/workflows/import', {
          body: { workspaceId: workspace.id, document, folderId: folderId ?? null, ...(name ? { name } : {}), ...(credentials ? { credentials } : {}) },
        }),
      ),
    onSuccess: ({ data, missingEnvironment }) => {
      invalidate();
      setImported(missingEnvironment.length > 0 ? `“${data.name}” needs these environment variables: ${missingEnvironment.join(', ')}` : null);
    },
  });
  const [imported, setImported] = useState<string | null>(null);
  const download = async (w: Pick<Workflow, 'id' | 'name'>) => {
    const document = await exportDocument(w.id);
    const url = URL.createObjectURL(new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' }));
    const link = Object.assign(window.document.createElement('a'), { href: url, download: `${w.name.replace(/[^\w.-]+/g, '-')}.workflow.json` });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  };
  const duplicate = async (w: Pick<Workflow, 'id' | 'name'>) => importDocument.mutate({ document: await exportDocument(w.id), name: `${w.name} (copy)`.slice(0, 200) });
  const upload = async (file: File) => {
    let document: unknown;
    try {
      document = JSON.parse(await file.text());
    } catch {
      return setImported(`${file.name} is not a JSON file (export one with “Export”).`);
    }
    importDocument.mutate({ document });
  };

  const [folderName, setFolderName] = useState('');
  const createFolder = useMutation({
    mutationFn: (name: string) => answer(api.POST('/api/v1/folders', { body: { workspaceId: workspace.id, name } })),
    onSuccess: () => {
      setFolderName('');
      invalidate();
    },
  });
  const renameFolder = useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      answer(api.PATCH('/api/v1/folders/{folderId}', { params: { path: { folderId: id } }, body: { name } })),
    onSuccess: invalidate,
  });
  const deleteFolder = useMutation({
    mutationFn: (id: string) => answer(api.DELETE('/api/v1/folders/{folderId}', { params: { path: { folderId: id } } })),
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
        {editing && (
          <InlineForm onSubmit={() => folderName.trim() && createFolder.mutate(folderName.trim())}>
            <input placeholder="New folder" value={folderName} onChange={(e) => setFolderName(e.target.value)} aria-label="New folder name" />
            <button className="btn small" type="submit" disabled={createFolder.isPending}>
              Add
            </button>
          </InlineForm>
        )}
        <ErrorBox error={createFolder.error} />
      </aside>
      <section className="main-col">
        <div className="page-head">
          <h1>
            {currentFolder ? (
              <EditableText
                value={currentFolder.name}
                label="Folder name"
                readOnly={!editing}
                onSave={(name) => renameFolder.mutate({ id: currentFolder.id, name })}
              />
            ) : (
              'Workflows'
            )}
          </h1>
          {currentFolder && editing && (
            <ConfirmButton confirmLabel="Delete folder" onConfirm={() => deleteFolder.mutate(currentFolder.id)}>
              Delete folder
            </ConfirmButton>
          )}
          {editing ? (
            <>
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
              <label className="btn" title="Import a workflow from an exported .json file">
                Import…
                <input
                  type="file"
                  accept="application/json,.json"
                  aria-label="Import workflow file"
                  hidden
                  onChange={(e) => {
                    const file = e.target.files?.[0];
                    e.target.value = '';
                    if (file) void upload(file);
                  }}
                />
              </label>
            </>
          ) : (
            <p className="muted small grow-right" data-testid="viewer-hint">
              {VIEWER_HINT}
            </p>
          )}
        </div>
        {imported && <div className="banner warn" role="status">{imported}</div>}
        <ErrorBox error={create.error ?? update.error ?? remove.error ?? renameFolder.error ?? deleteFolder.error ?? importDocument.error} />
        {importDocument.error instanceof ApiError && importDocument.error.code === 'CREDENTIALS_UNMAPPED' && importDocument.variables && (
          <CredentialMapping
            workspaceId={workspace.id}
            names={importDocument.error.details.map((d) => d.path.replace(/^credentials\./, ''))}
            onImport={(credentials) => importDocument.mutate({ ...importDocument.variables, credentials: { ...importDocument.variables.credentials, ...credentials } })}
          />
        )}
        <QueryView
          query={workflows}
          what="workflows"
          retry
          list={visible}
          empty="No workflows here yet. Give one a name above and press “New workflow”."
        >
          <Table columns={['Name', 'Status', 'Folder', 'Updated', '', '']}>
            {visible.map((w) => (
              <tr key={w.id} data-testid="workflow-row">
                <td>
                  <EditableText
                    value={w.name}
                    label="Workflow name"
                    link={`/workflows/${w.id}`}
                    readOnly={!editing}
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
                    disabled={!editing}
                    onChange={(folderId) => update.mutate({ id: w.id, folderId: folderId || null })}
                  />
                </td>
                <td className="muted">{formatTime(w.updatedAt)}</td>
                <td className="row gap">
                  <button className="btn small ghost" onClick={() => void download(w)} aria-label={`Export ${w.name}`}>
                    Export
                  </button>
                  {editing && (
                    <button className="btn small ghost" onClick={() => void duplicate(w)} aria-label={`Duplicate ${w.name}`} disabled={importDocument.isPending}>
                      Duplicate
                    </button>
                  )}
                </td>
                {editing ? <ConfirmCell label="Delete" onConfirm={() => remove.mutate(w.id)} /> : <td />}
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
  readOnly = false,
}: {
  value: string;
  onSave: (value: string) => void;
  label: string;
  link?: string;
  /** A viewer's: the text without its Rename button (the server would refuse the rename). */
  readOnly?: boolean;
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
      {!readOnly && (
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
      )}
    </span>
  );
}
