// Cancellation and time-outs: every running block is aborted and the run ends promptly with a clear error.
import { describe, expect, it } from 'vitest';
import { apiTrigger, block, chain, ranBlocks, run, state } from './helpers.js';

const waitingWorkflow = (type: 'wait' | 'stubborn') =>
  state({
    blocks: [apiTrigger(), block('pause', type, { ms: 10_000 }), block('after', 'echo', { reached: true })],
    edges: chain('start', 'pause', 'after'),
  });

describe('cancellation', () => {
  it.each(['wait', 'stubborn'] as const)('aborts a running %s block when the caller cancels', async (type) => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = run(waitingWorkflow(type), {}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('client went away')), 50);
    const { result, events } = await pending;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({ success: false, error: 'Execution cancelled' });
    expect(ranBlocks(events)).toEqual(['start', 'pause']);
    expect(result.traceSpans.find((s) => s.blockId === 'pause')).toMatchObject({ status: 'error', error: 'Execution cancelled' });
    expect(events.at(-1)?.type).toBe('run_finished');
  });

  it('ends at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { result, events } = await run(waitingWorkflow('wait'), {}, { signal: controller.signal });
    expect(result).toMatchObject({ success: false, error: 'Execution cancelled' });
    expect(ranBlocks(events)).toEqual([]);
  });

  it('times the run out after timeoutMs', async () => {
    const started = Date.now();
    const { result } = await run(waitingWorkflow('wait'), {}, { timeoutMs: 60 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({ success: false, error: 'Execution timed out after 60 ms' });
  });

  it('times out a block that ignores its signal, and drops its late events', async () => {
    const seen: string[] = [];
    const workflow = state({
      blocks: [apiTrigger(), block('pause', 'stubborn', { ms: 80 }), block('after', 'echo', {})],
      edges: chain('start', 'pause', 'after'),
    });
    const { result } = await run(workflow, {}, { timeoutMs: 40, onEvent: (e) => seen.push(e.type) });
    expect(result.error).toBe('Execution timed out after 40 ms');
    const afterFinish = seen.length;
    // Long enough for the stubborn handler to return on its own.
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(seen.length).toBe(afterFinish);
  });

  it('stops a loop between iterations', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('box', 'loop', {}), block('tick', 'wait', { ms: 30 }, { parentId: 'box' })],
      edges: [...chain('start', 'box'), { id: 'inner', source: 'box', target: 'tick' }],
      loops: [{ id: 'box', nodes: ['tick'], loopType: 'for', iterations: 100 }],
    });
    const { result, events } = await run(workflow, {}, { timeoutMs: 100 });
    expect(result.error).toBe('Execution timed out after 100 ms');
    expect(ranBlocks(events).filter((id) => id === 'tick').length).toBeLessThan(10);
  });
});
