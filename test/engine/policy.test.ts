// Block policies end to end: retries with backoff and the kinds of failure they cover, per-attempt time limits,
// onError "continue", what the trace shows of each attempt, how cancellation and the run's time-out stop retrying,
// containers, and how the policy combines with the API block's own HTTP retries.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EngineEvent, TraceSpan } from '../../src/engine/index.js';
import { summarizeCost } from '../../src/services/cost.js';
import type { BlockPolicy } from '../../src/workflow/index.js';
import { startUpstream, type FakeUpstream } from '../net/fake-upstream.js';
import { eventually } from '../support/eventually.js';
import { apiTrigger, block, calls, chain, edge, ranBlocks, run, state } from './helpers.js';

beforeEach(() => calls.clear());

/** start → risky (with the policy) → after */
function guarded(config: Record<string, unknown>, policy: BlockPolicy, type = 'flaky') {
  return state({
    blocks: [apiTrigger(), block('risky', type, { key: 'risky', ...config }, { name: 'Risky', policy }), block('after', 'echo', { call: '<risky.call>', problem: '<risky.error>' })],
    edges: chain('start', 'risky', 'after'),
  });
}

const spanOf = (spans: TraceSpan[], blockId: string) => spans.find((s) => s.blockId === blockId)!;
const attemptsOf = (span: TraceSpan) =>
  (span.children ?? []).map((c) => ({ name: c.name, type: c.type, status: c.status, error: c.error, input: c.input }));
const finishedEvents = (events: EngineEvent[], blockId: string) =>
  events.filter((e) => (e.type === 'block_started' || e.type === 'block_finished') && e.blockId === blockId).map((e) => e.type);

describe('retry', () => {
  it('retries a failing block until it succeeds; the span shows every attempt, the events one run', async () => {
    const { result, events } = await run(guarded({ fail: 2 }, { retry: { maxAttempts: 5, backoffMs: 0 } }));
    expect(result.success).toBe(true);
    expect(calls.get('risky')).toBe(3);
    expect(result.output).toEqual({ call: 3, problem: null });
    expect(finishedEvents(events, 'risky')).toEqual(['block_started', 'block_finished']);
    const span = spanOf(result.traceSpans, 'risky');
    expect(span).toMatchObject({ status: 'success', output: { call: 3 } });
    expect(attemptsOf(span)).toEqual([
      { name: 'Risky attempt 1', type: 'attempt', status: 'error', error: 'failure 1', input: { attempt: 1, failure: 'error' } },
      { name: 'Risky attempt 2', type: 'attempt', status: 'error', error: 'failure 2', input: { attempt: 2, failure: 'error' } },
      { name: 'Risky attempt 3', type: 'attempt', status: 'success', error: undefined, input: { attempt: 3 } },
    ]);
    // Attempts lie inside the block's span, one after another.
    const [a1, a2, a3] = span.children!;
    expect(a1!.startTime >= span.startTime && a3!.endTime <= span.endTime).toBe(true);
    expect(a1!.endTime <= a2!.startTime && a2!.endTime <= a3!.startTime).toBe(true);
    for (const attempt of span.children!) expect(attempt.duration).toBeGreaterThanOrEqual(0);
  });

  it('gives up after maxAttempts and fails the run with the last attempt’s error', async () => {
    const { result, events } = await run(guarded({ fail: 10 }, { retry: { maxAttempts: 3, backoffMs: 0 } }));
    expect(result).toMatchObject({ success: false, error: 'failure 3' });
    expect(result.stopReason).toBeUndefined();
    expect(calls.get('risky')).toBe(3);
    expect(ranBlocks(events)).toEqual(['start', 'risky']);
    expect(attemptsOf(spanOf(result.traceSpans, 'risky')).map((a) => a.status)).toEqual(['error', 'error', 'error']);
  });

  it('waits backoffMs, then backoffMs × backoffFactor, between attempts', async () => {
    const { result } = await run(guarded({ fail: 2 }, { retry: { maxAttempts: 3, backoffMs: 40, backoffFactor: 3 } }));
    expect(result.success).toBe(true);
    const [a1, a2, a3] = spanOf(result.traceSpans, 'risky').children!;
    const gap = (before: TraceSpan, after: TraceSpan) => Date.parse(after.startTime) - Date.parse(before.endTime);
    // Lower bounds only (a timer never fires early by more than the clock's rounding).
    expect(gap(a1!, a2!)).toBeGreaterThanOrEqual(39);
    expect(gap(a2!, a3!)).toBeGreaterThanOrEqual(119);
  });

  it('retries only the kinds of failure listed in `on`', async () => {
    const onlyTimeouts = await run(guarded({ fail: 1 }, { retry: { maxAttempts: 3, backoffMs: 0, on: ['timeout'] } }));
    expect(onlyTimeouts.result).toMatchObject({ success: false, error: 'failure 1' });
    expect(calls.get('risky')).toBe(1);

    calls.clear();
    const onlyErrors = await run(guarded({ hang: 1 }, { timeoutMs: 30, retry: { maxAttempts: 3, backoffMs: 0, on: ['error'] } }));
    expect(onlyErrors.result.success).toBe(false);
    expect(onlyErrors.result.error).toMatch(/^Block "Risky" timed out after 30 ms/);
    expect(calls.get('risky')).toBe(1);
  });

  it('does not retry a configuration that does not validate: it would fail the same way every time', async () => {
    const workflow = state({
      blocks: [apiTrigger([{ name: 'ms' }]), block('pause', 'wait', { ms: '<start.ms>' }, { policy: { retry: { maxAttempts: 5, backoffMs: 0 } } })],
      edges: chain('start', 'pause'),
    });
    const { result } = await run(workflow, { ms: 'soon' });
    expect(result.error).toMatch(/^Invalid configuration: ms: /);
    expect(spanOf(result.traceSpans, 'pause').children).toBeUndefined();
  });

  it('leaves blocks without a policy exactly as before: one call, no attempt spans', async () => {
    const workflow = state({ blocks: [apiTrigger(), block('risky', 'flaky', { key: 'risky', fail: 1 })], edges: chain('start', 'risky') });
    const { result } = await run(workflow);
    expect(result).toMatchObject({ success: false, error: 'failure 1' });
    expect(calls.get('risky')).toBe(1);
    expect(spanOf(result.traceSpans, 'risky').children).toBeUndefined();
  });
});

describe('timeoutMs', () => {
  it('fails an attempt that runs too long with the block’s own message, not the execution time-out', async () => {
    const { result } = await run(guarded({ hang: 5 }, { timeoutMs: 30 }));
    expect(result.success).toBe(false);
    expect(result.error).toBe('Block "Risky" timed out after 30 ms (its policy\'s timeoutMs)');
    expect(result.stopReason).toBeUndefined();
    expect(spanOf(result.traceSpans, 'risky')).toMatchObject({ status: 'error', error: result.error });
  });

  it('retries a timed-out attempt, and the trace says which attempts timed out', async () => {
    const { result } = await run(guarded({ hang: 2 }, { timeoutMs: 30, retry: { maxAttempts: 3, backoffMs: 0 } }));
    expect(result.success).toBe(true);
    expect(result.output).toEqual({ call: 3, problem: null });
    const attempts = attemptsOf(spanOf(result.traceSpans, 'risky'));
    expect(attempts.map((a) => [a.status, (a.input as { failure?: string }).failure])).toEqual([
      ['error', 'timeout'],
      ['error', 'timeout'],
      ['success', undefined],
    ]);
    expect(attempts[0]!.error).toMatch(/timed out after 30 ms/);
  });

  it('takes the error edge after a time-out like after any failure', async () => {
    const workflow = state({
      blocks: [apiTrigger(), block('risky', 'flaky', { key: 'risky', hang: 1 }, { name: 'Risky', policy: { timeoutMs: 20 } }), block('handler', 'echo', { caught: '<risky.error>' })],
      edges: [edge('start', 'risky'), edge('risky', 'handler', 'error')],
    });
    const { result } = await run(workflow);
    expect(result.success).toBe(true);
    expect(result.output).toEqual({ caught: expect.stringMatching(/^Block "Risky" timed out after 20 ms/) });
  });
});

describe('stopping the run stops retrying at once', () => {
  it('cancellation during the backoff wait ends the block as cancelled, with no further attempt', async () => {
    const controller = new AbortController();
    // A ten-minute wait before attempt 2: only the cancellation can end this run within the test's time.
    const pending = run(guarded({ fail: 10 }, { retry: { maxAttempts: 10, backoffMs: 600_000 } }), {}, { signal: controller.signal });
    await eventually(() => calls.get('risky') === 1);
    controller.abort();
    const { result, events } = await pending;
    expect(result).toMatchObject({ success: false, stopReason: 'cancelled', error: 'Execution cancelled' });
    expect(calls.get('risky')).toBe(1);
    const span = spanOf(result.traceSpans, 'risky');
    expect(span).toMatchObject({ status: 'error', error: 'Execution cancelled' });
    expect(attemptsOf(span).map((a) => a.error)).toEqual(['failure 1']);
    expect(events.at(-1)?.type).toBe('run_finished');
  });

  it('the run’s time-out during retries is the run’s stop reason, not a block time-out', async () => {
    const { result } = await run(guarded({ fail: 10 }, { timeoutMs: 60_000, retry: { maxAttempts: 10, backoffMs: 600_000 } }), {}, { timeoutMs: 50 });
    expect(result).toMatchObject({ success: false, stopReason: 'timeout', error: 'Execution timed out after 50 ms' });
    expect(calls.get('risky')).toBe(1);
  });

  it('cancellation during an attempt is not retried', async () => {
    const controller = new AbortController();
    const pending = run(guarded({ hang: 10 }, { retry: { maxAttempts: 5, backoffMs: 0 } }), {}, { signal: controller.signal });
    await eventually(() => calls.get('risky') === 1);
    controller.abort();
    const { result } = await pending;
    expect(result).toMatchObject({ stopReason: 'cancelled', error: 'Execution cancelled' });
    expect(calls.get('risky')).toBe(1);
    expect(attemptsOf(spanOf(result.traceSpans, 'risky')).map((a) => a.error)).toEqual(['Execution cancelled']);
  });
});

describe('onError', () => {
  it('"continue" turns a failure into the output {error} and goes on along the normal edge', async () => {
    const { result, events } = await run(guarded({ fail: 10 }, { onError: 'continue', retry: { maxAttempts: 2, backoffMs: 0 } }));
    expect(result.success).toBe(true);
    expect(ranBlocks(events)).toEqual(['start', 'risky', 'after']);
    expect(result.output).toEqual({ call: null, problem: 'failure 2' });
    expect(spanOf(result.traceSpans, 'risky')).toMatchObject({ status: 'error', error: 'failure 2' });
  });

  it('"continue" still takes an error edge when there is one', async () => {
    const workflow = state({
      blocks: [
        apiTrigger(),
        block('risky', 'flaky', { key: 'risky', fail: 1 }, { policy: { onError: 'continue' } }),
        block('normal', 'echo', { path: 'normal' }),
        block('handler', 'echo', { path: 'error' }),
      ],
      edges: [edge('start', 'risky'), edge('risky', 'normal'), edge('risky', 'handler', 'error')],
    });
    const { result, events } = await run(workflow);
    expect(ranBlocks(events)).toEqual(['start', 'risky', 'handler']);
    expect(result.output).toEqual({ path: 'error' });
  });

  it('"fail" (the default) fails the run', async () => {
    const { result } = await run(guarded({ fail: 1 }, { onError: 'fail' }));
    expect(result).toMatchObject({ success: false, error: 'failure 1' });
  });
});

describe('containers', () => {
  const loopWorkflow = (policy: BlockPolicy, withErrorEdge = false) =>
    state({
      blocks: [
        apiTrigger(),
        block('box', 'loop', {}, { name: 'Box', policy }),
        block('body', 'flaky', { key: 'body', hang: 1 }, { parentId: 'box' }),
        block('after', 'echo', { results: '<box.results>', problem: '<box.error>' }),
        ...(withErrorEdge ? [block('handler', 'echo', { caught: '<box.error>' })] : []),
      ],
      edges: [edge('start', 'box'), edge('box', 'body'), edge('box', 'after'), ...(withErrorEdge ? [edge('box', 'handler', 'error')] : [])],
      loops: [{ id: 'box', nodes: ['body'], loopType: 'for', iterations: 3 }],
    });

  it('timeoutMs bounds the whole container run, with the block time-out message', async () => {
    const { result } = await run(loopWorkflow({ timeoutMs: 40 }));
    expect(result).toMatchObject({ success: false, error: 'Block "Box" timed out after 40 ms (its policy\'s timeoutMs)' });
    expect(result.stopReason).toBeUndefined();
    expect(calls.get('body')).toBe(1);
  });

  it('a timed-out container takes its error edge', async () => {
    const { result } = await run(loopWorkflow({ timeoutMs: 40 }, true));
    expect(result).toMatchObject({ success: true, output: { caught: expect.stringMatching(/^Block "Box" timed out/) } });
  });

  it('onError "continue" goes on after a failed container, with its partial results', async () => {
    const { result, events } = await run(loopWorkflow({ timeoutMs: 40, onError: 'continue' }));
    expect(result.success).toBe(true);
    expect(ranBlocks(events)).toContain('after');
    expect(result.output).toEqual({ results: [null], problem: expect.stringMatching(/^Block "Box" timed out/) });
  });
});

describe('model use of retried blocks', () => {
  it('counts every attempt’s tokens and cost once: on the block’s span, not again on the attempts', async () => {
    const { result } = await run(guarded({ fail: 2 }, { retry: { maxAttempts: 3, backoffMs: 0 } }, 'paid'));
    expect(result.success).toBe(true);
    const span = spanOf(result.traceSpans, 'risky');
    expect(span.tokens).toEqual({ prompt: 30, completion: 15, total: 45 });
    expect(span.cost).toEqual({ input: expect.closeTo(0.03, 9), output: expect.closeTo(0.06, 9), total: expect.closeTo(0.09, 9) });
    expect(span.model).toBe('test-model');
    for (const attempt of span.children!) expect([attempt.tokens, attempt.cost, attempt.model]).toEqual([undefined, undefined, undefined]);
    // What the execution is charged: the base plus all three calls.
    expect(summarizeCost(result.traceSpans, 0.001).total).toBeCloseTo(0.091, 9);
  });
});

describe('with the API block’s own retries', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startUpstream((_req, res) => res.writeHead(503).end('busy'));
  });
  afterAll(async () => upstream.close());

  it('each policy attempt runs the block’s HTTP retries in full: attempts × (retries + 1) requests', async () => {
    const before = upstream.requests.length;
    const workflow = state({
      blocks: [
        apiTrigger(),
        block('fetch', 'api', { url: `${upstream.url}/busy`, retries: 1 }, { name: 'Fetch', policy: { retry: { maxAttempts: 2, backoffMs: 0 } } }),
      ],
      edges: chain('start', 'fetch'),
    });
    const { result } = await run(workflow);
    // A 503 the block reports as an outcome is still an error to the policy.
    expect(upstream.requests.length - before).toBe(4);
    expect(result.output).toMatchObject({ status: 503, error: expect.stringContaining('HTTP 503') });
    expect(attemptsOf(spanOf(result.traceSpans, 'fetch')).map((a) => a.status)).toEqual(['error', 'error']);
  });

  it('the policy’s timeoutMs bounds one attempt including the block’s inner retries', async () => {
    const before = upstream.requests.length;
    const workflow = state({
      blocks: [apiTrigger(), block('fetch', 'api', { url: `${upstream.url}/busy`, retries: 5 }, { name: 'Fetch', policy: { timeoutMs: 200 } })],
      edges: chain('start', 'fetch'),
    });
    const { result } = await run(workflow);
    expect(result.error).toMatch(/^Block "Fetch" timed out after 200 ms/);
    // Backoff starts at 500 ms: the time limit ends the attempt during the first wait, after one request.
    expect(upstream.requests.length - before).toBe(1);
  });
});
