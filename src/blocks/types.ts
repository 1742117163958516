// The contract between the engine and every block type. One module per block type implements
// BlockDefinition; the registry (./registry.ts) lists them. Blocks know nothing of the database or HTTP server.
import type { z } from 'zod';
import type { ConnectionCache } from '../connectors/connection-cache.js';
import type { ResolvedCredential } from '../connectors/credential-data.js';
import type { ConnectorOperation } from '../connectors/openapi-operation.js';
import type { BlockReference, PathSegment, Reference, TriggerType } from '../workflow/index.js';
import type { BlockForm } from './forms.js';

/** Services and limits the host process lends to blocks; built once per process from configuration. */
export interface BlockServices {
  /** When false, outbound requests to private, loopback and link-local addresses are refused. */
  allowPrivateNetwork: boolean;
  /** Connector hosts allowed even on private addresses (SLUICE_ALLOWED_HOSTS); the API block's policy is unchanged. */
  allowedHosts?: readonly string[];
  sandbox: { memoryLimitBytes: number; timeoutMs: number };
  /**
   * Whose share of the sandbox this run's code counts against (its workspace): the sandbox's workers go to the
   * workspaces with the fewest runs on them, so one workspace's flood of code cannot hold every other one up.
   */
  tenant?: string;
  /** Read a provider setting such as OPENAI_API_KEY; blocks never read process.env directly. */
  providerEnv(name: string): string | undefined;
  /** The process's open connections to outside systems, per credential version (database pools, brokers, SMTP). */
  connections: ConnectionCache;
  /**
   * A stored credential of the run's workspace, decrypted (lent per run by the host); throws a message naming the
   * credential when it does not exist there. Its data must never reach a block's output, a log or an error message.
   */
  credential?(credentialId: string): Promise<ResolvedCredential>;
  /**
   * An operation of an OpenAPI connector of the run's workspace (the API block's `operation`), with the document's
   * servers; lent per run by the host. Throws a message naming the connector or operation when it does not exist there.
   */
  connectorOperation?(connectorId: string, operationId: string): Promise<{ servers: string[]; operation: ConnectorOperation }>;
  /**
   * The bytes of a file this service stored, by its UserFile's signed `url` (the email block's attachments); lent per
   * run by the host. Throws a message for the user when the link is expired, forged or not this service's, or the
   * file is larger than `maxBytes`.
   */
  readFile?(url: string, maxBytes: number): Promise<{ name: string; type: string; content: Uint8Array }>;
  /** Runs another workflow as a child of this run (the workflow block); lent per run by the host. */
  runSubWorkflow?(request: SubWorkflowRequest): Promise<SubWorkflowResult>;
  /** What a workflow tool offers the model: the workflow's name and its Input Format as a JSON Schema. */
  describeSubWorkflow?(workflowId: string): Promise<SubWorkflowDescription | { error: string }>;
  /**
   * Waits for a person's decision (the approval block); lent per run by the host. The run pauses durably meanwhile:
   * this promise may never settle in this process — the run is resumed later, where the answer comes at once.
   */
  awaitApproval?(request: ApprovalRequest): Promise<ApprovalDecision>;
  /** The agent block's conversation memory, kept per workflow and key in the database; lent per run by the host. */
  memory?: AgentMemory;
  /**
   * What a block handed with its last approval request (`ApprovalRequest.checkpoint`), when the run resumes from that
   * pause: the agent block goes on from it instead of calling its model again. Undefined otherwise.
   */
  approvalCheckpoint?(blockId: string): unknown;
  /**
   * Waits until `dueAt` (epoch ms) for the wait block; lent per run by the host to runs nobody waits on (async, queue,
   * schedule). A wait due more than a few seconds away parks the run durably (it ends for now and is resumed on any
   * process at the due time, where this answers at once); a shorter one sleeps here. Undefined where a run cannot park.
   */
  waitUntil?(request: { blockId: string; dueAt: number; signal: AbortSignal }): Promise<void>;
}

/** One message of an agent's conversation memory: a user prompt, an assistant turn, or one tool result. */
export type MemoryMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: Array<{ id: string; name: string; arguments: string }> }
  | { role: 'tool'; content: string; toolCallId: string; toolName: string; isError: boolean };

export interface AgentMemory {
  /** The last `lastMessages` messages kept under `key`, oldest first (none for a key never used). */
  load(key: string, lastMessages: number): Promise<MemoryMessage[]>;
  /** Appends the messages, in order, after whatever the key holds by then (concurrent appends never interleave). */
  append(key: string, messages: MemoryMessage[]): Promise<void>;
}

export interface ApprovalRequest {
  blockId: string;
  /** Shown to whoever decides. */
  message?: string;
  /** After this long with no decision, `defaultDecision` applies. */
  timeoutMs?: number;
  defaultDecision?: 'approve' | 'reject';
  /** Names the decision when one block asks several times (an agent's tool calls); the block id when absent. */
  key?: string;
  /** The agent tool call that waits: shown to whoever decides. */
  toolCall?: { id: string; name: string; arguments: unknown };
  /** Plain data the block gets back on resume (approvalCheckpoint). */
  checkpoint?: unknown;
  /** Model use the block paid for before it asked: the paused run's log counts it (its span has no output yet). */
  usage?: { model: string; tokens: { prompt: number; completion: number; total: number }; cost: { input: number; output: number; total: number } };
}

export interface ApprovalDecision {
  approved: boolean;
  /** What the decider sent along (`{}` when nothing). */
  data: unknown;
  /** The user who decided; null when the time-out decided. */
  decidedBy: string | null;
  decidedAt: string;
}

export interface SubWorkflowRequest {
  workflowId: string;
  input: Record<string, unknown>;
  signal: AbortSignal;
  /** Streamed text of the child (its agent tokens). */
  onChunk(text: string): void;
}

export interface SubWorkflowDescription {
  name: string;
  description: string;
  /** JSON Schema (type object) of its API trigger's Input Format. */
  parameters: Record<string, unknown>;
}

export interface SubWorkflowResult {
  /** The child's final output (docs/api.md 4.3), or {} when it could not run. */
  output: unknown;
  /** Null when the child never started (unknown workflow, depth or cycle refused). */
  executionId: string | null;
  error?: string;
  /** The child's trace, shown under this block's span. */
  spans: readonly object[];
}

export interface BlockRunContext<Config> {
  executionId: string;
  workflowId: string;
  blockId: string;
  blockName: string;
  /** The block's config, validated by its schema; references already resolved unless resolveReferences is false. */
  config: Config;
  /** Aborted when the run is cancelled (client gone, time-out). Every wait and request must honour it. */
  signal: AbortSignal;
  /** Push streamed text (agent tokens); the engine forwards it as a chunk event tagged with this block. */
  emitChunk(text: string): void;
  /** Report progress while the block runs (the agent's steps and tool calls); the engine forwards it as an event. */
  emitProgress(progress: BlockProgress): void;
  /** Value of a parsed `<block.path>` reference in the current scope (loop/parallel iteration aware). */
  lookupReference(ref: BlockReference): unknown;
  /** Resolve every reference inside an arbitrary value (used by blocks that resolve lazily). */
  resolve(value: unknown): unknown;
  /** Set a workflow variable, readable afterwards as `<variable.name>`. */
  setVariable(name: string, value: unknown): void;
  trigger: { type: TriggerType; input: Record<string, unknown> };
  services: BlockServices;
  /**
   * Set in a re-run of an earlier execution: a key the same for this block and iteration in every re-run of it, for
   * calls to the outside world to carry so an upstream that honours idempotency keys does not act twice.
   */
  idempotencyKey?: string;
}

/** What an agent reports while its loop runs (streamed to callers that ask with `streamEvents`). */
export type BlockProgress =
  | { event: 'step'; step: number; toolCalls: number; tokens: { prompt: number; completion: number; total: number } }
  | { event: 'tool_call'; step: number; id: string; name: string; arguments: unknown }
  | { event: 'tool_result'; step: number; id: string; name: string; result: unknown; error?: string; durationMs: number };

export interface BlockResult {
  output: Record<string, unknown>;
  /** Which outgoing edge handle to activate (e.g. `condition-<id>`); default `source`. Ignored when output.error is set. */
  sourceHandle?: string;
  /**
   * The error in the output is an outcome, not a failure: with no `error` edge the run goes on along the normal
   * edges (docs/workflows.md 5: an API block's non-2xx does not fail it; workflows branch on `<api.status>`).
   * An `error` edge, when present, is still taken.
   */
  continueOnError?: boolean;
  /** Spans of work the block ran as runs of their own (a sub-workflow's trace), shown as its span's children. */
  childSpans?: readonly object[];
}

export interface WrittenConfigIssue {
  path: PathSegment[];
  message: string;
}

export interface BlockDefinition<Config = Record<string, unknown>> {
  type: string;
  configSchema: z.ZodType<Config>;
  /**
   * How the editor presents the block (./forms.ts); its field keys must be keys of the config. Every block of the
   * registry has one (test/blocks/forms.test.ts); blocks made up for engine tests need none.
   */
  form?: BlockForm<keyof Config & string>;
  /** False for blocks whose config holds code: references reach them as data via lookupReference, never spliced. */
  resolveReferences?: boolean;
  /**
   * Config fields that are data the block takes as they are: typed unknown in the schema, and read by none of its
   * refinements. A deployed config whose references all sit in them is checked against the schema once, not per run
   * (engine/compiled-config.ts): no value they resolve to could change the check's outcome.
   */
  dataFields?: readonly string[];
  /**
   * References the block fills in itself, left as written by the engine and not checked against block names when
   * the workflow is saved (the agent's `<args.x>` in a tool's request). `path` is where the text sits in the config.
   */
  keepsReference?(ref: Reference, path: readonly PathSegment[]): boolean;
  /**
   * Rules about the config as written, references still in place, checked when the workflow is saved (unlike the
   * schema's, they are never deferred to run time): the database block refuses a reference inside its SQL text.
   */
  writtenConfigIssues?(config: unknown): WrittenConfigIssue[];
  /** True for trigger blocks: they run only when the run was started by their trigger kind. */
  trigger?: TriggerType;
  /**
   * When an execution resumes after a pause, blocks that already ran are replayed from their recorded outcome; a
   * block whose run has no effect outside the run (reads its input, sets variables, shapes a response) says 'rerun'
   * and is simply run again, so the state it builds is rebuilt.
   */
  replay?: 'rerun';
  run(ctx: BlockRunContext<Config>): Promise<BlockResult>;
}
