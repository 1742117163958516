// How a log's trace is written in its row (issue 28: stored bytes per execution). Once each value is stored once
// (stored-trace.ts, format 2), what a small run's row spends is mostly the spans' envelopes — in jsonb every key of
// every span has its own 8-byte entry, the id is a 36-character uuid, each span carries two 24-character ISO times —
// and PostgreSQL never compresses a row under ~2 KB (its TOAST threshold is fixed at compile time; neither
// `toast_tuple_target` nor lz4 changes that). So the row gets the trace packed and compressed here.
//
// Format 4: { format: 4, z: base64 of raw deflate (with DICTIONARY) of the JSON of the packed trace, offloaded? }
// where the packed trace is format 2 without `format`/`offloaded`, plus `t0` (epoch ms), with its spans packed:
// - a packed span is an array [id, blockId, name, type, status, start, duration, out, more, in], where `id` is the
//   uuid's 16 bytes in base64url, `start` is the span's start in ms after `t0` (its end is start + duration), `out` is
//   format 2's `out` or null, `more` an object of the span's other keys (error, tokens, cost, model, children, …) or 0,
//   and `in` format 2's `in`; trailing slots that say nothing (no `in`, then `more` 0, then `out` null) are left off;
// - a span that does not fit (an id that is not a uuid, times that do not round-trip, a missing field) stays the
//   format-2 object, its children packed: the format is exact for any span, compact for the ones the engine makes;
// - objects keep their keys in the order the run made them; reading puts every object's keys in jsonb's order, the
//   order a format-2 row (a jsonb value) answered with. Sorting is paid by the few reads, not by every run;
// - `final`: the run's final output, when the row keeps it here (rows written since 2026-11-27; their `final_output`
//   column is null). Compressed with the trace it costs little: its values are mostly ones the trace holds (the
//   response block's body is an upstream's answer; an echo sends the input back), which deflate then refers back to,
//   where jsonb kept them again in full, uncompressed (bench/REPORT.md log-storage). Read with withPackedFinalOutput.
// Format 3 is format 4 with the JSON written in jsonb's key order (keys sorted before compressing); rows of it are
//   read as they are.
// `offloaded` stays outside `z`: the logs list reads it in SQL (list.ts). Reading unpacks formats 3 and 4 to format
// 2, key for key, so everything downstream of unpackTrace sees what it saw before.
// Where a row keeps it: `z`'s bytes in the `trace_packed` column (bytea: base64 in jsonb cost a third more), and
// `offloaded`, when there is one, alone in `trace_spans`; rows from before that column keep the whole object in
// `trace_spans`. Either way it is read back as this object (services/logs/columns.ts `storedTrace`).
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { compareJsonbKeys, inJsonbKeyOrder, toJsonText } from '../../db/json.js';
import { canonicalIsoTimeMs } from '../../iso-time.js';

export const PACKED_TRACE_FORMAT = 4;
/** Format 3: format 4 with the packed JSON written in jsonb's key order (read as it is). */
const KEY_ORDERED_FORMAT = 3;
/** What unpacking gives back: stored-trace.ts's format (each value once, spans as objects). */
const UNPACKED_FORMAT = 2;

/**
 * What deflate may refer back to before the first byte: the keys, block types, statuses and upstream headers most
 * traces hold. Rows are written with it: changing it is a new format. Exported for the tests.
 */
export const DICTIONARY = Buffer.from(
  '"error","model","tokens":{"prompt":,"completion":,"total":},"cost":"unresolvedReferences":["<"children":[' +
    '"loop","loop_iteration","parallel","parallel_iteration","condition","router","function","variables","wait",' +
    '"agent","workflow","webhook_trigger","schedule_trigger","api","response","error","skipped",' +
    '"content-length":"","content-type":"application/json; charset=utf-8","date":" GMT","connection":"keep-alive",' +
    '"keep-alive":"timeout=5","transfer-encoding":"chunked","results":[{"$r":[0,"input"]},"method":"POST","url":"http://' +
    '{"detail":"full","finalAt":,"outputs":[{"input":{"data":{"$r":[-1,"body","result"]},"status":200,"headers":{},' +
    '"t0":,"spans":[["","start","API","api_trigger","success",0,0,0,0,{}],[',
);

/** The envelope's keys held in an array slot; every other key of a span goes into `more`. */
const ENVELOPE = new Set(['id', 'blockId', 'name', 'type', 'status', 'startTime', 'endTime', 'duration', 'in', 'out']);

type StoredSpan = Record<string, unknown>;
type PackedSpan = unknown[];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A lowercase uuid's 16 bytes in base64url (22 characters), else undefined. */
function uuidBytes(id: unknown): string | undefined {
  if (typeof id !== 'string' || id.length !== 36) return undefined;
  let out = '';
  let bits = 0;
  let count = 0;
  for (let i = 0; i < 36; i++) {
    const c = id.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return undefined; // '-'
      continue;
    }
    const nibble = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (nibble < 0) return undefined;
    bits = (bits << 4) | nibble;
    if (++count === 6) {
      out += BASE64URL[bits >> 18] + BASE64URL[(bits >> 12) & 63] + BASE64URL[(bits >> 6) & 63] + BASE64URL[bits & 63];
      bits = 0;
      count = 0;
    }
  }
  // 30 of the 32 digits went out as 20 characters; the last byte is two more.
  return out + BASE64URL[bits >> 2] + BASE64URL[(bits & 3) << 4];
}

export interface PackedTrace {
  format: typeof PACKED_TRACE_FORMAT;
  z: string;
  offloaded?: unknown;
}

/** A format-2 trace (stored-trace.ts's StoredTrace) and the run's final output, as the row keeps them. */
export function packTrace(trace: { spans: unknown[]; format?: unknown; offloaded?: unknown }, finalOutput?: unknown): PackedTrace {
  return compressPacked(packedText(trace, finalOutput), trace.offloaded);
}

/**
 * The JSON text that `z` compresses: the trace without `format`/`offloaded`, with `t0` and its spans packed, and the
 * final output as `final` (left out when null), NUL and lone surrogates replaced as jsonb would have. Its length
 * bounds the JSON of every value in the trace and of the final output.
 */
export function packedText(trace: { spans: unknown[]; format?: unknown; offloaded?: unknown }, finalOutput?: unknown): string {
  const spans = trace.spans as StoredSpan[];
  const t0 = firstStart(spans) ?? 0;
  const pack = (span: StoredSpan): PackedSpan | StoredSpan => {
    const children = Array.isArray(span.children) ? (span.children as StoredSpan[]).map(pack) : undefined;
    const start = fitsEnvelope(span);
    const id = start === undefined ? undefined : uuidBytes(span.id);
    if (id === undefined) {
      if (children === undefined) return span;
      const copy = { ...span };
      copy.children = children;
      return copy;
    }
    let more: Record<string, unknown> | 0 = 0;
    for (const key in span) {
      if (ENVELOPE.has(key) || span[key] === undefined || !Object.hasOwn(span, key)) continue;
      (more ||= {})[key] = key === 'children' && children !== undefined ? children : span[key];
    }
    const packed: PackedSpan = [id, span.blockId, span.name, span.type, span.status, start! - t0, span.duration, span.out ?? null, more];
    if (span.in !== undefined) packed.push(span.in);
    else if (more === 0) {
      // Trailing slots that say nothing: `more` when 0, then `out` when null (0 is the first output's index).
      packed.pop();
      if (packed[7] === null) packed.pop();
    }
    return packed;
  };
  const top: Record<string, unknown> = { t0, spans: spans.map(pack) };
  for (const key of Object.keys(trace)) if (key !== 'format' && key !== 'offloaded' && key !== 'spans') top[key] = (trace as Record<string, unknown>)[key];
  if (finalOutput !== undefined && finalOutput !== null) top.final = finalOutput;
  return toJsonText(top);
}

/**
 * Deflate's options for a text of `length` characters: a window that holds the dictionary and the text (so every match
 * zlib's default 32 KB window would find is found; a text mostly of non-ASCII characters, longer in bytes, may lose a
 * little compression, never correctness) and a hash table in proportion (zlib's own ratio, memLevel = windowBits − 7).
 * zlib sets up and clears its window and hash table at every call; at the defaults that cost more than compressing a
 * small run's ~1 KB. Inflate's default window reads a stream made with any smaller one.
 * The output buffer is half the window: Node allocates it whole at every call (16 KB by default, outside its buffer
 * pool) and a small run's compressed trace is a few hundred bytes (the bench flow's: 14.3 → 13.4 µs a call, the same
 * bytes). A larger output takes more buffers, joined at the end.
 */
const MIN_WINDOW_BITS = 9; // raw deflate's smallest window; 15 is zlib's largest (its default)
const DEFLATE_OPTIONS = [9, 10, 11, 12, 13, 14, 15].map((bits) => ({
  dictionary: DICTIONARY,
  windowBits: bits,
  memLevel: bits - 7,
  chunkSize: 2 ** (bits - 1),
}));
const deflateOptions = (length: number) =>
  DEFLATE_OPTIONS[Math.min(DEFLATE_OPTIONS.length - 1, Math.max(0, Math.ceil(Math.log2(DICTIONARY.length + length)) - MIN_WINDOW_BITS))];

/** The column of a trace whose packed JSON is `text` (packedText). */
export function compressPacked(text: string, offloaded?: unknown): PackedTrace {
  const z = deflateRawSync(text, deflateOptions(text.length)).toString('base64');
  return offloaded !== undefined ? { format: PACKED_TRACE_FORMAT, z, offloaded } : { format: PACKED_TRACE_FORMAT, z };
}

/** The span's start in epoch ms when its envelope fits the packed form's slots (its id is checked apart), else undefined. */
function fitsEnvelope(span: StoredSpan): number | undefined {
  const start = canonicalIsoTimeMs(span.startTime);
  const { blockId, name, type, status, duration } = span;
  if (start === undefined) return undefined;
  if (typeof blockId !== 'string' || typeof name !== 'string' || typeof type !== 'string' || typeof status !== 'string') return undefined;
  if (typeof duration !== 'number' || !Number.isInteger(duration) || canonicalIsoTimeMs(span.endTime) !== start + duration) return undefined;
  if (span.out !== undefined && typeof span.out !== 'number') return undefined;
  return start;
}

function firstStart(spans: StoredSpan[]): number | undefined {
  for (const span of spans) {
    const start = canonicalIsoTimeMs(span.startTime);
    if (start !== undefined) return start;
  }
  return undefined;
}

/** A format-3 or -4 column as format 2; any other value (format 2, a plain span array, null) as it is. */
export function unpackTrace(column: unknown): unknown {
  if (!isRecord(column) || !isPackedFormat(column.format) || typeof column.z !== 'string') return column;
  const parsed = JSON.parse(inflateRawSync(Buffer.from(column.z, 'base64'), { dictionary: DICTIONARY }).toString('utf8')) as Record<string, unknown>;
  // Keys as a format-2 row has them (jsonb's order), which format 3 was written in: sorted here, once per read.
  const packed = column.format === KEY_ORDERED_FORMAT ? parsed : inJsonbKeyOrder(parsed);
  const t0 = typeof packed.t0 === 'number' ? packed.t0 : 0;
  const unpack = (span: unknown): StoredSpan => {
    if (!Array.isArray(span)) {
      const s = span as StoredSpan;
      return Array.isArray(s.children) ? { ...s, children: s.children.map(unpack) } : s;
    }
    const [id, blockId, name, type, status, start, duration, out, more, input] = span as [string, ...unknown[]];
    const hex = Buffer.from(id, 'base64url').toString('hex');
    const startMs = t0 + (start as number);
    const fields: StoredSpan = {
      id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
      blockId,
      name,
      type,
      status,
      startTime: new Date(startMs).toISOString(),
      endTime: new Date(startMs + (duration as number)).toISOString(),
      duration,
      ...(isRecord(more) ? more : {}),
    };
    if (span.length > 9) fields.in = input;
    if (out !== null && out !== undefined) fields.out = out;
    if (Array.isArray(fields.children)) fields.children = fields.children.map(unpack);
    return inJsonbOrder(fields);
  };
  const { t0: _, spans, ...rest } = packed;
  const offloaded = column.offloaded !== undefined ? { offloaded: column.offloaded } : {};
  return { format: UNPACKED_FORMAT, ...rest, ...offloaded, spans: (spans as unknown[]).map(unpack) };
}

/**
 * A log row's trace column and final output as the readers downstream take them: a row whose `final_output` column
 * is null may keep its final output in the packed trace (`final`), so that trace is unpacked here, once, and handed on
 * unpacked, without `final`. Any other row (a final output in its column, an older format) is returned as it is.
 */
export function withPackedFinalOutput<R extends { traceSpans: unknown; finalOutput: unknown }>(row: R): R {
  if (row.finalOutput !== null && row.finalOutput !== undefined) return row;
  const column = row.traceSpans;
  if (!isRecord(column) || !isPackedFormat(column.format)) return row;
  const { final, ...trace } = unpackTrace(column) as Record<string, unknown>;
  return { ...row, traceSpans: trace, finalOutput: final ?? null };
}

/**
 * What a trace column says of its values in file storage (offloaded-values.ts), read without unpacking: format 2
 * and the packed formats keep `offloaded` at the top of the column, outside `z`. undefined when nothing is offloaded
 * (and for a format-1 span array or null).
 */
export function offloadedOf(column: unknown): { final: boolean } | undefined {
  if (!isRecord(column) || !isRecord(column.offloaded)) return undefined;
  return { final: column.offloaded.final === true };
}

/** Whether a column's `format` is one of the packed ones (3 or 4). */
export const isPackedFormat = (format: unknown) => format === PACKED_TRACE_FORMAT || format === KEY_ORDERED_FORMAT;

/** The span with its keys in jsonb's order, the order a format-2 span read back from the database has. */
function inJsonbOrder(value: StoredSpan): StoredSpan {
  const out: StoredSpan = {};
  for (const key of Object.keys(value).sort(compareJsonbKeys)) out[key] = value[key];
  return out;
}
