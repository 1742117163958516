// The stored trace format (src/services/logs/stored-trace.ts) read back through JSON, as the database hands it back:
// values that look like its own references, shared and repeated values, outputs that are not objects.
import { describe, expect, it } from 'vitest';
import { readTrace, storeTrace } from '../../src/services/logs/stored-trace.js';

const throughJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function span(blockId: string, input: unknown, output: unknown, extra: Record<string, unknown> = {}) {
  return { id: `id-${blockId}`, blockId, name: blockId, type: 'function', status: 'success', startTime: 't0', endTime: 't1', duration: 1, input, output, ...extra };
}

describe('stored trace format', () => {
  it('reads back exactly what was stored, and keeps a shared value once', () => {
    const body = { q: 'a value long enough to be kept once only', nested: { list: [1, 2, { deep: true }] } };
    const trigger = { q: body.q, input: body };
    const echo = { data: { got: JSON.parse(JSON.stringify(body)) }, status: 200 };
    const final = { status: 200, headers: {}, body: { result: echo.data, q: body.q } };
    const iterations = [{ n: 1 }, { n: 2 }];
    const spans = [
      span('start', {}, trigger),
      span('call', { body, url: 'http://x', text: `q is ${body.q}` }, echo),
      span('loop', { items: body.nested.list }, { results: iterations }, {
        children: iterations.map((o, i) => span(`it${i}`, { index: i }, o)),
      }),
      span('str', body.q, 'a primitive output, also long enough'),
      span('none', undefined, undefined),
      span('out', { body: final.body }, final),
    ];
    const stored = throughJson(storeTrace(spans, final));
    expect(readTrace(stored, throughJson(final)).spans).toEqual(throughJson(spans));
    // Ten places in the trace hold it; the stored trace at most once (the rest refer to it or into the final output).
    expect(JSON.stringify(throughJson(spans)).split(body.q).length - 1).toBe(10);
    expect(JSON.stringify(stored).split(body.q).length - 1).toBeLessThanOrEqual(1);
  });

  it('keeps user objects that look like references as they are', () => {
    const output = { $r: [0, 'x'], $l: 'literal', inner: { $r: 'also user data' } };
    const spans = [span('a', { $r: [0] }, output), span('b', { copy: output, again: { $l: 1 } }, [1, 2])];
    const stored = throughJson(storeTrace(spans, {}));
    expect(readTrace(stored, {}).spans).toEqual(throughJson(spans));
  });

  it('reads rows written before the format (a plain span array) as they are', () => {
    const old = [span('a', { x: 1 }, { y: 2 })];
    expect(readTrace(throughJson(old), null)).toEqual({ spans: old, detail: 'full' });
  });
});
