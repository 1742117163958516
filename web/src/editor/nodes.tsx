// The canvas' node components: a block card with its handles (normal, error, one per condition branch) and the
// loop/parallel container, which holds child nodes and has an inner "start" handle for the first block inside.
import { Handle, NodeResizer, Position, useUpdateNodeInternals, type NodeProps } from '@xyflow/react';
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { formatDuration } from '../components/ui';
import { useWorkflowList } from '../queries';
import { useWorkspace } from '../session';
import { asOperationRef } from './OperationFields';
import { specOf } from './catalog';
import { CONTAINER_START_HANDLE, type BlockData, type BlockRunState, type Condition, type FlowNode } from './model';

export type { BlockRunState, BlockRunStatus } from './model';

export interface EditorStatus {
  problems: Record<string, string[]>;
  run: Record<string, BlockRunState>;
}

export const EditorStatusContext = createContext<EditorStatus>({ problems: {}, run: {} });

export function conditionTitle(index: number, condition: Condition, count: number): string {
  if (condition.title === 'else' && index === count - 1 && index > 0) return 'else';
  return index === 0 ? 'if' : 'else if';
}

function summary(data: BlockData): string {
  const c = data.config;
  switch (data.type) {
    case 'api': {
      const operation = asOperationRef(c.operation);
      if (operation) return `Operation ${operation.operationId}`;
      return `${String(c.method ?? 'GET').toUpperCase()} ${String(c.url ?? '') || '(no URL yet)'}`;
    }
    case 'api_trigger': {
      const n = Array.isArray(c.inputFormat) ? c.inputFormat.length : 0;
      return n === 0 ? 'No input fields' : `${n} input field${n === 1 ? '' : 's'}`;
    }
    case 'webhook_trigger':
      return `/api/webhooks/trigger/${String(c.path ?? '')}`;
    case 'schedule_trigger':
      return `${String(c.cron ?? '')} ${String(c.timezone ?? 'UTC')}`;
    case 'function':
      return String(c.code ?? '').split('\n')[0].slice(0, 60);
    case 'response':
      return `Status ${String(c.status ?? 200)}`;
    case 'wait':
      return `${String(c.ms ?? 0)} ms`;
    case 'agent':
      return `${String(c.provider ?? 'openai')} · ${String(c.model ?? '')}`;
    case 'approval': {
      const timeout = Number(c.timeoutMs);
      const message = String(c.message ?? '').split('\n')[0].slice(0, 60);
      const after = timeout > 0 ? ` · ${c.defaultDecision === 'approve' ? 'approve' : 'reject'} after ${formatDuration(timeout)}` : '';
      return `${message || 'Waits for a decision'}${after}`;
    }
    case 'variables': {
      const n = Array.isArray(c.assignments) ? c.assignments.length : 0;
      return `${n} variable${n === 1 ? '' : 's'}`;
    }
    default:
      return '';
  }
}

/** The workflow a workflow block runs, by name (its id while the list loads, or when it is not in the workspace). */
function WorkflowBlockSummary({ config }: { config: BlockData['config'] }) {
  const { workspace } = useWorkspace();
  const workflows = useWorkflowList(workspace.id);
  const id = typeof config.workflowId === 'string' ? config.workflowId : '';
  const n = config.input && typeof config.input === 'object' ? Object.keys(config.input).length : 0;
  const name = workflows.data?.find((w) => w.id === id)?.name ?? id;
  return (
    <>
      {name ? `→ ${name}` : '(no workflow yet)'}
      {n > 0 ? ` · ${n} input${n === 1 ? '' : 's'}` : ''}
    </>
  );
}

function StatusPill({ id }: { id: string }) {
  const { run } = useContext(EditorStatusContext);
  const state = run[id];
  if (!state) return null;
  const label =
    state.status === 'running'
      ? 'running'
      : state.status === 'success'
        ? `✓ ${state.durationMs !== undefined ? `${Math.round(state.durationMs)} ms` : ''}`
        : state.status === 'error'
          ? '✕ error'
          : state.status === 'paused'
            ? '◷ waiting'
            : 'skipped';
  return (
    <span className={`run-pill ${state.status}`} data-testid="run-status" data-status={state.status}>
      {state.status === 'running' && <span className="spinner tiny" />}
      {label}
      {state.runs > 1 ? ` ×${state.runs}` : ''}
    </span>
  );
}

function Problems({ id }: { id: string }) {
  const { problems } = useContext(EditorStatusContext);
  const list = problems[id];
  if (!list?.length) return null;
  return (
    <div className="node-problems" data-testid="node-problems">
      {list.slice(0, 3).map((p, i) => (
        <div key={i}>⚠ {p}</div>
      ))}
      {list.length > 3 && <div>… {list.length - 3} more</div>}
    </div>
  );
}

function statusClass(id: string, run: EditorStatus['run'], problems: EditorStatus['problems']) {
  return [run[id]?.status ? `run-${run[id].status}` : '', problems[id]?.length ? 'has-problems' : ''].join(' ');
}

export function BlockNode({ id, data, selected }: NodeProps<FlowNode>) {
  const spec = specOf(data.type);
  const { run, problems } = useContext(EditorStatusContext);
  const conditions = data.type === 'condition' && Array.isArray(data.config.conditions) ? (data.config.conditions as Condition[]) : null;
  const conditionKey = conditions?.map((c) => c.id).join(',') ?? '';
  const updateInternals = useUpdateNodeInternals();
  useEffect(() => updateInternals(id), [id, conditionKey, updateInternals]);

  return (
    <div
      className={`block-node ${selected ? 'selected' : ''} ${data.enabled ? '' : 'disabled'} ${statusClass(id, run, problems)}`}
      data-testid="block-node"
      data-block-name={data.name}
      data-block-type={data.type}
    >
      {!spec.trigger && <Handle type="target" position={Position.Left} id="target" />}
      <div className="block-head" style={{ background: spec.color }}>
        <span className="block-icon">{spec.icon}</span>
        <span className="block-type">{spec.label}</span>
        {data.pinned && (
          <span className="pin-badge" data-testid="pin-badge" title="Pinned: manual runs use this output instead of running the block">
            pinned
          </span>
        )}
        <StatusPill id={id} />
      </div>
      <div className="block-body">
        <div className="block-name">{data.name}</div>
        <div className="block-summary">{data.type === 'workflow' ? <WorkflowBlockSummary config={data.config} /> : summary(data)}</div>
      </div>
      {conditions && (
        <div className="cond-rows">
          {conditions.map((condition, index) => (
            <div className="cond-row" key={condition.id}>
              <span className="cond-title">{conditionTitle(index, condition, conditions.length)}</span>
              <span className="cond-expr">{condition.title === 'else' ? '' : condition.expression || '…'}</span>
              <Handle
                type="source"
                position={Position.Right}
                id={`condition-${condition.id}`}
                className="cond-handle"
                title={`${conditionTitle(index, condition, conditions.length)} branch`}
              />
            </div>
          ))}
        </div>
      )}
      {!conditions && !spec.terminal && <Handle type="source" position={Position.Right} id="source" />}
      {!spec.trigger && (
        <div className="error-port">
          <span>error</span>
          <Handle type="source" position={Position.Bottom} id="error" className="error-handle" title="error branch" />
        </div>
      )}
      <Problems id={id} />
    </div>
  );
}

export function ContainerNode({ id, data, selected }: NodeProps<FlowNode>) {
  const spec = specOf(data.type);
  const { run, problems } = useContext(EditorStatusContext);
  const c = data.config;
  let detail: ReactNode;
  if (data.type === 'loop') detail = c.loopType === 'forEach' ? `for each of ${String(c.forEachItems ?? '…')}` : `${String(c.iterations ?? 1)} times`;
  else detail = c.parallelType === 'collection' ? `for each of ${String(c.distribution ?? '…')}` : `${String(c.count ?? 1)} copies`;
  return (
    <div
      className={`container-node ${selected ? 'selected' : ''} ${statusClass(id, run, problems)}`}
      style={{ borderColor: spec.color }}
      data-testid="container-node"
      data-block-name={data.name}
    >
      <NodeResizer isVisible={selected} minWidth={260} minHeight={160} color={spec.color} />
      <Handle type="target" position={Position.Left} id="target" />
      <div className="container-head" style={{ color: spec.color }}>
        <span className="block-icon" style={{ background: spec.color }}>
          {spec.icon}
        </span>{' '}
        <strong>{data.name}</strong> <span className="muted">{detail}</span>
        <StatusPill id={id} />
      </div>
      <div className="container-start" title="Connect to the first block inside">
        start
        <Handle type="source" position={Position.Right} id={CONTAINER_START_HANDLE} />
      </div>
      <Handle type="source" position={Position.Right} id="source" />
      <div className="error-port container">
        <span>error</span>
        <Handle type="source" position={Position.Bottom} id="error" className="error-handle" />
      </div>
      <Problems id={id} />
    </div>
  );
}

export const nodeTypes = { block: BlockNode, container: ContainerNode };
