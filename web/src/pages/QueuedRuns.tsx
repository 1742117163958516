// The Executions tab's "Queued" section: the workflow's async runs waiting in the queue, in the order a worker takes
// them, with why each waits (docs/api.md "Queued runs"), and Cancel for editors. Shown only while some are queued;
// asked again every few seconds, as a queue moves faster than the runs list below it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { answer, api } from '../api';
import { cancelExecution } from '../components/approvals';
import { Badge, ConfirmButton, ErrorBox, formatTime, Table } from '../components/ui';
import { canEdit } from '../roles';
import { useWorkspace } from '../session';

const POLL_MS = 3_000;

const queuedRunsKey = (workflowId: string) => ['queued-runs', workflowId] as const;

/** What each reason means, in a few words (docs/api.md "Queued runs"). */
const REASON_TEXT: Record<string, string> = {
  due: 'waiting for a worker',
  concurrency: 'no concurrency slot free',
  singleton: 'a run of its key is in flight',
  throttled: 'throttled until due',
  debounced: 'debounce burst still taking calls',
  retry: 'its worker stopped; runs again',
  scheduled: 'not due yet',
};

export function QueuedRuns({ workflowId, workspaceId }: { workflowId: string; workspaceId: string }) {
  const client = useQueryClient();
  const { workspaces } = useWorkspace();
  const editor = canEdit(workspaces.find((w) => w.id === workspaceId)?.role);
  const queued = useQuery({
    queryKey: queuedRunsKey(workflowId),
    queryFn: () => answer(api.GET('/api/v1/workflows/{workflowId}/queued-runs', { params: { path: { workflowId } } })),
    refetchInterval: POLL_MS,
  });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: queuedRunsKey(workflowId) });
    // A cancelled run is logged: the runs list below shows it.
    void client.invalidateQueries({ queryKey: ['executions', workflowId] });
  };
  const cancel = useMutation({ mutationFn: cancelExecution, onSettled: refresh });
  // Nothing queued (or not known yet): no section. A failed read says so only once there was a list to show.
  if (!queued.data || queued.data.total === 0) return queued.isError ? <ErrorBox error={queued.error} /> : null;
  const { data: runs, total } = queued.data;
  return (
    <section className="queued-runs" data-testid="queued-runs">
      <h3>
        Queued <Badge tone="info">{total}</Badge>
      </h3>
      {total > runs.length && (
        <p className="small muted">
          The first {runs.length} of {total}, in the order a worker takes them.
        </p>
      )}
      <Table columns={['Place', 'Execution', 'Since', 'Due', 'Reason', 'Key', '']}>
        {runs.map((run) => (
          <tr key={run.executionId} data-testid="queued-row" data-execution-id={run.executionId}>
            <td data-testid="queued-place">{run.place}</td>
            <td>
              <code className="small">{run.executionId}</code>
            </td>
            <td>{formatTime(run.queuedAt)}</td>
            <td>{formatTime(run.dueAt)}</td>
            <td title={REASON_TEXT[run.reason]}>
              <Badge tone={run.reason === 'due' ? 'ok' : run.reason === 'retry' ? 'warn' : 'muted'}>{run.reason}</Badge>{' '}
              <span className="small muted">{REASON_TEXT[run.reason]}</span>
            </td>
            <td>{run.key !== undefined ? <code className="small">{run.key}</code> : <span className="muted">—</span>}</td>
            <td className="actions">
              {editor && (
                <ConfirmButton
                  className="btn ghost small"
                  confirmLabel="Cancel the run"
                  keepLabel="Keep it"
                  disabled={cancel.isPending}
                  onConfirm={() => cancel.mutate(run.executionId)}
                >
                  Cancel
                </ConfirmButton>
              )}
            </td>
          </tr>
        ))}
      </Table>
      <ErrorBox error={cancel.error} />
    </section>
  );
}
