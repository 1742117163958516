// What the agent loop (agent-loop.ts) calls: one tool the model may use. Every tool type (workflow, http, function,
// mcp: src/blocks/agent-tools/) is turned into these at run start, so the loop knows nothing of where a tool runs.

export interface AgentTool {
  /** Unique within the block; [a-zA-Z0-9_-]{1,64} (both providers' rule for tool names). */
  name: string;
  description: string;
  /** JSON Schema of the arguments (type: object); the loop validates the model's arguments against it. */
  parameters: Record<string, unknown>;
  /** Set when a person approves each call before it runs (the loop asks through `askApproval`). */
  approval?: ToolApproval;
  /** Throws → the message goes back to the model as an error result; the run goes on. */
  call(args: unknown, context: ToolCallContext): Promise<unknown>;
}

export interface ToolApproval {
  /** With no decision after this long, `defaultDecision` applies; without it the call waits until someone decides. */
  timeoutMs?: number;
  defaultDecision: 'approve' | 'reject';
}

export interface ToolCallContext {
  /** Aborted on cancel, the run's time limit, or when the loop gives up. */
  signal: AbortSignal;
  /**
   * For tools that run as executions of their own (workflow tools): the child's id and trace, shown under the
   * tool call's span. Optional for the caller; tools that have nothing of the kind never call it.
   */
  report?(detail: { executionId: string | null; spans: readonly object[] }): void;
}

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
