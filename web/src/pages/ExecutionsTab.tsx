// The runs of one workflow (the Executions tab): newest first, filtered by outcome, each with its log and "Open in
// editor", which shows that run's block statuses, outputs and errors on the canvas (editor/past-run.ts). Above them,
// while any wait, the runs still queued (QueuedRuns.tsx).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { answer, api } from '../api';
import { Badge, formatDuration, formatTime, OutcomeBadge, QueryView, Table } from '../components/ui';
import { Link } from '../router';
import { versionLabel } from './Logs';
import { QueuedRuns } from './QueuedRuns';
import { RerunActions } from './Rerun';

const PAGE = 50;

/** What each outcome choice asks the logs API for. */
const OUTCOME_QUERY = {
  '': {},
  info: { level: 'info' },
  'block-errors': { blockErrors: 'true' },
  error: { level: 'error' },
} as const;

export function ExecutionsTab({ workflowId, workspaceId }: { workflowId: string; workspaceId: string }) {
  const [outcome, setOutcome] = useState<keyof typeof OUTCOME_QUERY>('');
  const runs = useQuery({
    queryKey: ['executions', workflowId, outcome],
    queryFn: () =>
      answer(
        api.GET('/api/v1/logs', {
          params: { query: { workspaceId, workflowIds: workflowId, limit: String(PAGE), ...OUTCOME_QUERY[outcome] } },
        }),
      ).then((r) => r.data),
    refetchInterval: 10_000,
  });
  return (
    <div className="page" data-testid="executions">
      <div className="page-head">
        <h2>Executions</h2>
        <label className="row gap small">
          Show
          <select aria-label="Filter by outcome" value={outcome} onChange={(e) => setOutcome(e.target.value as typeof outcome)}>
            <option value="">all runs</option>
            <option value="info">succeeded</option>
            <option value="block-errors">succeeded with block errors</option>
            <option value="error">failed or stopped</option>
          </select>
        </label>
        <Link to={`/logs?workflowIds=${workflowId}`} className="grow-right">
          All of them in Logs
        </Link>
      </div>
      <QueuedRuns workflowId={workflowId} workspaceId={workspaceId} />
      <QueryView query={runs} what="executions" retry empty="No runs of this workflow yet (or none with this outcome).">
        {(list) => (
          <Table columns={['Started', 'Outcome', 'Trigger', 'Version', 'Duration', 'Execution', '']}>
            {list.map((log) => (
              <tr key={log.id} data-testid="execution-row">
                <td>{formatTime(log.startedAt)}</td>
                <td>
                  <OutcomeBadge level={log.level} blockErrorCount={log.blockErrorCount} />
                </td>
                <td>
                  <Badge tone="info">{log.trigger}</Badge>
                </td>
                <td>{versionLabel(log.deploymentVersion)}</td>
                <td>{formatDuration(log.totalDurationMs)}</td>
                <td>
                  <code className="small">{log.executionId}</code>
                </td>
                <td className="row gap">
                  <Link to={`/logs/${log.id}`}>Log</Link>
                  <Link to={`/workflows/${workflowId}?execution=${log.executionId}`}>Open in editor</Link>
                  <RerunActions logId={log.id} failed={log.level === 'error'} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </QueryView>
    </div>
  );
}
