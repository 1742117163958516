// The typed client: every call goes through openapi-fetch over the generated `paths`, so a route's request and response
// types come from the server's OpenAPI document. Refusals throw SluiceError; 429s are retried after Retry-After.
import { createApi, type RequestOptions, type SluiceClientOptions } from './api.js';
import { credentialCalls } from './credentials.js';
import { logCalls } from './logs.js';
import { memberCalls } from './members.js';
import { memoryCalls } from './memories.js';
import { runCalls } from './runs.js';
import type { BlockType, Me } from './types.js';
import { webhookCalls } from './webhook-subscriptions.js';
import { workflowCalls } from './workflows.js';

export type { RequestOptions, SluiceClientOptions } from './api.js';
export type { ExecuteOptions, ExecutionResponse, RerunBatchOptions, RerunOptions, StreamOptions, WaitOptions, WorkflowStream } from './runs.js';
export type { LogBatch, LogPages, PollOptions } from './logs.js';

export function createSluiceClient(options: SluiceClientOptions) {
  const transport = createApi(options);
  return {
    baseUrl: transport.baseUrl,
    me: (opts: RequestOptions = {}): Promise<Me> => transport.answer(transport.api.GET('/api/v1/me', { signal: opts.signal })),
    /** The block types workflows are built from, each with its config's JSON Schema. */
    blockTypes: (opts: RequestOptions = {}): Promise<BlockType[]> =>
      transport.answer(transport.api.GET('/api/v1/block-types', { signal: opts.signal })).then((r) => r.data),
    workflows: workflowCalls(transport),
    webhooks: webhookCalls(transport),
    /** Agent conversation memories of a workflow. */
    memories: memoryCalls(transport),
    /** Members of a workspace and invite links. */
    members: memberCalls(transport),
    /** Stored credentials of a workspace (secret values are write-only). */
    credentials: credentialCalls(transport),
    ...runCalls(transport),
    ...logCalls(transport),
  };
}

export type SluiceClient = ReturnType<typeof createSluiceClient>;
