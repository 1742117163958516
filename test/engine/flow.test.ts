// Graph traversal end to end: chains, joins, condition branches, error edges, disabled blocks, which trigger
// starts, final output and the order of events.
import { describe, expect, it } from 'vitest';
import { apiTrigger, block, chain, edge, ranBlocks, run, state } from './helpers.js';

describe('linear chains and joins', () => {
  it('runs a chain in order and returns the last block output as the final output', async () => {
    const workflow = state({
      blocks: [apiTrigger([{ name: 'who' }]), block('a', 'echo', { greeting: 'Hello <start.who>' }), block('b', 'echo', { again: '<a.greeting>!' })],
      edges: chain('start', 'a', 'b'),
    });
    const { result, events } = await run(workflow, { who: 'Ada' });
    expect(result.success).toBe(true);
    expect(ranBlocks(events)).toEqual(['start', 'a', 'b']);
    expect(result.output).toEqual({ again: 'Hello Ada!' });
    expect(result.blockOutputs.a).toEqual({ greeting: 'Hello Ada' });
    expect(result.response).toBeUndefined();
  });

  it('runs a block joining two branches once, after both', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('left', 'gauged', { ms: 30, value: 'L' }), block('right', 'gauged', { ms: 5, value: 'R' }), block('join', 'echo', { both: '<left.value><right.value>' })],
      edges: [edge('start', 'left'), edge('start', 'right'), edge('left', 'join'), edge('right', 'join')],
    });
    const { result, events } = await run(workflow);
    expect(ranBlocks(events).filter((id) => id === 'join')).toHaveLength(1);
    expect(result.output).toEqual({ both: 'LR' });
  });

  it('runs independent branches concurrently', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('w1', 'wait', { ms: 40 }), block('w2', 'wait', { ms: 40 })],
      edges: [edge('start', 'w1'), edge('start', 'w2')],
    });
    const { events } = await run(workflow);
    const order = events.filter((e) => e.type === 'block_started' || e.type === 'block_finished').map((e) => `${e.type}:${'blockId' in e ? e.blockId : ''}`);
    // Both waits start before either finishes.
    expect(order.indexOf('block_started:w2')).toBeLessThan(order.indexOf('block_finished:w1'));
  });

  it('starts blocks that have no incoming edges even without a trigger', async () => {
    const workflow = state({ blocks: [block('solo', 'echo', { x: 1 })] });
    const { result } = await run(workflow);
    expect(result).toMatchObject({ success: true, output: { x: 1 } });
  });
});

describe('triggers', () => {
  const workflow = () =>
    state({
      blocks: [
        apiTrigger([{ name: 'q', value: 'from editor' }]),
        block('hook', 'webhook_trigger', { path: 'incoming' }, { name: 'Hook' }),
        block('fromApi', 'echo', { q: '<start.q>' }),
        block('fromHook', 'echo', { body: '<hook.body>' }),
      ],
      edges: [edge('start', 'fromApi'), edge('hook', 'fromHook')],
    });

  it.each([
    { trigger: 'api' as const, input: { q: 'x' }, ran: ['start', 'fromApi'], output: { q: 'x' } },
    { trigger: 'manual' as const, input: {}, ran: ['start', 'fromApi'], output: { q: 'from editor' } },
    { trigger: 'webhook' as const, input: { body: { n: 1 } }, ran: ['hook', 'fromHook'], output: { body: { n: 1 } } },
  ])('a $trigger run starts at its own trigger only', async ({ trigger, input, ran, output }) => {
    const { result, events } = await run(workflow(), input, { trigger: { type: trigger, input } });
    expect(ranBlocks(events)).toEqual(ran);
    expect(result.output).toEqual(output);
  });
});

describe('choosing the start trigger', () => {
  const twoHooks = () =>
    state({
      blocks: [
        block('hookA', 'webhook_trigger', { path: 'a' }, { name: 'Hook A' }),
        block('hookB', 'webhook_trigger', { path: 'b' }, { name: 'Hook B' }),
        block('fromA', 'echo', { via: 'a' }),
        block('fromB', 'echo', { via: 'b' }),
      ],
      edges: [edge('hookA', 'fromA'), edge('hookB', 'fromB')],
    });

  it('starts at the trigger block the caller names', async () => {
    const { events } = await run(twoHooks(), {}, { trigger: { type: 'webhook', input: {}, blockId: 'hookB' } });
    expect(ranBlocks(events)).toEqual(['hookB', 'fromB']);
  });

  it('starts a manual run at the only trigger when there is no API trigger', async () => {
    const workflow = state({
      blocks: [block('chat', 'chat_trigger', {}, { name: 'Chat' }), block('reply', 'echo', { said: '<chat.message>' })],
      edges: [edge('chat', 'reply')],
    });
    const { result } = await run(workflow, {}, { trigger: { type: 'manual', input: { message: 'hi' } } });
    expect(result.output).toEqual({ said: 'hi' });
  });
});

describe('condition branches', () => {
  const workflow = (withElse: boolean) =>
    state({
      blocks: [
        apiTrigger([{ name: 'n', type: 'number' }]),
        block('check', 'condition', {
          conditions: [
            { id: 'big', title: 'if', expression: '<start.n> > 10' },
            { id: 'mid', title: 'else if', expression: '<start.n> > 5' },
            ...(withElse ? [{ id: 'small', title: 'else', expression: '' }] : []),
          ],
        }),
        block('onBig', 'echo', { branch: 'big' }),
        block('onMid', 'echo', { branch: 'mid' }),
        ...(withElse ? [block('onSmall', 'echo', { branch: 'small' })] : []),
        block('after', 'echo', { from: '<check.selectedOption>' }),
      ],
      edges: [
        edge('start', 'check'),
        edge('check', 'onBig', 'condition-big'),
        edge('check', 'onMid', 'condition-mid'),
        ...(withElse ? [edge('check', 'onSmall', 'condition-small')] : []),
        edge('onBig', 'after'),
        edge('onMid', 'after'),
      ],
    });

  it.each([
    { n: 50, withElse: true, ran: ['onBig', 'after'], output: { from: 'big' } },
    { n: 7, withElse: true, ran: ['onMid', 'after'], output: { from: 'mid' } },
    { n: 1, withElse: true, ran: ['onSmall'], output: { branch: 'small' } },
  ])('n=$n takes only its branch; skipped branches never run', async ({ n, withElse, ran, output }) => {
    const { result, events } = await run(workflow(withElse), { n });
    expect(result.success).toBe(true);
    expect(ranBlocks(events)).toEqual(['start', 'check', ...ran]);
    expect(result.output).toEqual(output);
  });

  it('activates no edge when nothing matches and there is no else', async () => {
    const { result, events } = await run(workflow(false), { n: 1 });
    expect(result.success).toBe(true);
    expect(ranBlocks(events)).toEqual(['start', 'check']);
    expect(result.output).toEqual({ selectedOption: null, conditionResult: false });
  });
});

describe('error edges', () => {
  const workflow = (withErrorEdge: boolean) =>
    state({
      blocks: [
        apiTrigger(),
        block('risky', 'boom', { message: 'kaput' }),
        block('next', 'echo', { ok: true }),
        ...(withErrorEdge ? [block('handler', 'echo', { caught: '<risky.error>' })] : []),
      ],
      edges: [edge('start', 'risky'), edge('risky', 'next'), ...(withErrorEdge ? [edge('risky', 'handler', 'error')] : [])],
    });

  it('takes the error edge instead of the normal one when the block fails', async () => {
    const { result, events } = await run(workflow(true));
    expect(result.success).toBe(true);
    expect(ranBlocks(events)).toEqual(['start', 'risky', 'handler']);
    expect(result.output).toEqual({ caught: 'kaput' });
    expect(result.traceSpans.find((s) => s.blockId === 'risky')).toMatchObject({ status: 'error', error: 'kaput' });
  });

  it('fails the run with the block error when there is no error edge', async () => {
    const { result, events } = await run(workflow(false));
    expect(result.success).toBe(false);
    expect(result.error).toBe('kaput');
    expect(result.output).toEqual({ error: 'kaput' });
    expect(ranBlocks(events)).toEqual(['start', 'risky']);
  });

  it('turns a config that is invalid after resolution into a block error', async () => {
    const workflow = state({
      blocks: [apiTrigger([{ name: 'ms' }]), block('pause', 'wait', { ms: '<start.ms>' })],
      edges: [edge('start', 'pause')],
    });
    const { result } = await run(workflow, { ms: 'soon' });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^Invalid configuration: ms: /);
  });

  it('stops sibling branches when one fails without an error edge', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('slow', 'wait', { ms: 5_000 }), block('bad', 'boom', {}), block('afterSlow', 'echo', {})],
      edges: [edge('start', 'slow'), edge('start', 'bad'), edge('slow', 'afterSlow')],
    });
    const started = Date.now();
    const { result, events } = await run(workflow);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(result).toMatchObject({ success: false, error: 'boom' });
    expect(ranBlocks(events)).not.toContain('afterSlow');
  });
});

describe('disabled blocks', () => {
  it('skips a disabled block and everything reachable only through it', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('off', 'echo', {}, { enabled: false }), block('after', 'echo', {})],
      edges: chain('start', 'off', 'after'),
    });
    const { result, events } = await run(workflow);
    expect(ranBlocks(events)).toEqual(['start']);
    expect(result.traceSpans.map((s) => [s.blockId, s.status])).toEqual([
      ['start', 'success'],
      ['off', 'skipped'],
    ]);
  });

  it('still runs a join reached through another active path', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('off', 'echo', {}, { enabled: false }), block('on', 'echo', { v: 1 }), block('join', 'echo', { v: '<on.v>' })],
      edges: [edge('start', 'off'), edge('start', 'on'), edge('off', 'join'), edge('on', 'join')],
    });
    const { result, events } = await run(workflow);
    expect(ranBlocks(events)).toContain('join');
    expect(result.output).toEqual({ v: 1 });
  });
});

describe('events', () => {
  it('reports run_started, paired block events with chunks in between, then run_finished', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('talk', 'streamer', { parts: ['Hel', 'lo'] })],
      edges: [edge('start', 'talk')],
    });
    const { result, events } = await run(workflow);
    expect(events.map((e) => e.type)).toEqual([
      'run_started',
      'block_started',
      'block_finished',
      'block_started',
      'chunk',
      'chunk',
      'block_finished',
      'run_finished',
    ]);
    expect(events.filter((e) => e.type === 'chunk')).toEqual([
      { type: 'chunk', blockId: 'talk', chunk: 'Hel', iterationPath: [] },
      { type: 'chunk', blockId: 'talk', chunk: 'lo', iterationPath: [] },
    ]);
    const finished = events.find((e) => e.type === 'block_finished' && e.blockId === 'talk');
    expect(finished).toMatchObject({ output: { content: 'Hello' }, blockName: 'talk', blockType: 'streamer' });
    expect(events.at(-1)).toEqual({ type: 'run_finished', result });
  });

  it('ignores a listener that throws', async () => {
    const workflow = state({ blocks: [block('solo', 'echo', { x: 1 })] });
    const { result } = await run(workflow, {}, {
      onEvent: () => {
        throw new Error('listener broke');
      },
    });
    expect(result.success).toBe(true);
  });

  it('fills timing fields in ISO form', async () => {
    const { result } = await run(state({ blocks: [block('solo', 'echo', {})] }));
    expect(new Date(result.startedAt).toISOString()).toBe(result.startedAt);
    expect(Date.parse(result.endedAt) - Date.parse(result.startedAt)).toBe(result.durationMs);
  });
});
