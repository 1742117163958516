// Manual runs (README "Other triggers"): save the draft, POST /api/v1/workflows/{id}/run, and follow its Server-Sent Events — block
// started / chunk / block finished, then the done record — to show live status on the canvas and here. Cancel asks
// the server to stop the run (POST /api/v1/executions/{id}/cancel); a run that reaches an approval block ends its
// stream paused, and is approved or rejected here (or on the Approvals page).
import { useCallback, useEffect, useRef, useState } from 'react';
import { blocksReportedLabel, reportedBlockErrors } from '../../../src/workflow/block-errors.js';
import { api, ApiError, errorMessage, readEventStream, toApiError } from '../api';
import { ApprovalActions, cancelExecution, DecidedRun, DefaultDecisionBadge, usePausedRuns, WaitingToolCall, type Decision } from '../components/approvals';
import { formatDuration, formatTime, JsonView, Spinner } from '../components/ui';
import { Link } from '../router';
import { useWorkspace } from '../session';
import type { ManualRunRecord } from '../types';
import type { FlowNode } from './model';
import { canPin, isPinnableOutput } from './pins';
import type { BlockRunState } from './nodes';
import type { PastRun } from './past-run';

export interface ManualRun {
  /** `paused`: the run waits at an approval block; `cancelled`: a cancel request stopped it. */
  status: 'idle' | 'running' | 'success' | 'error' | 'paused' | 'cancelled';
  running: boolean;
  /** A cancel request was sent and the run has not ended yet. */
  cancelling?: boolean;
  blocks: Record<string, BlockRunState>;
  /** Block ids in the order they first started. */
  order: string[];
  executionId?: string;
  output?: unknown;
  error?: string;
  durationMs?: number;
  start(): Promise<void>;
  cancel(): void;
  /** Shows a finished run from its log (past-run.ts), or clears it; ignored while a run is in progress. */
  show(past: PastRun | null): void;
}

/** What the run's records build up (ManualRun without its actions). */
type RunProgress = Omit<ManualRun, 'start' | 'cancel' | 'show' | 'running'>;

/** The message a block stopped by the run's pause reports (src/runs/approvals.ts PAUSED_MESSAGE). */
const PAUSED_ERROR = /^Paused\b/;

export function useManualRun(workflowId: string, flush: () => Promise<boolean>): ManualRun {
  const [state, setState] = useState<RunProgress>({ status: 'idle', blocks: {}, order: [] });
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
      const { data: body, error, response } = await api.POST('/api/v1/workflows/{workflowId}/run', {
        params: { path: { workflowId } },
        headers: { Accept: 'text/event-stream' },
        body: {},
        parseAs: 'stream',
        signal: controller.signal,
      });
      if (!response.ok) throw toApiError(response, error);
      const headerId = response.headers.get('x-execution-id');
      if (headerId) setState((s) => ({ ...s, executionId: s.executionId ?? headerId }));
      let finished = false;
      await readEventStream(body, (raw) => {
        if (typeof raw !== 'object' || raw === null) return;
        const record = raw as ManualRunRecord;
        setState((s) => applyRecord(s, record));
        if (record.event === 'done') finished = true;
      });
      if (!finished) setState((s) => ({ ...s, status: 'error', error: s.error ?? 'The run ended without a result' }));
    } catch (error) {
      const message =
        controller.signal.aborted ? 'Stopped' : error instanceof ApiError ? `${error.message} (${error.code})` : errorMessage(error);
      setState((s) => ({ ...s, status: controller.signal.aborted ? 'cancelled' : 'error', error: message }));
    } finally {
      abort.current = null;
      setState((s) => (s.cancelling ? { ...s, cancelling: false } : s));
    }
  }, [flush, workflowId]);

  const executionId = state.executionId;
  /**
   * Asks the server to stop the run, wherever it runs; the stream then ends with a cancelled done record. Before the
   * run has an id (still saving the draft), or when the server does not know it yet, closing the stream stops it.
   */
  const cancel = useCallback(() => {
    const controller = abort.current;
    if (!controller) return;
    setState((s) => ({ ...s, cancelling: true }));
    if (!executionId) {
      controller.abort();
      return;
    }
    cancelExecution(executionId).catch((error: unknown) => {
      // 409: it finished meanwhile (its done record says how); anything else: stop it by closing the stream.
      if (!(error instanceof ApiError && error.status === 409)) controller.abort();
    });
  }, [executionId]);
  const show = useCallback((past: PastRun | null) => {
    if (abort.current) return;
    setState(past ?? { status: 'idle', blocks: {}, order: [] });
  }, []);
  return { ...state, running: state.status === 'running', start, cancel, show };
}

/** The run with block `id`'s state replaced, the block listed in the order blocks first reported. */
function withBlock(s: RunProgress, id: string, block: BlockRunState): RunProgress {
  return { ...s, order: s.order.includes(id) ? s.order : [...s.order, id], blocks: { ...s.blocks, [id]: block } };
}

function applyRecord(s: RunProgress, record: ManualRunRecord): RunProgress {
  switch (record.event) {
    case 'run_started':
      return { ...s, executionId: record.executionId };
    case 'block_started': {
      const id = record.blockId;
      const previous = s.blocks[id];
      return withBlock(s, id, { ...previous, status: 'running', runs: previous?.runs ?? 0 });
    }
    case 'chunk': {
      const id = record.blockId;
      const previous = s.blocks[id] ?? { status: 'running' as const, runs: 0 };
      return { ...s, blocks: { ...s.blocks, [id]: { ...previous, text: (previous.text ?? '') + record.chunk } } };
    }
    case 'tool_call': {
      const id = record.blockId;
      const previous = s.blocks[id] ?? { status: 'running' as const, runs: 0 };
      const call = { id: record.id, name: record.name, status: 'running' as const, arguments: record.arguments };
      return { ...s, blocks: { ...s.blocks, [id]: { ...previous, toolCalls: [...(previous.toolCalls ?? []), call] } } };
    }
    case 'tool_result': {
      const id = record.blockId;
      const previous = s.blocks[id];
      if (!previous) return s;
      const toolCalls = (previous.toolCalls ?? []).map((call) =>
        call.id === record.id
          ? { ...call, status: record.error === undefined ? ('success' as const) : ('error' as const), result: record.result, error: record.error }
          : call,
      );
      return { ...s, blocks: { ...s.blocks, [id]: { ...previous, toolCalls } } };
    }
    case 'block_finished': {
      const id = record.blockId;
      const previous = s.blocks[id];
      // A block that failed in an earlier iteration stays failed, as its log shows it (past-run.ts, block-errors.ts).
      const error = record.error ?? previous?.error;
      return withBlock(s, id, {
        ...previous,
        status: error ? 'error' : 'success',
        output: record.output,
        error,
        durationMs: record.durationMs,
        runs: (previous?.runs ?? 0) + 1,
      });
    }
    case 'done': {
      if (record.paused) {
        // The approval block it waits at (and anything the pause stopped) runs again when it resumes.
        const blocks = Object.fromEntries(
          Object.entries(s.blocks).map(([blockId, block]) =>
            block.status === 'running' || (block.status === 'error' && PAUSED_ERROR.test(block.error ?? ''))
              ? [blockId, { ...block, status: 'paused' as const, error: undefined }]
              : [blockId, block],
          ),
        );
        return { ...s, blocks, status: 'paused' as const, durationMs: record.metadata.duration, executionId: record.executionId ?? s.executionId };
      }
      return {
        ...s,
        status: record.success ? ('success' as const) : record.cancelled ? ('cancelled' as const) : ('error' as const),
        output: record.output,
        error: record.error,
        durationMs: record.metadata.duration,
        executionId: record.executionId ?? s.executionId,
      };
    }
    default:
      return s;
  }
}

export function RunPanel({ run, nodes, onPin }: { run: ManualRun; nodes: FlowNode[]; onPin?: (blockId: string, output: Record<string, unknown>) => void }) {
  const names = new Map(nodes.map((n) => [n.id, n.data.name]));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  if (run.status === 'idle') {
    return (
      <div className="config-panel muted">
        <p>Press Run to execute the draft with the API trigger's Input Format values.</p>
        <p className="small">Each block's status shows on the canvas as it runs; outputs and streamed text appear here.</p>
      </div>
    );
  }
  // A block that reported an error without failing the run (an API block's HTTP error, an error connection taken):
  // the run succeeded, but the user should see that first, not a plain green "succeeded". The logs count them by the
  // same rule (src/workflow/block-errors.ts).
  const reported = reportedBlockErrors(
    run.status,
    run.order.map((id) => ({ blockId: id, name: names.get(id), status: run.blocks[id].status, error: run.blocks[id].error })),
  );
  return (
    <div className="run-panel" data-testid="run-panel" data-status={run.status}>
      <div className={`run-summary ${run.status}${reported.length > 0 ? ' with-errors' : ''}`} data-testid="run-summary">
        {reported.length > 0 ? `Succeeded — ${blocksReportedLabel(reported.length)}` : SUMMARY[run.status]}
        {run.durationMs !== undefined && run.status !== 'paused' && <span> in {formatDuration(run.durationMs)}</span>}
      </div>
      {reported.length > 0 && (
        <div className="error-box small" data-testid="run-reported-error">
          <strong>{reported[0].name}</strong>: {reported[0].error}
          <div className="muted tiny">The run went on: the workflow handles this error (an error connection, or a block that reports errors in its output).</div>
        </div>
      )}
      {run.running && (
        <div className="row gap">
          <button className="btn small" onClick={run.cancel} disabled={run.cancelling} data-testid="run-cancel">
            {run.cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
          {run.cancelling && <Spinner label="Cancelling" />}
        </div>
      )}
      {run.error && run.status !== 'cancelled' && <div className="error-box small">{run.error}</div>}
      {run.executionId && (
        <div className="small muted">
          Execution <code>{run.executionId}</code>{' '}
          {run.status !== 'running' && run.status !== 'paused' && <Link to={`/logs?executionId=${run.executionId}`}>Open log</Link>}
        </div>
      )}
      {run.status === 'paused' && run.executionId && <PausedHere key={run.executionId} executionId={run.executionId} />}
      <ol className="run-blocks">
        {run.order.map((id) => {
          const block = run.blocks[id];
          return (
            <li key={id} className={`run-block ${block.status}`} data-testid="run-block" data-block-name={names.get(id) ?? id}>
              <div className="run-block-head">
                <span className={`dot ${block.status}`} />
                <strong>{names.get(id) ?? id}</strong>
                <span className="muted small">
                  {block.status === 'running' ? 'running…' : block.status === 'paused' ? 'waiting for approval' : formatDuration(block.durationMs)}
                  {block.runs > 1 ? ` · ${block.runs} runs` : ''}
                </span>
              </div>
              {block.toolCalls && block.toolCalls.length > 0 && (
                <ul className="tool-calls small" aria-label="Tool calls">
                  {block.toolCalls.map((call) => (
                    <li key={call.id} data-testid="tool-call" data-status={call.status}>
                      <span className={`dot ${call.status}`} /> <code>{call.name}</code>{' '}
                      <span className="muted">{call.status === 'running' ? 'running…' : call.status === 'error' ? 'failed' : 'done'}</span>
                      {call.error && <div className="error-text">{call.error}</div>}
                      <details>
                        <summary>Arguments and result</summary>
                        <JsonView value={{ arguments: call.arguments, result: call.result }} maxHeight={160} />
                      </details>
                    </li>
                  ))}
                </ul>
              )}
              {block.text && <pre className="stream-text">{block.text}</pre>}
              {block.error && <div className="error-text small">{block.error}</div>}
              {block.output !== undefined && (
                <details>
                  <summary className="small">Output</summary>
                  <JsonView value={block.output} maxHeight={220} />
                </details>
              )}
              {onPin && block.status === 'success' && !block.error && canPin(byId.get(id)?.data.type ?? '') && isPinnableOutput(block.output) && (
                <PinButton pinned={byId.get(id)?.data.pinned} output={block.output} onPin={() => onPin(id, block.output as Record<string, unknown>)} />
              )}
            </li>
          );
        })}
      </ol>
      {run.status !== 'running' && run.status !== 'paused' && run.output !== undefined && (
        <div>
          <h4>Final output</h4>
          <JsonView value={run.output} maxHeight={260} />
        </div>
      )}
    </div>
  );
}

function PinButton({ pinned, output, onPin }: { pinned: Record<string, unknown> | undefined; output: unknown; onPin: () => void }) {
  const same = pinned !== undefined && JSON.stringify(pinned) === JSON.stringify(output);
  return (
    <button className="btn ghost small" disabled={same} onClick={onPin}>
      {same ? 'Pinned' : 'Pin this output'}
    </button>
  );
}

const SUMMARY: Record<ManualRun['status'], string> = {
  idle: '',
  running: 'Running…',
  success: 'Run succeeded',
  error: 'Run failed',
  paused: 'Waiting for approval',
  cancelled: 'Run cancelled',
};

/** A manual run paused at an approval block: what it asks, and the decision (the run then goes on on a worker). */
function PausedHere({ executionId }: { executionId: string }) {
  const { workspace } = useWorkspace();
  const [decided, setDecided] = useState<{ decision: Decision; at: number; pausedAt?: string } | null>(null);
  const [listed, setListed] = useState(false);
  // The stream may end a moment before the run's row says paused: ask again soon until it is listed.
  const paused = usePausedRuns(workspace.id, { refetchIntervalMs: listed ? 10_000 : 1_000, enabled: !decided });
  const entry = paused.data?.find((p) => p.executionId === executionId);
  useEffect(() => {
    if (entry) setListed(true);
  }, [entry]);
  if (decided) {
    return (
      <div className="card" data-testid="run-approval">
        <DecidedRun executionId={executionId} workspaceId={workspace.id} decision={decided.decision} decidedAt={decided.at} previousPausedAt={decided.pausedAt} />
      </div>
    );
  }
  return (
    <div className="card" data-testid="run-approval">
      {entry?.message && <div className="paused-message">{entry.message}</div>}
      {entry?.toolCall && <WaitingToolCall toolCall={entry.toolCall} />}
      {entry && (
        <div className="small muted">
          Since {formatTime(entry.pausedAt)}
          {entry.timeoutAt ? (
            <>
              {' '}· at {formatTime(entry.timeoutAt)}{' '}
              <DefaultDecisionBadge decision={entry.defaultDecision} />
            </>
          ) : (
            ' · no time-out'
          )}
        </div>
      )}
      <ApprovalActions
        executionId={executionId}
        workspaceId={workspace.id}
        allowCancel
        onDecided={(decision) => setDecided({ decision, at: Date.now(), pausedAt: entry?.pausedAt })}
      />
      <div className="muted tiny">
        Also on the <Link to="/approvals">Approvals</Link> page.
      </div>
    </div>
  );
}
