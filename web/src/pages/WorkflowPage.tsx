// One workflow: its header (name, deploy state) and tabs — editor, deployments, API, webhooks, executions. The editor stays
// mounted while another tab shows, so its undo history and unsaved edits survive a look at the API tab.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { answer, api } from '../api';
import { Boundary } from '../components/boundary';
import { Badge, ErrorBox, QueryView } from '../components/ui';
import { Editor, type EditorHandle } from '../editor/Editor';
import { Link, navigate } from '../router';
import { useWorkspace } from '../session';
import { readWorkflow, useWorkflowStatus } from '../queries';
import { canEdit } from '../roles';
import { asWorkflow, type Workflow } from '../types';
import { ApiTab } from './ApiTab';
import { DeployPanel } from './DeployPanel';
import { ExecutionsTab } from './ExecutionsTab';
import { WebhooksPanel } from './WebhooksPanel';
import { EditableText } from './WorkflowList';

const TABS = [
  { id: 'editor', label: 'Editor' },
  { id: 'deploy', label: 'Deploy' },
  { id: 'api', label: 'API' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'executions', label: 'Executions' },
];

export function WorkflowPage({ workflowId, tab }: { workflowId: string; tab: string }) {
  const client = useQueryClient();
  const { workspace, workspaces, selectWorkspace } = useWorkspace();
  const workflow = useQuery({
    queryKey: ['workflow', workflowId],
    queryFn: () => readWorkflow(workflowId),
    staleTime: Infinity,
  });
  const status = useWorkflowStatus(workflowId);
  const knownUpdatedAt = useRef('');
  const editorHandle = useRef<EditorHandle | null>(null);
  if (workflow.data && !knownUpdatedAt.current) knownUpdatedAt.current = workflow.data.updatedAt;

  // A deep link into another workspace's workflow switches the workspace picker to it.
  useEffect(() => {
    const owner = workflow.data?.workspaceId;
    if (owner && owner !== workspace.id && workspaces.some((w) => w.id === owner)) selectWorkspace(owner);
  }, [workflow.data?.workspaceId, workspace.id, workspaces, selectWorkspace]);

  const onSaved = useCallback(
    (saved: Workflow) => {
      client.setQueryData(['workflow', workflowId], (old: Workflow | undefined) => (old ? { ...old, ...saved, state: old.state } : saved));
      void client.invalidateQueries({ queryKey: ['workflow-status', workflowId] });
      void client.invalidateQueries({ queryKey: ['workflows', saved.workspaceId] });
    },
    [client, workflowId],
  );

  const rename = useMutation({
    mutationFn: (name: string) => answer(api.PATCH('/api/v1/workflows/{workflowId}', { params: { path: { workflowId } }, body: { name } })),
    onSuccess: ({ data }) => {
      knownUpdatedAt.current = data.updatedAt;
      onSaved(asWorkflow(data));
    },
  });

  const flush = useCallback(async () => (editorHandle.current ? editorHandle.current.flush() : true), []);
  const editorOf = useCallback(() => editorHandle.current, []);

  const s = status.data;
  // The role in the workflow's own workspace (a deep link may open it before the picker has switched).
  const roleOf = (workspaceId: string) => workspaces.find((w) => w.id === workspaceId)?.role;
  return (
    <QueryView query={workflow} what="workflow" retry back={<Link to="/workflows">Back to workflows</Link>}>
      {(data) => (
        <div className="workflow-page">
          <div className="workflow-head">
            <Link to="/workflows" className="muted">
              Workflows /
            </Link>
            <h2>
              <EditableText
                value={data.name}
                label="Workflow name"
                readOnly={!canEdit(roleOf(data.workspaceId))}
                onSave={(name) => rename.mutate(name)}
              />
            </h2>
            <span data-testid="deploy-badge">
              {!s ? null : !s.isDeployed ? (
                <Badge tone="muted">Not deployed</Badge>
              ) : s.needsRedeployment ? (
                <Badge tone="warn">Deployed v{s.activeVersion} · needs redeployment</Badge>
              ) : (
                <Badge tone="ok">Deployed v{s.activeVersion}</Badge>
              )}
            </span>
            <nav className="tabs" role="tablist">
              {TABS.map((t) => (
                <button
                  key={t.id}
                  role="tab"
                  aria-selected={tab === t.id}
                  className={tab === t.id ? 'active' : ''}
                  onClick={() => navigate(t.id === 'editor' ? `/workflows/${workflowId}` : `/workflows/${workflowId}/${t.id}`)}
                >
                  {t.label}
                </button>
              ))}
            </nav>
          </div>
          <ErrorBox error={rename.error} />
          <div className="workflow-body">
            <div className="tab-pane" style={{ display: tab === 'editor' ? 'flex' : 'none' }}>
              <Boundary what="The editor">
                <Editor
                  workflow={data}
                  knownUpdatedAt={knownUpdatedAt}
                  handle={editorHandle}
                  onSaved={onSaved}
                  visible={tab === 'editor'}
                  readOnly={!canEdit(roleOf(data.workspaceId))}
                />
              </Boundary>
            </div>
            {/* A failing tab stops here, so the editor beside it (and its unsaved edits) stays. */}
            <Boundary what="This tab" back={<Link to={`/workflows/${workflowId}`} className="btn small ghost">Back to the editor</Link>} resetKeys={[tab]}>
              {tab === 'deploy' && <DeployPanel workflowId={workflowId} flush={flush} editor={editorOf} readOnly={!canEdit(roleOf(data.workspaceId))} />}
              {tab === 'api' && <ApiTab workflowId={workflowId} flush={flush} />}
              {tab === 'webhooks' && <WebhooksPanel workflowId={workflowId} readOnly={!canEdit(roleOf(data.workspaceId))} />}
              {tab === 'executions' && <ExecutionsTab workflowId={workflowId} workspaceId={data.workspaceId} />}
            </Boundary>
          </div>
        </div>
      )}
    </QueryView>
  );
}
