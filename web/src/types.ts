// Shapes of the server's API responses, as the app uses them: the ones the OpenAPI document describes come from it.
// The workflow state is the server's own model (src/workflow: zod schemas, types inferred), imported as types only.
import type { Block, Edge, Loop, Parallel, WorkflowState } from '../../src/workflow/index.js';
// Response shapes come from the OpenAPI document (src/http/response-schemas.ts, checked against real answers), through
// the TypeScript client's generated types: a change on the server shows here as a type error.
import type * as Api from '../../clients/typescript/src/types.js';

export interface SessionInfo {
  user: { id: string; email: string; plan: string };
  csrfToken: string;
  expiresAt: string;
  workspaces: Workspace[];
}

export interface Workspace {
  id: string;
  name: string;
  plan: string;
  role?: string;
}


export type { Block, Loop, Parallel, WorkflowState };
export type { BlockPolicy } from '../../src/workflow/index.js';
export type StateEdge = Edge;
export type Position = Block['position'];
export { TRIGGER_TYPES as TRIGGERS } from '../../src/workflow/trigger-types.js';

export type WorkflowSummary = Api.WorkflowSummary;
/** A workflow with its draft, typed by the server's model rather than the document's looser description. */
export type Workflow = Omit<Api.Workflow, 'state'> & { state: WorkflowState };
export type WorkflowStatus = Api.WorkflowStatus;
export type Deployment = Api.Deployment;
export type LogEntry = Api.LogEntry;
export type LogsPage = Api.LogPage;
export type LogDetail = Api.LogDetail;
export type TraceSpan = Api.TraceSpan;
export type ApprovalsSummary = NonNullable<LogDetail['approvals']>;
/** One decision of an approval block; `decidedBy` is null for a time-out. */
export type ApprovalDecision = ApprovalsSummary['decisions'][string];
export type PausedRun = Api.PausedRun;
export type CancelAnswer = Api.CancelAnswer;
export type Subscription = Api.Subscription;
export type Delivery = Api.Delivery;
export type DeliveryAttempt = Delivery['attempts'][number];
/** How a run ended: `cancelled` when a cancel request (or a caller that went away) stopped it. */
export type RunStatus = LogDetail['status'];

export interface Folder {
  id: string;
  workspaceId: string;
  parentId: string | null;
  name: string;
}

export interface ApiKey {
  id: string;
  name: string;
  workspaceId: string | null;
  scope: 'personal' | 'workspace';
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface EnvVar {
  name: string;
  updatedAt: string;
}

export interface TokenUsage {
  prompt: number;
  completion: number;
  total: number;
}

export const LEVELS = ['info', 'error'] as const;

