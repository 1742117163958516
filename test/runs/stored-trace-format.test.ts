// The stored trace format (src/services/logs/stored-trace.ts) read back through JSON, as the database hands it back:
// values that look like its own references, shared and repeated values, outputs that are not objects.
import { randomBytes, randomUUID } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { newSpanId } from '../../src/engine/span-ids.js';
import { DICTIONARY, offloadedOf, packTrace, unpackTrace, withPackedFinalOutput } from '../../src/services/logs/packed-trace.js';
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

  it('packs and compresses a trace (format 4) and reads it back as format 2, times and ids included', () => {
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
    expect(packed.format).toBe(4);
    // Neither the uuids, the ISO times nor the values are in the row as text: packed and compressed.
    for (const text of [spans[1].id, spans[1].startTime, body.q]) expect(JSON.stringify(packed)).not.toContain(text);
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(format2).length / 2);
    expect(unpackTrace(packed)).toEqual(format2);
    expect(readTrace(packed, throughJson(final)).spans).toEqual(throughJson(spans));
    expect(readTrace(packed, throughJson(final)).spans).toEqual(readTrace(format2, throughJson(final)).spans);

    // As rows are written now: the final output packed with the trace, the column null.
    const withFinal = throughJson(packTrace(storeTrace(spans, final), final));
    const row = withPackedFinalOutput({ traceSpans: withFinal, finalOutput: null });
    expect(row.finalOutput).toEqual(throughJson(final));
    expect(row.traceSpans).toEqual(format2);
    expect(readTrace(row.traceSpans, row.finalOutput).spans).toEqual(throughJson(spans));
    expect(readTrace(withFinal, null).spans).toEqual(throughJson(spans));
    // A row with its final output in the column (written before) is handed on as it is, its trace not unpacked.
    const before = { traceSpans: packed, finalOutput: throughJson(final) };
    expect(withPackedFinalOutput(before)).toBe(before);
  });

  it('keeps the output of a span with no input and nothing more when it is the first output (index 0)', () => {
    const at = Date.parse('2026-11-27T17:20:00.000Z');
    const spans = [
      { id: randomUUID(), blockId: 'a', name: 'A', type: 'function', status: 'success', startTime: new Date(at).toISOString(),
        endTime: new Date(at + 2).toISOString(), duration: 2, output: { s: 'abc' } },
    ];
    const packed = throughJson(packTrace(storeTrace(spans, null)));
    expect(readTrace(packed, null).spans).toEqual(throughJson(spans));
  });

  it("writes a run's span ids in a few bytes each: they share their first 12 bytes, where random uuids shared none", () => {
    const at = Date.parse('2026-11-28T05:20:00.000Z');
    // A loop of 50 iterations, each a span with a child: 101 spans, as the engine names them.
    const traceWith = (newId: () => string) => {
      const iteration = (i: number) => ({
        id: newId(), blockId: 'each', name: 'Each', type: 'loop_iteration', status: 'success', startTime: new Date(at + i).toISOString(),
        endTime: new Date(at + i + 1).toISOString(), duration: 1, input: { index: i }, output: { n: i },
        children: [{ id: newId(), blockId: 'fn', name: 'Fn', type: 'function', status: 'success', startTime: new Date(at + i).toISOString(),
          endTime: new Date(at + i + 1).toISOString(), duration: 1, input: {}, output: { n: i } }],
      });
      return [{ id: newId(), blockId: 'loop', name: 'Loop', type: 'loop', status: 'success', startTime: new Date(at).toISOString(),
        endTime: new Date(at + 50).toISOString(), duration: 50, input: {}, output: {}, children: Array.from({ length: 50 }, (_, i) => iteration(i)) }];
    };
    const engineIds = traceWith(newSpanId);
    const ids = JSON.stringify(engineIds).match(/"id":"([^"]+)"/g)!.map((m) => m.slice(6, -1));
    expect(new Set(ids).size).toBe(101);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const bytes = (spans: unknown[]) => Buffer.from((throughJson(packTrace(storeTrace(spans, null))) as { z: string }).z, 'base64').length;
    const packed = throughJson(packTrace(storeTrace(engineIds, null)));
    expect(readTrace(packed, null).spans).toEqual(throughJson(engineIds));
    // Random uuids: 16 bytes of noise a span that deflate cannot shrink; these: over 10 bytes a span fewer.
    expect(bytes(traceWith(randomUUID)) - bytes(engineIds)).toBeGreaterThan(100 * 10);
  });

  it('compresses traces of every size as well as zlib with its default window, and reads each back', () => {
    // The window is sized to the text (packed-trace.ts deflateOptions): each size lands on another window.
    // Text that compresses, and text that hardly does (random base64): its output outgrows deflate's first output
    // buffer, sized to a few hundred bytes for a small run's trace.
    const words = Array.from({ length: 4000 }, (_, i) => `w${(i * 7919) % 1009}`);
    const texts = [10, 300, 2_000, 3_000, 9_000, 30_000, 120_000].flatMap((chars) => [
      { text: words.join(' ').repeat(Math.ceil(chars / 20_000)).slice(0, chars), compresses: true },
      { text: randomBytes(chars).toString('base64').slice(0, chars), compresses: false },
    ]);
    for (const { text, compresses } of texts) {
      const chars = text.length;
      const spans = [span('start', {}, { input: { text } }), span('out', { text }, { status: 200, body: { text, n: chars } })];
      const format2 = throughJson(storeTrace(spans, null));
      const packed = throughJson(packTrace(storeTrace(spans, null))) as { z: string };
      expect(unpackTrace(packed)).toEqual(format2);
      if (!compresses) continue; // a smaller hash table may find a match or two fewer in noise: a few bytes
      const atDefaults = deflateRawSync(inflateRawSync(Buffer.from(packed.z, 'base64'), { dictionary: DICTIONARY }), {
        dictionary: DICTIONARY,
      });
      expect(Buffer.from(packed.z, 'base64').length, `${chars} characters`).toBeLessThanOrEqual(atDefaults.length);
    }
  });

  it('keeps times and ids that do not round-trip as they were, whatever came before them on the same day', () => {
    const at = (time: string, end: string, duration: number, id: string = randomUUID()) =>
      ({ id, blockId: 'b', name: 'B', type: 'function', status: 'success', startTime: time, endTime: end, duration, input: { at: time }, output: { end } });
    const spans = [
      at('2026-11-26T09:00:00.000Z', '2026-11-26T09:00:01.000Z', 1000),
      at('2026-11-26T24:00:00.000Z', '2026-11-27T00:00:00.001Z', 1), // Date.parse reads 24:00 as the next day
      at('2026-11-26T23:59:60.000Z', '2026-11-26T23:59:60.001Z', 1),
      at('2026-11-26T23:5a:00.000Z', '2026-11-26T23:5a:00.001Z', 1),
      at('2026-11-26T23:00:00.000z', '2026-11-26T23:00:00.001Z', 1),
      at('2026-11-26T23:00:00.000Z', '2026-11-26T23:00:00.002Z', 1), // its end is not start + duration
      at('2026-02-30T10:00:00.000Z', '2026-02-30T10:00:00.001Z', 1),
      at('2026-11-26T10:00:00.000Z', '2026-11-26T10:00:00.001Z', 1, randomUUID().toUpperCase()),
      at('2026-11-26T10:00:00.000Z', '2026-11-26T10:00:00.001Z', 1, `${randomUUID().slice(0, 35)}g`),
      at('2026-11-26T23:59:59.500Z', '2026-11-27T00:00:00.250Z', 750), // across midnight
      at('2026-11-27T00:00:00.250Z', '2026-11-27T00:00:00.250Z', 0),
    ];
    const packed = throughJson(packTrace(storeTrace(spans, null)));
    expect(readTrace(packed, null).spans).toEqual(throughJson(spans));
    expect(unpackTrace(packed)).toEqual(throughJson(storeTrace(spans, null)));
  });

  it('reads rows of format 3 (packed in jsonb key order) exactly as before, and a format-4 row of the same trace alike', () => {
    // Written by the code of format 3 for the trace below; its answer (keys in the same order) is what it answered then.
    const column = {"format":3,"z":"fZRbb4JAEIX/CpnnoWGXO29GE2ukXuqaGA0PVBC3haX10mIN/71ZJFVq6PvOmZkz59tzJUNs17SJ7mrUNvRbTb8orCk5qKxjhZNFHg/NYjSf3nSasc4za2bqppFzbQSvU3M33DrOLKXjjZn7j11NZTJd67Dyqtvx/RYhBy0bKZ5rzjzIGqzVTOn4Sx1pYkclbleaVtDd7veTubmZZcenzdKY9PneYXItftAAYcC0lklcJEjkSsBFFBfgaWUQlHhuBqGA+pJ3pw3KMpDFMkJ5FKlcRo4L+bAAjyKcwCNllZZqIRFmMr7jXk9ufEHkdq46HNcB4SXN12+DWl9SKCLGKxGqUUslRKUWI7ZHTU+jDw41lpKpY/1jSOeq0/5boy+hxBX0T18uS92PmX4aicQJh9/FaJHAZXqE8bwtGI6FFI3KxnabAmzHyWjh6U4FzyAqR9tY+4NYiRAq7zue8QP/jJVLE1TCdJ8raS4SJRb5MdkCimOaBuUP"};
    const answered = [{"id":"2f1c7a43-5b7e-4c0e-9a3d-7a1e2b9c4d51","name":"START","type":"function","status":"success","blockId":"start","endTime":"2026-11-26T17:25:02.751Z","duration":8,"input":{},"output":{"input":{"zeta":"a value long enough to be kept once only","alpha":[1,{"b":2,"a":1}]}},"startTime":"2026-11-26T17:25:02.743Z"},{"id":"8d0e6b2a-1f3c-4a5d-8e7f-9a0b1c2d3e4f","name":"CALL","type":"function","model":"m","status":"success","tokens":{"total":3,"prompt":1,"completion":2},"blockId":"call","endTime":"2026-11-26T17:25:02.818Z","duration":67,"input":{"url":"http://x","body":{"zeta":"a value long enough to be kept once only","alpha":[1,{"b":2,"a":1}]}},"output":{"data":{"zeta":"a value long enough to be kept once only","alpha":[1,{"b":2,"a":1}]},"status":200},"startTime":"2026-11-26T17:25:02.751Z","children":[{"id":"0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d","name":"IT0","type":"function","status":"success","blockId":"it0","endTime":"2026-11-26T17:25:02.753Z","duration":1,"input":{"index":0},"output":{"n":1},"startTime":"2026-11-26T17:25:02.752Z"}]},{"id":"odd-id","name":"ODD","type":"function","status":"success","blockId":"odd","endTime":"2026-11-26T17:25:02.824Z","duration":1,"input":{"x":2,"y":1},"output":"a primitive output, also long enough","startTime":"2026-11-26T17:25:02.823Z"},{"id":"1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e","name":"OUT","type":"function","status":"success","blockId":"out","endTime":"2026-11-26T17:25:02.831Z","duration":2,"input":{"body":{"zeta":"a value long enough to be kept once only","alpha":[1,{"b":2,"a":1}]}},"output":{"status":200,"body":{"zeta":"a value long enough to be kept once only","alpha":[1,{"b":2,"a":1}]}},"startTime":"2026-11-26T17:25:02.829Z"}];
    const at = Date.parse('2026-11-26T17:25:02.743Z');
    const span = (id: string, blockId: string, from: number, ms: number, input: unknown, output: unknown, extra: Record<string, unknown> = {}) => ({
      id, blockId, name: blockId.toUpperCase(), type: 'function', status: 'success',
      startTime: new Date(at + from).toISOString(), endTime: new Date(at + from + ms).toISOString(), duration: ms, input, output, ...extra,
    });
    const body = { zeta: 'a value long enough to be kept once only', alpha: [1, { b: 2, a: 1 }] };
    const final = { status: 200, body };
    const spans = [
      span('2f1c7a43-5b7e-4c0e-9a3d-7a1e2b9c4d51', 'start', 0, 8, {}, { input: body }),
      span('8d0e6b2a-1f3c-4a5d-8e7f-9a0b1c2d3e4f', 'call', 8, 67, { body, url: 'http://x' }, { data: body, status: 200 }, {
        tokens: { prompt: 1, completion: 2, total: 3 }, model: 'm',
        children: [span('0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', 'it0', 9, 1, { index: 0 }, { n: 1 })],
      }),
      span('odd-id', 'odd', 80, 1, { y: 1, x: 2 }, 'a primitive output, also long enough'),
      span('1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e', 'out', 86, 2, { body }, final),
    ];
    expect(JSON.stringify(readTrace(column, final).spans)).toBe(JSON.stringify(answered));
    // Format 4 writes the values' keys as the run made them and puts them in jsonb's order when read: the same answer.
    const packed = throughJson(packTrace(storeTrace(spans, final)));
    expect(packed.format).toBe(4);
    expect(JSON.stringify(readTrace(packed, final).spans)).toBe(JSON.stringify(answered));
    expect(JSON.stringify(unpackTrace(packed))).toBe(JSON.stringify(unpackTrace(column)));
  });

  it('reads rows of format 2 (written before spans were packed) as they are', () => {
    const spans = [span('a', { x: 1 }, { y: 2 }), span('b', { y: 2 }, [1])];
    const format2 = throughJson(storeTrace(spans, null));
    expect(unpackTrace(format2)).toBe(format2);
    expect(readTrace(format2, null).spans).toEqual(throughJson(spans));
  });

  it('tells which values are in file storage from any stored column, packed or not, as unpacking it would', () => {
    const stored = storeTrace([span('a', { x: 1 }, { y: 2 })], { big: 'marker here' });
    const columns = [
      { offloaded: { final: true } },
      { offloaded: { final: false } },
      {},
    ].flatMap((extra) => [throughJson(packTrace({ ...stored, ...extra })), throughJson({ ...stored, ...extra })]);
    for (const column of columns) {
      expect(offloadedOf(column)).toEqual((unpackTrace(column) as { offloaded?: unknown }).offloaded);
    }
    expect(columns.map(offloadedOf).map((o) => o?.final)).toEqual([true, true, false, false, undefined, undefined]);
    for (const column of [null, [span('a', 1, 2)], 'text']) expect(offloadedOf(column)).toBeUndefined();
  });
});
