// POST /api/v1/mcp/tools: the editor's "List tools" for an agent block's MCP server, against a real MCP server.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseSchemas } from '../../src/http/response-schemas.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.js';

let t: TestApp;
let strict: TestApp;
let mcp: TestMcpServer;
beforeAll(async () => {
  [t, strict, mcp] = await Promise.all([
    startTestApp({ SLUICE_ALLOW_PRIVATE_NETWORK: 'true' }),
    startTestApp({ SLUICE_ALLOW_PRIVATE_NETWORK: 'false' }),
    startMcpServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), strict?.close(), mcp?.close()]);
});

describe('POST /api/v1/mcp/tools', () => {
  it("answers the server's tools with their argument schemas, sending the given headers", async () => {
    const res = await t.request('POST', '/api/v1/mcp/tools', {
      body: { workspaceId: t.workspaceId, url: mcp.url, headers: { Authorization: 'Bearer list-token' } },
    });
    expect(res.status).toBe(200);
    expect(responseSchemas.McpToolList.safeParse(res.body).success).toBe(true);
    expect(res.body.data.map((tool: { name: string }) => tool.name)).toEqual(['add', 'weather', 'fail', 'wait']);
    expect(res.body.data[0]).toEqual({
      name: 'add',
      description: 'Adds two numbers',
      parameters: expect.objectContaining({ type: 'object', required: ['a', 'b'] }),
    });
    expect(mcp.requests.at(-1)?.authorization).toBe('Bearer list-token');
  });

  it('answers 502 naming the URL when the server cannot be reached', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const url = `http://127.0.0.1:${port}/mcp`;
    const res = await t.request('POST', '/api/v1/mcp/tools', { body: { workspaceId: t.workspaceId, url } });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('MCP_SERVER_UNREACHABLE');
    expect(res.body.error).toContain(`MCP server ${url} could not be reached`);
  });

  it('refuses a private address when the network policy forbids it, without connecting', async () => {
    const before = mcp.requests.length;
    const res = await strict.request('POST', '/api/v1/mcp/tools', { body: { workspaceId: strict.workspaceId, url: mcp.url } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details).toEqual([{ path: 'url', message: expect.stringContaining('SLUICE_ALLOW_PRIVATE_NETWORK') }]);
    expect(mcp.requests.length).toBe(before);
  });

  it('refuses a URL that is not http(s) and a workspace the caller has no access to', async () => {
    const bad = await t.request('POST', '/api/v1/mcp/tools', { body: { workspaceId: t.workspaceId, url: 'ftp://example.com/mcp' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ path: 'url', message: 'must be an absolute http(s) URL' }]);
    const other = await t.request('POST', '/api/v1/mcp/tools', { body: { workspaceId: 'ws_nobodys', url: mcp.url } });
    expect(other.status).toBe(403);
  });
});
