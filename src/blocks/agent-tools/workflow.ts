// Workflow tools: another workflow of the workspace, run as a child execution exactly like the workflow block's
// (parentExecutionId, depth and cycle limits, charged with the tree). Its API trigger's Input Format is the tool's
// JSON Schema; its response is the result.
import type { AgentTool } from '../../llm/tools.js';
import type { BlockServices } from '../types.js';
import { toolApproval, type WorkflowToolConfig } from './config.js';

export async function workflowTool(config: WorkflowToolConfig, services: BlockServices): Promise<AgentTool> {
  const describe = services.describeSubWorkflow;
  const runChild = services.runSubWorkflow;
  if (!describe || !runChild) throw new Error('Workflow tools cannot run here');
  const target = await describe(config.workflowId);
  if ('error' in target) throw new Error(`Tool ${config.name ?? config.workflowId}: ${target.error}`);
  return {
    name: config.name ?? config.workflowId,
    description: config.description ?? (target.description || `Runs the workflow "${target.name}"`),
    parameters: target.parameters,
    ...toolApproval(config),
    async call(args, { signal, report }) {
      const input = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
      // The child's streamed text is its own business: only the agent's final answer streams to the caller.
      const child = await runChild({ workflowId: config.workflowId, input, signal, onChunk: () => {} });
      report?.({ executionId: child.executionId, spans: child.spans });
      if (child.error !== undefined) throw new Error(child.error);
      return child.output;
    },
  };
}
