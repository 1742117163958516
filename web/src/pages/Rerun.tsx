// "Retry" and "Re-run from…" on a log and in the Executions tab (docs/api.md "Re-runs"). Before anything runs, the
// dialog asks the server for a dry run and lists what is replayed from the log and what runs again, marking the blocks
// that call the outside world again; confirming runs the re-run and opens the new execution's log.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { answer, api, errorMessage, toApiError } from '../api';
import { Badge, ErrorBox, Spinner } from '../components/ui';
import { canEdit } from '../roles';
import { navigate } from '../router';
import { useWorkspace } from '../session';
import type { LogDetail, TraceSpan } from '../types';

type Choice = { kind: 'retry' } | { kind: 'rerun'; fromBlock: string | null };

/** Blocks of a trace in the order they first ran (containers' bodies included), with their names. */
function traceBlocks(spans: TraceSpan[], found = new Map<string, { name: string; type: string }>()): Map<string, { name: string; type: string }> {
  for (const span of spans) {
    if (!span.type.endsWith('_iteration') && !found.has(span.blockId)) found.set(span.blockId, { name: span.name, type: span.type });
    if (span.children && !['api', 'workflow', 'agent'].includes(span.type)) traceBlocks(span.children, found);
  }
  return found;
}

const CONTAINERS = ['loop', 'parallel'];

/** The log of an execution, by its execution id (re-run answers and `reruns` name executions, pages show logs). */
export async function openExecutionLog(workspaceId: string, executionId: string): Promise<void> {
  const list = await answer(api.GET('/api/v1/logs', { params: { query: { workspaceId, executionId, limit: '1' } } }));
  const logId = list.data[0]?.id;
  navigate(logId ? `/logs/${logId}` : `/logs?executionId=${executionId}`);
}

/** The buttons; `log` is loaded on demand where the page does not have it (the Executions tab). */
export function RerunActions({ logId, failed, log }: { logId: string; failed: boolean; log?: LogDetail }) {
  const [choice, setChoice] = useState<Choice | null>(null);
  const { workspace } = useWorkspace();
  // The server refuses viewers (a re-run repeats what the run did outside); say so instead of offering the buttons.
  if (!canEdit(workspace.role)) return <span className="small muted">Viewers cannot re-run executions.</span>;
  return (
    <>
      {failed && (
        <button className="btn small" onClick={() => setChoice({ kind: 'retry' })}>
          Retry
        </button>
      )}
      <button className="btn small" onClick={() => setChoice({ kind: 'rerun', fromBlock: null })}>
        Re-run from…
      </button>
      {choice && <RerunDialog logId={logId} initial={choice} log={log} onClose={() => setChoice(null)} />}
    </>
  );
}

function RerunDialog({ logId, initial, log, onClose }: { logId: string; initial: Choice; log?: LogDetail; onClose: () => void }) {
  const { workspace } = useWorkspace();
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState<Choice>(initial);
  const [running, setRunning] = useState(false);
  const [runError, setRunError] = useState<unknown>(null);
  const detail = useQuery({
    queryKey: ['log', logId],
    queryFn: () => answer(api.GET('/api/v1/logs/{logId}', { params: { path: { logId } } })).then((r) => r.data),
    staleTime: Infinity,
    enabled: !log,
  });
  const shown = log ?? detail.data;
  const executionId = shown?.executionId;
  const preview = useQuery({
    queryKey: ['rerun-preview', executionId, choice],
    enabled: executionId !== undefined,
    queryFn: () => {
      const path = { executionId: executionId! };
      if (choice.kind === 'retry') return answer(api.POST('/api/v1/executions/{executionId}/retry', { params: { path }, body: { dryRun: true } }));
      const body = choice.fromBlock === null ? { dryRun: true } : { dryRun: true, fromBlock: choice.fromBlock };
      return answer(api.POST('/api/v1/executions/{executionId}/rerun', { params: { path }, body }));
    },
    retry: false,
  });
  const blocks = traceBlocks(shown?.executionData.traceSpans ?? []);
  const nameOf = (blockId: string) => blocks.get(blockId)?.name ?? blockId;
  const plan = preview.data && 'willRun' in preview.data ? preview.data : undefined;

  const run = async () => {
    if (!shown) return;
    setRunning(true);
    setRunError(null);
    try {
      const path = { executionId: shown.executionId };
      const call =
        choice.kind === 'retry'
          ? api.POST('/api/v1/executions/{executionId}/retry', { params: { path }, body: {} })
          : api.POST('/api/v1/executions/{executionId}/rerun', { params: { path }, body: choice.fromBlock === null ? {} : { fromBlock: choice.fromBlock } });
      const { response, error } = await call;
      // A re-run that fails still made an execution (500 with its id): its log says why.
      const newExecution = response.headers.get('X-Execution-Id');
      if (!newExecution) throw toApiError(response, error);
      // The original's detail now lists this re-run; the Executions tab has a new row.
      void queryClient.invalidateQueries({ queryKey: ['log', logId] });
      void queryClient.invalidateQueries({ queryKey: ['executions'] });
      onClose();
      await openExecutionLog(workspace.id, newExecution);
    } catch (e) {
      setRunError(e);
      setRunning(false);
    }
  };

  const title = choice.kind === 'retry' ? 'Retry from the failed block' : 'Re-run';
  return (
    <div className="modal-backdrop" onClick={running ? undefined : onClose}>
      <div className="modal rerun-dialog" role="dialog" aria-label={title} onClick={(e) => e.stopPropagation()}>
        <h3>{title}</h3>
        {choice.kind === 'rerun' && (
          <label className="row gap small">
            From
            <select
              aria-label="Re-run from"
              value={choice.fromBlock ?? ''}
              onChange={(e) => setChoice({ kind: 'rerun', fromBlock: e.target.value || null })}
            >
              <option value="">the whole run</option>
              {[...blocks].filter(([, b]) => !CONTAINERS.includes(b.type)).map(([id, b]) => (
                <option key={id} value={id}>
                  {b.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {preview.isPending && <Spinner label="Working out what runs again…" />}
        {preview.error && <ErrorBox error={preview.error} />}
        {plan && (
          <div className="rerun-preview" data-testid="rerun-preview">
            <h5>Replayed from the log (no call, no cost)</h5>
            {plan.replayed.length === 0 ? (
              <p className="muted small">Nothing: every block runs.</p>
            ) : (
              <ul className="small">
                {plan.replayed.map((id) => (
                  <li key={id} data-testid="replayed-block">
                    {nameOf(id)}
                  </li>
                ))}
              </ul>
            )}
            <h5>Will run</h5>
            <ul className="small">
              {plan.willRun.map((b) => (
                <li key={b.blockId} data-testid="will-run-block" data-side-effects={b.sideEffects}>
                  {nameOf(b.blockId)} <span className="muted tiny">{b.type}</span>{' '}
                  {b.sideEffects && <Badge tone="warn">calls the outside world again</Badge>}
                </li>
              ))}
            </ul>
          </div>
        )}
        {runError !== null && <div className="error-box small">{errorMessage(runError)}</div>}
        <div className="row gap">
          <button className="btn primary small" disabled={!plan || running} onClick={() => void run()}>
            {running ? 'Running…' : choice.kind === 'retry' ? 'Retry now' : 'Re-run now'}
          </button>
          <button className="btn ghost small" disabled={running} onClick={onClose}>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
