// Workflows: create, read, update, delete, deploy and roll back, and export / import as documents.
import type { Api, RequestOptions } from './api.js';
import type {
  Deployment,
  DeployResult,
  Workflow,
  WorkflowCreate,
  WorkflowExport,
  WorkflowImport,
  WorkflowImportResult,
  WorkflowStatus,
  WorkflowSummary,
  WorkflowUpdate,
} from './types.js';

export function workflowCalls({ api, answer }: Api) {
  return {
    list: (query: { workspaceId: string; folderId?: string }, opts: RequestOptions = {}): Promise<WorkflowSummary[]> =>
      answer(api.GET('/api/v1/workflows', { params: { query }, signal: opts.signal })).then((r) => r.data),
    get: (workflowId: string, opts: RequestOptions = {}): Promise<Workflow> =>
      answer(api.GET('/api/v1/workflows/{workflowId}', { params: { path: { workflowId } }, signal: opts.signal })).then((r) => r.data),
    create: (body: WorkflowCreate, opts: RequestOptions = {}): Promise<Workflow> =>
      answer(api.POST('/api/v1/workflows', { body, signal: opts.signal })).then((r) => r.data),
    update: (workflowId: string, body: WorkflowUpdate, opts: RequestOptions = {}): Promise<Workflow> =>
      answer(api.PATCH('/api/v1/workflows/{workflowId}', { params: { path: { workflowId } }, body, signal: opts.signal })).then((r) => r.data),
    delete: (workflowId: string, opts: RequestOptions = {}): Promise<void> =>
      answer(api.DELETE('/api/v1/workflows/{workflowId}', { params: { path: { workflowId } }, signal: opts.signal })).then(() => undefined),
    deploy: (workflowId: string, opts: RequestOptions = {}): Promise<DeployResult> =>
      answer(api.POST('/api/v1/workflows/{workflowId}/deploy', { params: { path: { workflowId } }, signal: opts.signal })),
    undeploy: (workflowId: string, opts: RequestOptions = {}): Promise<void> =>
      answer(api.DELETE('/api/v1/workflows/{workflowId}/deploy', { params: { path: { workflowId } }, signal: opts.signal })).then(() => undefined),
    deployments: (workflowId: string, opts: RequestOptions = {}): Promise<Deployment[]> =>
      answer(api.GET('/api/v1/workflows/{workflowId}/deployments', { params: { path: { workflowId } }, signal: opts.signal })).then((r) => r.data),
    activate: (workflowId: string, version: number, opts: RequestOptions = {}): Promise<DeployResult> =>
      answer(
        api.POST('/api/v1/workflows/{workflowId}/deployments/{version}/activate', {
          params: { path: { workflowId, version: String(version) } },
          signal: opts.signal,
        }),
      ),
    status: (workflowId: string, opts: RequestOptions = {}): Promise<WorkflowStatus> =>
      answer(api.GET('/api/workflows/{workflowId}/status', { params: { path: { workflowId } }, signal: opts.signal })),
    export: (workflowId: string, opts: RequestOptions = {}): Promise<WorkflowExport> =>
      answer(api.GET('/api/v1/workflows/{workflowId}/export', { params: { path: { workflowId } }, signal: opts.signal })),
    import: (body: WorkflowImport, opts: RequestOptions = {}): Promise<WorkflowImportResult> =>
      answer(api.POST('/api/v1/workflows/import', { body, signal: opts.signal })),
  };

}
