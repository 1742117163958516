// The stored trace format (src/services/logs/stored-trace.ts) read back through JSON, as the database hands it back:
// values that look like its own references, shared and repeated values, outputs that are not objects.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { packTrace, unpackTrace } from '../../src/services/logs/packed-trace.js';
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

  it('packs and compresses a trace (format 3) and reads it back as format 2, times and ids included', () => {
    const at = Date.parse('2026-11-26T17:25:02.743Z');
    const engineSpan = (blockId: string, from: number, ms: number, input: unknown, output: unknown, extra: Record<string, unknown> = {}) => ({
      id: randomUUID(), blockId, name: blockId.toUpperCase(), type: 'function', status: 'success',
      startTime: new Date(at + from).toISOString(), endTime: new Date(at + from + ms).toISOString(), duration: ms, input, output, ...extra,
    });
    const body = { q: 'a value long enough to be kept once only' };
    const final = { status: 200, body };
    const spans = [
      engineSpan('start', 0, 8, {}, { input: body }),
      engineSpan('call', 8, 67, { body }, { data: body, status: 200 }, { tokens: { prompt: 1, completion: 2, total: 3 }, cost: 0.5, model: 'm' }),
      engineSpan('each', 75, 10, { items: [1] }, { results: [{ n: 1 }] }, {
        children: [engineSpan('it0', 76, 1, { index: 0 }, { n: 1 }), span('odd-id', { index: 1 }, undefined)],
      }),
      engineSpan('boom', 85, 0, undefined, undefined, { error: 'failed', unresolvedReferences: ['<x.y>'] }),
      // Not as the engine makes them: kept as objects, and read back all the same.
      span('times', { a: 1 }, { b: 2 }),
      { ...engineSpan('late', -5, 3, null, 'a primitive output, also long enough'), endTime: 'not a time' },
      engineSpan('out', 86, 2, { body }, final),
    ];
    const format2 = throughJson(storeTrace(spans, final));
    const packed = throughJson(packTrace(storeTrace(spans, final)));
    expect(packed.format).toBe(3);
    // Neither the uuids, the ISO times nor the values are in the row as text: packed and compressed.
    for (const text of [spans[1].id, spans[1].startTime, body.q]) expect(JSON.stringify(packed)).not.toContain(text);
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(format2).length / 2);
    expect(unpackTrace(packed)).toEqual(format2);
    expect(readTrace(packed, throughJson(final)).spans).toEqual(throughJson(spans));
    expect(readTrace(packed, throughJson(final)).spans).toEqual(readTrace(format2, throughJson(final)).spans);
  });

  it('reads rows of format 2 (written before spans were packed) as they are', () => {
    const spans = [span('a', { x: 1 }, { y: 2 }), span('b', { y: 2 }, [1])];
    const format2 = throughJson(storeTrace(spans, null));
    expect(unpackTrace(format2)).toBe(format2);
    expect(readTrace(format2, null).spans).toEqual(throughJson(spans));
  });
});
