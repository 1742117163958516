// Runs waiting for a person (README "Human approval", "Cancelling a run"): deciding an approval, cancelling a run,
// and following a decided run until its log is written. Used by the Approvals page and the editor's run panel.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { answer, api } from '../api';
import { canEdit } from '../roles';
import { Link } from '../router';
import { useWorkspace } from '../session';
import type { CancelAnswer, PausedRun } from '../types';
import { Badge, ConfirmButton, ErrorBox, formatTime, LevelBadge, Spinner } from './ui';

export type Decision = 'approved' | 'rejected' | 'cancelled' | 'cancelling';

const pausedRunsKey = (workspaceId: string) => ['paused-runs', workspaceId] as const;

/** The workspace's runs waiting for a decision, refreshed while shown (a new run may pause at any time). */
export function usePausedRuns(workspaceId: string, options: { refetchIntervalMs?: number; enabled?: boolean } = {}) {
  return useQuery({
    queryKey: pausedRunsKey(workspaceId),
    queryFn: () =>
      // Runs parked in a wait block are listed too; nobody decides them.
      answer(api.GET('/api/v1/executions', { params: { query: { workspaceId, status: 'paused' } } })).then((r) =>
        r.data.filter((run) => run.kind !== 'wait'),
      ),
    refetchInterval: options.refetchIntervalMs ?? 10_000,
    // Opening a page that shows them asks again: a run may have paused a moment ago.
    staleTime: 0,
    enabled: options.enabled ?? true,
  });
}

/** What an approval's time-out decides. */
export function DefaultDecisionBadge({ decision }: { decision: 'approve' | 'reject' | null }) {
  return decision === 'approve' ? <Badge tone="ok">approve</Badge> : <Badge tone="error">reject</Badge>;
}

/** An agent's tool call waiting for a decision: which tool, with the arguments the model gave. */
export function WaitingToolCall({ toolCall }: { toolCall: NonNullable<PausedRun['toolCall']> }) {
  return (
    <div className="waiting-tool-call small" data-testid="waiting-tool-call">
      <span className="muted">Tool</span> <code data-testid="waiting-tool-name">{toolCall.name}</code>{' '}
      <span className="muted">with arguments</span>
      <pre data-testid="waiting-tool-arguments">
        {JSON.stringify(toolCall.arguments, null, 2)}
      </pre>
    </div>
  );
}

/** The note typed with a decision as `data: {note}`: JSON when it parses, else the text; nothing when empty. */
function noteData(note: string): { note: unknown } | undefined {
  const text = note.trim();
  if (!text) return undefined;
  try {
    return { note: JSON.parse(text) };
  } catch {
    return { note: text };
  }
}

function resumeExecution(executionId: string, approved: boolean, note = '') {
  const data = noteData(note);
  return answer(
    api.POST('/api/v1/executions/{executionId}/resume', {
      params: { path: { executionId } },
      body: data ? { approved, data } : { approved },
    }),
  );
}

export function cancelExecution(executionId: string): Promise<CancelAnswer> {
  return answer(api.POST('/api/v1/executions/{executionId}/cancel', { params: { path: { executionId } } })).then((r) => r.data);
}

/**
 * Approve / Reject (with an optional note) and, when `allowCancel`, Cancel run — for one paused run. A decision
 * refreshes the paused list; a 409 (someone else decided first, or the run ended) shows its message and refreshes too.
 */
export function ApprovalActions({
  executionId,
  workspaceId,
  allowCancel = false,
  onDecided,
}: {
  executionId: string;
  workspaceId: string;
  allowCancel?: boolean;
  onDecided: (decision: Decision) => void;
}) {
  const client = useQueryClient();
  const [note, setNote] = useState('');
  const { workspaces } = useWorkspace();
  const refresh = () => void client.invalidateQueries({ queryKey: pausedRunsKey(workspaceId) });
  const decide = useMutation({
    mutationFn: async (action: 'approve' | 'reject' | 'cancel'): Promise<Decision> => {
      if (action === 'cancel') return (await cancelExecution(executionId)).status;
      await resumeExecution(executionId, action === 'approve', note);
      return action === 'approve' ? 'approved' : 'rejected';
    },
    onSuccess: (decision) => {
      refresh();
      onDecided(decision);
    },
    onError: refresh,
  });
  // Read-only for viewers, as the server is (docs/api.md "Members and invites").
  if (!canEdit(workspaces.find((w) => w.id === workspaceId)?.role)) {
    return (
      <p className="small muted" data-testid="viewer-hint">
        Viewers cannot approve, reject or cancel runs. Ask a workspace owner or admin for the editor role.
      </p>
    );
  }
  return (
    <div className="approval-actions" data-testid="approval-actions">
      <label className="field">
        <span className="small muted">Note (optional; text or JSON, passed on as data.note)</span>
        <textarea aria-label="Decision note" rows={2} value={note} onChange={(e) => setNote(e.target.value)} disabled={decide.isPending} />
      </label>
      <div className="row gap wrap">
        <button className="btn primary small" disabled={decide.isPending} onClick={() => decide.mutate('approve')}>
          Approve
        </button>
        <button className="btn danger small" disabled={decide.isPending} onClick={() => decide.mutate('reject')}>
          Reject
        </button>
        {allowCancel && (
          <ConfirmButton
            className="btn ghost small"
            confirmLabel="Cancel the run"
            keepLabel="Keep waiting"
            disabled={decide.isPending}
            onConfirm={() => decide.mutate('cancel')}
          >
            Cancel run
          </ConfirmButton>
        )}
        {decide.isPending && <Spinner label="Sending" />}
      </div>
      <ErrorBox error={decide.error} />
    </div>
  );
}

const DECISION_TEXT: Record<Decision, string> = {
  approved: 'Approved',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
  cancelling: 'Cancelling',
};

/**
 * What became of a run after a decision: resuming (a worker goes on with it) until its log is written, then how it
 * ended with a link to the log; or waiting again when it reached another approval block.
 */
export function DecidedRun({
  executionId,
  workspaceId,
  decision,
  decidedAt,
  previousPausedAt,
}: {
  executionId: string;
  workspaceId: string;
  decision: Decision;
  /** Date.now() when decided. */
  decidedAt: number;
  /** The pause that was decided, when known: a paused entry with another time is a later pause. */
  previousPausedAt?: string;
}) {
  const log = useQuery({
    queryKey: ['run-log', workspaceId, executionId],
    queryFn: () =>
      answer(api.GET('/api/v1/logs', { params: { query: { workspaceId, executionId, limit: '1' } } })).then((r) => r.data[0] ?? null),
    // Until the log exists: a resumed run writes it when it completes; a cancelled one at once.
    refetchInterval: (query) => (query.state.data ? false : Date.now() - decidedAt < 120_000 ? 1_000 : 10_000),
  });
  const paused = usePausedRuns(workspaceId, { refetchIntervalMs: 2_000, enabled: !log.data });
  const again =
    !log.data &&
    paused.data?.find(
      (p) => p.executionId === executionId && (previousPausedAt ? p.pausedAt !== previousPausedAt : Date.parse(p.pausedAt) > decidedAt),
    );
  const tone = decision === 'approved' ? 'ok' : decision === 'rejected' ? 'error' : 'muted';
  return (
    <div className="decided-run" data-testid="decided-run" data-execution-id={executionId} data-state={log.data ? 'finished' : again ? 'paused' : 'resuming'}>
      <Badge tone={tone}>{DECISION_TEXT[decision]}</Badge>{' '}
      {log.data ? (
        <>
          <span>Run finished</span> <LevelBadge level={log.data.level} />{' '}
          <Link to={`/logs/${log.data.id}`}>Open log</Link>
        </>
      ) : again ? (
        <span>
          Waiting for another approval since {formatTime(again.pausedAt)} — <Link to="/approvals">Approvals</Link>
        </span>
      ) : (
        <span className="muted">
          <Spinner label="Resuming" /> {decision === 'approved' || decision === 'rejected' ? 'Resuming the run…' : 'Stopping the run…'}
        </span>
      )}
      {log.error ? <ErrorBox error={log.error} /> : null}
    </div>
  );
}
