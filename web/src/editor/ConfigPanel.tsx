// The form of the selected block, generated from its field list in catalog.ts, and the block's policy (retries,
// time limit, failure handling), which every block type has beside its config.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { readWorkflow, useCredentialList } from '../queries';
import { useWorkspace } from '../session';
import type { BlockPolicy } from '../types';
import { INPUT_FIELD_TYPES, type InputField } from '../../../src/blocks/api-trigger.js';
import { canRetry, normalizeName, POLICY, specOf, type FieldSpec } from './catalog';
import { CodeField } from './CodeField';
import { canPin, isPinnableOutput } from './pins';
import { problemsUnder } from './field-problems';
import type { BlockData, Condition, FlowNode } from './model';
import { conditionTitle } from './nodes';
import type { FieldProblem } from './problems';
import { RefInput } from './RefInput';
import { asOperationRef, OperationParameters, OperationSelect } from './OperationFields';
import { CredentialSelect, JsonField, WorkflowSelect } from './shared-fields';
import { ToolsField } from './ToolsField';

type Config = Record<string, unknown>;

export interface ConfigPanelProps {
  node: FlowNode;
  /** The workflow being edited (left out of the workflow block's choices: a workflow cannot call itself). */
  workflowId?: string;
  problems: string[];
  /** The same problems where they lie in one of the block's settings, marked in that field. */
  fieldProblems: FieldProblem[];
  onChange: (patch: Partial<BlockData>, key: string) => void;
  /** The name as typed; the block's references follow it (one undo step until the field is left). */
  onRename: (name: string) => void;
  onRenameEnd: () => void;
  /** The block was just added from the keyboard: its name field takes the focus. */
  focusName?: boolean;
  onConditionsChange: (conditions: Condition[]) => void;
  onDelete: () => void;
  /** "Run from here": the last manual run again from this block (run-from-here.ts); undefined while a run is going. */
  onRunFromHere?: () => void;
}

const shortId = () => Math.random().toString(36).slice(2, 8);

export function ConfigPanel({
  node,
  workflowId,
  problems,
  fieldProblems,
  onChange,
  onRename,
  onRenameEnd,
  focusName,
  onConditionsChange,
  onDelete,
  onRunFromHere,
}: ConfigPanelProps) {
  const spec = specOf(node.data.type);
  const config = node.data.config;
  const setConfig = (key: string, value: unknown) => onChange({ config: { ...config, [key]: value } }, key);
  const credentialType = useChosenCredentialType(spec.fields.some((field) => field.forCredentialTypes) ? config.credentialId : undefined);
  return (
    <div className="config-panel" data-testid="config-panel">
      <div className="panel-title" style={{ borderColor: spec.color }}>
        <span className="block-icon" style={{ background: spec.color }}>
          {spec.icon}
        </span>
        <div>
          <div className="muted small">{spec.label}</div>
          <div className="muted tiny">{spec.description}</div>
        </div>
      </div>
      {problems.length > 0 && (
        <div className="error-box small">
          {problems.map((p, i) => (
            <div key={i}>⚠ {p}</div>
          ))}
        </div>
      )}
      <label className="field">
        <span>Name</span>
        <input aria-label="Block name" autoFocus={focusName} value={node.data.name} onChange={(e) => onRename(e.target.value)} onBlur={onRenameEnd} />
      </label>
      {!spec.container && (
        <label className="check">
          <input type="checkbox" checked={node.data.enabled} onChange={(e) => onChange({ enabled: e.target.checked }, 'enabled')} />
          Enabled
        </label>
      )}
      {spec.fields
        .filter((field) => (!field.when || field.when(config)) && fitsCredential(field, credentialType))
        .map((field) => (
          <Field
            key={`${node.id}:${field.key}`}
            field={field}
            config={config}
            workflowId={workflowId}
            value={config[field.key]}
            problems={problemsUnder(fieldProblems, field.key)}
            onChange={(value) => setConfig(field.key, value)}
            onOperationChange={(operation) => onChange({ config: { ...config, operation, parameters: {} } }, 'operation')}
            onConditionsChange={onConditionsChange}
          />
        ))}
      <PolicySection type={node.data.type} policy={node.data.policy} onChange={(policy) => onChange({ policy }, 'policy')} />
      {canPin(node.data.type) && <PinnedSection pinned={node.data.pinned} onChange={(pinned) => onChange({ pinned }, 'pinned')} />}
      {spec.outputs.length > 0 && (
        <div className="outputs muted small">
          Outputs:{' '}
          {spec.outputs.map((o) => (
            <code key={o}>
              &lt;{normalizeName(node.data.name)}.{o}&gt;
            </code>
          ))}
        </div>
      )}
      <div className="row gap">
        {!spec.container && (
          <button
            className="btn small"
            disabled={!onRunFromHere}
            onClick={onRunFromHere}
            title="Runs the last manual run again from this block, on the draft as it is now; the blocks before it are replayed from that run"
          >
            Run from here
          </button>
        )}
        <button className="btn danger small" onClick={onDelete}>
          Delete block
        </button>
      </div>
    </div>
  );
}

/**
 * The type of the credential a block's `credentialId` names, from the workspace's list (the picker's own query);
 * undefined while none is chosen, the list is loading, or the id is not one of them.
 */
function useChosenCredentialType(credentialId: unknown): string | undefined {
  const { workspace } = useWorkspace();
  const chosen = typeof credentialId === 'string' && credentialId !== '';
  const list = useCredentialList(workspace.id);
  if (!chosen) return undefined;
  return list.data?.find((c) => c.id === credentialId)?.type;
}

/**
 * A field for some brokers only (the queue trigger's queue, topic, subject…) shows when the chosen credential is of
 * one of its types; with no known credential, every field shows. Hidden fields keep their values in the config:
 * picking the first credential again finds them as they were.
 */
function fitsCredential(field: FieldSpec, credentialType: string | undefined): boolean {
  if (!field.forCredentialTypes || credentialType === undefined) return true;
  return (field.forCredentialTypes as readonly string[]).includes(credentialType);
}

function Field({
  field,
  value,
  config,
  workflowId,
  problems,
  onChange,
  onOperationChange,
  onConditionsChange,
}: {
  field: FieldSpec;
  value: unknown;
  config: Config;
  workflowId?: string;
  problems: FieldProblem[];
  onChange: (value: unknown) => void;
  /** The API block's operation: picking another one starts its parameters afresh. */
  onOperationChange: (operation: unknown) => void;
  onConditionsChange: (conditions: Condition[]) => void;
}) {
  const text = value === undefined || value === null ? '' : typeof value === 'string' ? value : String(value);
  let control;
  switch (field.kind) {
    case 'text':
    case 'number':
      control = <RefInput label={field.label} value={text} placeholder={field.placeholder} onChange={onChange} />;
      break;
    case 'textarea':
      control = <CodeField label={field.label} language="text" value={text} problems={problems} placeholder={field.placeholder} onChange={onChange} />;
      break;
    case 'code':
      control = <CodeField label={field.label} language="javascript" numbered value={text} problems={problems} onChange={onChange} />;
      break;
    case 'select':
      control = (
        <select aria-label={field.label} value={text || field.options?.[0]} onChange={(e) => onChange(e.target.value)}>
          {field.options?.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      );
      break;
    case 'json':
      control = <JsonField label={field.label} value={value} problems={problems} onChange={onChange} />;
      break;
    case 'keyValue':
      control = <KeyValueField label={field.label} value={value} onChange={onChange} keyName="key" />;
      break;
    case 'assignments':
      control = <KeyValueField label={field.label} value={value} onChange={onChange} keyName="name" />;
      break;
    case 'conditions':
      control = <ConditionsField value={config.conditions} problems={problems} onChange={onConditionsChange} />;
      break;
    case 'inputFormat':
      control = <InputFormatField value={value} onChange={onChange} />;
      break;
    case 'workflow':
      control = <WorkflowSelect label={field.label} value={text} exclude={workflowId} onChange={onChange} />;
      break;
    case 'inputMap':
      control = (
        <InputMapField
          label={field.label}
          value={value}
          childId={typeof config.workflowId === 'string' ? config.workflowId : ''}
          keyPlaceholder={field.placeholder}
          onChange={onChange}
        />
      );
      break;
    case 'tools':
      control = <ToolsField value={value} workflowId={workflowId} onChange={onChange} />;
      break;
    case 'credential':
      control = <CredentialSelect label={field.label} value={text} types={field.credentialTypes} onChange={onChange} />;
      break;
    case 'operation':
      control = <OperationSelect value={value} onChange={onOperationChange} />;
      break;
    case 'operationParameters': {
      const operation = asOperationRef(config.operation);
      control = operation && <OperationParameters operation={operation} value={value} problems={problems} onChange={onChange} />;
      break;
    }
  }
  return (
    <div className="field">
      <span>{field.label}</span>
      {control}
      {field.help && <div className="muted tiny">{field.help}</div>}
    </div>
  );
}

/**
 * The block's pinned output, edited as JSON: manual runs use it instead of running the block. Text that is not a JSON
 * object is shown with why and not kept; the pin stays what it was until it is.
 */
function PinnedSection({ pinned, onChange }: { pinned: Record<string, unknown> | undefined; onChange: (pinned: Record<string, unknown> | undefined) => void }) {
  const [text, setText] = useState(() => jsonText(pinned));
  const [handedOver, setHandedOver] = useState(pinned);
  const [problem, setProblem] = useState<string | null>(null);
  if (pinned !== handedOver) {
    setHandedOver(pinned);
    setText(jsonText(pinned));
    setProblem(null);
  }
  if (pinned === undefined) {
    return (
      <div className="pinned-section">
        <button className="btn ghost small" onClick={() => onChange({})}>
          Pin an output
        </button>
        <span className="muted tiny"> Manual runs then use it instead of running this block (deployed runs never do).</span>
      </div>
    );
  }
  return (
    <div className="pinned-section" data-testid="pinned-section">
      <h4>Pinned output</h4>
      <p className="muted tiny">Manual runs use this instead of running the block: no call is made. Deployed runs never use it.</p>
      <CodeField
        label="Pinned output"
        language="json"
        value={text}
        onChange={(next) => {
          setText(next);
          let parsed: unknown;
          try {
            parsed = JSON.parse(next);
          } catch (error) {
            setProblem(`Not JSON yet: ${(error as Error).message}`);
            return;
          }
          if (!isPinnableOutput(parsed)) {
            setProblem('A pinned output is a JSON object, as block outputs are');
            return;
          }
          setProblem(null);
          setHandedOver(parsed);
          onChange(parsed);
        }}
      />
      {problem && <div className="error-text small">{problem}</div>}
      <button className="btn small" onClick={() => onChange(undefined)}>
        Unpin
      </button>
    </div>
  );
}

const jsonText = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2));

function KeyValueField({
  label,
  value,
  onChange,
  keyName,
}: {
  label: string;
  value: unknown;
  onChange: (value: unknown) => void;
  keyName: 'key' | 'name';
}) {
  const rows = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
  const set = (index: number, patch: Record<string, unknown>) => onChange(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  return (
    <div className="kv">
      {rows.map((row, index) => (
        <div className="kv-row" key={index}>
          <input
            aria-label={`${label} ${keyName} ${index + 1}`}
            placeholder={keyName}
            value={String(row[keyName] ?? '')}
            onChange={(e) => set(index, { [keyName]: e.target.value })}
          />
          <RefInput
            label={`${label} value ${index + 1}`}
            value={typeof row.value === 'string' ? row.value : row.value === undefined ? '' : JSON.stringify(row.value)}
            placeholder="value"
            onChange={(v) => set(index, { value: v })}
          />
          <button className="btn ghost small" aria-label="Remove" onClick={() => onChange(rows.filter((_, i) => i !== index))}>
            ✕
          </button>
        </div>
      ))}
      <button className="btn small" onClick={() => onChange([...rows, { [keyName]: '', value: '' }])}>
        + Add
      </button>
    </div>
  );
}

interface InputRow {
  key: string;
  text: string;
}

/** The chosen workflow's Input Format (its API trigger's fields), to suggest names and type the values typed. */
function useChildInputFormat(childId: string): InputField[] | undefined {
  const child = useQuery({
    queryKey: ['workflow-input-format', childId],
    queryFn: () => readWorkflow(childId),
    enabled: /^wf_[A-Za-z0-9]+$/.test(childId),
    staleTime: 30_000,
    retry: false,
  });
  if (!child.data) return undefined;
  const trigger = Object.values(child.data.state.blocks).find((b) => b.type === 'api_trigger');
  return Array.isArray(trigger?.config.inputFormat) ? (trigger.config.inputFormat as InputField[]) : [];
}

const mapValueText = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Field name → value rows, saved as a record (`{orderId: "<start.id>"}`). A value is typed by the child's Input
 * Format when the field is declared there (`42` for a number field is 42), else kept as the text typed. Rows with
 * no name yet stay in the form and are left out of the record.
 */
function InputMapField({
  label,
  value,
  childId,
  keyPlaceholder = 'field',
  onChange,
}: {
  label: string;
  value: unknown;
  /** The workflow block's child, whose Input Format names and types the fields; '' for other blocks. */
  childId: string;
  keyPlaceholder?: string;
  onChange: (value: unknown) => void;
}) {
  const record = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const [rows, setRows] = useState<InputRow[]>(() => Object.entries(record).map(([key, v]) => ({ key, text: mapValueText(v) })));
  const fields = useChildInputFormat(childId);
  const types = new Map((fields ?? []).map((f) => [f.name, f.type]));
  const listId = `input-map-fields-${childId}`;
  const emit = (next: InputRow[]) => {
    setRows(next);
    const out: Record<string, unknown> = {};
    for (const row of next) {
      const key = row.key.trim();
      if (!key) continue;
      const type = types.get(key);
      out[key] = type ? (parseValue(type, row.text) ?? '') : row.text;
    }
    onChange(out);
  };
  const set = (index: number, patch: Partial<InputRow>) => emit(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  const missing = (fields ?? []).filter((f) => f.name && !rows.some((r) => r.key.trim() === f.name));
  return (
    <div className="kv" data-testid="input-map">
      {rows.map((row, index) => (
        <div className="kv-row" key={index}>
          <input
            aria-label={`${label} field ${index + 1}`}
            placeholder={keyPlaceholder}
            list={fields ? listId : undefined}
            value={row.key}
            onChange={(e) => set(index, { key: e.target.value })}
          />
          <RefInput label={`${label} value ${index + 1}`} value={row.text} placeholder="value" onChange={(text) => set(index, { text })} />
          <button className="btn ghost small" aria-label="Remove" onClick={() => emit(rows.filter((_, i) => i !== index))}>
            ✕
          </button>
        </div>
      ))}
      {fields && (
        <datalist id={listId}>
          {fields.map((f) => (
            <option key={f.name} value={f.name}>
              {f.type}
              {f.required ? ', required' : ''}
            </option>
          ))}
        </datalist>
      )}
      <div className="row gap wrap">
        <button className="btn small" onClick={() => emit([...rows, { key: '', text: '' }])}>
          + Add
        </button>
        {missing.length > 0 && (
          <button className="btn small" onClick={() => emit([...rows, ...missing.map((f) => ({ key: f.name, text: '' }))])}>
            + Add its fields ({missing.map((f) => f.name).join(', ')})
          </button>
        )}
      </div>
      {fields && fields.length === 0 && <div className="muted tiny">That workflow's API trigger declares no input fields.</div>}
    </div>
  );
}

function ConditionsField({ value, problems, onChange }: { value: unknown; problems: FieldProblem[]; onChange: (value: Condition[]) => void }) {
  const list = Array.isArray(value) ? (value as Condition[]) : [];
  const hasElse = list.length > 1 && list[list.length - 1].title === 'else';
  const normalize = (items: Condition[]) =>
    items.map((c, i) => ({ ...c, title: c.title === 'else' && i === items.length - 1 && i > 0 ? 'else' : i === 0 ? 'if' : 'else if' }));
  const set = (index: number, expression: string) => onChange(list.map((c, i) => (i === index ? { ...c, expression } : c)));
  const addElseIf = () => {
    const next = [...list];
    next.splice(hasElse ? list.length - 1 : list.length, 0, { id: shortId(), title: 'else if', expression: '' });
    onChange(normalize(next));
  };
  return (
    <div className="conditions">
      {list.map((condition, index) => (
        <div className="condition" key={condition.id}>
          <div className="condition-head">
            <strong>{conditionTitle(index, condition, list.length)}</strong>
            {list.length > 1 && (
              <button className="btn ghost small" aria-label="Remove branch" onClick={() => onChange(normalize(list.filter((_, i) => i !== index)))}>
                ✕
              </button>
            )}
          </div>
          {condition.title !== 'else' || index === 0 ? (
            <CodeField
              label={`Condition ${index + 1} expression`}
              language="javascript"
              value={condition.expression}
              problems={problemsUnder(problems, String(index))}
              placeholder="<api.status> === 200"
              onChange={(v) => set(index, v)}
            />
          ) : (
            <div className="muted tiny">Taken when no branch above matches.</div>
          )}
        </div>
      ))}
      <div className="row gap">
        <button className="btn small" onClick={addElseIf}>
          + else if
        </button>
        {!hasElse && (
          <button className="btn small" onClick={() => onChange(normalize([...list, { id: shortId(), title: 'else', expression: '' }]))}>
            + else
          </button>
        )}
      </div>
    </div>
  );
}


function valueText(field: InputField): string {
  if (field.value === undefined || field.value === null) return '';
  if (field.type === 'string' && typeof field.value === 'string') return field.value;
  return typeof field.value === 'string' ? field.value : JSON.stringify(field.value);
}

/** Parses what was typed in the value column according to the field's type; text that does not parse is kept. */
function parseValue(type: InputField['type'], text: string): unknown {
  if (text === '') return undefined;
  if (type === 'string') return text;
  if (type === 'number') return /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(text) ? Number(text) : text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The API trigger's Input Format: one row per field, with the value column manual runs use (docs/workflows.md 4). */
function InputFormatField({ value, onChange }: { value: unknown; onChange: (value: unknown) => void }) {
  const fields = Array.isArray(value) ? (value as InputField[]) : [];
  const set = (index: number, patch: Partial<InputField>) => onChange(fields.map((f, i) => (i === index ? { ...f, ...patch } : f)));
  return (
    <div className="input-format" data-testid="input-format">
      {fields.length > 0 && (
        <div className="if-row if-head muted tiny">
          <span>Name</span>
          <span>Type</span>
          <span>Value (manual runs)</span>
          <span title="Required">Req.</span>
          <span />
        </div>
      )}
      {fields.map((field, index) => (
        <div className="if-row" key={index}>
          <input aria-label={`Field ${index + 1} name`} placeholder="name" value={field.name} onChange={(e) => set(index, { name: e.target.value })} />
          <select
            aria-label={`Field ${index + 1} type`}
            value={field.type}
            onChange={(e) => {
              const type = e.target.value as InputField['type'];
              set(index, { type, value: parseValue(type, valueText(field)) });
            }}
          >
            {INPUT_FIELD_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          {field.type === 'boolean' ? (
            <select
              aria-label={`Field ${index + 1} value`}
              value={field.value === undefined ? '' : String(field.value)}
              onChange={(e) => set(index, { value: e.target.value === '' ? undefined : e.target.value === 'true' })}
            >
              <option value="">—</option>
              <option value="true">true</option>
              <option value="false">false</option>
            </select>
          ) : (
            <input
              aria-label={`Field ${index + 1} value`}
              placeholder={field.type === 'json' || field.type === 'files' ? 'JSON' : 'value'}
              value={valueText(field)}
              onChange={(e) => set(index, { value: parseValue(field.type, e.target.value) })}
            />
          )}
          <input
            type="checkbox"
            aria-label={`Field ${index + 1} required`}
            checked={field.required === true}
            onChange={(e) => set(index, { required: e.target.checked || undefined })}
          />
          <button className="btn ghost small" aria-label={`Remove field ${index + 1}`} onClick={() => onChange(fields.filter((_, i) => i !== index))}>
            ✕
          </button>
        </div>
      ))}
      <button className="btn small" onClick={() => onChange([...fields, { name: `field${fields.length + 1}`, type: 'string' }])}>
        + Add field
      </button>
    </div>
  );
}

type Retry = NonNullable<BlockPolicy['retry']>;
const RETRY_KINDS = ['error', 'timeout'] as const;

/** Drops what means the default, so the saved state holds only what the author chose; undefined when nothing is left. */
function cleanPolicy(policy: BlockPolicy): BlockPolicy | undefined {
  const cleaned: BlockPolicy = {};
  if (policy.retry) {
    const { maxAttempts, backoffMs, backoffFactor, on } = policy.retry;
    const kept: Retry = { maxAttempts };
    if (backoffMs !== undefined && Number.isFinite(backoffMs)) kept.backoffMs = backoffMs;
    if (backoffFactor !== undefined && Number.isFinite(backoffFactor)) kept.backoffFactor = backoffFactor;
    if (on && on.length < RETRY_KINDS.length) kept.on = on;
    cleaned.retry = kept;
  }
  if (policy.timeoutMs !== undefined && Number.isFinite(policy.timeoutMs)) cleaned.timeoutMs = policy.timeoutMs;
  if (policy.onError === 'continue') cleaned.onError = 'continue';
  return Object.keys(cleaned).length > 0 ? cleaned : undefined;
}

function policySummary(policy: BlockPolicy | undefined): string {
  if (!policy) return 'none';
  const parts: string[] = [];
  if (policy.retry) parts.push(`up to ${policy.retry.maxAttempts} attempts`);
  if (policy.timeoutMs !== undefined) parts.push(`${policy.timeoutMs} ms limit`);
  if (policy.onError === 'continue') parts.push('continue on error');
  return parts.join(' · ') || 'none';
}

/** Whole non-negative numbers (or, with `decimal`, any number); an empty field means "use the default". */
function NumberInput(props: {
  label: string;
  value: number | undefined;
  placeholder: string;
  min: number;
  max: number;
  decimal?: boolean;
  onChange: (value: number | undefined) => void;
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <input
        type="number"
        aria-label={props.label}
        min={props.min}
        max={props.max}
        step={props.decimal ? 0.5 : 1}
        placeholder={props.placeholder}
        value={props.value ?? ''}
        onChange={(e) => props.onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      />
    </label>
  );
}

function PolicySection({ type, policy, onChange }: { type: string; policy: BlockPolicy | undefined; onChange: (policy: BlockPolicy | undefined) => void }) {
  const current = policy ?? {};
  const update = (patch: Partial<BlockPolicy>) => onChange(cleanPolicy({ ...current, ...patch }));
  const retry = canRetry(type) ? current.retry : undefined;
  const setRetry = (patch: Partial<Retry>) => update({ retry: { ...(retry ?? { maxAttempts: POLICY.defaultAttempts }), ...patch } });
  const retryOn = retry?.on ?? RETRY_KINDS;
  const container = !canRetry(type);
  return (
    <details className="policy" data-testid="policy" open={policy !== undefined}>
      <summary>
        Policy <span className="muted small">{policySummary(policy)}</span>
      </summary>
      {!container && (
        <label className="check">
          <input
            type="checkbox"
            aria-label="Retry on failure"
            checked={retry !== undefined}
            onChange={(e) => update({ retry: e.target.checked ? { maxAttempts: POLICY.defaultAttempts } : undefined })}
          />
          Retry on failure
        </label>
      )}
      {retry && (
        <div className="policy-retry">
          <label className="field">
            <span>Max attempts</span>
            <select aria-label="Max attempts" value={retry.maxAttempts} onChange={(e) => setRetry({ maxAttempts: Number(e.target.value) })}>
              {Array.from({ length: POLICY.maxAttempts }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <NumberInput
            label="Backoff (ms)"
            value={retry.backoffMs}
            placeholder={String(POLICY.backoffMs)}
            min={0}
            max={POLICY.maxBackoffMs}
            onChange={(backoffMs) => setRetry({ backoffMs })}
          />
          <NumberInput
            label="Backoff factor"
            value={retry.backoffFactor}
            placeholder={String(POLICY.backoffFactor)}
            min={1}
            max={POLICY.maxBackoffFactor}
            decimal
            onChange={(backoffFactor) => setRetry({ backoffFactor })}
          />
          <div className="field">
            <span>Retry after</span>
            <div>
              {RETRY_KINDS.map((kind) => (
                <label key={kind} className="check small">
                  <input
                    type="checkbox"
                    aria-label={`Retry after ${kind}`}
                    checked={retryOn.includes(kind)}
                    // At least one kind must stay: a retry that retries nothing is not a policy.
                    disabled={retryOn.length === 1 && retryOn.includes(kind)}
                    onChange={(e) => setRetry({ on: e.target.checked ? [...retryOn, kind] : retryOn.filter((k) => k !== kind) })}
                  />
                  {kind === 'error' ? 'an error' : 'a time-out'}
                </label>
              ))}
            </div>
          </div>
        </div>
      )}
      <NumberInput
        label={container ? 'Time limit (ms)' : 'Time limit per attempt (ms)'}
        value={current.timeoutMs}
        placeholder="none"
        min={1}
        max={POLICY.maxTimeoutMs}
        onChange={(timeoutMs) => update({ timeoutMs })}
      />
      <label className="field">
        <span>On failure</span>
        <select aria-label="On failure" value={current.onError ?? 'fail'} onChange={(e) => update({ onError: e.target.value === 'continue' ? 'continue' : undefined })}>
          <option value="fail">Fail the run (or take the error edge)</option>
          <option value="continue">Continue with the output {'{error}'}</option>
        </select>
      </label>
      <div className="muted tiny">
        {container
          ? 'A loop or parallel is never retried as a whole: give the blocks inside it a retry policy.'
          : type === 'api'
            ? 'The Retries field above retries each HTTP request inside one attempt; this policy re-runs the whole block, so up to attempts × (retries + 1) requests.'
            : 'Each attempt shows in the log’s trace.'}
      </div>
    </details>
  );
}
