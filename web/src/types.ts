// Shapes of the server's API responses, as the app uses them (SPEC §3, §5, §6, §9).

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

export interface Position {
  x: number;
  y: number;
}

export interface Block {
  id: string;
  type: string;
  name: string;
  position: Position;
  enabled?: boolean;
  parentId?: string;
  config: Record<string, unknown>;
  policy?: BlockPolicy;
}

/** Retries, time limit and failure handling of a block (src/workflow/policy.ts). */
export interface BlockPolicy {
  retry?: { maxAttempts: number; backoffMs?: number; backoffFactor?: number; on?: Array<'error' | 'timeout'> };
  timeoutMs?: number;
  onError?: 'fail' | 'continue';
}

export interface StateEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle?: string;
}

export interface Loop {
  id: string;
  nodes: string[];
  loopType: 'for' | 'forEach';
  iterations?: number;
  forEachItems?: unknown;
}

export interface Parallel {
  id: string;
  nodes: string[];
  parallelType: 'count' | 'collection';
  count?: number;
  distribution?: unknown;
}

export interface WorkflowState {
  blocks: Record<string, Block>;
  edges: StateEdge[];
  loops: Record<string, Loop>;
  parallels: Record<string, Parallel>;
}

export interface WorkflowSummary {
  id: string;
  workspaceId: string;
  folderId: string | null;
  name: string;
  description: string;
  isDeployed: boolean;
  activeVersion: number | null;
  deployedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Workflow extends WorkflowSummary {
  state: WorkflowState;
}

export interface Folder {
  id: string;
  workspaceId: string;
  parentId: string | null;
  name: string;
}

export interface WorkflowStatus {
  isDeployed: boolean;
  deployedAt: string | null;
  activeVersion?: number;
  needsRedeployment: boolean;
}

export interface Deployment {
  id: string;
  version: number;
  isActive: boolean;
  createdAt: string;
  createdBy: string | null;
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

export interface LogEntry {
  id: string;
  workflowId: string;
  executionId: string;
  /** The deployment version that ran; null for a manual run of the draft. */
  deploymentVersion: number | null;
  level: 'info' | 'error';
  trigger: string;
  startedAt: string;
  endedAt: string;
  totalDurationMs: number;
  cost: { total: number };
  files: unknown;
}

export interface TokenUsage {
  prompt: number;
  completion: number;
  total: number;
}

export interface TraceSpan {
  id: string;
  blockId: string;
  name: string;
  type: string;
  status: 'success' | 'error' | 'skipped';
  startTime: string;
  endTime: string;
  duration: number;
  input?: unknown;
  output?: unknown;
  error?: string;
  tokens?: TokenUsage;
  cost?: number;
  model?: string;
  children?: TraceSpan[];
}

/** How a run ended: `cancelled` when a cancel request (or a caller that went away) stopped it. */
export type RunStatus = 'success' | 'error' | 'cancelled';

/** One decision of an approval block (src/services/runs/approvals.ts); `decidedBy` is null for a time-out. */
export interface ApprovalDecision {
  approved: boolean;
  data: unknown;
  decidedBy: string | null;
  decidedAt: string;
}

/** What the log of a run that paused for an approval keeps of its pauses. */
export interface ApprovalsSummary {
  pauses: number;
  /** Time spent waiting for decisions (not counted in totalDurationMs). */
  pausedMs: number;
  /** When the run first started; the log is listed at the time it last resumed. */
  firstStartedAt: string;
  /** By approval block id. */
  decisions: Record<string, ApprovalDecision>;
}

export interface LogDetail extends Omit<LogEntry, 'cost'> {
  /** `success`, `error` or `cancelled` (older servers may send other words: shown as they are). */
  status: RunStatus | (string & {});
  /** The run whose workflow block started this one (a sub-workflow), else null. */
  parentExecutionId: string | null;
  requestId: string | null;
  approvals: ApprovalsSummary | null;
  workflow: { id: string; name: string; description: string };
  cost: {
    total: number;
    tokens?: TokenUsage;
    models?: Record<string, { input: number; output: number; total: number; tokens: TokenUsage }>;
  };
  executionData: { traceSpans?: TraceSpan[]; finalOutput?: unknown };
}

/** A run waiting for an approval (GET /api/v1/executions?workspaceId=…&status=paused). */
export interface PausedRun {
  executionId: string;
  workflowId: string;
  /** The approval block it waits at. */
  blockId: string;
  message: string | null;
  pausedAt: string;
  /** When the default decision applies; null when it waits until someone decides. */
  timeoutAt: string | null;
  defaultDecision: 'approve' | 'reject' | null;
}

/** POST /api/v1/executions/{id}/cancel answers `cancelled`, or `cancelling` while the run is still stopping. */
export interface CancelAnswer {
  executionId: string;
  status: 'cancelled' | 'cancelling';
}

export interface LogsPage {
  data: LogEntry[];
  nextCursor: string | null;
}

export const TRIGGERS = ['api', 'webhook', 'schedule', 'manual', 'chat'] as const;
export const LEVELS = ['info', 'error'] as const;

export interface Subscription {
  id: string;
  workflowId: string;
  url: string;
  hasSecret: boolean;
  includeFinalOutput: boolean;
  includeTraceSpans: boolean;
  includeRateLimits: boolean;
  includeUsageData: boolean;
  levelFilter: string[];
  triggerFilter: string[];
  active: boolean;
  createdAt: string;
}

export interface DeliveryAttempt {
  attempt: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

export interface Delivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  executionId: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  completedAt: string | null;
  payload: unknown;
  attempts: DeliveryAttempt[];
}
