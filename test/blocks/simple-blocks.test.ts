// Response, variables and wait blocks called directly.
import { describe, expect, it } from 'vitest';
import { responseBlock, responseConfigSchema } from '../../src/blocks/response.js';
import { variablesBlock, variablesConfigSchema } from '../../src/blocks/variables.js';
import { MAX_WAIT_MS, waitBlock, waitConfigSchema } from '../../src/blocks/wait.js';
import { fakeContext } from './context.js';

describe('response', () => {
  it.each([
    { config: {}, output: { status: 200, headers: {}, body: null } },
    { config: { status: '404', body: { e: 1 } }, output: { status: 404, headers: {}, body: { e: 1 } } },
    {
      config: { headers: [{ key: ' X-A ', value: 1 }, { key: 'X-J', value: { a: 1 } }] },
      output: { status: 200, headers: { 'X-A': '1', 'X-J': '{"a":1}' }, body: null },
    },
    { config: { headers: { 'Cache-Control': 'no-store' } }, output: { status: 200, headers: { 'Cache-Control': 'no-store' }, body: null } },
  ])('$config', async ({ config, output }) => {
    const { ctx } = fakeContext(responseBlock, config);
    expect((await responseBlock.run(ctx)).output).toEqual(output);
  });

  it.each([99, 600, 'abc', 200.5])('rejects status %j', (status) => {
    expect(responseConfigSchema.safeParse({ status }).success).toBe(false);
  });

  // Found by the fuzz: such headers made the HTTP answer throw after the run was logged as a success (500).
  it.each([
    [{ 'bad name': 'x' }, 'Response header name "bad name" is not a valid HTTP header name'],
    [{ 'ü': 'x' }, 'Response header name "ü" is not a valid HTTP header name'],
    [[{ key: 'X-Injected', value: 'a\r\nSet-Cookie: session=stolen' }], 'Response header X-Injected has a value HTTP cannot carry'],
    [{ 'X-Name': 'Zoë 😀' }, 'Response header X-Name has a value HTTP cannot carry'],
    [{ 'X-Nul': 'a\u0000b' }, 'Response header X-Nul has a value HTTP cannot carry'],
  ])('fails on headers HTTP cannot carry: %j', async (headers, message) => {
    const { ctx } = fakeContext(responseBlock, { headers });
    await expect(responseBlock.run(ctx)).rejects.toThrow(message);
  });

  it('leaves framing headers to the server and keeps Latin-1 values', async () => {
    const headers = { 'Content-Length': '3', 'Transfer-Encoding': 'chunked', Connection: 'close', 'X-Name': 'Zoë' };
    const { ctx } = fakeContext(responseBlock, { headers, body: 'a longer body' });
    expect((await responseBlock.run(ctx)).output).toEqual({ status: 200, headers: { 'X-Name': 'Zoë' }, body: 'a longer body' });
  });
});

describe('variables', () => {
  it('sets each variable and outputs the assigned map', async () => {
    const { ctx, variables } = fakeContext(variablesBlock, { assignments: [{ name: 'a', value: 1 }, { name: 'b', value: { x: true } }, { name: 'a', value: 2 }] });
    expect((await variablesBlock.run(ctx)).output).toEqual({ a: 2, b: { x: true } });
    expect([...variables]).toEqual([
      ['a', 2],
      ['b', { x: true }],
    ]);
  });

  it.each(['error', '1st', 'has space', ''])('rejects the name %j', (name) => {
    expect(variablesConfigSchema.safeParse({ assignments: [{ name, value: 1 }] }).success).toBe(false);
  });
});

describe('wait', () => {
  it('waits and reports how long', async () => {
    const { ctx } = fakeContext(waitBlock, { ms: 10 });
    const started = Date.now();
    expect((await waitBlock.run(ctx)).output).toEqual({ waitedMs: 10 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(9);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const { ctx } = fakeContext(waitBlock, { ms: 60_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 10);
    await expect(waitBlock.run(ctx)).rejects.toThrow('stop');
  });

  it.each([-1, MAX_WAIT_MS + 1, 'soon'])('rejects ms %j', (ms) => {
    expect(waitConfigSchema.safeParse({ ms }).success).toBe(false);
  });

  it('accepts up to seven days', () => {
    expect(waitConfigSchema.parse({ ms: String(MAX_WAIT_MS) })).toEqual({ ms: 604_800_000 });
  });
});
