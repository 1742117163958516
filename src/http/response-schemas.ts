// What the API answers, as zod schemas: they describe the responses in the OpenAPI document (and so the types of the
// TypeScript client generated from it), and test/http/openapi-responses.test.ts checks real answers against them, so
// a field added or renamed in a route without its schema fails a test instead of silently leaving the client behind.
// Objects are strict for that reason; values the API passes through from users (outputs, states) are open.
import { z } from 'zod';
import { FIELD_KINDS } from '../services/block-types.js';
import { WORKSPACE_ROLES } from '../services/access.js';
import { ASSIGNABLE_ROLES } from '../services/workspaces.js';
import { TRIGGER_TYPES } from '../workflow/index.js';
import { QUEUED_REASONS } from '../runs/index.js';

const timestamp = z.string().describe('ISO 8601');
const nullableTimestamp = timestamp.nullable();

const tokenUsage = z.strictObject({ prompt: z.number(), completion: z.number(), total: z.number() });
const modelCost = z.strictObject({ input: z.number(), output: z.number(), total: z.number(), tokens: tokenUsage });
const fullCost = z.strictObject({ total: z.number(), tokens: tokenUsage, models: z.record(z.string(), modelCost) });

const rateState = z.strictObject({ limit: z.number().nullable(), remaining: z.number().nullable(), resetAt: timestamp });
export const limits = z.strictObject({
  workflowExecutionRateLimit: z.strictObject({ sync: rateState, async: rateState }),
  usage: z.strictObject({
    currentPeriodCost: z.number(),
    limit: z.number().nullable(),
    plan: z.string(),
    isExceeded: z.boolean(),
  }),
});

export const workflowState = z
  .looseObject({
    blocks: z.record(z.string(), z.looseObject({ id: z.string(), type: z.string(), name: z.string(), config: z.record(z.string(), z.unknown()) })),
    edges: z.array(z.looseObject({ id: z.string(), source: z.string(), target: z.string(), sourceHandle: z.string().optional() })),
    loops: z.record(z.string(), z.looseObject({ id: z.string(), nodes: z.array(z.string()) })),
    parallels: z.record(z.string(), z.looseObject({ id: z.string(), nodes: z.array(z.string()) })),
  })
  .describe('A workflow state (docs/workflows.md)');

export const me = z.strictObject({
  userId: z.string(),
  email: z.string(),
  workspaces: z.array(z.strictObject({ id: z.string(), name: z.string(), plan: z.string() })),
});

export const workflowSummary = z.strictObject({
  id: z.string(),
  workspaceId: z.string(),
  folderId: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  chatPublic: z.boolean(),
  isDeployed: z.boolean(),
  activeVersion: z.number().int().nullable(),
  deployedAt: nullableTimestamp,
  createdAt: timestamp,
  updatedAt: timestamp,
});
export const workflow = workflowSummary.extend({ state: workflowState });

export const deployResult = z.strictObject({ version: z.number().int(), deployedAt: timestamp });
export const deployment = z.strictObject({
  id: z.string(),
  workflowId: z.string(),
  version: z.number().int(),
  isActive: z.boolean(),
  createdAt: timestamp,
  createdBy: z.string().nullable(),
});
export const workflowStatus = z.strictObject({
  isDeployed: z.boolean(),
  deployedAt: nullableTimestamp,
  activeVersion: z.number().int().optional(),
  needsRedeployment: z.boolean(),
});

export const workflowDocument = z.strictObject({
  format: z.literal('sluice.workflow'),
  version: z.literal(1),
  name: z.string(),
  description: z.string(),
  state: workflowState,
  environment: z.array(z.string()).describe('Environment variables the state references'),
  credentials: z
    .array(z.strictObject({ name: z.string(), type: z.string() }))
    .describe('Stored credentials the blocks name (their `credentialId` is `{"credential": name}` in the state); never their data'),
  connectors: z
    .array(z.strictObject({ name: z.string() }))
    .describe('Imported OpenAPI documents the API blocks\' operations name (their `connectorId` is `{"connector": name}` in the state)'),
});
export const workflowExport = z.strictObject({
  data: workflowDocument,
  replacedSecrets: z
    .array(z.strictObject({ path: z.string(), variable: z.string() }))
    .describe('Literal secrets the export replaced by {{variable}} references'),
});
export const workflowImportResult = z.strictObject({
  data: workflow,
  missingEnvironment: z.array(z.string()).describe('Referenced variables the workspace does not have yet'),
});

const runMetadata = z.strictObject({ duration: z.number(), startTime: timestamp, endTime: timestamp });
export const executeResult = z
  .strictObject({ success: z.literal(true), executionId: z.string(), output: z.unknown(), metadata: runMetadata })
  .describe('The answer of a run without a response block (a response block answers with its own status and body)');
export const executeFailure = z.strictObject({
  success: z.literal(false),
  executionId: z.string(),
  error: z.string(),
  code: z.literal('EXECUTION_FAILED'),
  output: z.unknown(),
  metadata: runMetadata,
});
/** The chat trigger's answers carry the conversation the message belongs to (new or given). */
const conversation = { conversationId: z.string().describe('The conversation this answer belongs to') };
export const chatResult = executeResult.extend(conversation).describe('A chat answer (stream: false) of a run without a response block');
export const chatFailure = executeFailure.extend(conversation);
/** The inbound webhook trigger acknowledges a run that has no response block with its execution id only. */
export const webhookAccepted = z
  .strictObject({ success: z.literal(true), executionId: z.string() })
  .describe('The answer of an inbound webhook whose run has no response block (a response block answers with its own status and body)');
export const executeAccepted = z.strictObject({
  success: z.literal(true),
  async: z.literal(true),
  taskId: z.string(),
  jobId: z.string().describe('Same as taskId'),
  executionId: z.string(),
  status: z.literal('queued'),
  createdAt: timestamp,
  links: z.strictObject({ status: z.string() }),
  statusUrl: z.string(),
});
export const streamChunk = z.strictObject({ blockId: z.string(), chunk: z.string() }).describe('An SSE chunk record');
const progressTokens = z.strictObject({ prompt: z.number(), completion: z.number(), total: z.number() });
/** An agent's progress (BlockProgress in src/blocks/types.ts), with the block it comes from. */
const progressVariants = (extra: Record<string, z.ZodType>) => [
  z.strictObject({ ...extra, blockId: z.string(), event: z.literal('step'), step: z.number().int(), toolCalls: z.number().int(), tokens: progressTokens }),
  z.strictObject({
    ...extra,
    blockId: z.string(),
    event: z.literal('tool_call'),
    step: z.number().int(),
    id: z.string(),
    name: z.string(),
    arguments: z.unknown(),
  }),
  z.strictObject({
    ...extra,
    blockId: z.string(),
    event: z.literal('tool_result'),
    step: z.number().int(),
    id: z.string(),
    name: z.string(),
    result: z.unknown(),
    error: z.string().optional(),
    durationMs: z.number(),
  }),
] as const;
export const streamEvent = z
  .discriminatedUnion('event', progressVariants({}))
  .describe('With streamEvents: true, an agent\'s model call (step) or tool call as it starts (tool_call) and ends (tool_result)');
export const streamDone = z
  .strictObject({
    event: z.literal('done'),
    success: z.boolean(),
    output: z.unknown(),
    metadata: z.strictObject({ duration: z.number() }),
    error: z.string().optional(),
    cancelled: z.literal(true).optional(),
    paused: z.literal(true).optional().describe('The run paused for an approval; resume it at links.resume'),
    executionId: z.string().optional(),
    status: z.literal('paused').optional(),
    links: z.strictObject({ resume: z.string() }).optional(),
  })
  .describe('The final SSE record of a streamed run');
export const chatStreamDone = streamDone.extend(conversation).describe('The final SSE record of a streamed chat answer');
const iterationStep = z.strictObject({ containerId: z.string(), containerType: z.enum(['loop', 'parallel']), index: z.number().int() });
const blockProgress = {
  blockId: z.string(),
  blockName: z.string(),
  blockType: z.string(),
  iterationPath: z.array(iterationStep).describe('The containers around the block and the iteration of each, outermost first'),
};
/** The manual run's progress (POST …/run as SSE): the engine's events, one record each, before the final StreamDone. */
export const runProgress = z
  .discriminatedUnion('event', [
    z.strictObject({ event: z.literal('run_started'), executionId: z.string(), workflowId: z.string(), startedAt: timestamp }),
    z.strictObject({ event: z.literal('block_started'), ...blockProgress, startedAt: timestamp }),
    z.strictObject({ event: z.literal('chunk'), blockId: z.string(), chunk: z.string(), iterationPath: blockProgress.iterationPath }),
    ...progressVariants({ iterationPath: blockProgress.iterationPath }),
    z.strictObject({
      event: z.literal('block_finished'),
      ...blockProgress,
      output: z.record(z.string(), z.unknown()),
      error: z.string().optional(),
      sourceHandle: z.string().optional().describe('The edge handle a condition block chose'),
      continueOnError: z.boolean().optional().describe('The error is an outcome the run goes on from'),
      startedAt: timestamp,
      endedAt: timestamp,
      durationMs: z.number(),
    }),
  ])
  .describe('A progress record of a manual run (SSE); the last one before [DONE] is a StreamDone');
export const executionPaused = z
  .strictObject({ executionId: z.string(), status: z.literal('paused'), links: z.strictObject({ resume: z.string() }) })
  .describe('The run paused at an approval block (202)');
const rerunOf = { rerunOf: z.string().describe('The execution this run re-ran') };
export const rerunDryRun = z
  .strictObject({
    rerunOf: z.string(),
    fromBlock: z.string().nullable().describe('The block the re-run would start from; null: the whole workflow'),
    replayed: z.array(z.string()).describe('Blocks whose recorded output would be used: no call, no cost'),
    willRun: z
      .array(
        z.strictObject({
          blockId: z.string(),
          type: z.string(),
          sideEffects: z.boolean().describe('Calls the outside world (API other than GET, agent, sub-workflow, function)'),
        }),
      )
      .describe('Blocks that would run again'),
  })
  .describe('dryRun: true — what a re-run would do, without running it');
export const rerunResult = z
  .union([executeResult.extend(rerunOf), rerunDryRun])
  .describe('A re-run\'s answer: an execute answer with rerunOf (a response block answers with its own), or the dry run');
export const rerunFailure = executeFailure.extend(rerunOf);
export const rerunAccepted = z.union([executeAccepted.extend(rerunOf), executionPaused]);
const rerunBatchCounts = {
  batchId: z.string().describe('GET /api/v1/executions/rerun/{batchId} follows it'),
  total: z.number().int().describe('Executions the filter matched (each at most once)'),
  queued: z.number().int(),
};
export const rerunBatchAccepted = z
  .strictObject({ data: z.strictObject({ ...rerunBatchCounts, queued: rerunBatchCounts.queued.describe('Re-runs queued (the rest could not be re-run)') }) })
  .describe('A bulk re-run, queued');
export const rerunBatchProgress = z
  .strictObject({
    data: z.strictObject({
      ...rerunBatchCounts,
      queued: rerunBatchCounts.queued.describe('Re-runs not started yet'),
      running: z.number().int().describe('Re-runs running (or paused at an approval)'),
      succeeded: z.number().int(),
      failed: z.number().int().describe('Re-runs that failed or were cancelled'),
      skipped: z.number().int().describe('Matched executions that could not be re-run (reason on each)'),
      done: z.boolean().describe('Every re-run has finished or was skipped'),
      executions: z.array(
        z.strictObject({
          originalExecutionId: z.string(),
          executionId: z.string().nullable().describe('The re-run; null when skipped'),
          status: z.enum(['queued', 'running', 'succeeded', 'failed', 'skipped']),
          reason: z.string().optional().describe('Why it was skipped'),
        }),
      ),
    }),
  })
  .describe('Where each re-run of a bulk re-run stands');
export const cancelAnswer = z.strictObject({
  data: z.strictObject({ executionId: z.string(), status: z.enum(['cancelled', 'cancelling']) }),
});
export const resumeAccepted = z.strictObject({ data: z.strictObject({ executionId: z.string(), status: z.literal('resuming') }) });
export const queuedRunList = z.strictObject({
  data: z.array(
    z.strictObject({
      executionId: z.string(),
      queuedAt: timestamp,
      dueAt: timestamp.describe('When it is due: the earliest a worker may claim it'),
      priority: z.number().int(),
      place: z.number().int().min(1).describe("1-based place among the workflow's queued runs, in the order a worker claims them"),
      reason: z
        .enum(QUEUED_REASONS)
        .describe(
          'due: waiting for a worker; concurrency / singleton: its key has no free slot; throttled: its throttle key has no start free until dueAt; ' +
            'debounced: a debounce burst still taking calls, runs at dueAt; retry: its worker stopped or crashed, it runs again; scheduled: not due until dueAt',
        ),
      key: z.string().optional().describe('The flow control key value the reason is about (absent when the setting has no key)'),
    }),
  ),
  total: z.number().int().describe('How many runs of the workflow are queued (the list shows the first `limit`)'),
});
export const pausedRunList = z.strictObject({
  data: z.array(
    z.strictObject({
      executionId: z.string(),
      workflowId: z.string(),
      kind: z
        .enum(['approval', 'wait'])
        .describe('approval: waits for a decision (resume it); wait: parked in a wait block until resumeAt (cannot be resumed early)'),
      blockId: z.string(),
      message: z.string().nullable(),
      pausedAt: timestamp,
      timeoutAt: nullableTimestamp,
      defaultDecision: z.enum(['approve', 'reject']).nullable(),
      resumeAt: nullableTimestamp.describe('When a parked wait goes on (null for an approval)'),
      toolCall: z
        .strictObject({ id: z.string(), name: z.string(), arguments: z.unknown() })
        .optional()
        .describe("Set when an agent's tool call waits (blockId is the agent's): the tool and the model's arguments"),
    }),
  ),
});

export const jobStatus = z.strictObject({
  success: z.literal(true),
  taskId: z.string(),
  status: z.enum(['queued', 'processing', 'paused', 'completed', 'failed', 'cancelled']),
  createdAt: timestamp,
  startedAt: timestamp.optional(),
  completedAt: timestamp.optional(),
  output: z.unknown().optional(),
  error: z.string().optional(),
  metadata: z.strictObject({
    workflowId: z.string(),
    executionId: z.string(),
    duration: z.number().optional(),
    startTime: timestamp.optional(),
    endTime: timestamp.optional(),
  }),
});

export const traceSpan = z.looseObject({
  id: z.string(),
  blockId: z.string(),
  name: z.string(),
  type: z.string(),
  status: z.enum(['success', 'error', 'skipped']),
  startTime: timestamp,
  endTime: timestamp,
  duration: z.number(),
  input: z.unknown(),
  output: z.unknown(),
  error: z.string().optional(),
  model: z.string().optional().describe('Model blocks: the model that answered'),
  tokens: tokenUsage.optional(),
  cost: z.union([z.number(), z.strictObject({ input: z.number(), output: z.number(), total: z.number() })]).optional(),
  unresolvedReferences: z.array(z.string()).optional().describe('References to blocks that had not run (resolved to null)'),
  sourceHandle: z.string().optional().describe('The edge handle the block chose (condition blocks), when not the default'),
  continueOnError: z.boolean().optional().describe('The block failed, and the run went on from its error'),
  get children() {
    return z.array(traceSpan).optional();
  },
});
const executionData = z.strictObject({ traceSpans: z.array(traceSpan).optional(), finalOutput: z.unknown().optional() });
const workflowRef = z.strictObject({ id: z.string(), name: z.string(), description: z.string() });

const logFields = {
  id: z.string(),
  workflowId: z.string(),
  executionId: z.string(),
  level: z.enum(['info', 'error']),
  trigger: z.string(),
  startedAt: timestamp,
  endedAt: timestamp,
  totalDurationMs: z.number(),
  files: z.unknown(),
  deploymentVersion: z.number().int().nullable().describe('The deployment version that ran; null for a manual run of the draft'),
  blockErrorCount: z
    .number()
    .int()
    .describe('Blocks that reported an error in a run that still succeeded (an API block answered 500); 0 for any other run, and for logs written before the count was kept'),
};
export const logEntry = z.strictObject({
  ...logFields,
  cost: z.union([fullCost, z.strictObject({ total: z.number() })]).describe('{total}, or the full cost with details=full'),
  workflow: workflowRef.optional().describe('With details=full'),
  executionData: executionData.optional().describe('With includeTraceSpans / includeFinalOutput'),
});
export const logPage = z.strictObject({
  data: z.array(logEntry),
  nextCursor: z.string().nullable(),
  limits,
});
export const logDetail = z.strictObject({
  data: z.strictObject({
    ...logFields,
    status: z.enum(['success', 'error', 'cancelled']),
    parentExecutionId: z.string().nullable().describe('The run whose workflow block started this one (a sub-workflow)'),
    requestId: z.string().nullable().describe('X-Request-Id of the request that started the run (null for schedules)'),
    error: z.string().nullable().describe("Why the run failed or was stopped; null when it succeeded"),
    approvals: z
      .strictObject({
        pauses: z.number().int(),
        pausedMs: z.number().describe('Time spent waiting for decisions (not in totalDurationMs)'),
        firstStartedAt: z.string(),
        decisions: z
          .record(
            z.string(),
            z.strictObject({
              approved: z.boolean(),
              data: z.unknown(),
              decidedBy: z.string().nullable(),
              decidedAt: timestamp,
              toolCall: z
                .strictObject({ blockId: z.string(), id: z.string(), name: z.string() })
                .optional()
                .describe("Set for a decision about an agent's tool call (its key is `<blockId>:<step>:<call id>`)"),
            }),
          )
          .describe('By approval block id, or for an agent tool call `<blockId>:<step>:<call id>`'),
      })
      .nullable()
      .describe('For a run that paused for an approval (README "Human approval")'),
    rerunOf: z.string().nullable().describe('Set on a re-run: the execution it re-ran'),
    rerunFromBlock: z.string().nullable().describe('Set on a re-run from a block: that block (null when it ran whole)'),
    queuedMs: z.number().int().nullable().describe('How long the run waited before it started (queued, or for a flow control slot)'),
    flowControl: z
      .strictObject({ reason: z.string().describe('concurrency, singleton, throttle or debounce') })
      .nullable()
      .describe("Set when the workflow's flow control held the run back (docs/workflows.md \"Flow control\")"),
    reruns: z
      .array(z.strictObject({ executionId: z.string(), status: z.string(), startedAt: timestamp }))
      .describe('The re-runs of this execution, oldest first (GET /api/v1/logs?rerunOf= lists them as logs)'),
    cost: fullCost,
    workflow: workflowRef,
    executionData,
    limits,
  }),
});
export const executionDetail = z.strictObject({
  executionId: z.string(),
  workflowId: z.string(),
  workflowState: workflowState,
  executionMetadata: z.strictObject({
    trigger: z.string(),
    startedAt: timestamp,
    endedAt: timestamp,
    totalDurationMs: z.number(),
    cost: fullCost,
    deploymentVersion: z.number().int().nullable(),
    requestId: z.string().nullable(),
  }),
  limits,
});

export const subscription = z.strictObject({
  id: z.string(),
  workflowId: z.string(),
  url: z.string(),
  hasSecret: z.boolean(),
  includeFinalOutput: z.boolean(),
  includeTraceSpans: z.boolean(),
  includeRateLimits: z.boolean(),
  includeUsageData: z.boolean(),
  levelFilter: z.array(z.string()),
  triggerFilter: z.array(z.string()),
  active: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export const delivery = z.strictObject({
  id: z.string(),
  subscriptionId: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  executionId: z.string().nullable(),
  status: z.string(),
  attemptCount: z.number().int(),
  nextAttemptAt: nullableTimestamp,
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: timestamp,
  completedAt: nullableTimestamp,
  payload: z.unknown(),
  attempts: z.array(
    z.strictObject({
      attempt: z.number().int(),
      startedAt: timestamp,
      durationMs: z.number(),
      statusCode: z.number().int().nullable(),
      error: z.string().nullable(),
    }),
  ),
});

const memorySummary = z.strictObject({
  key: z.string(),
  messageCount: z.number().int(),
  createdAt: timestamp,
  updatedAt: timestamp.describe('ISO 8601: when its last message was added (log retention counts from here)'),
});
const memoryMessage = z.strictObject({
  seq: z.number().int().describe('Position in the conversation, from 1'),
  role: z.enum(['user', 'assistant', 'tool']),
  content: z.string(),
  toolCalls: z
    .array(z.strictObject({ id: z.string(), name: z.string(), arguments: z.string().describe('JSON text, as the model sent it') }))
    .optional()
    .describe('assistant: the tools it called'),
  toolCallId: z.string().optional().describe('tool: the call this result answers'),
  toolName: z.string().optional(),
  isError: z.boolean().optional(),
  executionId: z.string().describe('The run that added it'),
  createdAt: timestamp,
});

/** The body of a completion webhook delivery (README "Receiving completion webhooks"). */
export const webhookEvent = z.strictObject({
  id: z.string(),
  type: z.literal('workflow.execution.completed'),
  timestamp: z.number().describe('Unix milliseconds'),
  data: z.looseObject({
    workflowId: z.string(),
    executionId: z.string(),
    status: z.string(),
    level: z.string(),
    trigger: z.string(),
    startedAt: timestamp,
    endedAt: timestamp,
    totalDurationMs: z.number(),
    cost: fullCost,
    files: z.unknown(),
    deploymentVersion: z.number().int().nullable(),
    blockErrorCount: z
      .number()
      .int()
      .optional()
      .describe('Blocks that reported an error in a run that still succeeded; absent from events made before it was sent'),
    finalOutput: z.unknown().optional(),
    traceSpans: z.array(traceSpan).optional(),
    rateLimits: z.unknown().optional(),
    usage: z.unknown().optional(),
  }),
  links: z.strictObject({ log: z.string(), execution: z.string() }),
});

// ── Probes, accounts and workspace settings ──

export const health = z.strictObject({ status: z.literal('ok') });
const readinessCheck = z.strictObject({
  ok: z.boolean(),
  message: z.string().optional().describe('Why the check failed, or what was not checked'),
});
export const readiness = z
  .strictObject({
    status: z.enum(['ok', 'unavailable']),
    checks: z.strictObject({ database: readinessCheck, migrations: readinessCheck, worker: readinessCheck }),
  })
  .describe('200 with status ok when every check passes, else 503 with status unavailable');

const memberRole = z.enum(WORKSPACE_ROLES).describe('owner, admin, editor or viewer (docs/api.md "Members and invites")');
const assignableRole = z.enum(ASSIGNABLE_ROLES);
export const workspace = z.strictObject({
  id: z.string(),
  name: z.string(),
  plan: z.string().describe("The plan of the workspace's owner (its limits follow the owner)"),
  ownerId: z.string(),
  role: memberRole.describe("The caller's role in the workspace"),
  createdAt: timestamp,
});
export const member = z.strictObject({ userId: z.string(), email: z.string(), role: memberRole, joinedAt: timestamp });
export const addedMember = z
  .strictObject({ userId: z.string(), email: z.string(), role: assignableRole, joinedAt: timestamp })
  .describe('The member as added (an address without an account gets one, without a password); a member added again keeps the date they joined');

export const invite = z
  .strictObject({ id: z.string(), role: assignableRole, email: z.string().nullable().describe('Only this address may accept'), createdAt: timestamp, expiresAt: timestamp })
  .describe('A pending invite link (the token is only in the answer that created it)');
export const createdInvite = invite
  .extend({ url: z.string().describe('The link to hand over, `<base>/invite?token=…`: shown once') })
  .describe('The invite as created, with its one-time link');
export const invitePreview = z
  .strictObject({
    workspaceId: z.string(),
    workspaceName: z.string(),
    role: assignableRole,
    email: z.string().nullable().describe('When set, only this address may accept'),
    expiresAt: timestamp,
  })
  .describe('What an invite link offers, for the page that accepts it');

export const envVar = z
  .strictObject({ name: z.string(), updatedAt: timestamp })
  .describe('An environment variable: its value is write-only and never returned');

const rateLimitView = z.strictObject({
  isLimited: z.boolean().describe('The window is used up (never for an unlimited plan)'),
  limit: z.number().nullable().describe('null: unlimited on this plan'),
  remaining: z.number().nullable(),
  resetAt: timestamp,
});
export const usageLimits = z.strictObject({
  success: z.literal(true),
  rateLimit: z.strictObject({ sync: rateLimitView, async: rateLimitView, authType: z.enum(['api', 'session']).describe('How the caller signed this request: an API key, or the web app session') }),
  usage: z.strictObject({ currentPeriodCost: z.number(), limit: z.number().nullable(), plan: z.string() }),
});

export const folder = z.strictObject({
  id: z.string(),
  workspaceId: z.string(),
  parentId: z.string().nullable().describe('null: at the workspace root'),
  name: z.string(),
  createdAt: timestamp,
});

export const credential = z.strictObject({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  type: z.enum(['postgres', 'mysql', 'redis', 'amqp', 'mqtt', 'nats', 'smtp', 'http']),
  fields: z.record(z.string(), z.unknown()).describe('The data\'s fields that are not secret (host, port, user, database, scheme, …)'),
  secretsSet: z.array(z.string()).describe('Secret fields that hold a value (password, token, clientSecret, value); their values are never returned'),
  version: z.number().int().describe('Goes up on every change of the data'),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const credentialTest = z.strictObject({
  ok: z.boolean(),
  message: z.string().describe('What the server answered: its version or greeting, or its error'),
  durationMs: z.number(),
});

const jsonSchema = z.record(z.string(), z.unknown()).describe('JSON Schema, $refs resolved (a recursive schema keeps its $ref where it recurses)');
const connectorOperation = z.strictObject({
  operationId: z.string().describe("The document's operationId, or one derived from the method and path (`get_pets_petId`)"),
  derivedId: z.boolean().optional().describe('True when the document gave no operationId'),
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']),
  path: z.string(),
  summary: z.string().optional(),
  description: z.string().optional(),
  parameters: z.array(
    z.strictObject({
      name: z.string(),
      in: z.enum(['path', 'query', 'header']),
      required: z.boolean(),
      description: z.string().optional(),
      schema: jsonSchema.optional(),
      explode: z.boolean().optional(),
    }),
  ),
  requestBody: z
    .strictObject({ required: z.boolean(), contentType: z.string(), schema: jsonSchema.optional(), description: z.string().optional() })
    .optional()
    .describe('Given to the API block as `parameters.body`'),
});
export const connectorSummary = z.strictObject({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  title: z.string().describe("The document's info.title"),
  version: z.string().describe("The document's info.version"),
  servers: z.array(z.string()).describe('Server URLs with their variables at their defaults; the API block calls the first unless its `url` is set'),
  operationCount: z.number().int(),
  createdAt: timestamp,
});
export const connector = connectorSummary.extend({ operations: z.array(connectorOperation) });

export const mcpTool = z.strictObject({
  name: z.string(),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()).describe("The tool's arguments, a JSON Schema (its MCP inputSchema)"),
});

export const apiKey = z.strictObject({
  id: z.string(),
  name: z.string(),
  workspaceId: z.string().nullable().describe('The one workspace the key reaches; null for a personal key'),
  scope: z.enum(['personal', 'workspace']),
  hint: z.string().describe('The prefix and last four characters: only a hash of the key is stored'),
  createdAt: timestamp,
  lastUsedAt: nullableTimestamp,
});
export const createdApiKey = apiKey
  .extend({ key: z.string().describe('The secret key: in this answer only, it cannot be read again') })
  .describe('A new API key, with the key itself this one time');

export const authOptions = z.strictObject({
  signupAllowed: z.boolean().describe('SLUICE_ALLOW_SIGNUP'),
  setupNeeded: z.boolean().describe('No user has a password yet: the owner account is still to be created'),
});
export const setupState = z.strictObject({
  needed: z.boolean(),
  tokenValid: z.boolean(),
  suggestedEmail: z.string().optional().describe('SLUICE_ADMIN_EMAIL, only while setup is needed and the token is valid'),
});
export const signedIn = z
  .strictObject({
    user: z.strictObject({ id: z.string(), email: z.string(), plan: z.string() }),
    csrfToken: z.string().describe("Send it as X-CSRF-Token on the session's state-changing requests"),
    expiresAt: timestamp.describe('When the session ends if it is not used (use moves it forward, within an absolute cap)'),
  })
  .describe('A new session: the session cookie is set on the answer, never returned in the body');
export const session = signedIn
  .extend({
    workspaces: z.array(z.strictObject({ id: z.string(), name: z.string(), plan: z.string(), role: memberRole })),
  })
  .describe('The signed-in user, the CSRF token and the workspaces the user reaches');

const blockType = z
  .strictObject({
    type: z.string(),
    label: z.string(),
    group: z.enum(['Triggers', 'Blocks', 'Containers']),
    description: z.string(),
    trigger: z.enum(TRIGGER_TYPES).nullable().describe('The trigger kind that starts runs at this block; null for the others'),
    outputs: z.array(z.string()).describe('Output fields always present, read as `<block.field>`'),
    fields: z.array(
      z.strictObject({
        key: z.string(),
        label: z.string(),
        kind: z.enum(FIELD_KINDS),
        options: z.array(z.string()).optional(),
        placeholder: z.string().optional(),
        help: z.string().optional(),
        credentialTypes: z.array(z.string()).optional().describe("A `credential` field's accepted credential types"),
        forCredentialTypes: z
          .array(z.string())
          .optional()
          .describe("Shown by the editor only when the block's chosen credential is of one of these types (a broker's own fields)"),
        conditional: z.boolean().describe('Shown by the editor only for some values of the other fields'),
      }),
    ),
    defaultConfig: z.record(z.string(), z.unknown()).describe('What the editor puts in a new block of this type'),
    configSchema: z
      .record(z.string(), z.unknown())
      .describe('JSON Schema (2020-12) of the config once references are resolved; a field may hold a `<block.field>` reference'),
  })
  .describe('A block type: its palette entry, its form and the schema of its config');

const data = <T extends z.ZodType>(schema: T) => z.strictObject({ data: schema });

type Listed<Name extends string, T extends z.ZodType> = Record<Name, T> & Record<`${Name}List`, ReturnType<typeof data<z.ZodArray<T>>>>;
type Answered<Name extends string, T extends z.ZodType> = Record<Name, T> & Record<`${Name}Response`, ReturnType<typeof data<T>>>;

// Computed keys widen to string; each helper's names are exactly the ones its type spells out.
/** An entity and its list answer `{data: [...]}`, named `<Name>` and `<Name>List` in the document. */
const listed = <const Name extends string, T extends z.ZodType>(name: Name, schema: T) =>
  ({ [name]: schema, [`${name}List`]: data(z.array(schema)) }) as Listed<Name, T>;
/** An entity and its one-entity answer `{data}`, named `<Name>` and `<Name>Response`. */
const answered = <const Name extends string, T extends z.ZodType>(name: Name, schema: T) =>
  ({ [name]: schema, [`${name}Response`]: data(schema) }) as Answered<Name, T>;
/** Both: `<Name>`, `<Name>List` and `<Name>Response`. */
const entity = <const Name extends string, T extends z.ZodType>(name: Name, schema: T) => ({ ...listed(name, schema), ...answered(name, schema) });

/** Named response bodies: `components.schemas` of the OpenAPI document. */
export const responseSchemas = {
  Me: me,
  ...listed('BlockType', blockType),
  WorkflowSummary: workflowSummary,
  Workflow: workflow,
  WorkflowList: data(z.array(workflowSummary)),
  WorkflowResponse: data(workflow),
  DeployResult: deployResult,
  Undeployed: z.strictObject({ isDeployed: z.literal(false) }),
  ...listed('Deployment', deployment),
  WorkflowStatus: workflowStatus,
  WorkflowDocument: workflowDocument,
  WorkflowExport: workflowExport,
  WorkflowImportResult: workflowImportResult,
  ExecuteResult: executeResult,
  ExecuteFailure: executeFailure,
  ExecuteAccepted: executeAccepted,
  ChatResult: chatResult,
  ChatFailure: chatFailure,
  ChatStreamDone: chatStreamDone,
  WebhookAccepted: webhookAccepted,
  ExecutionPaused: executionPaused,
  ExecuteAcceptedOrPaused: z.union([executeAccepted, executionPaused]),
  ResumeAccepted: resumeAccepted,
  RerunResult: rerunResult,
  RerunAccepted: rerunAccepted,
  RerunFailure: rerunFailure,
  RerunBatchAccepted: rerunBatchAccepted,
  RerunBatchProgress: rerunBatchProgress,
  CancelAnswer: cancelAnswer,
  PausedRunList: pausedRunList,
  QueuedRunList: queuedRunList,
  StreamChunk: streamChunk,
  StreamEvent: streamEvent,
  StreamDone: streamDone,
  RunProgress: runProgress,
  JobStatus: jobStatus,
  Limits: limits,
  TraceSpan: traceSpan,
  LogEntry: logEntry,
  LogPage: logPage,
  LogDetail: logDetail,
  ExecutionDetail: executionDetail,
  ...entity('Subscription', subscription),
  ...answered('Delivery', delivery),
  DeliveryPage: z.strictObject({ data: z.array(delivery), nextCursor: z.string().nullable() }),
  MemoryPage: z.strictObject({ data: z.array(memorySummary), nextCursor: z.string().nullable() }),
  MemoryDetail: z.strictObject({
    data: memorySummary.extend({ messages: z.array(memoryMessage).describe('Oldest first') }),
    nextCursor: z.string().nullable().describe('More messages follow: pass it as `cursor`'),
  }),
  WebhookEvent: webhookEvent,
  Health: health,
  Readiness: readiness,
  ...entity('Workspace', workspace),
  ...entity('Member', member),
  ...answered('AddedMember', addedMember),
  ...listed('Invite', invite),
  ...answered('CreatedInvite', createdInvite),
  InvitePreview: invitePreview,
  ...listed('EnvVar', envVar),
  UsageLimits: usageLimits,
  ...entity('Folder', folder),
  ...entity('Credential', credential),
  ...answered('CredentialTest', credentialTest),
  ...listed('ConnectorSummary', connectorSummary),
  ...answered('Connector', connector),
  ...listed('McpTool', mcpTool),
  ...listed('ApiKey', apiKey),
  ...answered('CreatedApiKey', createdApiKey),
  AuthOptions: authOptions,
  SetupState: setupState,
  SignedIn: signedIn,
  Session: session,
} satisfies Record<string, z.ZodType>;

export type ResponseSchemaName = keyof typeof responseSchemas;
