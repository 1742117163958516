// MCP tools (a remote MCP server's tools, listed at run start). Placeholder until the MCP client lands.
import type { AgentTool } from '../../llm/tools.js';
import type { BlockServices } from '../types.js';

export async function openMcpTools(
  _config: { url: string; headers?: Record<string, string>; include?: string[] },
  _services: BlockServices,
  _signal: AbortSignal,
): Promise<{ tools: AgentTool[]; close(): Promise<void> }> {
  throw new Error('MCP tools are not available in this build');
}
