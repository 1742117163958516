// A logged run shown on the canvas (web/src/editor/past-run.ts): each block's state from the trace, iterations of a
// container counted as runs of the blocks inside it, a failure in any iteration shown as the block's error.
import { describe, expect, it } from 'vitest';
import { pastRunOf } from '../../web/src/editor/past-run.js';

const span = (blockId: string, status: 'success' | 'error' | 'skipped', extra: Record<string, unknown> = {}) => ({
  id: `${blockId}-${Math.random()}`,
  blockId,
  name: blockId,
  type: 'function',
  status,
  startTime: '2026-11-25T00:00:00.000Z',
  endTime: '2026-11-25T00:00:00.010Z',
  duration: 10,
  input: {},
  output: { result: blockId },
  ...extra,
});

describe('a past run on the canvas', () => {
  it('takes each block from the trace, and counts iterations as runs of the blocks inside', () => {
    const run = pastRunOf({
      status: 'error',
      error: 'Block "Step" failed',
      executionId: 'exec_1',
      totalDurationMs: 40,
      executionData: {
        finalOutput: { x: 1 },
        traceSpans: [
          span('start', 'success'),
          span('each', 'error', {
            children: [
              span('each', 'success', { children: [span('step', 'success')] }),
              span('each', 'error', { children: [span('step', 'error', { error: 'boom' })] }),
            ],
          }),
          span('never', 'skipped'),
        ],
      },
    });
    expect(run.order).toEqual(['start', 'each', 'step']);
    expect(run.blocks.step).toMatchObject({ status: 'error', error: 'boom', runs: 2, durationMs: 20 });
    expect(run.blocks.each).toMatchObject({ status: 'error', runs: 1 });
    expect(run.blocks.start).toMatchObject({ status: 'success', output: { result: 'start' } });
    expect(run).toMatchObject({ status: 'error', error: 'Block "Step" failed', output: { x: 1 }, durationMs: 40 });
  });

  it('leaves the blocks of a sub-workflow off this canvas, even one whose id a block here has too', () => {
    const run = pastRunOf({
      status: 'success',
      error: null,
      executionId: 'exec_2',
      totalDurationMs: 20,
      executionData: {
        traceSpans: [
          span('start', 'success'),
          span('child', 'success', { type: 'workflow', children: [span('start', 'success'), span('fetch', 'error', { error: 'HTTP 500' })] }),
        ],
      },
    });
    expect(run.order).toEqual(['start', 'child']);
    expect(run.blocks.start).toMatchObject({ status: 'success', runs: 1 });
  });
});
