// Workflows around the API block against a local fake upstream: branching on <api.status> (docs/workflows.md 5) and
// cancelling a request in flight.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiTrigger, block, edge, ranBlocks, run, state } from './helpers.js';

let server: Server;
let baseUrl: string;
const hits = new Map<string, number>();
let slowRequest: { arrived: Promise<void>; closed: Promise<void> };
let markArrived: () => void;
let markClosed: () => void;

function resetSlow() {
  slowRequest = {
    arrived: new Promise((resolve) => (markArrived = resolve)),
    closed: new Promise((resolve) => (markClosed = resolve)),
  };
}

function upstream(req: IncomingMessage, res: ServerResponse) {
  const path = req.url ?? '/';
  hits.set(path, (hits.get(path) ?? 0) + 1);
  if (path === '/ok') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ hello: 'world' }));
  } else if (path === '/missing') {
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ reason: 'no such thing' }));
  } else if (path === '/broken') {
    res.writeHead(500).end('upstream exploded');
  } else if (path === '/slow') {
    req.socket.on('close', () => markClosed());
    markArrived();
    // Never answers: only cancellation ends this request.
  } else {
    res.writeHead(400).end();
  }
}

beforeAll(async () => {
  server = createServer(upstream);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  hits.clear();
  resetSlow();
});

/**
 * Start → api → check(status) → one echo per branch. A non-2xx response sets `error` but does not fail the block
 * (docs/workflows.md 5), so with no error edge the run goes on to the condition, which branches on the status.
 */
function statusBranchWorkflow() {
  return state({
    blocks: [
      apiTrigger([{ name: 'path' }]),
      block('fetch', 'api', { url: `${baseUrl}<start.path>`, method: 'GET', retries: 2 }, { name: 'api' }),
      block('check', 'condition', {
        conditions: [
          { id: 'ok', title: 'if', expression: '<api.status> === 200' },
          { id: 'missing', title: 'else if', expression: '<api.status> === 404' },
          { id: 'failed', title: 'else', expression: '' },
        ],
      }),
      block('onOk', 'echo', { branch: 'ok', data: '<api.data>' }),
      block('onMissing', 'echo', { branch: 'missing', message: '<api.error>' }),
      block('onFailed', 'echo', { branch: 'failed', status: '<api.status>', message: '<api.error>' }),
    ],
    edges: [
      edge('start', 'fetch'),
      edge('fetch', 'check'),
      edge('check', 'onOk', 'condition-ok'),
      edge('check', 'onMissing', 'condition-missing'),
      edge('check', 'onFailed', 'condition-failed'),
    ],
  });
}

describe('branching on <api.status>', () => {
  it.each([
    { path: '/ok', ran: 'onOk', output: { branch: 'ok', data: { hello: 'world' } }, attempts: 1 },
    { path: '/missing', ran: 'onMissing', output: { branch: 'missing', message: 'HTTP 404: Not Found' }, attempts: 1 },
    {
      path: '/broken',
      ran: 'onFailed',
      output: { branch: 'failed', status: 500, message: 'HTTP 500: Internal Server Error' },
      attempts: 3,
    },
  ])('$path takes the $ran branch after $attempts attempt(s)', async ({ path, ran, output, attempts }) => {
    const { result, events } = await run(statusBranchWorkflow(), { path });
    expect(result.success).toBe(true);
    expect(ranBlocks(events)).toEqual(['start', 'fetch', 'check', ran]);
    expect(result.output).toEqual(output);
    expect(hits.get(path)).toBe(attempts);
  });

  it('takes the error edge instead of the normal one when the API block has one', async () => {
    const workflow = state({
      blocks: [
        apiTrigger(),
        block('fetch', 'api', { url: `${baseUrl}/missing`, retries: 0 }, { name: 'api' }),
        block('happy', 'echo', { status: '<api.status>' }),
        block('handler', 'echo', { handled: '<api.error>' }),
      ],
      edges: [edge('start', 'fetch'), edge('fetch', 'happy'), edge('fetch', 'handler', 'error')],
    });
    const { result, events } = await run(workflow);
    expect(result).toMatchObject({ success: true, output: { handled: 'HTTP 404: Not Found' } });
    expect(ranBlocks(events)).toEqual(['start', 'fetch', 'handler']);
  });

  it('fails the run when the API block cannot even form a request and has no error edge', async () => {
    const workflow = state({
      blocks: [
        apiTrigger(),
        block('fetch', 'api', { url: 'ftp://example.com/file', retries: 0 }, { name: 'api' }),
        block('after', 'echo', { status: '<api.status>' }),
      ],
      edges: [edge('start', 'fetch'), edge('fetch', 'after')],
    });
    const { result, events } = await run(workflow);
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/http or https/);
    expect(ranBlocks(events)).not.toContain('after');
  });
});

describe('cancellation during a request', () => {
  it('aborts the outbound request and ends the run as cancelled', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('fetch', 'api', { url: `${baseUrl}/slow`, retries: 0 }, { name: 'api' })],
      edges: [edge('start', 'fetch')],
    });
    const controller = new AbortController();
    const pending = run(workflow, {}, { signal: controller.signal });
    await slowRequest.arrived;
    controller.abort();
    const { result } = await pending;
    expect(result).toMatchObject({ success: false, error: 'Execution cancelled' });
    // The upstream sees its connection dropped: the request did not linger after the run ended.
    await slowRequest.closed;
  });

  it('ends a request in flight when the run times out', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('fetch', 'api', { url: `${baseUrl}/slow`, retries: 0 }, { name: 'api' })],
      edges: [edge('start', 'fetch')],
    });
    const { result } = await run(workflow, {}, { timeoutMs: 200 });
    expect(result).toMatchObject({ success: false, error: 'Execution timed out after 200 ms' });
    await slowRequest.closed;
  });
});
