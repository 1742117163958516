// Replay (RunWorkflowOptions.replay, what resuming a paused run relies on): blocks with a recorded outcome are not run
// again — their output, chosen branch and timings stand — while pure blocks (`replay: 'rerun'`) run again in the
// place their first run had in the trace. A pause stops the run with stopReason `paused`, not as a cancellation.
import { describe, expect, it } from 'vitest';
import { RunStop, type ReplayedBlock } from '../../src/engine/index.js';
import { apiTrigger, block, calls, chain, edge, ranBlocks, run, state } from './helpers.js';

const recorded = (output: Record<string, unknown>, extra: Partial<ReplayedBlock> = {}): ReplayedBlock => ({
  output,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: '2026-01-01T00:00:01.000Z',
  ...extra,
});

describe('replay', () => {
  it('keeps recorded outcomes, branches as recorded, and runs pure blocks again', async () => {
    calls.clear();
    const workflow = state({
      blocks: [
        apiTrigger([{ name: 'q', type: 'string' }]),
        block('once', 'flaky', { key: 'replayed' }),
        block('check', 'condition', { conditions: [{ id: 'yes', title: 'if', expression: 'false' }, { id: 'no', title: 'else', expression: '' }] }),
        block('left', 'echo', { side: 'left', q: '<start.q>', was: '<once.value>' }),
        block('right', 'echo', { side: 'right' }),
      ],
      edges: [...chain('start', 'once', 'check'), edge('check', 'left', 'condition-yes'), edge('check', 'right', 'condition-no')],
    });
    const replay = (blockId: string) =>
      ({
        start: recorded({ q: 'stale' }),
        once: recorded({ value: 'from before' }),
        // The condition chose `yes` in the first run; its expression now says otherwise, but the record stands.
        check: recorded({ conditionResult: true, selectedOption: 'yes' }, { sourceHandle: 'condition-yes' }),
      })[blockId];
    const { result, events } = await run(workflow, { q: 'fresh' }, { replay });
    expect(result.success).toBe(true);
    expect(calls.get('replayed') ?? 0).toBe(0);
    // The trigger ran again (it reads this run's input); the others were replayed.
    expect(result.output).toEqual({ side: 'left', q: 'fresh', was: 'from before' });
    expect(ranBlocks(events)).toEqual(['start', 'once', 'check', 'left']);
    const spans = Object.fromEntries(result.traceSpans.map((span) => [span.blockId, span]));
    expect(spans.once.startTime).toBe('2026-01-01T00:00:00.000Z');
    expect(spans.start.startTime).toBe('2026-01-01T00:00:00.000Z');
    expect(Date.parse(spans.left.startTime)).toBeGreaterThan(Date.parse('2026-01-02'));
  });

  it('a stop with RunStop("paused") ends the run with stopReason paused', async () => {
    const controller = new AbortController();
    const workflow = state({ blocks: [apiTrigger(), block('pause', 'wait', { ms: 10_000 })], edges: chain('start', 'pause') });
    setTimeout(() => controller.abort(new RunStop('paused', 'Paused: waiting for an approval')), 30);
    const { result } = await run(workflow, {}, { signal: controller.signal });
    expect(result).toMatchObject({ success: false, stopReason: 'paused', error: 'Paused: waiting for an approval' });
  });
});
