// Shapes of the server's API responses, as the app uses them: the ones the OpenAPI document describes come from it.
// The workflow state is the server's own model (src/workflow: zod schemas, types inferred), imported as types only.
import type { Block, Edge, Loop, Parallel, WorkflowState } from '../../src/workflow/index.js';
// Response shapes come from the OpenAPI document (src/http/response-schemas.ts, checked against real answers), through
// the TypeScript client's generated types: a change on the server shows here as a type error.
import type * as Api from '../../clients/typescript/src/types.js';
import type { paths } from '../../clients/typescript/src/generated/openapi.js';

/** GET /api/v1/auth/session: the signed-in user, the CSRF token and the workspaces the user reaches. */
export type SessionInfo = Api.Session;
/** The answer of sign-in, sign-up and first-run setup: a session without the workspaces. */
export type SignedIn = Api.SignedIn;
/** A workspace as the session lists it, with the user's role in it. */
export type Workspace = SessionInfo['workspaces'][number];
export type AuthOptions = Api.AuthOptions;
export type SetupState = Api.SetupState;

export type { Block, Loop, Parallel, WorkflowState };
export type { BlockPolicy } from '../../src/workflow/index.js';
export type StateEdge = Edge;
export type Position = Block['position'];
export { TRIGGER_TYPES as TRIGGERS } from '../../src/workflow/trigger-types.js';

export type WorkflowSummary = Api.WorkflowSummary;
/** A workflow with its draft, typed by the server's model rather than the document's looser description. */
export type Workflow = Omit<Api.Workflow, 'state'> & { state: WorkflowState };
/** The server checked the draft against its model (src/workflow) before it stored it; the document says it loosely. */
export const asWorkflow = (workflow: Api.Workflow): Workflow => workflow as Workflow;
export type WorkflowStatus = Api.WorkflowStatus;
export type Deployment = Api.Deployment;
export type DeployResult = Api.DeployResult;
/** The records of a manual run's event stream: progress, then the final one. */
export type ManualRunRecord = Api.RunProgress | Api.StreamDone;
export type LogsPage = Api.LogPage;
/** The logs API's query as sent: every value text, as the server reads it. */
export type LogQuery = NonNullable<paths['/api/v1/logs']['get']['parameters']['query']>;
export type LogDetail = Api.LogDetail;
export type TraceSpan = Api.TraceSpan;
export type ApprovalsSummary = NonNullable<LogDetail['approvals']>;
export type PausedRun = Api.PausedRun;
export type CancelAnswer = Api.CancelAnswer;
export type Subscription = Api.Subscription;
export type SubscriptionUpdate = Api.SubscriptionUpdate;
export type Delivery = Api.Delivery;
export type DeliveryPage = Api.DeliveryPage;

export type Folder = Api.Folder;
/** The answer of creating an invite: the only one that holds its link. */
export type CreatedInvite = Api.CreatedInvite;
/** The answer of creating a key: the only one that holds the key itself. */
export type CreatedApiKey = Api.CreatedApiKey;
export type Credential = Api.Credential;
export type CredentialTest = Api.CredentialTest;

export const LEVELS = ['info', 'error'] as const;

