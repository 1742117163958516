// What counts as "a block reported an error" in a run that succeeded (src/workflow/block-errors.ts): the one rule behind
// the logs' blockErrorCount, the log detail and the editor's run panel, over the trace shapes the engine writes
// (iterations and attempts as children with their container's / block's id, a sub-workflow's trace under its block).
import { describe, expect, it } from 'vitest';
import { reportedBlockErrors, type BlockErrorSpan } from '../../src/workflow/block-errors.js';

const span = (blockId: string, status: 'success' | 'error' | 'skipped', extra: Partial<BlockErrorSpan> = {}): BlockErrorSpan => ({
  blockId,
  name: blockId,
  type: 'function',
  status,
  ...extra,
});

describe('blocks that reported an error', () => {
  it('names each block once, with its first error, in the order they reported', () => {
    const spans = [
      span('start', 'success'),
      span('fetch', 'error', { name: 'Fetch order', type: 'api', error: 'HTTP 500: Internal Server Error' }),
      span('each', 'success', {
        type: 'loop',
        children: [
          span('each', 'success', { type: 'loop_iteration', children: [span('item', 'error', { error: 'first' })] }),
          span('each', 'success', { type: 'loop_iteration', children: [span('item', 'error', { error: 'second' })] }),
          span('each', 'success', { type: 'loop_iteration', children: [span('item', 'success')] }),
        ],
      }),
      span('never', 'skipped'),
    ];
    expect(reportedBlockErrors('success', spans)).toEqual([
      { blockId: 'fetch', name: 'Fetch order', error: 'HTTP 500: Internal Server Error' },
      { blockId: 'item', name: 'item', error: 'first' },
    ]);
  });

  it('does not count an attempt that a retry made good, nor a sub-workflow\'s own blocks', () => {
    const spans = [
      span('flaky', 'success', {
        type: 'api',
        children: [span('flaky', 'error', { type: 'attempt', error: 'HTTP 503' }), span('flaky', 'success', { type: 'attempt' })],
      }),
      span('child', 'success', { type: 'workflow', children: [span('inner', 'error', { type: 'api', error: 'HTTP 500' })] }),
    ];
    expect(reportedBlockErrors('success', spans)).toEqual([]);
  });

  it('is empty for a run that failed or was stopped: its own error says why', () => {
    const spans = [span('fetch', 'error', { error: 'HTTP 500' })];
    expect(reportedBlockErrors('error', spans)).toEqual([]);
    expect(reportedBlockErrors('cancelled', spans)).toEqual([]);
    expect(reportedBlockErrors('success', spans)).toHaveLength(1);
  });
});
