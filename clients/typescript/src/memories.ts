// Agent conversation memories of a workflow (docs/api.md 12): listed, read and deleted per key.
import type { Api, RequestOptions } from './api.js';
import type { MemoryDetail, MemoryPage } from './types.js';

export function memoryCalls({ api, answer }: Api) {
  const memoryPath = (workflowId: string, key: string) => ({ path: { workflowId, key } });
  return {
    /** Most recently updated first. */
    list: (workflowId: string, query: { limit?: number; cursor?: string } = {}, opts: RequestOptions = {}): Promise<MemoryPage> =>
      answer(api.GET('/api/v1/workflows/{workflowId}/memories', { params: { path: { workflowId }, query }, signal: opts.signal })),
    /** A memory and a page of its messages, oldest first. */
    get: (workflowId: string, key: string, query: { limit?: number; cursor?: string } = {}, opts: RequestOptions = {}): Promise<MemoryDetail> =>
      answer(api.GET('/api/v1/workflows/{workflowId}/memories/{key}', { params: { ...memoryPath(workflowId, key), query }, signal: opts.signal })),
    /** Forgets the conversation: the next run under the key starts afresh. */
    delete: (workflowId: string, key: string, opts: RequestOptions = {}): Promise<void> =>
      answer(api.DELETE('/api/v1/workflows/{workflowId}/memories/{key}', { params: memoryPath(workflowId, key), signal: opts.signal })).then(
        () => undefined,
      ),
  };
}
