// The API block's OpenAPI operation (docs/api.md "Connectors (OpenAPI)"): a picker of the workspace's connectors and
// their operations, and, once one is picked, a field per parameter of the operation (typed from its schema) and its
// body. References (`<start.id>`) are kept as text in any field.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { answer, api, errorMessage } from '../api';
import { useWorkspace } from '../session';
import type { FieldProblem } from './problems';
import { RefInput } from './RefInput';
import { JsonField } from './shared-fields';

export interface OperationRef {
  connectorId: string;
  operationId: string;
}

type Schema = { type?: unknown; enum?: unknown[] } | undefined;

function useConnectors(workspaceId: string) {
  return useQuery({
    queryKey: ['connectors', workspaceId],
    queryFn: () => answer(api.GET('/api/v1/connectors', { params: { query: { workspaceId } } })).then((r) => r.data),
  });
}

function useConnector(connectorId: string) {
  return useQuery({
    queryKey: ['connector', connectorId],
    enabled: connectorId !== '',
    queryFn: () => answer(api.GET('/api/v1/connectors/{connectorId}', { params: { path: { connectorId } } })).then((r) => r.data),
  });
}

export function asOperationRef(value: unknown): OperationRef | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { connectorId, operationId } = value as Record<string, unknown>;
  return typeof connectorId === 'string' && typeof operationId === 'string' ? { connectorId, operationId } : undefined;
}

/** Connector, then operation; "none" gives the block back its own URL and method. */
export function OperationSelect({ value, onChange }: { value: unknown; onChange: (operation: OperationRef | undefined) => void }) {
  const { workspace } = useWorkspace();
  const current = asOperationRef(value);
  const [connectorId, setConnectorId] = useState(current?.connectorId ?? '');
  const shownConnector = current?.connectorId ?? connectorId;
  const connectors = useConnectors(workspace.id);
  const connector = useConnector(shownConnector);
  const knownConnector = !shownConnector || (connectors.data ?? []).some((c) => c.id === shownConnector);
  return (
    <>
      <select
        aria-label="Connector"
        value={shownConnector}
        disabled={connectors.isPending}
        onChange={(e) => {
          setConnectorId(e.target.value);
          if (current) onChange(undefined);
        }}
      >
        <option value="">{connectors.isPending ? 'Loading connectors…' : '— none: call a URL —'}</option>
        {(connectors.data ?? []).map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
        {!knownConnector && <option value={shownConnector}>{shownConnector} (not in this workspace)</option>}
      </select>
      {shownConnector && (
        <select
          aria-label="Operation"
          value={current?.operationId ?? ''}
          disabled={connector.isPending}
          onChange={(e) => onChange(e.target.value ? { connectorId: shownConnector, operationId: e.target.value } : undefined)}
        >
          <option value="">{connector.isPending ? 'Loading operations…' : '— choose an operation —'}</option>
          {(connector.data?.operations ?? []).map((op) => (
            <option key={op.operationId} value={op.operationId}>
              {op.method} {op.path} — {op.summary ?? op.operationId}
            </option>
          ))}
        </select>
      )}
      {(connectors.isError || connector.isError) && (
        <div className="muted tiny error-text">Could not load the connectors: {errorMessage(connectors.error ?? connector.error)}</div>
      )}
    </>
  );
}

const valueText = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** The text typed, as the parameter's schema types it; references and what does not parse stay text. */
function typedValue(schema: Schema, text: string): unknown {
  if (text.includes('<')) return text;
  const type = schema?.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if (type === 'array' || type === 'object') {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** One field per parameter of the picked operation (required ones marked), and its body. */
export function OperationParameters({
  operation,
  value,
  problems,
  onChange,
}: {
  operation: OperationRef;
  value: unknown;
  problems: FieldProblem[];
  onChange: (parameters: Record<string, unknown>) => void;
}) {
  const connector = useConnector(operation.connectorId);
  const parameters = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const op = connector.data?.operations.find((o) => o.operationId === operation.operationId);
  if (connector.isPending) return <div className="muted tiny">Loading the operation…</div>;
  if (!op) return <div className="muted tiny error-text">The connector has no operation {operation.operationId}</div>;
  const set = (name: string, next: unknown) => {
    const copy = { ...parameters };
    if (next === undefined || next === '') delete copy[name];
    else copy[name] = next;
    onChange(copy);
  };
  return (
    <div className="operation-parameters" data-testid="operation-parameters">
      {op.parameters.length === 0 && !op.requestBody && <div className="muted tiny">This operation takes no parameters.</div>}
      {op.parameters.map((p) => {
        const schema = p.schema as Schema;
        const label = `${p.name}${p.required ? ' *' : ''}`;
        return (
          <label className="field" key={`${p.in}:${p.name}`}>
            <span>
              {label} <span className="muted tiny">({p.in}{typeof schema?.type === 'string' ? `, ${schema.type}` : ''})</span>
            </span>
            <RefInput
              label={`Parameter ${p.name}`}
              value={valueText(parameters[p.name])}
              placeholder={Array.isArray(schema?.enum) ? schema.enum.map(String).join(' | ') : p.description}
              onChange={(text) => set(p.name, typedValue(schema, text))}
            />
          </label>
        );
      })}
      {op.requestBody && (
        <div className="field">
          <span>
            body{op.requestBody.required ? ' *' : ''} <span className="muted tiny">({op.requestBody.contentType})</span>
          </span>
          <JsonField label="Request body" value={parameters.body} problems={problems} onChange={(next) => set('body', next)} />
        </div>
      )}
    </div>
  );
}
