// MCP tools: the tools of a remote MCP server (streamable HTTP transport, the official SDK's client), listed when the
// agent block starts and called through the same guarded network path as the API block and the model SDKs, so the
// private-network policy holds on every connection (after DNS, on each redirect).
import { linkedController } from '../../abort-listeners.js';
import { guardedFetch } from '../../llm/guarded-fetch.js';
import { onFirstUse } from '../../lazy-import.js';
import type { AgentTool, ToolApproval } from '../../llm/tools.js';
import { assertUrlAllowed, NetworkPolicyError } from '../../net/index.js';
import { findPolicyError } from '../../net/policy-error.js';
import { SLUICE_VERSION } from '../../version.js';
import type { BlockServices } from '../types.js';

/** The official SDK's client, its streamable HTTP transport and its error type, loaded when an agent first uses MCP. */
const mcpSdk = onFirstUse(() =>
  Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]),
);

export interface McpServerConfig {
  url: string;
  headers?: Record<string, string>;
  /** Only these of the server's tools are offered; all of them when absent. */
  include?: string[];
  /** Each call of every tool of the server waits for a person's approval. */
  approval?: ToolApproval;
}

/** The most tools pages read from one server: a server whose cursor never ends must not hang the run's start. */
const MAX_LIST_PAGES = 50;

/** Ending the server's session is a courtesy: a server that does not answer must not hold up the block's end. */
const CLOSE_GRACE_MS = 2_000;

/** The URL as shown in messages: no user info or query string, which may carry credentials. */
export function shownMcpUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url.length > 120 ? `${url.slice(0, 120)}…` : url;
  }
}

/** The innermost message of an error's cause chain, where undici puts what went wrong (ECONNREFUSED, DNS…). */
function rootCause(error: unknown): string {
  let current: unknown = error;
  let message = error instanceof Error ? error.message : String(error);
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.message) message = current.message;
    current = current.cause;
  }
  return message;
}

/** The server could not be used: `refused` by the network policy (the caller's URL is at fault), or not reached. */
export class McpServerError extends Error {
  override readonly name = 'McpServerError';
  constructor(
    message: string,
    readonly refused: boolean,
  ) {
    super(message);
  }
}

function refused(url: string, error: NetworkPolicyError): McpServerError {
  return new McpServerError(`MCP server ${shownMcpUrl(url)} refused: ${error.message}`, true);
}

function unreachable(url: string, error: unknown): McpServerError {
  const policy = findPolicyError(error);
  if (policy) return refused(url, policy);
  return new McpServerError(`MCP server ${shownMcpUrl(url)} could not be reached: ${rootCause(error)}`, false);
}

/** What a call answered: structured content when the tool gives it, else its text, else its content as sent. */
function callResult(result: Record<string, unknown>): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (!Array.isArray(result.content)) return 'toolResult' in result ? result.toolResult : null;
  const content = result.content as { type?: string; text?: string }[];
  if (content.length > 0 && content.every((item) => item.type === 'text')) return content.map((item) => item.text).join('\n');
  return content;
}

function errorText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as { type?: string; text?: string }[]) : [];
  return content
    .filter((item) => item.type === 'text' && typeof item.text === 'string')
    .map((item) => item.text)
    .join('\n');
}

export async function openMcpTools(
  config: McpServerConfig,
  services: BlockServices,
  signal: AbortSignal,
): Promise<{ tools: AgentTool[]; close(): Promise<void> }> {
  const url = config.url.trim();
  let target: URL;
  try {
    target = assertUrlAllowed(url, { allowPrivateNetwork: services.allowPrivateNetwork });
  } catch (error) {
    if (error instanceof NetworkPolicyError) throw refused(url, error);
    throw error;
  }
  signal.throwIfAborted();

  const [{ Client }, { StreamableHTTPClientTransport }, { McpError }] = await mcpSdk();
  const transport = new StreamableHTTPClientTransport(target, {
    fetch: guardedFetch(services.allowPrivateNetwork),
    requestInit: { headers: config.headers ?? {} },
  });
  const client = new Client({ name: 'sluice', version: SLUICE_VERSION });
  const close = async () => {
    // The DELETE that ends the session goes through the same guarded fetch; it gets a short grace, then is left.
    const ended = transport.terminateSession().catch(() => undefined);
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
    await client.close().catch(() => undefined);
  };

  const listed: { name: string; description?: string; title?: string; inputSchema: Record<string, unknown> }[] = [];
  // The SDK adds an abort listener to each request's signal and never removes it: the run's own signal would keep one
  // per request for the run's life (and Node warns past ten). Its requests get a signal of their own, released after.
  const listing = linkedController(signal);
  try {
    await client.connect(transport, { signal: listing.controller.signal });
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const answer = await client.listTools(cursor === undefined ? {} : { cursor }, { signal: listing.controller.signal });
      listed.push(...answer.tools);
      cursor = answer.nextCursor;
      if (!cursor) break;
    }
  } catch (error) {
    await close();
    if (signal.aborted) throw signal.reason;
    throw unreachable(url, error);
  } finally {
    listing.release();
  }

  const include = config.include ? new Set(config.include) : undefined;
  const tools = listed
    .filter((tool) => !include || include.has(tool.name))
    .map(
      (tool): AgentTool => ({
        name: tool.name,
        description: tool.description ?? tool.title ?? '',
        parameters: tool.inputSchema,
        ...(config.approval ? { approval: config.approval } : {}),
        async call(args, context) {
          let result: Record<string, unknown>;
          const calling = linkedController(context.signal); // a signal of its own, as for the listing above
          try {
            result = await client.callTool(
              { name: tool.name, arguments: (args ?? {}) as Record<string, unknown> },
              undefined,
              { signal: calling.controller.signal },
            );
          } catch (error) {
            if (context.signal.aborted) throw context.signal.reason;
            // The server's own refusal (unknown tool, bad arguments) is told to the model as the server said it.
            throw error instanceof McpError ? new Error(error.message) : unreachable(url, error);
          } finally {
            calling.release();
          }
          if (result.isError === true) throw new Error(errorText(result) || `MCP tool ${tool.name} failed`);
          return callResult(result);
        },
      }),
    );
  return { tools, close };
}
