// Queries several pages share, under one key each so they share the cache, and the workflow read they all make.
import { useQuery } from '@tanstack/react-query';
import { answer, api } from './api';
import { asWorkflow, type Workflow, type WorkflowSummary } from './types';

/** The workspace's workflows: the list page, the logs filter and the approvals page share it. */
export function useWorkflowList(workspaceId: string) {
  return useQuery({
    queryKey: ['workflows', workspaceId],
    queryFn: () => answer(api.GET('/api/v1/workflows', { params: { query: { workspaceId } } })).then((r) => r.data),
  });
}

/** The workspace's stored credentials: the Credentials page and the block forms' credential picker share it. */
export function useCredentialList(workspaceId: string) {
  return useQuery({
    queryKey: ['credentials', workspaceId],
    queryFn: () => answer(api.GET('/api/v1/credentials', { params: { query: { workspaceId } } })).then((r) => r.data),
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
    queryFn: () => answer(api.GET('/api/workflows/{workflowId}/status', { params: { path: { workflowId } } })),
  });
}

/** A workflow with its draft, as the server holds it now. */
export function readWorkflow(workflowId: string): Promise<Workflow> {
  return answer(api.GET('/api/v1/workflows/{workflowId}', { params: { path: { workflowId } } })).then((r) => asWorkflow(r.data));
}
