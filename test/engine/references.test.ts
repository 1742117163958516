// References end to end: values reach function code as data, variables, env vars, unresolved references, and
// the response block.
import { describe, expect, it } from 'vitest';
import { apiTrigger, block, chain, edge, run, state } from './helpers.js';

describe('function blocks receive references as data', () => {
  it.each([
    { name: 'a number keeps its type', input: { x: 21 }, code: 'return <start.x> * 2', result: 42 },
    { name: 'an object keeps its shape', input: { x: { a: [1, 2] } }, code: 'return <start.x>.a.length', result: 2 },
    {
      name: 'text that looks like code stays text',
      input: { x: '"); globalThis.pwned = 1; ("' },
      code: 'return typeof globalThis.pwned + ":" + <start.x>.length',
      result: 'undefined:28',
    },
    { name: 'whole-body input', input: { x: 'y' }, code: 'return Object.keys(<start.input>)', result: ['x'] },
  ])('$name', async ({ input, code, result }) => {
    const workflow = state({
      blocks: [apiTrigger([{ name: 'x', type: 'json' }]), block('fn', 'function', { code })],
      edges: chain('start', 'fn'),
    });
    const outcome = await run(workflow, input);
    expect(outcome.result.success).toBe(true);
    expect(outcome.result.output).toEqual({ result, stdout: '' });
  });

  it('passes {{ENV}} values as string data and keeps them out of the trace', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('fn', 'function', { code: 'return {{TOKEN}}.length' }), block('show', 'echo', { auth: 'Bearer {{TOKEN}}' })],
      edges: chain('start', 'fn', 'show'),
    });
    const { result } = await run(workflow, {}, { env: { TOKEN: 'sekret' } });
    expect(result.blockOutputs.fn).toEqual({ result: 6, stdout: '' });
    expect(result.output).toEqual({ auth: 'Bearer sekret' });
    const span = result.traceSpans.find((s) => s.blockId === 'show');
    expect(span?.input).toEqual({ auth: 'Bearer {{TOKEN}}' });
  });

  it('reports a sandbox error as the block error', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('fn', 'function', { code: 'console.log("before"); throw new Error("nope")' }), block('handler', 'echo', { msg: '<fn.error>' })],
      edges: [edge('start', 'fn'), edge('fn', 'handler', 'error')],
    });
    const { result } = await run(workflow);
    expect(result.blockOutputs.fn).toMatchObject({ result: null, stdout: expect.stringContaining('before') });
    expect(String(result.blockOutputs.fn!.error)).toContain('nope');
    expect(result.output.msg).toContain('nope');
  });
});

describe('variables', () => {
  it('sets workflow variables that later blocks read with <variable.name>', async () => {
    const workflow = state({
      blocks: [
        apiTrigger([{ name: 'n', type: 'number' }]),
        block('set', 'variables', { assignments: [{ name: 'count', value: '<start.n>' }, { name: 'label', value: 'n=<start.n>' }] }),
        block('fn', 'function', { code: 'return <variable.count> + 1' }),
        block('show', 'echo', { label: '<variable.label>', count: '<variable.count>' }),
      ],
      edges: chain('start', 'set', 'fn', 'show'),
    });
    const { result } = await run(workflow, { n: 4 });
    expect(result.blockOutputs.set).toEqual({ count: 4, label: 'n=4' });
    expect(result.blockOutputs.fn).toMatchObject({ result: 5 });
    expect(result.output).toEqual({ label: 'n=4', count: 4 });
  });
});

describe('environment variables', () => {
  it('fails the block that uses an undefined variable, naming it', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('use', 'echo', { key: '{{MISSING_KEY}}' })],
      edges: chain('start', 'use'),
    });
    const { result } = await run(workflow, {}, { env: { OTHER: 'x' } });
    expect(result.success).toBe(false);
    expect(result.error).toBe('Environment variable MISSING_KEY is not defined');
    expect(result.traceSpans.find((s) => s.blockId === 'use')?.status).toBe('error');
  });

  it('does the same inside function code', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('fn', 'function', { code: 'return {{NOPE}}' })],
      edges: chain('start', 'fn'),
    });
    const { result } = await run(workflow);
    expect(result.error).toBe('Environment variable NOPE is not defined');
  });
});

describe('unresolved references', () => {
  it('resolves a reference to a block that did not run to null and notes it on the span', async () => {
    const workflow = state({
      blocks: [
        apiTrigger(),
        block('check', 'condition', { conditions: [{ id: 'yes', title: 'if', expression: 'true' }, { id: 'no', title: 'else', expression: '' }] }),
        block('skipped', 'echo', { v: 1 }),
        block('taken', 'echo', { whole: '<skipped.v>', inText: 'v=<skipped.v>' }),
      ],
      edges: [edge('start', 'check'), edge('check', 'taken', 'condition-yes'), edge('check', 'skipped', 'condition-no')],
    });
    const { result } = await run(workflow);
    expect(result.output).toEqual({ whole: null, inText: 'v=' });
    expect(result.traceSpans.find((s) => s.blockId === 'taken')?.unresolvedReferences).toEqual(['<skipped.v>']);
  });
});

describe('response block', () => {
  it('becomes the run response with resolved status, headers and body', async () => {
    const workflow = state({
      blocks: [
        apiTrigger([{ name: 'id' }]),
        block('reply', 'response', {
          status: '<start.input.code>',
          headers: [{ key: 'X-Id', value: '<start.id>' }, { key: '', value: 'dropped' }],
          body: { id: '<start.id>', ok: true },
        }),
      ],
      edges: chain('start', 'reply'),
    });
    const { result } = await run(workflow, { id: 'abc', code: 201 });
    expect(result.response).toEqual({ status: 201, headers: { 'X-Id': 'abc' }, body: { id: 'abc', ok: true } });
    expect(result.output).toEqual(result.response);
  });

  it('defaults to status 200 and accepts headers as an object', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('reply', 'response', { headers: { 'Content-Type': 'text/plain' }, body: 'hi' })],
      edges: chain('start', 'reply'),
    });
    const { result } = await run(workflow);
    expect(result.response).toEqual({ status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'hi' });
  });
});
