// The tools a remote MCP server offers, as the editor lists them before a workflow is run (POST /api/v1/mcp/tools):
// the same client and guarded network path the agent block uses at run start, so what the editor shows is what a
// run will be offered.
import { McpServerError, openMcpTools, shownMcpUrl } from '../blocks/agent-tools/mcp.js';
import type { BlockServices } from '../blocks/types.js';
import { AppError, badRequest } from '../errors.js';

/** The editor waits this long for a server at most; a run's own time limit governs at run time. */
const LIST_TIMEOUT_MS = 15_000;

export interface McpToolView {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export async function listMcpServerTools(
  services: BlockServices,
  server: { url: string; headers?: Record<string, string> },
  requestSignal: AbortSignal,
): Promise<McpToolView[]> {
  const timeout = AbortSignal.timeout(LIST_TIMEOUT_MS);
  let session;
  try {
    session = await openMcpTools(server, services, AbortSignal.any([requestSignal, timeout]));
  } catch (error) {
    if (error instanceof McpServerError) {
      if (error.refused) throw badRequest(error.message, [{ path: 'url', message: error.message }]);
      throw new AppError('MCP_SERVER_UNREACHABLE', 502, error.message);
    }
    if (timeout.aborted) {
      throw new AppError('MCP_SERVER_UNREACHABLE', 502, `MCP server ${shownMcpUrl(server.url)} did not answer within ${LIST_TIMEOUT_MS / 1000} seconds`);
    }
    throw error;
  }
  await session.close();
  return session.tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
}
