// The workspace's stored credentials (docs/api.md "Credentials"): what blocks name by `credentialId` instead of carrying
// passwords. Secrets are write-only: the list shows the non-secret fields and which secrets are set; the edit form
// never fills a secret in, and sends only what changed (rotating a password sends just the password). Editors create,
// test, rotate, rename and delete; viewers see the list.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { answer, api } from '../api';
import { Badge, ConfirmCell, ErrorBox, formatTime, QueryView, Table } from '../components/ui';
import {
  CREDENTIAL_TYPES,
  credentialFields,
  dataFromForm,
  HTTP_SCHEMES,
  type CredentialField,
  type CredentialType,
  type HttpScheme,
} from '../credential-fields';
import { useCredentialList } from '../queries';
import { canEdit } from '../roles';
import { useWorkspace } from '../session';
import type { Credential, CredentialTest } from '../types';

export const CREDENTIALS_VIEWER_HINT = 'Viewers see the credentials but cannot create, test, change or delete them. Ask a workspace owner or admin for the editor role.';

export function CredentialsPage() {
  const { workspace } = useWorkspace();
  const editor = canEdit(workspace.role);
  const [editing, setEditing] = useState<Credential | 'new' | null>(null);
  return (
    <div className="page narrow">
      <h1>Credentials · {workspace.name}</h1>
      <p className="small muted">
        Connection secrets that blocks use by name (the API block&apos;s Credential, database, Redis, publish and email blocks). Secret values are never shown
        again once saved; workflow exports keep only the credential&apos;s name.
      </p>
      {!editor && (
        <p className="muted small" data-testid="credentials-hint">
          {CREDENTIALS_VIEWER_HINT}
        </p>
      )}
      {editor && editing === null && (
        <button className="btn primary" onClick={() => setEditing('new')}>
          New credential
        </button>
      )}
      {editor && editing !== null && (
        <CredentialForm key={editing === 'new' ? 'new' : editing.id} workspaceId={workspace.id} existing={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} />
      )}
      <CredentialList workspaceId={workspace.id} editor={editor} onEdit={setEditing} />
    </div>
  );
}

function CredentialList({ workspaceId, editor, onEdit }: { workspaceId: string; editor: boolean; onEdit: (credential: Credential) => void }) {
  const client = useQueryClient();
  const credentials = useCredentialList(workspaceId);
  const [tested, setTested] = useState<Record<string, CredentialTest>>({});
  const test = useMutation({
    mutationFn: (credentialId: string) =>
      answer(api.POST('/api/v1/credentials/{credentialId}/test', { params: { path: { credentialId } } })).then((r) => ({ credentialId, result: r.data })),
    onSuccess: ({ credentialId, result }) => setTested((all) => ({ ...all, [credentialId]: result })),
  });
  const remove = useMutation({
    mutationFn: (credentialId: string) => answer(api.DELETE('/api/v1/credentials/{credentialId}', { params: { path: { credentialId } } })),
    onSettled: () => void client.invalidateQueries({ queryKey: ['credentials', workspaceId] }),
  });
  return (
    <section className="card" data-testid="credentials">
      <h3>Stored credentials</h3>
      <ErrorBox error={test.error ?? remove.error} />
      <QueryView query={credentials} what="credentials" empty="No credentials yet.">
        {(list) => (
          <Table columns={editor ? ['Name', 'Type', 'Settings', 'Secrets', 'Changed', '', ''] : ['Name', 'Type', 'Settings', 'Secrets', 'Changed']}>
            {list.map((credential) => {
              const result = tested[credential.id];
              return (
                <tr key={credential.id} data-testid="credential-row">
                  <td>{credential.name}</td>
                  <td>
                    <Badge tone="info">{credential.type}</Badge>
                  </td>
                  <td className="small">
                    <FieldSummary fields={credential.fields} />
                    {result && (
                      <div data-testid="credential-test-result" className={result.ok ? 'small' : 'small error-text'}>
                        <Badge tone={result.ok ? 'ok' : 'error'}>{result.ok ? 'ok' : 'failed'}</Badge> {result.message}
                      </div>
                    )}
                  </td>
                  <td className="small">{credential.secretsSet.length > 0 ? credential.secretsSet.map((s) => `${s} set`).join(', ') : 'none'}</td>
                  <td className="muted small">
                    {formatTime(credential.updatedAt)} (v{credential.version})
                  </td>
                  {editor && (
                    <td className="actions">
                      <button className="btn small" disabled={test.isPending && test.variables === credential.id} onClick={() => test.mutate(credential.id)}>
                        {test.isPending && test.variables === credential.id ? 'Testing…' : 'Test'}
                      </button>{' '}
                      <button className="btn small" onClick={() => onEdit(credential)}>
                        Edit
                      </button>
                    </td>
                  )}
                  {editor && <ConfirmCell label="Delete" confirmLabel={`Delete ${credential.name}`} onConfirm={() => remove.mutate(credential.id)} />}
                </tr>
              );
            })}
          </Table>
        )}
      </QueryView>
    </section>
  );
}

function FieldSummary({ fields }: { fields: Record<string, unknown> }) {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined && value !== null && value !== '');
  if (entries.length === 0) return <span className="muted">—</span>;
  return (
    <span data-testid="credential-fields">
      {entries.map(([key, value], index) => (
        <span key={key}>
          {index > 0 && ', '}
          {key}: <code>{String(value)}</code>
        </span>
      ))}
    </span>
  );
}

type FormValues = Record<string, string | boolean>;

/** The stored non-secret fields as form values; secrets always start empty. */
function initialValues(existing: Credential | undefined): FormValues {
  const values: FormValues = {};
  for (const [key, value] of Object.entries(existing?.fields ?? {})) {
    if (typeof value === 'boolean') values[key] = value;
    else if (value !== undefined && value !== null) values[key] = String(value);
  }
  return values;
}

/**
 * What a PATCH sends for an edit: the fields whose value changed (a cleared optional field as null, which removes it)
 * and the secrets typed; a changed http scheme sends the whole new data, since the scheme's fields differ.
 */
function changedData(fields: readonly CredentialField[], values: FormValues, existing: Credential, scheme: HttpScheme | undefined) {
  const full = dataFromForm(fields, values);
  if (scheme !== undefined && scheme !== existing.fields.scheme) return { scheme, ...full };
  const changed: Record<string, unknown> = {};
  for (const field of fields) {
    const before = existing.fields[field.key];
    const after = full[field.key];
    if (field.kind === 'secret') {
      if (after !== undefined) changed[field.key] = after;
    } else if (field.kind === 'checkbox') {
      if ((before === true) !== (after === true)) changed[field.key] = after === true;
    } else if (after === undefined) {
      if (before !== undefined) changed[field.key] = null;
    } else if (String(after) !== String(before)) changed[field.key] = after;
  }
  return changed;
}

function CredentialForm({ workspaceId, existing, onDone }: { workspaceId: string; existing?: Credential; onDone: () => void }) {
  const client = useQueryClient();
  const [name, setName] = useState(existing?.name ?? '');
  const [type, setType] = useState<CredentialType>(existing?.type ?? 'http');
  const [scheme, setScheme] = useState<HttpScheme>((existing?.fields.scheme as HttpScheme | undefined) ?? 'bearer');
  const [values, setValues] = useState<FormValues>(() => initialValues(existing));
  const fields = credentialFields(type, scheme);
  const save = useMutation({
    mutationFn: async () => {
      if (!existing) {
        const data = dataFromForm(fields, values);
        return answer(api.POST('/api/v1/credentials', { body: { workspaceId, name: name.trim(), type, data: type === 'http' ? { scheme, ...data } : data } }));
      }
      const data = changedData(fields, values, existing, type === 'http' ? scheme : undefined);
      const body = {
        ...(name.trim() !== existing.name ? { name: name.trim() } : {}),
        ...(Object.keys(data).length > 0 ? { data } : {}),
      };
      if (Object.keys(body).length === 0) return null;
      return answer(api.PATCH('/api/v1/credentials/{credentialId}', { params: { path: { credentialId: existing.id } }, body }));
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['credentials', workspaceId] });
      onDone();
    },
  });
  const set = (key: string, value: string | boolean) => setValues((all) => ({ ...all, [key]: value }));
  return (
    <section className="card" data-testid="credential-form">
      <h3>{existing ? `Edit ${existing.name}` : 'New credential'}</h3>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim()) save.mutate();
        }}
      >
        <label className="field">
          <span>Name</span>
          <input aria-label="Credential name" value={name} placeholder="Orders DB" onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span>Type</span>
          <select aria-label="Credential type" value={type} disabled={existing !== undefined} onChange={(e) => setType(e.target.value as CredentialType)}>
            {CREDENTIAL_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        {type === 'http' && (
          <label className="field">
            <span>Scheme</span>
            <select aria-label="Scheme" value={scheme} onChange={(e) => setScheme(e.target.value as HttpScheme)}>
              {HTTP_SCHEMES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
        )}
        {fields.map((field) => {
          const stored = existing?.secretsSet.includes(field.key) && (type !== 'http' || scheme === existing.fields.scheme);
          if (field.kind === 'checkbox') {
            return (
              <label key={field.key} className="field checkbox">
                <input type="checkbox" aria-label={field.label} checked={values[field.key] === true} onChange={(e) => set(field.key, e.target.checked)} /> {field.label}
              </label>
            );
          }
          return (
            <label key={field.key} className="field">
              <span>
                {field.label}
                {field.required && !stored ? ' *' : ''}
              </span>
              <input
                aria-label={field.label}
                type={field.kind === 'secret' ? 'password' : field.kind === 'number' ? 'number' : 'text'}
                autoComplete={field.kind === 'secret' ? 'new-password' : 'off'}
                value={typeof values[field.key] === 'string' ? (values[field.key] as string) : ''}
                placeholder={field.kind === 'secret' && stored ? 'set: leave empty to keep it' : field.placeholder}
                onChange={(e) => set(field.key, e.target.value)}
              />
            </label>
          );
        })}
        <ErrorBox error={save.error} />
        <div className="row">
          <button className="btn primary" type="submit" disabled={save.isPending || !name.trim()}>
            {existing ? 'Save changes' : 'Save credential'}
          </button>{' '}
          <button className="btn ghost" type="button" onClick={onDone}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
