// POST /api/v1/mcp/tools (docs/api.md): the tools of an MCP server, for the editor's agent block "List tools".
import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { requireRole } from '../../services/access.js';
import { listMcpServerTools } from '../../services/mcp-tools.js';
import type { AppEnv } from '../env.js';
import { operation } from '../operation.js';
import { id } from '../schemas.js';
import { readBody } from '../validation.js';

const mcpToolsRequest = z.strictObject({
  workspaceId: id,
  url: z
    .string()
    .trim()
    .max(2048)
    .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'must be an absolute http(s) URL'),
  headers: z.record(z.string().min(1).max(256), z.string().max(8192)).optional(),
});

export const mcpRoutes = new OpenAPIHono<AppEnv>().openapi(
  operation({
    method: 'post',
    path: '/tools',
    summary: "List an MCP server's tools (streamable HTTP), as an agent block's mcp tool would be offered them",
    body: mcpToolsRequest,
    errors: [502],
    response: 'McpToolList',
  }),
  async (c) => {
    const body = await readBody(c, mcpToolsRequest);
    const app = c.get('app');
    // Only those who can edit agents may make the service connect somewhere: the workspace says whose request this is.
    await requireRole(app.db, c.get('principal'), body.workspaceId, 'editor', 'list MCP tools');
    // The request's own signal, not the connection's (node-bindings.ts clientGoneSignal): the MCP client is not known to
    // remove its listeners, and a keep-alive connection's signal would collect them.
    const tools = await listMcpServerTools(app.blockServices, { url: body.url, headers: body.headers }, c.req.raw.signal);
    return c.json({ data: tools });
  },
);
