// Queries several pages share, under one key each so they share the cache.
import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import type { WorkflowSummary } from './types';

/** The workspace's workflows (the key WorkflowList and Logs use too). */
export function useWorkflowList(workspaceId: string) {
  return useQuery({
    queryKey: ['workflows', workspaceId],
    queryFn: () => api<{ data: WorkflowSummary[] }>(`/api/v1/workflows?workspaceId=${workspaceId}`).then((r) => r.data),
  });
}
