// Queries several pages share, under one key each so they share the cache.
import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import type { WorkflowStatus, WorkflowSummary } from './types';

/** The workspace's workflows: the list page, the logs filter and the approvals page share it. */
export function useWorkflowList(workspaceId: string) {
  return useQuery({
    queryKey: ['workflows', workspaceId],
    queryFn: () => api<{ data: WorkflowSummary[] }>(`/api/v1/workflows?workspaceId=${workspaceId}`).then((r) => r.data),
  });
}

/** Workflow names by id, for pages that list runs of several workflows. */
export function workflowNames(workflows: readonly WorkflowSummary[] | undefined): Map<string, string> {
  return new Map((workflows ?? []).map((w) => [w.id, w.name]));
}

/** A workflow's deploy state (draft vs. deployed); the header, the Deploy panel and the API tab share it. */
export function useWorkflowStatus(workflowId: string) {
  return useQuery({
    queryKey: ['workflow-status', workflowId],
    queryFn: () => api<WorkflowStatus>(`/api/workflows/${workflowId}/status`),
  });
}
