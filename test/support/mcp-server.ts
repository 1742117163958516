// A real MCP server for tests, built with the same SDK the agent block's client uses (McpServer over the streamable
// HTTP transport, stateless), on a loopback port. Its tools: `add` (text answer), `weather` (structured answer),
// `fail` (an error result), `wait` (answers only when the call is abandoned) — plus `extra_N` tools when `manyTools`
// asks for more than one page of tools/list.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export interface TestMcpServer {
  url: string;
  /** Headers of every POST the server received, in order. */
  requests: IncomingHttpHeaders[];
  /** Names of tools called, in order. */
  calls: string[];
  close(): Promise<void>;
}

const PAGE_SIZE = 3;

function buildServer(calls: string[], manyTools: number): McpServer {
  const server = new McpServer({ name: 'test-tools', version: '1.0.0' });
  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => {
      calls.push('add');
      return { content: [{ type: 'text', text: String(a + b) }] };
    },
  );
  server.registerTool(
    'weather',
    {
      description: 'The weather in a city',
      inputSchema: { city: z.string() },
      outputSchema: { city: z.string(), celsius: z.number() },
    },
    async ({ city }) => {
      calls.push('weather');
      const structured = { city, celsius: 21 };
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    },
  );
  server.registerTool('fail', { description: 'Always fails' }, async () => {
    calls.push('fail');
    return { isError: true, content: [{ type: 'text', text: 'the warehouse is closed' }] };
  });
  server.registerTool('wait', { description: 'Answers only when the caller gives up' }, async (extra) => {
    calls.push('wait');
    await new Promise((resolve) => extra.signal.addEventListener('abort', resolve, { once: true }));
    return { content: [{ type: 'text', text: 'abandoned' }] };
  });
  for (let i = 1; i <= manyTools; i++) {
    server.registerTool(`extra_${i}`, { description: `Extra tool ${i}` }, async () => ({ content: [{ type: 'text', text: `extra ${i}` }] }));
  }
  if (manyTools > 0) {
    // McpServer lists every tool on one page; this list pages them (names and descriptions are what the test reads).
    const names = ['add', 'weather', 'fail', 'wait', ...Array.from({ length: manyTools }, (_, i) => `extra_${i + 1}`)];
    server.server.setRequestHandler(ListToolsRequestSchema, (request) => {
      const start = Number(request.params?.cursor ?? 0);
      const next = start + PAGE_SIZE;
      const tools = names.slice(start, next).map((name) => ({ name, description: name, inputSchema: { type: 'object' as const } }));
      return { tools, ...(next < names.length ? { nextCursor: String(next) } : {}) };
    });
  }
  return server;
}

export async function startMcpServer(options: { manyTools?: number } = {}): Promise<TestMcpServer> {
  const requests: IncomingHttpHeaders[] = [];
  const calls: string[] = [];
  const http: Server = createServer(async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    requests.push(req.headers);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const server = buildServer(calls, options.manyTools ?? 0);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
