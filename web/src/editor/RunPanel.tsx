// Manual runs (SPEC §8): save the draft, POST /api/v1/workflows/{id}/run, and follow its Server-Sent Events — block
// started / chunk / block finished, then the done record — to show live status on the canvas and here.
import { useCallback, useRef, useState } from 'react';
import { ApiError, errorMessage, readEventStream, requestHeaders, toApiError } from '../api';
import { formatDuration, JsonView } from '../components/ui';
import { Link } from '../router';
import type { FlowNode } from './model';
import type { BlockRunState } from './nodes';

export interface ManualRun {
  status: 'idle' | 'running' | 'success' | 'error';
  running: boolean;
  blocks: Record<string, BlockRunState>;
  /** Block ids in the order they first started. */
  order: string[];
  executionId?: string;
  output?: unknown;
  error?: string;
  durationMs?: number;
  start(): Promise<void>;
  cancel(): void;
}

interface ProgressRecord {
  event?: string;
  blockId?: string;
  chunk?: string;
  output?: unknown;
  error?: string;
  durationMs?: number;
  executionId?: string;
  success?: boolean;
  metadata?: { duration?: number };
}

export function useManualRun(workflowId: string, flush: () => Promise<boolean>): ManualRun {
  const [state, setState] = useState<Omit<ManualRun, 'start' | 'cancel' | 'running'>>({ status: 'idle', blocks: {}, order: [] });
  const abort = useRef<AbortController | null>(null);

  const start = useCallback(async () => {
    if (abort.current) return;
    const controller = new AbortController();
    abort.current = controller;
    setState({ status: 'running', blocks: {}, order: [] });
    try {
      if (!(await flush())) {
        setState({ status: 'error', blocks: {}, order: [], error: 'The draft could not be saved; fix the problems shown on the canvas, then run again.' });
        return;
      }
      const res = await fetch(`/api/v1/workflows/${workflowId}/run`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: requestHeaders('POST', { Accept: 'text/event-stream' }, true),
        body: '{}',
        signal: controller.signal,
      });
      if (!res.ok) throw await toApiError(res);
      let finished = false;
      await readEventStream(res, (raw) => {
        if (typeof raw !== 'object' || raw === null) return;
        const record = raw as ProgressRecord;
        setState((s) => applyRecord(s, record));
        if (record.event === 'done') finished = true;
      });
      if (!finished) setState((s) => ({ ...s, status: 'error', error: s.error ?? 'The run ended without a result' }));
    } catch (error) {
      const message =
        controller.signal.aborted ? 'Stopped' : error instanceof ApiError ? `${error.message} (${error.code})` : errorMessage(error);
      setState((s) => ({ ...s, status: 'error', error: message }));
    } finally {
      abort.current = null;
    }
  }, [flush, workflowId]);

  const cancel = useCallback(() => abort.current?.abort(), []);
  return { ...state, running: state.status === 'running', start, cancel };
}

function applyRecord(s: Omit<ManualRun, 'start' | 'cancel' | 'running'>, record: ProgressRecord) {
  const id = record.blockId;
  switch (record.event) {
    case 'run_started':
      return { ...s, executionId: record.executionId ?? s.executionId };
    case 'block_started': {
      if (!id) return s;
      const previous = s.blocks[id];
      return {
        ...s,
        order: s.order.includes(id) ? s.order : [...s.order, id],
        blocks: { ...s.blocks, [id]: { ...previous, status: 'running' as const, runs: previous?.runs ?? 0 } },
      };
    }
    case 'chunk': {
      if (!id) return s;
      const previous = s.blocks[id] ?? { status: 'running' as const, runs: 0 };
      return { ...s, blocks: { ...s.blocks, [id]: { ...previous, text: (previous.text ?? '') + (record.chunk ?? '') } } };
    }
    case 'block_finished': {
      if (!id) return s;
      const previous = s.blocks[id];
      return {
        ...s,
        order: s.order.includes(id) ? s.order : [...s.order, id],
        blocks: {
          ...s.blocks,
          [id]: {
            ...previous,
            status: record.error ? ('error' as const) : ('success' as const),
            output: record.output,
            error: record.error,
            durationMs: record.durationMs,
            runs: (previous?.runs ?? 0) + 1,
          },
        },
      };
    }
    case 'done':
      return {
        ...s,
        status: record.success ? ('success' as const) : ('error' as const),
        output: record.output,
        error: record.error,
        durationMs: record.metadata?.duration,
        executionId: record.executionId ?? s.executionId,
      };
    default:
      return s;
  }
}

export function RunPanel({ run, nodes }: { run: ManualRun; nodes: FlowNode[] }) {
  const names = new Map(nodes.map((n) => [n.id, n.data.name]));
  if (run.status === 'idle') {
    return (
      <div className="config-panel muted">
        <p>Press Run to execute the draft with the API trigger's Input Format values.</p>
        <p className="small">Each block's status shows on the canvas as it runs; outputs and streamed text appear here.</p>
      </div>
    );
  }
  return (
    <div className="run-panel" data-testid="run-panel" data-status={run.status}>
      <div className={`run-summary ${run.status}`}>
        {run.status === 'running' ? 'Running…' : run.status === 'success' ? 'Run succeeded' : 'Run failed'}
        {run.durationMs !== undefined && <span> in {formatDuration(run.durationMs)}</span>}
      </div>
      {run.error && <div className="error-box small">{run.error}</div>}
      {run.executionId && (
        <div className="small muted">
          Execution <code>{run.executionId}</code>{' '}
          {run.status !== 'running' && <Link to={`/logs?executionId=${run.executionId}`}>Open log</Link>}
        </div>
      )}
      <ol className="run-blocks">
        {run.order.map((id) => {
          const block = run.blocks[id];
          return (
            <li key={id} className={`run-block ${block.status}`} data-testid="run-block" data-block-name={names.get(id) ?? id}>
              <div className="run-block-head">
                <span className={`dot ${block.status}`} />
                <strong>{names.get(id) ?? id}</strong>
                <span className="muted small">
                  {block.status === 'running' ? 'running…' : formatDuration(block.durationMs)}
                  {block.runs > 1 ? ` · ${block.runs} runs` : ''}
                </span>
              </div>
              {block.text && <pre className="stream-text">{block.text}</pre>}
              {block.error && <div className="error-text small">{block.error}</div>}
              {block.output !== undefined && (
                <details>
                  <summary className="small">Output</summary>
                  <JsonView value={block.output} maxHeight={220} />
                </details>
              )}
            </li>
          );
        })}
      </ol>
      {run.status !== 'running' && run.output !== undefined && (
        <div>
          <h4>Final output</h4>
          <JsonView value={run.output} maxHeight={260} />
        </div>
      )}
    </div>
  );
}
