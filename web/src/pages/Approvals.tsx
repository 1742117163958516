// The workspace's runs waiting for an approval (README "Human approval"): what each asks, since when, what happens
// at its time-out; Approve / Reject with an optional note, or cancel the run. Decided runs stay listed below, each
// followed until its log is written.
import { useState } from 'react';
import { ApprovalActions, DecidedRun, DefaultDecisionBadge, usePausedRuns, WaitingToolCall, type Decision } from '../components/approvals';
import { Badge, formatTime, QueryView } from '../components/ui';
import { useWorkflowList, workflowNames } from '../queries';
import { Link } from '../router';
import { useWorkspace } from '../session';
import type { PausedRun } from '../types';

interface Decided {
  executionId: string;
  workflowId: string;
  decision: Decision;
  decidedAt: number;
  pausedAt: string;
}

export function ApprovalsPage() {
  const { workspace } = useWorkspace();
  const paused = usePausedRuns(workspace.id);
  const names = workflowNames(useWorkflowList(workspace.id).data);
  const [decided, setDecided] = useState<Decided[]>([]);
  // A run just decided may still be in the list until it refreshes: it is shown under "Decided" only.
  const waiting = (paused.data ?? []).filter((run) => !decided.some((d) => d.executionId === run.executionId && d.pausedAt === run.pausedAt));

  return (
    <div className="page">
      <div className="page-head">
        <h1>Approvals</h1>
        {paused.data && <Badge tone={waiting.length > 0 ? 'warn' : 'muted'}>{waiting.length} waiting</Badge>}
        <span className="grow" />
        <button className="btn small" onClick={() => void paused.refetch()} disabled={paused.isFetching}>
          Refresh
        </button>
      </div>
      <p className="muted small">
        Runs that reached an approval block, or an agent's call of a tool that needs approval, wait here until someone
        approves or rejects them, or their time-out applies the default decision. A rejected tool call is told to the
        model as refused, with the note as the reason. Downstream blocks read <code>&lt;approval.approved&gt;</code> and <code>&lt;approval.data&gt;</code>.
      </p>
      <QueryView query={paused} what="approvals" retry list={waiting} empty="No run is waiting for an approval.">
        <div className="paused-runs">
          {waiting.map((run) => (
            <PausedRunCard
              key={`${run.executionId}:${run.pausedAt}`}
              run={run}
              workflowName={names.get(run.workflowId)}
              workspaceId={workspace.id}
              onDecided={(decision) =>
                setDecided((list) => [
                  { executionId: run.executionId, workflowId: run.workflowId, decision, decidedAt: Date.now(), pausedAt: run.pausedAt },
                  ...list.filter((d) => d.executionId !== run.executionId),
                ])
              }
            />
          ))}
        </div>
      </QueryView>
      {decided.length > 0 && (
        <section className="card" data-testid="decided-runs">
          <h3>Decided here</h3>
          <ul className="decided-list">
            {decided.map((d) => (
              <li key={d.executionId}>
                <strong>{names.get(d.workflowId) ?? d.workflowId}</strong> <code className="small">{d.executionId}</code>
                <DecidedRun
                  executionId={d.executionId}
                  workspaceId={workspace.id}
                  decision={d.decision}
                  decidedAt={d.decidedAt}
                  previousPausedAt={d.pausedAt}
                />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function PausedRunCard({
  run,
  workflowName,
  workspaceId,
  onDecided,
}: {
  run: PausedRun;
  workflowName: string | undefined;
  workspaceId: string;
  onDecided: (decision: Decision) => void;
}) {
  return (
    <section className="card paused-run" data-testid="paused-run" data-execution-id={run.executionId}>
      <div className="paused-run-head">
        <div className="paused-message" data-testid="paused-message">
          {run.message ? run.message : <span className="muted">(no message)</span>}
        </div>
        <Link to={`/workflows/${run.workflowId}`} className="small">
          {workflowName ?? run.workflowId}
        </Link>
      </div>
      {run.toolCall && <WaitingToolCall toolCall={run.toolCall} />}
      <div className="paused-facts small">
        <span>
          <span className="muted">Paused at</span> {formatTime(run.pausedAt)}
        </span>
        <span data-testid="paused-timeout">
          <span className="muted">Time-out</span>{' '}
          {run.timeoutAt ? (
            <>
              {formatTime(run.timeoutAt)}, then <DefaultDecisionBadge decision={run.defaultDecision} />
            </>
          ) : (
            'none: waits until someone decides'
          )}
        </span>
        <span>
          <span className="muted">Execution</span> <code>{run.executionId}</code>
        </span>
      </div>
      <ApprovalActions executionId={run.executionId} workspaceId={workspaceId} allowCancel onDecided={onDecided} />
    </section>
  );
}
