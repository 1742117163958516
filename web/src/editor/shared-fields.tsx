// Form controls shared by the block form (ConfigPanel.tsx) and the agent block's tool entries (ToolsField.tsx).
import { useState } from 'react';
import { errorMessage } from '../api';
import { useCredentialList, useWorkflowList } from '../queries';
import { Link } from '../router';
import { useWorkspace } from '../session';
import { CodeField } from './CodeField';
import type { FieldProblem } from './problems';

/**
 * JSON when the text parses, otherwise the text itself (so `<api.data>` or a half-typed object still saves); text that
 * starts like JSON but does not parse is marked where it goes wrong (field-problems.ts).
 */
export function JsonField({ label, value, problems, onChange }: { label: string; value: unknown; problems: FieldProblem[]; onChange: (value: unknown) => void }) {
  const [text, setText] = useState(() => jsonText(value));
  // The value this field last handed over: another one came from the workflow (its undo, a rename) and is shown.
  const [handedOver, setHandedOver] = useState(value);
  if (value !== handedOver) {
    setHandedOver(value);
    setText(jsonText(value));
  }
  return (
    <CodeField
      label={label}
      language="json"
      value={text}
      problems={problems}
      onChange={(next) => {
        setText(next);
        let parsed: unknown = next;
        if (next.trim() === '') parsed = undefined;
        else {
          try {
            parsed = JSON.parse(next);
          } catch {
            // Kept as the text typed.
          }
        }
        setHandedOver(parsed);
        onChange(parsed);
      }}
    />
  );
}

const jsonText = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** The workspace's workflows but this one, by name; one not (or no longer) in the list stays shown by its id. */
export function WorkflowSelect({ label, value, exclude, onChange }: { label: string; value: string; exclude?: string; onChange: (value: string) => void }) {
  const { workspace } = useWorkspace();
  const workflows = useWorkflowList(workspace.id);
  const choices = (workflows.data ?? []).filter((w) => w.id !== exclude);
  const known = !value || choices.some((w) => w.id === value);
  return (
    <>
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} disabled={workflows.isPending}>
        <option value="">{workflows.isPending ? 'Loading workflows…' : '— choose a workflow —'}</option>
        {choices.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
            {w.isDeployed ? '' : ' (not deployed)'}
          </option>
        ))}
        {!known && <option value={value}>{value} (not in this workspace)</option>}
      </select>
      {workflows.isError && <div className="muted tiny error-text">Could not load the workflows: {errorMessage(workflows.error)}</div>}
      {value && (
        <div className="muted tiny">
          <code>{value}</code>
        </div>
      )}
    </>
  );
}

/**
 * A select of the workspace's stored credentials of the accepted types (a block field of kind `credential`), saved as
 * the credential's id; none is a valid choice (the field is optional where a block allows it).
 */
export function CredentialSelect({ label, value, types, onChange }: { label: string; value: string; types?: readonly string[]; onChange: (value: string) => void }) {
  const { workspace } = useWorkspace();
  const credentials = useCredentialList(workspace.id);
  const choices = (credentials.data ?? []).filter((c) => !types || types.length === 0 || types.includes(c.type));
  const known = !value || choices.some((c) => c.id === value);
  return (
    <>
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} disabled={credentials.isPending}>
        <option value="">{credentials.isPending ? 'Loading credentials…' : '— none —'}</option>
        {choices.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name} ({c.type})
          </option>
        ))}
        {!known && <option value={value}>{value} (not a {types?.join(' or ') ?? ''} credential of this workspace)</option>}
      </select>
      {credentials.isError && <div className="muted tiny error-text">Could not load the credentials: {errorMessage(credentials.error)}</div>}
      {credentials.isSuccess && choices.length === 0 && (
        <div className="muted tiny">
          No {types?.join(' or ')} credential yet: add one on the <Link to="/credentials">Credentials</Link> page.
        </div>
      )}
    </>
  );
}
