// Names for the shapes of the API, all taken from the generated OpenAPI types (generated/openapi.ts): nothing here is
// written by hand but the friendlier query types, which are derived from the generated ones.
import type { components, paths } from './generated/openapi.js';

type Schemas = components['schemas'];
type JsonBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

export type Me = Schemas['Me'];
export type BlockType = Schemas['BlockType'];
export type Workflow = Schemas['Workflow'];
export type WorkflowSummary = Schemas['WorkflowSummary'];
export type WorkflowState = Schemas['Workflow']['state'];
export type Deployment = Schemas['Deployment'];
export type DeployResult = Schemas['DeployResult'];
export type WorkflowStatus = Schemas['WorkflowStatus'];
export type WorkflowDocument = Schemas['WorkflowDocument'];
export type WorkflowExport = Schemas['WorkflowExport'];
export type WorkflowImportResult = Schemas['WorkflowImportResult'];
/** A stored credential as reads show it: its non-secret fields and which secret fields are set, never their values. */
export type Credential = Schemas['Credential'];
export type CredentialTest = Schemas['CredentialTest'];
export type ExecuteResult = Schemas['ExecuteResult'];
export type ExecuteAccepted = Schemas['ExecuteAccepted'];
export type StreamChunk = Schemas['StreamChunk'];
export type StreamDone = Schemas['StreamDone'];
/** A manual run's progress record (POST /api/v1/workflows/{id}/run as SSE), before its StreamDone. */
export type RunProgress = Schemas['RunProgress'];
export type JobStatus = Schemas['JobStatus'];
export type ExecutionPaused = Schemas['ExecutionPaused'];
export type PausedRun = Schemas['PausedRunList']['data'][number];
export type ResumeDecision = JsonBody<'/api/v1/executions/{executionId}/resume', 'post'>;
export type CancelAnswer = Schemas['CancelAnswer']['data'];
export type RerunRequest = JsonBody<'/api/v1/executions/{executionId}/rerun', 'post'>;
export type RerunPreview = Extract<Schemas['RerunResult'], { willRun: unknown }>;
export type RerunAccepted = Extract<Schemas['RerunAccepted'], { taskId: string }>;
export type RerunBatchRequest = JsonBody<'/api/v1/executions/rerun', 'post'>;
/** The logs filters a bulk re-run selects by (those of GET /api/v1/logs, as its query parameters). */
export type RerunBatchFilter = NonNullable<RerunBatchRequest['filter']>;
export type RerunBatchAccepted = Schemas['RerunBatchAccepted']['data'];
export type RerunBatchProgress = Schemas['RerunBatchProgress']['data'];
export type Limits = Schemas['Limits'];
export type TraceSpan = Schemas['TraceSpan'];
export type LogEntry = Schemas['LogEntry'];
export type LogPage = Schemas['LogPage'];
export type LogDetail = Schemas['LogDetail']['data'];
export type ExecutionDetail = Schemas['ExecutionDetail'];
export type Subscription = Schemas['Subscription'];
export type Delivery = Schemas['Delivery'];
export type DeliveryPage = Schemas['DeliveryPage'];
export type WebhookEvent = Schemas['WebhookEvent'];
export type MemoryPage = Schemas['MemoryPage'];
/** One agent conversation memory and a page of its messages. */
export type MemoryDetail = Schemas['MemoryDetail'];
export type MemorySummary = MemoryPage['data'][number];
export type MemoryMessage = MemoryDetail['data']['messages'][number];
export type Health = Schemas['Health'];
export type Readiness = Schemas['Readiness'];
export type Workspace = Schemas['Workspace'];
export type Member = Schemas['Member'];
export type AddedMember = Schemas['AddedMember'];
/** owner, admin, editor or viewer. */
export type WorkspaceRole = Member['role'];
export type Invite = Schemas['Invite'];
/** A new invite with its one-time link, which no later answer contains. */
export type CreatedInvite = Schemas['CreatedInvite'];
export type InvitePreview = Schemas['InvitePreview'];
export type InviteCreate = JsonBody<'/api/v1/workspaces/{workspaceId}/invites', 'post'>;
export type MemberUpdate = JsonBody<'/api/v1/workspaces/{workspaceId}/members/{userId}', 'patch'>;
export type EnvVar = Schemas['EnvVar'];
export type UsageLimits = Schemas['UsageLimits'];
export type Folder = Schemas['Folder'];
export type ApiKey = Schemas['ApiKey'];
/** A new API key with its secret, which no later answer contains. */
export type CreatedApiKey = Schemas['CreatedApiKey'];
export type AuthOptions = Schemas['AuthOptions'];
export type SetupState = Schemas['SetupState'];
export type SignedIn = Schemas['SignedIn'];
export type Session = Schemas['Session'];

export type WorkflowCreate = JsonBody<'/api/v1/workflows', 'post'>;
export type WorkflowUpdate = JsonBody<'/api/v1/workflows/{workflowId}', 'patch'>;
export type WorkflowImport = JsonBody<'/api/v1/workflows/import', 'post'>;
export type CredentialCreate = JsonBody<'/api/v1/credentials', 'post'>;
export type CredentialUpdate = JsonBody<'/api/v1/credentials/{credentialId}', 'patch'>;
export type SubscriptionCreate = JsonBody<'/api/v1/workflows/{workflowId}/webhooks', 'post'>;
export type SubscriptionUpdate = JsonBody<'/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}', 'patch'>;
/** The declared Input Format fields of the workflow's API trigger. */
export type ExecuteInput = Omit<JsonBody<'/api/workflows/{workflowId}/execute', 'post'>, 'stream' | 'selectedOutputs'>;

type RawLogQuery = NonNullable<paths['/api/v1/logs']['get']['parameters']['query']>;
type ListParam = 'workflowIds' | 'folderIds' | 'triggers';
type NumberParam = 'limit' | 'minDurationMs' | 'maxDurationMs' | 'minCost' | 'maxCost';
type FlagParam = 'includeTraceSpans' | 'includeFinalOutput' | 'blockErrors';
type DateParam = 'startDate' | 'endDate';

/** The logs API's query with lists as arrays, numbers, booleans and dates (sent as the server's text forms). */
export type LogQuery = Omit<RawLogQuery, ListParam | NumberParam | FlagParam | DateParam> & {
  [K in ListParam]?: string[] | string;
} & { [K in NumberParam]?: number } & { [K in FlagParam]?: boolean } & { [K in DateParam]?: Date | string };
