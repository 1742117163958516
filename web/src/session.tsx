// The signed-in user and the workspace being looked at, shared by every page.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { answer, api, SESSION_LOST_EVENT, setCsrfToken } from './api';
import type { SessionInfo, Workspace } from './types';

const WORKSPACE_KEY = 'sluice.workspaceId';

export function useSessionQuery() {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      try {
        const session = await answer(api.GET('/api/v1/auth/session'));
        setCsrfToken(session.csrfToken);
        return session;
      } catch (error) {
        setCsrfToken(null);
        if ((error as { status?: number }).status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
  useEffect(() => {
    const lost = () => void client.invalidateQueries({ queryKey: ['session'] });
    window.addEventListener(SESSION_LOST_EVENT, lost);
    return () => window.removeEventListener(SESSION_LOST_EVENT, lost);
  }, [client]);
  return query;
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
