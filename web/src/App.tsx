import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { answer, api, setCsrfToken } from './api';
import { usePausedRuns } from './components/approvals';
import { ErrorBox, Spinner } from './components/ui';
import { ApprovalsPage } from './pages/Approvals';
import { LogDetailPage } from './pages/LogDetail';
import { LogsPage } from './pages/Logs';
import { SettingsPage } from './pages/Settings';
import { SetupPage } from './pages/Setup';
import { SignInPage } from './pages/SignIn';
import { WorkflowListPage } from './pages/WorkflowList';
import { WorkflowPage } from './pages/WorkflowPage';
import { Link, matchPath, navigate, useLocation } from './router';
import { useSessionQuery, useWorkspace, WorkspaceProvider } from './session';
import { chooseTheme, currentTheme, type Theme } from './theme';

export function App() {
  const session = useSessionQuery();
  const { pathname } = useLocation();
  if (session.isPending) return <div className="page-message"><Spinner /> Loading…</div>;
  if (session.isError) return <div className="page-message"><ErrorBox error={session.error} /></div>;
  if (!session.data) return pathname === '/setup' ? <SetupPage /> : <SignInPage />;
  return (
    <WorkspaceProvider session={session.data}>
      <Shell />
    </WorkspaceProvider>
  );
}

function Shell() {
  const { pathname } = useLocation();
  const { session, workspace, workspaces, selectWorkspace } = useWorkspace();
  const client = useQueryClient();
  const signOut = useMutation({
    mutationFn: () => answer(api.POST('/api/v1/auth/sign-out')),
    onSettled: () => {
      setCsrfToken(null);
      // Nothing of the signed-in user may stay in memory for whoever signs in next.
      client.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
      client.setQueryData(['session'], null);
      navigate('/workflows');
    },
  });

  useEffect(() => {
    if (pathname === '/' || pathname === '/sign-in') navigate('/workflows', { replace: true });
    // A setup link opened again once signed in: the account exists, keys are in Settings.
    if (pathname === '/setup') navigate('/settings', { replace: true });
  }, [pathname]);

  const section = pathname.split('/')[1] ?? '';
  const workflow = matchPath('/workflows/:id/:tab?', pathname);
  const log = matchPath('/logs/:id', pathname);

  let page;
  if (workflow) page = <WorkflowPage key={workflow.id} workflowId={workflow.id} tab={workflow.tab ?? 'editor'} />;
  else if (section === 'workflows') page = <WorkflowListPage />;
  else if (log) page = <LogDetailPage key={log.id} logId={log.id} />;
  else if (section === 'logs') page = <LogsPage />;
  else if (section === 'approvals') page = <ApprovalsPage />;
  else if (section === 'settings') page = <SettingsPage />;
  else page = <div className="page-message">Nothing here. <Link to="/workflows">Go to workflows</Link></div>;

  return (
    <div className="shell">
      <header className="topbar">
        <Link to="/workflows" className="brand">
          <img src="/favicon.svg" alt="" width={22} height={22} /> Sluice
        </Link>
        <select
          className="workspace-picker"
          aria-label="Workspace"
          value={workspace.id}
          onChange={(e) => {
            selectWorkspace(e.target.value);
            navigate('/workflows');
          }}
        >
          {workspaces.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
        <nav className="mainnav">
          <Link to="/workflows" className={section === 'workflows' ? 'active' : ''}>Workflows</Link>
          <Link to="/approvals" className={section === 'approvals' ? 'active' : ''}>
            Approvals <WaitingCount workspaceId={workspace.id} />
          </Link>
          <Link to="/logs" className={section === 'logs' ? 'active' : ''}>Logs</Link>
          <Link to="/settings" className={section === 'settings' ? 'active' : ''}>Settings</Link>
        </nav>
        <div className="topbar-user">
          <a href="/docs" target="_blank" rel="noreferrer" className="topbar-link" title="The API reference (OpenAPI)">
            API docs
          </a>
          <ThemeToggle />
          <span title={`Plan: ${session.user.plan}`}>{session.user.email}</span>
          <button className="btn ghost small" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
      </header>
      <main className="content">{page}</main>
    </div>
  );
}

/** Switches between light and dark (the system's setting until the user picks one). */
function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(currentTheme);
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      className="btn ghost small"
      aria-label={`Switch to ${next} mode`}
      title={`Switch to ${next} mode`}
      onClick={() => {
        chooseTheme(next);
        setTheme(next);
      }}
    >
      {theme === 'dark' ? '☀' : '☾'}
    </button>
  );
}

/** How many runs of the workspace wait for a decision, beside the Approvals link (nothing when none). */
function WaitingCount({ workspaceId }: { workspaceId: string }) {
  const paused = usePausedRuns(workspaceId, { refetchIntervalMs: 30_000 });
  const count = paused.data?.length ?? 0;
  if (count === 0) return null;
  return (
    <span className="nav-count" data-testid="approvals-count" aria-label={`${count} waiting`}>
      {count}
    </span>
  );
}
