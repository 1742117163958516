// The single source of truth for the database. Row types are inferred from here; drizzle-kit generates the
// SQL migrations in ./drizzle from it (`npm run db:generate`). The same schema runs on PGlite and PostgreSQL.
import { sql, type SQL } from 'drizzle-orm';
import {
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { WorkflowState } from '../workflow/index.js';
import { jsonb } from './json.js';

/** Bytes (PostgreSQL `bytea`), written and read through SQL (encode/decode) rather than as driver values. */
const bytea = customType<{ data: Uint8Array }>({ dataType: () => 'bytea' });

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  name: text('name'),
  plan: text('plan').notNull().default('free'),
  /** scrypt hash (services/passwords); null until a password is set. */
  passwordHash: text('password_hash'),
  createdAt: createdAt(),
});

export const workspaces = pgTable(
  'workspaces',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('workspaces_owner_idx').on(t.ownerId)],
);

export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** owner | admin | editor | viewer (services/access.ts). */
    role: text('role').notNull().default('editor'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index('workspace_members_user_idx').on(t.userId)],
);

/**
 * Invite links to a workspace (services/invites.ts): one-time, expiring. Only the SHA-256 of the token is stored, as
 * for API keys; revoking deletes the row.
 */
export const workspaceInvites = pgTable(
  'workspace_invites',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    /** When set, only this address may accept. */
    email: text('email'),
    tokenHash: text('token_hash').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    usedBy: text('used_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('workspace_invites_token_idx').on(t.tokenHash), index('workspace_invites_workspace_idx').on(t.workspaceId)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Null for a personal key (reaches all the owner's workspaces). */
    workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    keyHash: text('key_hash').notNull(),
    lastFour: text('last_four').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('api_keys_hash_idx').on(t.keyHash), index('api_keys_user_idx').on(t.userId)],
);

export const folders = pgTable(
  'folders',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    parentId: text('parent_id'),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('folders_workspace_idx').on(t.workspaceId)],
);

export const workflows = pgTable(
  'workflows',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    folderId: text('folder_id').references(() => folders.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** The editable draft. */
    state: jsonb<WorkflowState>('state').notNull(),
    /** Content hash of the draft, compared with the active deployment's to answer needsRedeployment. */
    stateHash: text('state_hash').notNull(),
    /** Anyone may call POST /api/chat/{id} without a key when true (README "Other triggers"). */
    chatPublic: boolean('chat_public').notNull().default(false),
    /** Version of the active deployment; null when undeployed. */
    activeVersion: integer('active_version'),
    /** When the active deployment was made active (deploy or activate). */
    deployedAt: timestamp('deployed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /**
     * The process that keeps this workflow's flow control slots in memory (runs/flow-leases.ts): `<runner id>#<n>`;
     * null when they are rows of `flow_slots`. Not part of what caches hold (the change trigger skips both columns).
     */
    flowLeaseHolder: text('flow_lease_holder'),
    /** No process takes the lease again before this time (set when one hands it over). */
    flowLeaseAfter: timestamp('flow_lease_after', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('workflows_workspace_idx').on(t.workspaceId, t.folderId),
    // The crash recovery looks for leases of processes gone (runners.ts).
    index('workflows_flow_lease_idx').on(t.flowLeaseHolder).where(sql`${t.flowLeaseHolder} is not null`),
  ],
);

export const deployments = pgTable(
  'deployments',
  {
    id: text('id').primaryKey(),
    workflowId: text('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    state: jsonb<WorkflowState>('state').notNull(),
    stateHash: text('state_hash').notNull(),
    createdBy: text('created_by'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('deployments_workflow_version_idx').on(t.workflowId, t.version)],
);

export const envVars = pgTable(
  'env_vars',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** AES-256-GCM with a key derived from SLUICE_SECRET (services/crypto.ts). */
    valueEncrypted: text('value_encrypted').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.name] })],
);

/**
 * Connection secrets of a workspace (database, broker, SMTP and HTTP credentials) that blocks name by id. The data is
 * encrypted like env_vars and never leaves the server; `version` changes on every rotation so pooled connections
 * opened with the old data are not reused.
 */
export const credentials = pgTable(
  'credentials',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull(),
    dataEncrypted: text('data_encrypted').notNull(),
    version: integer('version').notNull().default(1),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('credentials_workspace_name_idx').on(t.workspaceId, t.name)],
);

/**
 * OpenAPI documents imported into a workspace (docs/api.md "Connectors (OpenAPI)"): the API block calls their
 * operations by id. `document` is the document as imported (JSON); `operations` is what a run and the editor need of
 * it, refs resolved: per operation its method, path, parameters and request body schema, and the document's servers.
 */
export const connectors = pgTable(
  'connectors',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    document: jsonb<Record<string, unknown>>('document').notNull(),
    servers: jsonb<string[]>('servers').notNull(),
    operations: jsonb<unknown[]>('operations').notNull(),
    createdBy: text('created_by'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('connectors_workspace_name_idx').on(t.workspaceId, t.name)],
);

/** Workflow states that executions ran, deduplicated by content hash. */
export const stateSnapshots = pgTable('state_snapshots', {
  hash: text('hash').primaryKey(),
  state: jsonb<WorkflowState>('state').notNull(),
  createdAt: createdAt(),
});

/** The log id paired with an execution id (ids.ts `pairedLogId`), in SQL. */
export const pairedLogIdOf = (executionId: AnyPgColumn | SQL) => sql`('log_' || substr(${executionId}, 6))`;
/**
 * A log whose id is not its execution id's pair: one written before logs were paired (2026-11-28). The predicate of
 * the partial index of execution ids below, and stated by every lookup by execution id (db/execution-lookup.ts):
 * PostgreSQL uses a partial index only for a query that states its predicate. Null (so false) for a log that keeps
 * no execution id.
 */
export const unpairedLog = (log: { id: AnyPgColumn; executionId: AnyPgColumn }) => sql`${log.id} <> ${pairedLogIdOf(log.executionId)}`;
/** A log whose id is its execution id's pair: one that keeps no execution id, or keeps the pair's (written on 2026-11-28). */
export const pairedLog = (log: { id: AnyPgColumn; executionId: AnyPgColumn }) =>
  sql`(${log.executionId} is null or ${log.id} = ${pairedLogIdOf(log.executionId)})`;

/**
 * One row per execution; it is also the execution's log (`id` is the log id). The row is written when the run
 * starts with status `running` (invisible to the logs API) and completed in place, so the logs API can tell which
 * earlier-started runs are still in flight (see services/logs for the polling horizon).
 */
export const executions = pgTable(
  'executions',
  {
    // The key includes started_at because on PostgreSQL the table is partitioned by it (db/executions-partitions.ts)
    // and a partitioned table's unique keys must hold the partition column; PGlite keeps the same key on a plain table.
    id: text('id').notNull(),
    /**
     * Only a log whose id is not its execution id's pair (written before 2026-11-28) keeps its execution id: a paired
     * log's id says it (24 bytes of every row, issue 28). Read it as `logExecutionId`, never this column alone.
     */
    executionId: text('execution_id'),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    workflowId: text('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    deploymentVersion: integer('deployment_version'),
    snapshotHash: text('snapshot_hash')
      .notNull()
      .references(() => stateSnapshots.hash),
    trigger: text('trigger').notNull(),
    /** running | success | error | cancelled | paused | resuming */
    status: text('status').notNull(),
    /** info | error (null while running) */
    level: text('level'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date', precision: 3 }),
    totalDurationMs: integer('total_duration_ms'),
    costTotal: doublePrecision('cost_total').notNull().default(0),
    /** { total, input, output, tokens: {prompt, completion, total}, models: {name: {input, output, total, tokens}} } */
    cost: jsonb<Record<string, unknown>>('cost'),
    /**
     * Models used, for the logs API `model` filter; null when none (most runs: an empty array took 13 bytes of each
     * row). Logs written before 2026-11-28 keep `{}`.
     */
    models: text('models').array(),
    finalOutput: jsonb<Record<string, unknown>>('final_output'),
    /**
     * The trace as rows before `trace_packed` kept it (format 1, 2 or 3, services/logs/stored-trace.ts); on a row with
     * `trace_packed`, only `{ offloaded }` when some of its values are in file storage (offloaded-values.ts), else null.
     * Read both through services/logs/columns.ts `storedTrace`.
     */
    traceSpans: jsonb<unknown[]>('trace_spans'),
    /** The packed trace's compressed bytes (packed-trace.ts, format 4's `z` unencoded: a quarter fewer bytes than base64). */
    tracePacked: bytea('trace_packed'),
    files: jsonb<unknown[]>('files'),
    error: text('error'),
    /**
     * Blocks that reported an error in a run that still succeeded (workflow/block-errors.ts); 0 for any other run
     * and for logs written before it was kept.
     */
    blockErrorCount: integer('block_error_count').notNull().default(0),
    /**
     * Which process runs it, for recovering runs orphaned by a crash; null once it has ended or paused (17 bytes of
     * every log that nothing reads, issue 28). `jobs.locked_by` keeps which process ran an async run.
     */
    runnerId: text('runner_id'),
    /** Set on a sub-workflow's run: the execution whose workflow block ran it. */
    parentExecutionId: text('parent_execution_id'),
    /** X-Request-Id of the HTTP request that started the run (null for schedules and runs from before it was kept). */
    requestId: text('request_id'),
    /**
     * A run that paused for an approval (status `paused`, then `resuming`): what resuming it needs — the decisions
     * made, the outcomes of the blocks that already ran (replayed, not run again), its input. Kept on the final log
     * for its paused time and decisions (runs/approvals.ts).
     */
    pause: jsonb<Record<string, unknown>>('pause'),
    /** Set on a re-run (runs/rerun-source.ts): the execution it re-ran, and the block it ran from (null: all of it). */
    rerunOf: text('rerun_of'),
    rerunFromBlock: text('rerun_from_block'),
    /** How long the run waited for a worker or a flow control slot before it started (ms); null: it did not wait. */
    queuedMs: integer('queued_ms'),
    /** Set when flow control held the run back (runs/flow-slots.ts): `{ reason: 'concurrency' | 'singleton' }`. */
    flowControl: jsonb<Record<string, unknown>>('flow_control'),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.startedAt] }),
    // A log's id is its execution id's pair (ids.ts `pairedLogId`): a lookup by execution id finds it through the
    // primary key (db/execution-lookup.ts). Only logs written before that are indexed by execution id: ~73 bytes less
    // a log.
    index('executions_unpaired_execution_id_idx').on(t.executionId, t.startedAt).where(unpairedLog(t)),
    // The workspace's own walk keeps the page's whole order (the model window, services/logs/model-window.ts, numbers
    // rows in it); the filters' keyset indexes below end at started_at, the id that breaks ties being sorted per group
    // of equal start times by the plan's Incremental Sort: left in, it took ~35 of each entry's ~95 bytes.
    index('executions_ws_started_idx').on(t.workspaceId, t.startedAt, t.id),
    // A workflow's runs: without the workspace, which the workflow implies (the query keeps its workspace condition),
    // each entry is ~27 bytes smaller, and the cascade of a workflow's deletion finds its logs through it.
    index('executions_workflow_started_idx').on(t.workflowId, t.startedAt),
    index('executions_running_idx').on(t.workspaceId, t.startedAt).where(sql`${t.status} = 'running'`),
    // Runs waiting for an approval: the Approvals page lists a workspace's, and the worker looks for stranded resumes.
    index('executions_waiting_idx').on(t.workspaceId, t.startedAt).where(sql`${t.status} in ('paused', 'resuming')`),
    // Logs API filters that can match almost nothing (bench/REPORT-logs.md): without these they scan the workspace.
    // Without GIN's pending list (fastupdate): what a run adds goes into the index at once, so a model search never
    // scans up to 4 MB of unsorted entries first, and a run without a model costs ~4 bytes of index, not ~30 of pending
    // list until the next VACUUM (bench/REPORT.md log-storage).
    index('executions_models_idx').using('gin', t.models).with({ fastupdate: false }),
    index('executions_ws_duration_idx').on(t.workspaceId, t.totalDurationMs),
    index('executions_ws_errors_idx').on(t.workspaceId, t.startedAt, t.id).where(sql`${t.level} = 'error'`),
    // The models of failures apart: `level=error` with a model filter ANDs this small bitmap (~5% of the rows'), where
    // the full index's (every run that used the model: ~70,000 at 1M logs, 10–30 ms to build) made it the one logs
    // API case over 20 ms (bench/REPORT-logs.md). Failures only, so the bytes are paid by a small share of the rows.
    index('executions_failures_models_idx').using('gin', t.models).with({ fastupdate: false }).where(sql`${t.level} = 'error'`),
    // `blockErrors=true`: runs that succeeded while a block reported an error are as rare as failures.
    index('executions_ws_block_errors_idx').on(t.workspaceId, t.startedAt, t.id).where(sql`${t.blockErrorCount} > 0`),
    // The trigger and version filters: a rare value's runs are few, so its page is a bitmap of them sorted, and a
    // common one's walks the workspace's index above (the planner knows which from the column's statistics). Without
    // started_at each key is one of a handful, which B-tree deduplication stores once per page with the rows' places:
    // ~8 bytes a log where (…, started_at) took 61 (bench/REPORT.md log-storage, bench/REPORT-logs.md).
    index('executions_ws_trigger_idx').on(t.workspaceId, t.trigger),
    index('executions_parent_idx').on(t.parentExecutionId).where(sql`${t.parentExecutionId} is not null`),
    // `rerunOf=` and an original's detail listing its re-runs.
    index('executions_rerun_of_idx').on(t.rerunOf, t.startedAt).where(sql`${t.rerunOf} is not null`),
    // `deploymentVersion=`: an old version's runs are a thin slice of a workflow's history (deduplicated, as the trigger's).
    index('executions_ws_version_idx').on(t.workspaceId, t.deploymentVersion),
  ],
);

/**
 * A log's execution id, in SQL: the one it keeps, else its id's pair (`executions.execution_id`). Takes the row's
 * columns as `unpairedLog` does, so raw SQL over an alias states it too.
 */
export const executionIdOfLog = (log: { id: AnyPgColumn | SQL; executionId: AnyPgColumn | SQL }) =>
  sql<string>`coalesce(${log.executionId}, 'exec_' || substr(${log.id}, 5))`;
/** The same over `executions` unaliased, for the query builder. */
export const logExecutionId = executionIdOfLog(executions);

/** Spending of a user (workspace owner) per calendar month, in USD. */
export const usagePeriods = pgTable(
  'usage_periods',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** First day of the period, `YYYY-MM-01`. */
    period: text('period').notNull(),
    costUsd: doublePrecision('cost_usd').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.period] })],
);

/** Fixed one-minute windows shared by every process: one row per (bucket, window). */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    bucket: text('bucket').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);

/** `Idempotency-Key` of execute calls: the first execution's response, replayed for 24 h. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    workflowId: text('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    executionId: text('execution_id').notNull(),
    /** SHA-256 of what was asked (mode and body bytes): the same key with another request is refused (422). */
    requestHash: text('request_hash'),
    /** running | done */
    status: text('status').notNull(),
    responseStatus: integer('response_status'),
    responseHeaders: jsonb<Record<string, string>>('response_headers'),
    responseBody: jsonb<unknown>('response_body'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workflowId, t.key] }), index('idempotency_created_idx').on(t.createdAt)],
);

/**
 * A bulk re-run (`POST /api/v1/executions/rerun`): the executions it matched and the re-run queued for each, written
 * in the transaction that queues their jobs, so a batch is either wholly queued or not at all. Progress is read from
 * the re-runs' logs. The Idempotency-Key, when given, names one batch per workspace.
 */
export const rerunBatches = pgTable(
  'rerun_batches',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key'),
    /** SHA-256 of the request body: the same key with another body is refused (422). */
    requestHash: text('request_hash').notNull(),
    /** In the order they were matched; executionId null (with the reason) for one that could not be re-run. */
    items: jsonb<Array<{ originalExecutionId: string; executionId: string | null; reason?: string }>>('items').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('rerun_batches_key_idx').on(t.workspaceId, t.idempotencyKey)],
);

/**
 * An agent block's conversation memory (README "Agents"): one per workflow and key (`memory.key`, resolved per run),
 * its messages in agent_memory_messages. `messageCount` is the last sequence number given out: an append raises it
 * with an upsert, whose row lock makes concurrent appends to one key take consecutive, disjoint ranges.
 * `updatedAt` is the last message's time; log retention prunes memories by it.
 */
export const agentMemories = pgTable(
  'agent_memories',
  {
    id: text('id').primaryKey(),
    workflowId: text('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    messageCount: integer('message_count').notNull().default(0),
    createdAt: createdAt(),
    // Milliseconds, as a Date holds them: the list's cursor carries it exactly.
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('agent_memories_key_idx').on(t.workflowId, t.key),
    // The API's list (newest first) and retention (oldest first).
    index('agent_memories_workflow_updated_idx').on(t.workflowId, t.updatedAt, t.key),
    index('agent_memories_updated_idx').on(t.updatedAt),
  ],
);

/** One message of a memory: a user prompt, an assistant turn (with the tool calls it asked for) or one tool result. */
export const agentMemoryMessages = pgTable(
  'agent_memory_messages',
  {
    memoryId: text('memory_id')
      .notNull()
      .references(() => agentMemories.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    /** user | assistant | tool */
    role: text('role').notNull(),
    content: text('content').notNull(),
    /** assistant: the tool calls it asked for, `[{id, name, arguments}]` (arguments as the model's JSON text). */
    toolCalls: jsonb<Array<{ id: string; name: string; arguments: string }>>('tool_calls'),
    /** tool: the call it answers, the tool's name, and whether the result is an error. */
    toolCallId: text('tool_call_id'),
    toolName: text('tool_name'),
    isError: boolean('is_error'),
    /** The run that added it. */
    executionId: text('execution_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.memoryId, t.seq] })],
);

/** Files uploaded through the execute endpoint (data URLs), stored by a storage backend under storageKey. */
export const files = pgTable(
  'files',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    executionId: text('execution_id'),
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    storageKey: text('storage_key').notNull(),
    createdAt: createdAt(),
  },
  // By execution: a run's files are found (and pruned with its log, services/logs/retention.ts) by its id. No foreign
  // key to the log (its key holds started_at): the values of a deleted workflow's logs lose their execution id with
  // it, and housekeeping finds them through the partial index, which holds only those (services/logs/orphaned-values.ts).
  (t) => [
    index('files_workspace_idx').on(t.workspaceId),
    index('files_execution_idx').on(t.executionId),
    index('files_orphaned_values_idx').on(t.id).where(sql`${t.executionId} is null and ${t.storageKey} like 'executions/%/values/%'`),
  ],
);

/**
 * The one durable-work mechanism (docs/decisions.md "Jobs"): webhook deliveries, async executions, schedules. Claimed
 * with FOR UPDATE SKIP LOCKED and a lease; a job whose worker died is claimed again once its lease expires.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb<unknown>('payload').notNull(),
    /** queued | running | completed | failed */
    status: text('status').notNull().default('queued'),
    runAt: timestamp('run_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date', precision: 3 }),
    lockedBy: text('locked_by'),
    /** Whose job it is (an async run's workspace), for fair claims between tenants (jobs/claim.ts); null: nobody's. */
    tenant: text('tenant'),
    /** Higher first among a tenant's queued jobs (an async run's priority, -100…100; claim.ts). */
    priority: integer('priority').notNull().default(0),
    /**
     * An async run under flow control (runs/flow-slots.ts): the workflow and key it holds a slot of while it runs,
     * and how many slots the key has. The claim passes over a job whose key has no free slot.
     */
    flowKey: text('flow_key'),
    flowLimit: integer('flow_limit'),
    /**
     * A debounced async run (runs/flow-debounce.ts): `<workflowId>:<key value>`. At most one job per debounce key is
     * queued; each call of the burst replaces its input and due time until a worker claims it.
     */
    debounceKey: text('debounce_key'),
    lastError: text('last_error'),
    result: jsonb<unknown>('result'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('jobs_due_idx').on(t.runAt).where(sql`${t.status} = 'queued'`),
    // Claims (jobs/claim.ts): a kind's tenants with queued jobs, each one's oldest, and the oldest of no tenant, each
    // found by index probes rather than by reading the whole queue.
    index('jobs_claim_idx').on(t.kind, t.tenant, t.priority.desc(), t.runAt).where(sql`${t.status} = 'queued'`),
    // Singleton and reject checks count a key's queued runs; claims its running ones.
    index('jobs_flow_key_idx').on(t.flowKey, t.status).where(sql`${t.status} in ('queued', 'running') and ${t.flowKey} is not null`),
    // One queued job per debounce key: the upsert of a debounced call (runs/flow-debounce.ts) conflicts on it.
    uniqueIndex('jobs_debounce_idx').on(t.debounceKey).where(sql`${t.status} = 'queued' and ${t.debounceKey} is not null`),
    index('jobs_lease_idx').on(t.leaseUntil).where(sql`${t.status} = 'running'`),
    // Pruning finished jobs without a full table scan.
    index('jobs_completed_idx').on(t.completedAt).where(sql`${t.status} in ('completed', 'failed')`),
  ],
);

export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: text('id').primaryKey(),
    workflowId: text('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** Encrypted with the at-rest cipher; null = unsigned deliveries. */
    secretEncrypted: text('secret_encrypted'),
    includeFinalOutput: boolean('include_final_output').notNull().default(false),
    includeTraceSpans: boolean('include_trace_spans').notNull().default(false),
    includeRateLimits: boolean('include_rate_limits').notNull().default(false),
    includeUsageData: boolean('include_usage_data').notNull().default(false),
    levelFilter: text('level_filter').array().notNull(),
    triggerFilter: text('trigger_filter').array().notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('webhook_subscriptions_workflow_idx').on(t.workflowId)],
);

/**
 * One per (event, subscription). The body is fixed at creation; each attempt signs it afresh. A delivery of an
 * execution stores only its `envelope` (what its subscription asked for, the event's timestamp): the body is built
 * from the execution's log when it is sent (completion-webhooks/delivery-body.ts). `body` is kept whole for a test
 * event (about no log) and by deliveries made before that.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id').notNull(),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    workflowId: text('workflow_id').notNull(),
    executionId: text('execution_id'),
    eventType: text('event_type').notNull(),
    body: text('body'),
    envelope: text('envelope'),
    /** pending | succeeded | failed */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date', precision: 3 }),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('deliveries_subscription_idx').on(t.subscriptionId, t.createdAt)],
);

export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
  },
  (t) => [index('delivery_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
);

/** Browser sessions of the web app. Only the SHA-256 of the session token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Double-submit CSRF token bound to this session. */
    csrfToken: text('csrf_token').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('sessions_token_idx').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/** Inbound webhook trigger paths of active deployments; unique across the service (README "Other triggers"). */
export const webhookTriggerPaths = pgTable('webhook_trigger_paths', {
  path: text('path').primaryKey(),
  workflowId: text('workflow_id')
    .notNull()
    .references(() => workflows.id, { onDelete: 'cascade' }),
  blockId: text('block_id').notNull(),
  createdAt: createdAt(),
});

/** Cron schedules of active deployments; the next tick is a job whose id is derived from (schedule, tick time). */
export const schedules = pgTable(
  'schedules',
  {
    workflowId: text('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    blockId: text('block_id').notNull(),
    cron: text('cron').notNull(),
    timezone: text('timezone').notNull().default('UTC'),
    deploymentVersion: integer('deployment_version').notNull(),
    nextRunAt: timestamp('next_run_at', { withTimezone: true, mode: 'date', precision: 3 }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true, mode: 'date', precision: 3 }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workflowId, t.blockId] })],
);

/**
 * Processes that run executions (`sluice serve`, `sluice worker`), each beating its heartbeat every few seconds.
 * A process whose heartbeat stopped is gone: its executions still `running` are closed as interrupted by whichever
 * process notices (runs/runners.ts). `executions.runner_id` points here (not as a foreign key: a runner row
 * is deleted once its orphans are closed, and rows written before runners existed name none).
 */
export const runners = pgTable('runners', {
  id: text('id').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
});

/**
 * Flow control slots (runs/flow-slots.ts): one row per run in flight under a workflow's concurrency limit or singleton,
 * numbered 0…limit-1 per key, so two processes can never take the same slot. A run frees its slot when it ends; the
 * slots of a process that died are freed with its runs by the crash recovery (runs/runners.ts).
 */
export const flowSlots = pgTable(
  'flow_slots',
  {
    /** `<workflowId>:<key value>` (the key value hashed when long). */
    flowKey: text('flow_key').notNull(),
    slot: integer('slot').notNull(),
    workflowId: text('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    executionId: text('execution_id').notNull(),
    runnerId: text('runner_id').notNull(),
    acquiredAt: timestamp('acquired_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.flowKey, t.slot] }), uniqueIndex('flow_slots_execution_idx').on(t.executionId), index('flow_slots_runner_idx').on(t.runnerId)],
);

/**
 * Throttle starts (runs/flow-throttle.ts): a sliding window of a workflow's last `limit` run starts per key — one row
 * per start number 0…limit-1, holding when that number was last used. A start takes a number whose last use is older
 * than the period, so no window of `periodMs` ever holds more than `limit` starts, across every process.
 */
export const flowThrottleStarts = pgTable(
  'flow_throttle_starts',
  {
    /** `<workflowId>:<key value>` (the key value hashed when long). */
    throttleKey: text('throttle_key').notNull(),
    slot: integer('slot').notNull(),
    workflowId: text('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    executionId: text('execution_id').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
  },
  // Pruning starts older than any period (flow-throttle.ts) without reading every key.
  (t) => [primaryKey({ columns: [t.throttleKey, t.slot] }), index('flow_throttle_starts_started_idx').on(t.startedAt)],
);
