// The signed-in app, a chunk of its own that the sign-in page does not load: TanStack Query's cache, the top bar, and
// the pages, each again its own chunk.
import { QueryClient, QueryClientProvider, useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { answer, api, ApiError } from './api';
import { usePausedRuns } from './components/approvals';
import { Boundary } from './components/boundary';
import { Loading } from './components/ui';
import { Link, matchPath, navigate, useLocation } from './router';
import { signedOut, useWorkspace, WorkspaceProvider } from './session';
import { chooseTheme, currentTheme, type Theme } from './theme';
import type { SessionInfo } from './types';

// Each page of the signed-in app is its own chunk, fetched when first shown: the sign-in page loads none of them
// (the editor alone, with React Flow and the workflow model, is most of the app's code).
const WorkflowPage = lazy(() => import('./pages/WorkflowPage').then((m) => ({ default: m.WorkflowPage })));
const WorkflowListPage = lazy(() => import('./pages/WorkflowList').then((m) => ({ default: m.WorkflowListPage })));
const LogDetailPage = lazy(() => import('./pages/LogDetail').then((m) => ({ default: m.LogDetailPage })));
const LogsPage = lazy(() => import('./pages/Logs').then((m) => ({ default: m.LogsPage })));
const ApprovalsPage = lazy(() => import('./pages/Approvals').then((m) => ({ default: m.ApprovalsPage })));
const SettingsPage = lazy(() => import('./pages/Settings').then((m) => ({ default: m.SettingsPage })));
const MembersPage = lazy(() => import('./pages/Members').then((m) => ({ default: m.MembersPage })));
const CredentialsPage = lazy(() => import('./pages/Credentials').then((m) => ({ default: m.CredentialsPage })));

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: false,
      // Client errors will not change by asking again; rate limits are retried by the pages that meet them.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    },
  },
});

export function SignedInApp({ session }: { session: SessionInfo }) {
  return (
    <QueryClientProvider client={queryClient}>
      <WorkspaceProvider session={session}>
        <Shell />
      </WorkspaceProvider>
    </QueryClientProvider>
  );
}

function Shell() {
  const { pathname } = useLocation();
  const { session, workspace, workspaces, selectWorkspace } = useWorkspace();
  const client = useQueryClient();
  const signOut = useMutation({
    mutationFn: () => answer(api.POST('/api/v1/auth/sign-out')),
    onSettled: () => {
      // Nothing of the signed-in user may stay in memory for whoever signs in next.
      client.removeQueries();
      signedOut();
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
  else if (section === 'members') page = <MembersPage />;
  else if (section === 'credentials') page = <CredentialsPage />;
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
          <Link to="/members" className={section === 'members' ? 'active' : ''}>Members</Link>
          <Link to="/credentials" className={section === 'credentials' ? 'active' : ''}>Credentials</Link>
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
      <main className="content">
        <Boundary what="This page" back={<Link to="/workflows" className="btn small ghost">Back to workflows</Link>} resetKeys={[pathname]}>
          <Suspense fallback={<Loading />}>{page}</Suspense>
        </Boundary>
      </main>
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
