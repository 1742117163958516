// The agent block's MCP tools (src/blocks/agent-tools/mcp.ts) against a real MCP server built with the same SDK.
import { getEventListeners } from 'node:events';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectionCache } from '../../src/connectors/connection-cache.js';
import { openMcpTools } from '../../src/blocks/agent-tools/mcp.js';
import type { BlockServices } from '../../src/blocks/types.js';
import { startMcpServer, type TestMcpServer } from '../support/mcp-server.js';

const services = (allowPrivateNetwork: boolean): BlockServices => ({
  allowPrivateNetwork,
  sandbox: { memoryLimitBytes: 32 * 1024 * 1024, timeoutMs: 10_000 },
  providerEnv: () => undefined,
  connections: createConnectionCache(),
});
const open = new AbortController().signal;

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let mcp: TestMcpServer;
beforeAll(async () => {
  mcp = await startMcpServer();
});
afterAll(() => mcp.close());

describe('openMcpTools', () => {
  it("lists the server's tools with their descriptions and argument schemas, sending the configured headers", async () => {
    const session = await openMcpTools({ url: mcp.url, headers: { Authorization: 'Bearer t0ken' } }, services(true), open);
    try {
      expect(session.tools.map((t) => t.name)).toEqual(['add', 'weather', 'fail', 'wait']);
      const add = session.tools.find((t) => t.name === 'add')!;
      expect(add.description).toBe('Adds two numbers');
      expect(add.parameters).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
      expect(mcp.requests.length).toBeGreaterThan(0);
      expect(mcp.requests.every((headers) => headers.authorization === 'Bearer t0ken')).toBe(true);
    } finally {
      await session.close();
    }
  });

  it('keeps only the included tools', async () => {
    const session = await openMcpTools({ url: mcp.url, include: ['weather', 'add', 'not_there'] }, services(true), open);
    try {
      expect(session.tools.map((t) => t.name).sort()).toEqual(['add', 'weather']);
    } finally {
      await session.close();
    }
  });

  it('calls a tool with the arguments and returns its text, or its structured content when it has one', async () => {
    const session = await openMcpTools({ url: mcp.url }, services(true), open);
    try {
      const byName = (name: string) => session.tools.find((t) => t.name === name)!;
      expect(await byName('add').call({ a: 2, b: 40 }, { signal: open })).toBe('42');
      expect(await byName('weather').call({ city: 'Lyon' }, { signal: open })).toEqual({ city: 'Lyon', celsius: 21 });
    } finally {
      await session.close();
    }
  });

  it("leaves no abort listener per request on the run's signal, however many calls it makes", async () => {
    const run = new AbortController().signal;
    const session = await openMcpTools({ url: mcp.url }, services(true), run);
    try {
      const add = session.tools.find((t) => t.name === 'add')!;
      for (let i = 0; i < 15; i++) expect(await add.call({ a: i, b: 1 }, { signal: run })).toBe(String(i + 1));
      // One shared listener at most (src/abort-listeners.ts); the MCP SDK's own, one per request, were never removed.
      expect(getEventListeners(run, 'abort').length).toBeLessThanOrEqual(1);
    } finally {
      await session.close();
    }
  });

  it("throws a tool's error result with its text, and the server's refusal of bad arguments", async () => {
    const session = await openMcpTools({ url: mcp.url }, services(true), open);
    try {
      await expect(session.tools.find((t) => t.name === 'fail')!.call({}, { signal: open })).rejects.toThrow('the warehouse is closed');
      await expect(session.tools.find((t) => t.name === 'add')!.call({ a: 'two' }, { signal: open })).rejects.toThrow(/a|b/);
    } finally {
      await session.close();
    }
  });

  it('follows the list cursor over several pages', async () => {
    const paged = await startMcpServer({ manyTools: 5 });
    try {
      const session = await openMcpTools({ url: paged.url }, services(true), open);
      expect(session.tools.map((t) => t.name)).toEqual(['add', 'weather', 'fail', 'wait', 'extra_1', 'extra_2', 'extra_3', 'extra_4', 'extra_5']);
      await session.close();
    } finally {
      await paged.close();
    }
  });

  it('names the URL when the server cannot be reached', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    await expect(openMcpTools({ url }, services(true), open)).rejects.toThrow(`MCP server ${url} could not be reached: `);
    await expect(openMcpTools({ url }, services(true), open)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('refuses a private address before connecting when the policy forbids it', async () => {
    const before = mcp.requests.length;
    await expect(openMcpTools({ url: mcp.url }, services(false), open)).rejects.toThrow(
      /MCP server http:\/\/127\.0\.0\.1:\d+\/mcp refused: Refused to connect to 127\.0\.0\.1/,
    );
    expect(mcp.requests.length).toBe(before);
  });

  it('refuses a URL that is not http(s)', async () => {
    await expect(openMcpTools({ url: 'file:///etc/passwd' }, services(true), open)).rejects.toThrow(/MCP server .* refused: /);
  });

  it('stops waiting for a call when its signal is aborted', async () => {
    const session = await openMcpTools({ url: mcp.url }, services(true), open);
    try {
      const controller = new AbortController();
      const call = session.tools.find((t) => t.name === 'wait')!.call({}, { signal: controller.signal });
      await expect.poll(() => mcp.calls.includes('wait')).toBe(true);
      controller.abort(new Error('run cancelled'));
      await expect(call).rejects.toThrow('run cancelled');
    } finally {
      await session.close();
    }
  });

  it('does not connect when the signal is already aborted', async () => {
    const before = mcp.requests.length;
    const controller = new AbortController();
    controller.abort(new Error('run cancelled'));
    await expect(openMcpTools({ url: mcp.url }, services(true), controller.signal)).rejects.toThrow('run cancelled');
    expect(mcp.requests.length).toBe(before);
  });
});
