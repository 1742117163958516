// The agent block's tools (issue 25): one small form per entry — a workflow of the workspace, an HTTP request, a
// function, or an MCP server whose tools are listed from the server and ticked into `include`.
import { useState } from 'react';
import { answer, api, errorMessage } from '../api';
import { useWorkspace } from '../session';
import { CodeField } from './CodeField';
import { RefInput } from './RefInput';
import { CredentialSelect, JsonField, WorkflowSelect } from './shared-fields';

type Tool = Record<string, unknown> & { type: string };
type ToolType = 'workflow' | 'http' | 'function' | 'mcp';

const EMPTY_PARAMETERS = { type: 'object', properties: {} };

const NEW_TOOL: Record<ToolType, () => Tool> = {
  workflow: () => ({ type: 'workflow', workflowId: '' }),
  http: () => ({ type: 'http', name: '', description: '', parameters: EMPTY_PARAMETERS, request: { url: '', method: 'GET' } }),
  function: () => ({ type: 'function', name: '', description: '', parameters: EMPTY_PARAMETERS, code: 'return args;' }),
  mcp: () => ({ type: 'mcp', url: '' }),
};

const ADD_LABELS: Record<ToolType, string> = {
  workflow: '+ Workflow tool',
  http: '+ HTTP tool',
  function: '+ Function tool',
  mcp: '+ MCP server',
};

const TYPE_LABELS: Record<string, string> = { workflow: 'Workflow', http: 'HTTP request', function: 'Function', mcp: 'MCP server' };

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const capitalized = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Drops a key whose value is blank, so the saved entry holds only what was chosen. */
function withOptional(tool: Tool, key: string, value: string): Tool {
  const next = { ...tool };
  if (value === '') delete next[key];
  else next[key] = value;
  return next;
}

let nextKey = 0;
const newKey = () => `tool-${++nextKey}`;

export function ToolsField({ value, workflowId, onChange }: { value: unknown; workflowId?: string; onChange: (value: unknown) => void }) {
  const tools = Array.isArray(value) ? (value as Tool[]) : [];
  // Stable keys per entry, so removing one does not hand its neighbour's local state (listed tools, typed JSON) on.
  const [keys, setKeys] = useState<string[]>(() => tools.map(newKey));
  const shown = keys.length === tools.length ? keys : tools.map((_, i) => keys[i] ?? newKey());
  if (shown !== keys) setKeys(shown);
  const set = (index: number, tool: Tool) => onChange(tools.map((t, i) => (i === index ? tool : t)));
  const remove = (index: number) => {
    setKeys(shown.filter((_, i) => i !== index));
    const next = tools.filter((_, i) => i !== index);
    onChange(next.length > 0 ? next : undefined);
  };
  const add = (type: ToolType) => {
    setKeys([...shown, newKey()]);
    onChange([...tools, NEW_TOOL[type]()]);
  };
  return (
    <div className="tools" data-testid="agent-tools">
      {tools.length === 0 && <div className="muted tiny">No tools: the model answers in one call.</div>}
      {tools.map((tool, index) => {
        const label = `Tool ${index + 1}`;
        return (
          <fieldset className="tool" key={shown[index]} aria-label={label}>
            <legend className="row gap">
              <strong>
                {label} · {TYPE_LABELS[tool.type] ?? tool.type}
              </strong>
              <button className="btn ghost small" aria-label={`Remove tool ${index + 1}`} onClick={() => remove(index)}>
                ✕
              </button>
            </legend>
            {tool.type === 'workflow' && <WorkflowTool label={label} tool={tool} exclude={workflowId} onChange={(t) => set(index, t)} />}
            {tool.type === 'http' && <HttpTool label={label} tool={tool} onChange={(t) => set(index, t)} />}
            {tool.type === 'function' && <FunctionTool label={label} tool={tool} onChange={(t) => set(index, t)} />}
            {tool.type === 'mcp' && <McpTool label={label} tool={tool} onChange={(t) => set(index, t)} />}
            <ApprovalToggle label={label} tool={tool} onChange={(t) => set(index, t)} />
          </fieldset>
        );
      })}
      <div className="row gap wrap">
        {(Object.keys(ADD_LABELS) as ToolType[]).map((type) => (
          <button key={type} className="btn small" onClick={() => add(type)}>
            {ADD_LABELS[type]}
          </button>
        ))}
      </div>
    </div>
  );
}

/** `requiresApproval`: the run pauses before each call of the tool until a person approves or rejects it. */
function ApprovalToggle({ label, tool, onChange }: { label: string; tool: Tool; onChange: (tool: Tool) => void }) {
  const on = tool.requiresApproval === true;
  const toggle = (checked: boolean) => {
    const { requiresApproval: _dropped, ...rest } = tool;
    onChange(checked ? { ...rest, type: tool.type, requiresApproval: true } : { ...rest, type: tool.type });
  };
  return (
    <label className="check small" title="The run pauses before each call until someone approves it on the Approvals page">
      <input type="checkbox" aria-label={`${label} needs approval`} checked={on} onChange={(e) => toggle(e.target.checked)} />
      Needs approval before each call{tool.type === 'mcp' ? ' (every tool of the server)' : ''}
    </label>
  );
}

function TextInput({ label, value, placeholder, onChange }: { label: string; value: string; placeholder?: string; onChange: (value: string) => void }) {
  return (
    <label className="field">
      <span>{capitalized(label.replace(/^Tool \d+ /, ''))}</span>
      <input aria-label={label} value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

function NameAndDescription({ label, tool, optional, onChange }: { label: string; tool: Tool; optional?: boolean; onChange: (tool: Tool) => void }) {
  const edit = (key: string, value: string) => onChange(optional ? withOptional(tool, key, value) : { ...tool, [key]: value });
  return (
    <>
      <TextInput label={`${label} name`} value={text(tool.name)} placeholder={optional ? "the workflow's name" : 'lookup_order'} onChange={(v) => edit('name', v)} />
      <TextInput label={`${label} description`} value={text(tool.description)} placeholder="What it does, for the model" onChange={(v) => edit('description', v)} />
    </>
  );
}

function WorkflowTool({ label, tool, exclude, onChange }: { label: string; tool: Tool; exclude?: string; onChange: (tool: Tool) => void }) {
  return (
    <>
      <div className="field">
        <span>Workflow</span>
        <WorkflowSelect label={`${label} workflow`} value={text(tool.workflowId)} exclude={exclude} onChange={(workflowId) => onChange({ ...tool, workflowId })} />
        <div className="muted tiny">Its Input Format is the tool's arguments; its response is the result.</div>
      </div>
      <NameAndDescription label={label} tool={tool} optional onChange={onChange} />
    </>
  );
}

function ParametersField({ label, tool, onChange }: { label: string; tool: Tool; onChange: (tool: Tool) => void }) {
  return (
    <div className="field">
      <span>Parameters (JSON Schema of the arguments)</span>
      <JsonField label={`${label} parameters`} value={tool.parameters} problems={[]} onChange={(parameters) => onChange({ ...tool, parameters })} />
    </div>
  );
}

function HttpTool({ label, tool, onChange }: { label: string; tool: Tool; onChange: (tool: Tool) => void }) {
  const request = (tool.request && typeof tool.request === 'object' ? tool.request : {}) as Record<string, unknown>;
  const setRequest = (patch: Record<string, unknown>) => {
    const next = { ...request, ...patch };
    for (const key of Object.keys(patch)) if (next[key] === undefined) delete next[key];
    onChange({ ...tool, request: next });
  };
  const method = text(request.method) || 'GET';
  return (
    <>
      <NameAndDescription label={label} tool={tool} onChange={onChange} />
      <ParametersField label={label} tool={tool} onChange={onChange} />
      <div className="field">
        <span>Request URL</span>
        <RefInput label={`${label} URL`} value={text(request.url)} placeholder="https://api.example.com/orders/<args.id>" onChange={(url) => setRequest({ url })} />
      </div>
      <label className="field">
        <span>Method</span>
        <select aria-label={`${label} method`} value={method} onChange={(e) => setRequest({ method: e.target.value })}>
          {METHODS.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
      </label>
      <div className="field">
        <span>Credential (its auth is added to every call; the model never sees it)</span>
        <CredentialSelect
          label={`${label} credential`}
          value={text(tool.credentialId)}
          types={['http']}
          onChange={(credentialId) => {
            const { credentialId: _old, ...rest } = tool;
            onChange(credentialId === '' ? { ...rest, type: tool.type } : { ...tool, credentialId });
          }}
        />
      </div>
      <RecordField label={`${label} headers`} title="Headers" value={request.headers} onChange={(headers) => setRequest({ headers })} />
      <RecordField label={`${label} query`} title="Query parameters" value={request.query} onChange={(query) => setRequest({ query })} />
      {['POST', 'PUT', 'PATCH'].includes(method) && (
        <div className="field">
          <span>Body (JSON)</span>
          <JsonField label={`${label} body`} value={request.body} problems={[]} onChange={(body) => setRequest({ body })} />
        </div>
      )}
      <div className="muted tiny">
        <code>&lt;args.name&gt;</code> in the request is filled with the model's argument <code>name</code>.
      </div>
    </>
  );
}

function FunctionTool({ label, tool, onChange }: { label: string; tool: Tool; onChange: (tool: Tool) => void }) {
  return (
    <>
      <NameAndDescription label={label} tool={tool} onChange={onChange} />
      <ParametersField label={label} tool={tool} onChange={onChange} />
      <div className="field">
        <span>Code (async function body; the arguments are args)</span>
        <CodeField label={`${label} code`} language="javascript" numbered value={text(tool.code)} problems={[]} onChange={(code) => onChange({ ...tool, code })} />
      </div>
    </>
  );
}

interface ListedTool {
  name: string;
  description: string;
}

function McpTool({ label, tool, onChange }: { label: string; tool: Tool; onChange: (tool: Tool) => void }) {
  const { workspace } = useWorkspace();
  const [listed, setListed] = useState<ListedTool[] | null>(null);
  const [listing, setListing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const url = text(tool.url);
  const headers = (tool.headers && typeof tool.headers === 'object' ? tool.headers : undefined) as Record<string, string> | undefined;
  const include = Array.isArray(tool.include) ? (tool.include as string[]) : undefined;
  const list = () => {
    setListing(true);
    setFailure(null);
    answer(api.POST('/api/v1/mcp/tools', { body: { workspaceId: workspace.id, url: url.trim(), ...(headers ? { headers } : {}) } }))
      .then((body) => setListed(body.data))
      .catch((error: unknown) => {
        setListed(null);
        setFailure(errorMessage(error));
      })
      .finally(() => setListing(false));
  };
  const toggle = (name: string, on: boolean) => {
    const next = on ? [...(include ?? []), name] : (include ?? []).filter((n) => n !== name);
    const { include: _dropped, ...rest } = tool;
    // No tool ticked means every tool of the server, so the entry then holds no include at all.
    onChange(next.length > 0 ? { ...rest, type: tool.type, include: next } : { ...rest, type: tool.type });
  };
  const kept = (include ?? []).filter((name) => listed && !listed.some((t) => t.name === name));
  return (
    <>
      <TextInput
        label={`${label} server URL`}
        value={url}
        placeholder="https://tools.example.com/mcp"
        onChange={(v) => {
          // A list from another server would tick names this one may not have.
          setListed(null);
          setFailure(null);
          onChange({ ...tool, url: v });
        }}
      />
      <RecordField
        label={`${label} server headers`}
        title="Headers (for example Authorization)"
        value={tool.headers}
        onChange={(h) => {
          const { headers: _dropped, ...rest } = tool;
          onChange(h === undefined ? { ...rest, type: tool.type } : { ...tool, headers: h as Record<string, string> });
        }}
      />
      <div className="row gap">
        <button className="btn small" disabled={listing || url.trim() === ''} onClick={list}>
          {listing ? 'Listing…' : 'List tools'}
        </button>
        {include && <span className="muted tiny">Offered: {include.join(', ')}</span>}
      </div>
      {failure && <div className="error-text small">{failure}</div>}
      {listed && (
        <div className="mcp-tools" role="group" aria-label={`${label} server tools`}>
          {listed.length === 0 && <div className="muted tiny">The server offers no tools.</div>}
          {listed.map((t) => (
            <label key={t.name} className="check small" title={t.description}>
              <input type="checkbox" checked={include?.includes(t.name) ?? false} onChange={(e) => toggle(t.name, e.target.checked)} />
              <code>{t.name}</code> <span className="muted">{t.description}</span>
            </label>
          ))}
          <div className="muted tiny">{include ? 'Only the ticked tools are offered to the model.' : 'None ticked: every tool of the server is offered.'}</div>
          {kept.length > 0 && <div className="muted tiny error-text">Not offered by the server now: {kept.join(', ')}</div>}
        </div>
      )}
    </>
  );
}

interface Row {
  key: string;
  value: string;
}

const rowsOf = (value: unknown): Row[] =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value as Record<string, unknown>).map(([key, v]) => ({ key, value: typeof v === 'string' ? v : JSON.stringify(v) }))
    : [];

/** Name → value rows saved as a record (an http tool's headers and query, an MCP server's headers); blank names stay in the form only. */
function RecordField({ label, title, value, onChange }: { label: string; title: string; value: unknown; onChange: (value: unknown) => void }) {
  const [rows, setRows] = useState<Row[]>(() => rowsOf(value));
  const [handedOver, setHandedOver] = useState(value);
  if (value !== handedOver) {
    setHandedOver(value);
    setRows(rowsOf(value));
  }
  const emit = (next: Row[]) => {
    setRows(next);
    const record: Record<string, string> = {};
    for (const row of next) if (row.key.trim()) record[row.key.trim()] = row.value;
    const out = Object.keys(record).length > 0 ? record : undefined;
    setHandedOver(out);
    onChange(out);
  };
  const set = (index: number, patch: Partial<Row>) => emit(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  return (
    <div className="field">
      <span>{title}</span>
      <div className="kv">
        {rows.map((row, index) => (
          <div className="kv-row" key={index}>
            <input aria-label={`${label} name ${index + 1}`} placeholder="name" value={row.key} onChange={(e) => set(index, { key: e.target.value })} />
            <input aria-label={`${label} value ${index + 1}`} placeholder="value" value={row.value} onChange={(e) => set(index, { value: e.target.value })} />
            <button className="btn ghost small" aria-label={`Remove ${label} ${index + 1}`} onClick={() => emit(rows.filter((_, i) => i !== index))}>
              ✕
            </button>
          </div>
        ))}
        <button className="btn small" aria-label={`Add ${label}`} onClick={() => emit([...rows, { key: '', value: '' }])}>
          + Add
        </button>
      </div>
    </div>
  );
}
