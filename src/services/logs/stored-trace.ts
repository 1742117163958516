// How a log's trace is stored (issue 28: each value once). The engine's trace repeats every value: a block's output
// reappears in the input of each block that references it, in the output of the block that echoes it, in its
// container's `results` and in the final output. The stored form keeps each block output once, in `outputs`, and
// writes every other place a value recurs as a reference to where it is kept: a span's input is its references plus
// only the values that are no other block's output.
//
// Format 2 (an object; format 1, today's rows before it, is the plain span array and is read as it is):
//   { format: 2, detail: 'full' | 'summary', outputs: [value…], finalAt?: i, spans: [span…] }
// - a stored span is the span without `input`/`output`, plus `in` (its input, encoded) and `out` (an index into
//   `outputs`), each only when the span had that key;
// - an encoded value is JSON in which `{"$r": [i, …path]}` stands for the value at `path` inside outputs[i], and a
//   user object holding a `$r` or `$l` key is wrapped as `{"$l": object}` (kept as it is, never read as references);
// - `finalAt: i` says outputs[i] is the row's final output (kept apart: in the packed trace's `final`, packed-trace.ts,
//   or in the `final_output` column of older rows; not again here).
// - `{"$r": [-1, …path]}` points into the final output.
// - `offloaded: { final }`: some values were too large for the row and are in file storage (offloaded-values.ts): an
//   output, a span's `in` or (`final`) the final output holds `{"$offloaded": key, "bytes": n}` instead. A user
//   object holding an `$offloaded` key is wrapped with `$l` too, so a marker is never a user's value.
// References only point at outputs of a lower index or at the final output, so decoding never loops.
//
// Formats 3 and 4 (packed-trace.ts) are format 2 with its span envelopes written compactly, compressed; they are
// unpacked to format 2 on read.
//
// Values are matched by identity for objects and arrays (a reference resolves to the very object the block
// output holds) and by content for strings of at least MIN_SHARED_STRING characters (a value that went out and came
// back, as an upstream's echo, is a new string with the same text).

import { isPackedFormat, unpackTrace } from './packed-trace.js';

/** Shorter strings cost less written out than as a reference. */
const MIN_SHARED_STRING = 24;
/** The place of the final output (stored in its own column) in a reference. */
const FINAL = -1;

export const STORED_TRACE_FORMAT = 2;

/** How much of the trace a log kept: everything, or the summary (docs/workflows.md "Trace detail"). */
export type KeptTrace = 'full' | 'summary';

export interface StoredTrace {
  format: typeof STORED_TRACE_FORMAT;
  detail: KeptTrace;
  outputs: unknown[];
  finalAt?: number;
  spans: unknown[];
  /** Present when values of this log are in file storage (offloaded-values.ts); `final`: the final output too. */
  offloaded?: { final: boolean };
}

type Path = Array<string | number>;
/** Where a value is kept: in outputs[output], under `key` of the value at `parent` (the output itself when none). */
interface Place {
  output: number;
  parent?: Place;
  key?: string | number;
}

/** The path from the output to a place (built only for the places a reference points at). */
function pathOf(place: Place): Path {
  const path: Path = [];
  for (let at: Place | undefined = place; at?.parent; at = at.parent) path.push(at.key!);
  return path.reverse();
}

interface AnySpan {
  input?: unknown;
  output?: unknown;
  children?: AnySpan[];
  [key: string]: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isPlainRecord = (v: unknown): v is Record<string, unknown> => isObject(v) && !Array.isArray(v);

/** The stored form of a run's trace; `finalOutput` is stored beside it (packTrace's `final`) and referenced, not repeated. */
export function storeTrace(spans: unknown[], finalOutput: unknown, detail: KeptTrace = 'full'): StoredTrace {
  const outputs: unknown[] = [];
  const outputIndex = new Map<unknown, number>();
  const places = new Map<unknown, Place>();
  const finalIndex = { value: undefined as number | undefined };

  // Children before their parent: a container's `results` holds its iterations' outputs, kept under them.
  const addOutputs = (list: AnySpan[]) => {
    for (const span of list) {
      if (span.children) addOutputs(span.children);
      if (span.output === undefined || (isObject(span.output) && outputIndex.has(span.output))) continue;
      const i = outputs.length;
      outputs.push(span.output);
      if (isObject(span.output)) outputIndex.set(span.output, i);
      register(span.output, { output: i });
    }
  };
  const register = (value: unknown, place: Place) => {
    if (typeof value === 'string') {
      if (value.length >= MIN_SHARED_STRING && !places.has(value)) places.set(value, place);
      return;
    }
    if (!isObject(value)) return;
    if (places.has(value)) return; // already kept elsewhere (and everything inside it)
    places.set(value, place);
    const { output } = place;
    if (Array.isArray(value)) for (let key = 0; key < value.length; key++) register(value[key], { output, parent: place, key });
    else for (const key of Object.keys(value)) register(value[key], { output, parent: place, key });
  };
  // The final output is kept in its own column whatever happens here: the trace refers into it before anything else.
  register(finalOutput, { output: FINAL });
  addOutputs(spans as AnySpan[]);
  if (isObject(finalOutput) && outputIndex.has(finalOutput)) finalIndex.value = outputIndex.get(finalOutput);

  /** `own`: the output being encoded, whose own places are not references. */
  const encode = (value: unknown, own: number | undefined): unknown => {
    const place = typeof value === 'string' || isObject(value) ? places.get(value) : undefined;
    if (place && place.output !== own && (place.output === FINAL || own === undefined || place.output < own)) {
      return { $r: [place.output, ...pathOf(place)] };
    }
    if (!isObject(value)) return value;
    if (Array.isArray(value)) return value.map((item) => encode(item, own));
    if ('$r' in value || '$l' in value || '$offloaded' in value) return { $l: value };
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = encode(value[key], own);
    return out;
  };

  const stored: unknown[] = outputs.map((value, i) => (i === finalIndex.value ? null : encode(value, i)));
  const storeSpan = (span: AnySpan): Record<string, unknown> => {
    const s: Record<string, unknown> = {};
    for (const key of Object.keys(span)) if (key !== 'input' && key !== 'output' && key !== 'children') s[key] = span[key];
    if ('input' in span) s.in = encode(span.input, undefined);
    const { output, children } = span;
    if (output !== undefined) s.out = isObject(output) ? outputIndex.get(output) : outputs.indexOf(output);
    if (children) s.children = children.map(storeSpan);
    return s;
  };
  return {
    format: STORED_TRACE_FORMAT,
    detail,
    outputs: stored,
    ...(finalIndex.value !== undefined ? { finalAt: finalIndex.value } : {}),
    spans: (spans as AnySpan[]).map(storeSpan),
  };
}

/** A stored trace of format 2, or a packed one (3 or 4: unpack it before reading its spans). */
export function isStoredTrace(value: unknown): value is StoredTrace {
  return isPlainRecord(value) && (value.format === STORED_TRACE_FORMAT || isPackedFormat(value.format)) && Array.isArray(value.spans);
}

/**
 * What a log's trace column holds, as the engine made it. Rows of format 1 (a plain array) are read as they are.
 * `finalOutput`: the row's, as withPackedFinalOutput (packed-trace.ts) gives it; a packed column's own is used when null.
 */
export function readTrace(column: unknown, finalOutput: unknown): { spans: unknown[]; detail: KeptTrace } {
  const stored = unpackTrace(column);
  if (Array.isArray(stored)) return { spans: stored, detail: 'full' };
  if (!isStoredTrace(stored)) return { spans: [], detail: 'full' };
  finalOutput ??= (stored as { final?: unknown }).final;
  const decoded = new Map<number, unknown>();
  const output = (i: number): unknown => {
    if (i === FINAL || i === stored.finalAt) return finalOutput;
    if (!decoded.has(i)) decoded.set(i, decode(stored.outputs[i]));
    return decoded.get(i);
  };
  const decode = (value: unknown): unknown => {
    if (!isObject(value)) return value;
    if (Array.isArray(value)) return value.map(decode);
    if ('$l' in value) return value.$l;
    if ('$r' in value && Array.isArray(value.$r)) {
      const [i, ...path] = value.$r as [number, ...Path];
      let at: unknown = output(i);
      for (const key of path) at = isObject(at) ? (at as Record<string | number, unknown>)[key] : undefined;
      return at;
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = decode(value[key]);
    return out;
  };
  const readSpan = (s: Record<string, unknown>): Record<string, unknown> => {
    const { in: input, out, children, ...rest } = s;
    // In the order the engine writes a span (trace.ts), so a client sees the keys as before.
    const span: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(rest)) {
      span[key] = value;
      if (key === 'duration') {
        if ('in' in s) span.input = decode(input);
        if ('out' in s) span.output = output(out as number);
      }
    }
    if (!('duration' in rest)) {
      if ('in' in s) span.input = decode(input);
      if ('out' in s) span.output = output(out as number);
    }
    if (Array.isArray(children)) span.children = children.map((c) => readSpan(c as Record<string, unknown>));
    return span;
  };
  return { spans: stored.spans.map((s) => readSpan(s as Record<string, unknown>)), detail: stored.detail === 'summary' ? 'summary' : 'full' };
}
