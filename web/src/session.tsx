// The signed-in user and the workspace being looked at, shared by every page. The session is a small store of its own
// rather than a TanStack query: it decides between the sign-in page and the app, and the sign-in page loads before
// TanStack Query (which only the signed-in app's chunk carries), to keep its first load small.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { answer, api, ApiError, SESSION_LOST_EVENT, setCsrfToken } from './api';
import type { SessionInfo, Workspace } from './types';

const WORKSPACE_KEY = 'sluice.workspaceId';

/** The workspace to show after the next sign-in (accepting an invite lands in the workspace it invited to). */
export function rememberWorkspace(id: string) {
  localStorage.setItem(WORKSPACE_KEY, id);
}

/** Where the session stands: being asked for the first time, unreadable, or known (null: nobody is signed in). */
export type SessionState =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; session: SessionInfo | null };

let state: SessionState = { status: 'loading' };
let asking: Promise<void> | null = null;
const listeners = new Set<() => void>();

function publish(next: SessionState) {
  state = next;
  for (const listener of listeners) listener();
}

/** A refusal will not change by asking again; a network failure or a 5xx is asked twice more, as other reads are. */
const mayRetry = (error: unknown, attempt: number) => !(error instanceof ApiError && error.status < 500) && attempt < 2;

async function readSession(): Promise<SessionInfo | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      const session = await answer(api.GET('/api/v1/auth/session'));
      setCsrfToken(session.csrfToken);
      return session;
    } catch (error) {
      setCsrfToken(null);
      if (error instanceof ApiError && error.status === 401) return null;
      if (!mayRetry(error, attempt)) throw error;
      await new Promise((done) => setTimeout(done, Math.min(1000 * 2 ** attempt, 30_000)));
    }
  }
}

/**
 * Asks the server who is signed in (after signing in, on a lost session, after creating a workspace). What is known
 * stays shown meanwhile; concurrent calls share one request.
 */
export function reloadSession(): Promise<void> {
  asking ??= readSession()
    .then(
      (session) => publish({ status: 'ready', session }),
      (error: unknown) => publish({ status: 'error', error }),
    )
    .finally(() => {
      asking = null;
    });
  return asking;
}

/** Signed out: nobody is signed in from now on, without asking. */
export function signedOut() {
  setCsrfToken(null);
  publish({ status: 'ready', session: null });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function useSession(): SessionState {
  const current = useSyncExternalStore(subscribe, () => state);
  useEffect(() => {
    if (state.status === 'loading') void reloadSession();
    const lost = () => void reloadSession();
    window.addEventListener(SESSION_LOST_EVENT, lost);
    return () => window.removeEventListener(SESSION_LOST_EVENT, lost);
  }, []);
  return current;
}

interface WorkspaceContextValue {
  session: SessionInfo;
  workspace: Workspace;
  workspaces: Workspace[];
  selectWorkspace(id: string): void;
}

const WorkspaceContext = createContext<WorkspaceContextValue | null>(null);

export function WorkspaceProvider({ session, children }: { session: SessionInfo; children: ReactNode }) {
  const [selected, setSelected] = useState(() => localStorage.getItem(WORKSPACE_KEY));
  const workspaces = session.workspaces;
  const workspace = workspaces.find((w) => w.id === selected) ?? workspaces[0];
  const selectWorkspace = useCallback((id: string) => {
    localStorage.setItem(WORKSPACE_KEY, id);
    setSelected(id);
  }, []);
  const value = useMemo(
    () => (workspace ? { session, workspace, workspaces, selectWorkspace } : null),
    [session, workspace, workspaces, selectWorkspace],
  );
  if (!value) return <div className="page-message">This account has no workspace yet.</div>;
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

export function useWorkspace(): WorkspaceContextValue {
  const value = useContext(WorkspaceContext);
  if (!value) throw new Error('useWorkspace outside WorkspaceProvider');
  return value;
}
