// The block policy in the state document: what is accepted, what is refused and with which message, and that the
// stored state keeps only what the author wrote.
import { describe, expect, it } from 'vitest';
import { backoffBefore, MAX_BACKOFF_MS, validateState } from '../../src/workflow/index.js';
import { block, catalog, doc, problemsOf } from './fixtures.js';

const withPolicy = (policy: unknown, type = 'wait') => doc({ blocks: [block('w', type, { policy })] });

describe('validateState: block policy', () => {
  it('accepts a full policy on any block type and keeps it as written', () => {
    const policy = { retry: { maxAttempts: 3, backoffMs: 250, backoffFactor: 1.5, on: ['timeout'] }, timeoutMs: 5_000, onError: 'continue' };
    for (const type of ['wait', 'api_trigger', 'function', 'response']) {
      const config = type === 'function' ? { code: 'return 1' } : {};
      const result = validateState(doc({ blocks: [block('w', type, { policy, config })] }), catalog);
      expect(result.ok, type).toBe(true);
      if (result.ok) expect(result.state.blocks.w!.policy).toEqual(policy);
    }
  });

  it('adds no defaults to a partial policy, and no policy to a block without one', () => {
    const result = validateState(doc({ blocks: [block('w', 'wait', { policy: { retry: { maxAttempts: 2 } } }), block('v', 'wait')] }), catalog);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.state.blocks.w!.policy).toEqual({ retry: { maxAttempts: 2 } });
    expect(result.state.blocks.v).not.toHaveProperty('policy');
  });

  it.each([
    [{ retry: { maxAttempts: 0 } }, 'blocks.w.policy.retry.maxAttempts', /at least 1/],
    [{ retry: { maxAttempts: 11 } }, 'blocks.w.policy.retry.maxAttempts', /at most 10/],
    [{ retry: { maxAttempts: 2.5 } }, 'blocks.w.policy.retry.maxAttempts', /whole number/],
    [{ retry: {} }, 'blocks.w.policy.retry.maxAttempts', /./],
    [{ retry: { maxAttempts: 2, backoffMs: -1 } }, 'blocks.w.policy.retry.backoffMs', /at least 0/],
    [{ retry: { maxAttempts: 2, backoffMs: MAX_BACKOFF_MS + 1 } }, 'blocks.w.policy.retry.backoffMs', /at most 600000/],
    [{ retry: { maxAttempts: 2, backoffFactor: 0.5 } }, 'blocks.w.policy.retry.backoffFactor', /at least 1/],
    [{ retry: { maxAttempts: 2, on: [] } }, 'blocks.w.policy.retry.on', /at least one/],
    [{ retry: { maxAttempts: 2, on: ['crash'] } }, 'blocks.w.policy.retry.on.0', /"error" or "timeout"/],
    [{ retry: { maxAttempts: 2, on: ['error', 'error'] } }, 'blocks.w.policy.retry.on', /repeat/],
    [{ retry: { maxAttempts: 2, attempts: 3 } }, 'blocks.w.policy.retry', /attempts/],
    [{ timeoutMs: 0 }, 'blocks.w.policy.timeoutMs', /at least 1/],
    [{ timeoutMs: 3_600_001 }, 'blocks.w.policy.timeoutMs', /at most/],
    [{ onError: 'ignore' }, 'blocks.w.policy.onError', /"fail" or "continue"/],
    [{ retries: 3 }, 'blocks.w.policy', /retries/],
    ['always', 'blocks.w.policy', /./],
  ])('refuses %j at %s', (policy, path, message) => {
    const problems = problemsOf(withPolicy(policy));
    expect(problems.map((p) => p.path)).toContain(path);
    expect(problems.find((p) => p.path === path)!.message).toMatch(message);
  });

  it('refuses retrying a loop or parallel as a whole, but takes its time limit and onError', () => {
    const containers = (policy: unknown) =>
      doc({
        blocks: [block('l', 'loop', { policy }), block('p', 'parallel', { policy })],
        loops: [{ id: 'l', nodes: [], loopType: 'for', iterations: 2 }],
        parallels: [{ id: 'p', nodes: [], parallelType: 'count', count: 2 }],
      });
    const problems = problemsOf(containers({ retry: { maxAttempts: 2 } }));
    expect(problems.map((p) => p.path)).toEqual(['blocks.l.policy.retry', 'blocks.p.policy.retry']);
    expect(problems[0]!.message).toMatch(/give the blocks inside it a retry policy instead/);
    expect(problemsOf(containers({ timeoutMs: 1_000, onError: 'continue' }))).toEqual([]);
  });
});

describe('backoffBefore', () => {
  it('grows by the factor from backoffMs, with defaults of 1 s and ×2, and never beyond the cap', () => {
    expect([2, 3, 4].map((n) => backoffBefore({ maxAttempts: 4 }, n))).toEqual([1_000, 2_000, 4_000]);
    expect([2, 3].map((n) => backoffBefore({ maxAttempts: 3, backoffMs: 100, backoffFactor: 3 }, n))).toEqual([100, 300]);
    expect(backoffBefore({ maxAttempts: 10, backoffMs: MAX_BACKOFF_MS, backoffFactor: 10 }, 10)).toBe(MAX_BACKOFF_MS);
    expect(backoffBefore({ maxAttempts: 2, backoffMs: 0 }, 2)).toBe(0);
  });
});
