// sluice-client: a typed client for the Sluice API (types generated from its OpenAPI document), and verifyWebhook for
// receivers of completion webhooks.
export { createSluiceClient } from './client.js';
export type {
  ExecuteOptions,
  ExecutionResponse,
  LogBatch,
  LogPages,
  PollOptions,
  RequestOptions,
  RerunBatchOptions,
  RerunOptions,
  SluiceClient,
  SluiceClientOptions,
  StreamOptions,
  WaitOptions,
  WorkflowStream,
} from './client.js';
export { SluiceError } from './errors.js';
export type { ErrorDetail } from './errors.js';
export type { RetryOptions } from './retry.js';
export { verifyWebhook } from './verify-webhook.js';
export type { VerifyWebhookOptions, WebhookHeaders } from './verify-webhook.js';
export type * from './types.js';
export type { components, paths, webhooks } from './generated/openapi.js';
