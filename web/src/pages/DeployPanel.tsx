// Deploy, redeploy when the draft changed ("needs redeployment"), roll back to an earlier version, undeploy.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { answer, api } from '../api';
import { Badge, ConfirmButton, ErrorBox, formatTime, QueryView, Table } from '../components/ui';
import { useWorkflowStatus } from '../queries';
import { VIEWER_HINT } from '../roles';
import { Link } from '../router';
import type { EditorHandle } from '../editor/Editor';
import { FlowControlSettings } from './FlowControlSettings';
import { TraceDetailSetting } from './TraceDetailSetting';

/** `readOnly`: a viewer's panel, whose deploy controls are disabled with the reason (the server refuses them too). */
export function DeployPanel({
  workflowId,
  flush,
  editor,
  readOnly = false,
}: {
  workflowId: string;
  flush: () => Promise<boolean>;
  /** The editor, which holds the draft: flow control settings are saved through it. */
  editor: () => EditorHandle | null;
  readOnly?: boolean;
}) {
  const client = useQueryClient();
  const status = useWorkflowStatus(workflowId);
  const deployments = useQuery({
    queryKey: ['deployments', workflowId],
    queryFn: () => answer(api.GET('/api/v1/workflows/{workflowId}/deployments', { params: { path: { workflowId } } })).then((r) => r.data),
  });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['workflow-status', workflowId] });
    void client.invalidateQueries({ queryKey: ['deployments', workflowId] });
    void client.invalidateQueries({ queryKey: ['workflows'] });
  };
  const deploy = useMutation({
    mutationFn: async () => {
      if (!(await flush())) throw new Error('The draft has unsaved problems; fix them in the editor before deploying.');
      return answer(api.POST('/api/v1/workflows/{workflowId}/deploy', { params: { path: { workflowId } } }));
    },
    onSuccess: refresh,
  });
  const activate = useMutation({
    mutationFn: (version: number) =>
      answer(api.POST('/api/v1/workflows/{workflowId}/deployments/{version}/activate', { params: { path: { workflowId, version: String(version) } } })),
    onSuccess: refresh,
  });
  const undeploy = useMutation({
    mutationFn: () => answer(api.DELETE('/api/v1/workflows/{workflowId}/deploy', { params: { path: { workflowId } } })),
    onSuccess: refresh,
  });

  const s = status.data;
  const error = deploy.error ?? activate.error ?? undeploy.error;
  return (
    <div className="page narrow">
      <section className="card">
        <h3>Deployment</h3>
        <QueryView query={status} retry>
          <div className="deploy-state" data-testid="deploy-state">
            {!s?.isDeployed ? (
              <p>
                <Badge tone="muted">Not deployed</Badge> The API endpoint answers 409 until you deploy.
              </p>
            ) : (
              <p>
                <Badge tone="ok">Active: v{s.activeVersion}</Badge> since {formatTime(s.deployedAt)}.{' '}
                {s.needsRedeployment ? (
                  <Badge tone="warn">Needs redeployment</Badge>
                ) : (
                  <span className="muted">The draft matches the active version.</span>
                )}
              </p>
            )}
            {s?.needsRedeployment && <p className="small">The draft has changed since this version was deployed; API calls still run v{s.activeVersion}.</p>}
            <div className="row gap">
              <button
                className="btn primary"
                data-testid="deploy-button"
                onClick={() => deploy.mutate()}
                disabled={readOnly || deploy.isPending || (s?.isDeployed && !s.needsRedeployment)}
                aria-describedby={readOnly ? 'deploy-viewer-hint' : undefined}
              >
                {deploy.isPending ? 'Deploying…' : s?.isDeployed ? 'Redeploy' : 'Deploy'}
              </button>
              {s?.isDeployed && (
                <ConfirmButton confirmLabel="Undeploy now" onConfirm={() => undeploy.mutate()} disabled={readOnly || undeploy.isPending}>
                  Undeploy
                </ConfirmButton>
              )}
              {s?.isDeployed && <Link to={`/workflows/${workflowId}/api`}>Call it from the API tab →</Link>}
            </div>
            {readOnly && (
              <p className="small muted" id="deploy-viewer-hint" data-testid="viewer-hint">
                {VIEWER_HINT}
              </p>
            )}
            {deploy.data && <p className="small ok-text">Deployed version {deploy.data.version}.</p>}
          </div>
        </QueryView>
        <ErrorBox error={error} />
      </section>
      <section className="card">
        <h3>Flow control</h3>
        <p className="small muted">
          Limit how many runs are in flight at once, for the whole workflow or per key, and order queued runs. Part of the
          draft: deploy to put a change in force.
        </p>
        <FlowControlSettings editor={editor} readOnly={readOnly} />
      </section>
      <section className="card">
        <h3>Logs</h3>
        <p className="small muted">
          A summary keeps logs small; re-running from a block needs the full trace. Part of the draft: deploy to put a change in force.
        </p>
        <TraceDetailSetting editor={editor} readOnly={readOnly} />
      </section>
      <section className="card">
        <h3>History</h3>
        <QueryView query={deployments} empty="No deployments yet.">
          {(list) => (
            <Table columns={['Version', 'Deployed', '']} testId="deployments">
              {list.map((d) => (
                <tr key={d.id}>
                  <td>
                    v{d.version} {d.isActive && <Badge tone="ok">active</Badge>}
                  </td>
                  <td className="muted">{formatTime(d.createdAt)}</td>
                  <td className="actions">
                    {!d.isActive && (
                      <button className="btn small" onClick={() => activate.mutate(d.version)} disabled={readOnly || activate.isPending}>
                        {s?.activeVersion && d.version < s.activeVersion ? 'Roll back to this' : 'Activate'}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </QueryView>
      </section>
    </div>
  );
}
