// The agent block's `tools` entries as saved in a workflow (README "Agents", docs/workflows.md). Checked when the
// workflow is saved or deployed: a tool name must be usable by both providers and unique in the block, and a
// parameters schema must compile, so a broken tool is refused before any run pays for a model call.
import { z } from 'zod';
import { compileSchema } from '../../llm/index.js';
import { TOOL_NAME_PATTERN, type ToolApproval } from '../../llm/tools.js';
import { approvalTimeoutSchema, defaultDecisionSchema } from '../approval.js';

const toolName = z.string().regex(TOOL_NAME_PATTERN, 'must be 1 to 64 letters, digits, _ or -');
const description = z.string().default('');

const parametersSchema = z
  .record(z.string(), z.unknown())
  .default({ type: 'object', properties: {} })
  .superRefine((schema, ctx) => {
    if (schema.type !== undefined && schema.type !== 'object') {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON Schema of type "object" (the arguments are an object)' });
      return;
    }
    const compiled = compileSchema({ name: 'parameters', schema });
    if (typeof compiled === 'string') {
      ctx.addIssue({ code: 'custom', message: compiled.replace(/^responseFormat is/, 'is') });
    }
  });

// A tool marked `requiresApproval` pauses the run before each of its calls until a person decides (README "Agents");
// the time-out and its default decision work as the approval block's.
const approval = {
  requiresApproval: z.boolean().optional(),
  approvalTimeoutMs: approvalTimeoutSchema,
  approvalDefaultDecision: defaultDecisionSchema,
};

/** What an AgentTool is given of its entry's approval settings: nothing unless it asks for approval. */
export function toolApproval(entry: { requiresApproval?: boolean; approvalTimeoutMs?: number; approvalDefaultDecision: 'approve' | 'reject' }): {
  approval?: ToolApproval;
} {
  if (entry.requiresApproval !== true) return {};
  return {
    approval: {
      defaultDecision: entry.approvalDefaultDecision,
      ...(entry.approvalTimeoutMs !== undefined ? { timeoutMs: entry.approvalTimeoutMs } : {}),
    },
  };
}

export const workflowToolSchema = z.object({
  type: z.literal('workflow'),
  workflowId: z.string().regex(/^wf_[A-Za-z0-9]{1,64}$/, 'must be the id of a workflow (wf_…)'),
  name: toolName.optional(),
  description: z.string().optional(),
  ...approval,
});

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

export const httpToolSchema = z.object({
  type: z.literal('http'),
  name: toolName,
  description,
  parameters: parametersSchema,
  /** `<args.x>` anywhere in it is filled with the model's argument x when the tool is called. */
  request: z.object({
    url: z.string().min(1, 'is required'),
    method: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(METHODS)).default('GET'),
    headers: z.record(z.string(), z.unknown()).default({}),
    query: z.record(z.string(), z.unknown()).default({}),
    body: z.unknown().optional(),
  }),
  /** An `http` credential of the workspace whose auth is applied to every call (as the API block's `credentialId`). */
  credentialId: z.string().optional(),
  timeoutMs: z.coerce.number().int().positive().max(300_000).default(30_000),
  retries: z.coerce.number().int().min(0).max(10).default(2),
  ...approval,
});

export const functionToolSchema = z.object({
  type: z.literal('function'),
  name: toolName,
  description,
  parameters: parametersSchema,
  /** An async function body; the model's arguments are `args`. */
  code: z.string().min(1, 'is required'),
  ...approval,
});

export const mcpToolSchema = z.object({
  type: z.literal('mcp'),
  url: z.string().min(1, 'is required'),
  headers: z.record(z.string(), z.string()).optional(),
  include: z.array(z.string()).optional(),
  /** Every tool of the server needs approval for each call. */
  ...approval,
});

export const toolConfigSchema = z.discriminatedUnion('type', [workflowToolSchema, httpToolSchema, functionToolSchema, mcpToolSchema]);
export type ToolConfig = z.infer<typeof toolConfigSchema>;
export type HttpToolConfig = z.infer<typeof httpToolSchema>;
export type FunctionToolConfig = z.infer<typeof functionToolSchema>;
export type WorkflowToolConfig = z.infer<typeof workflowToolSchema>;

/** Whether any entry asks for approval (known from the configuration, before anything runs). */
export const needsApproval = (tools: readonly ToolConfig[]) => tools.some((tool) => tool.requiresApproval === true);

/** The name a tool is offered under; MCP entries bring their tools' own names, known only at run time. */
export function configuredToolName(tool: ToolConfig): string | undefined {
  if (tool.type === 'mcp') return undefined;
  if (tool.type === 'workflow') return tool.name ?? tool.workflowId;
  return tool.name;
}

export const toolsSchema = z
  .array(toolConfigSchema)
  .max(64, 'may hold at most 64 tools')
  .default([])
  .superRefine((tools, ctx) => {
    const seen = new Map<string, number>();
    tools.forEach((tool, index) => {
      const name = configuredToolName(tool);
      if (name === undefined) return;
      const first = seen.get(name);
      if (first !== undefined) {
        ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `the tool name "${name}" is already used by tool ${first}` });
      } else seen.set(name, index);
    });
  });

/**
 * References the agent block leaves for itself: `<args.x>` in an http tool's request is the model's argument, filled
 * in per call; a function tool's code gets its references as data (never spliced), like the function block.
 */
export function agentKeepsReference(ref: { kind: 'block' | 'env'; name: string }, path: readonly (string | number)[]): boolean {
  if (path[0] !== 'tools' || typeof path[1] !== 'number') return false;
  if (path[2] === 'code') return true;
  return path[2] === 'request' && ref.kind === 'block' && ref.name === 'args';
}
