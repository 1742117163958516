// How a log's trace is written in its row (issue 28: stored bytes per execution). Once each value is stored once
// (stored-trace.ts, format 2), what a small run's row spends is mostly the spans' envelopes — in jsonb every key of
// every span has its own 8-byte entry, the id is a 36-character uuid, each span carries two 24-character ISO times —
// and PostgreSQL never compresses a row under ~2 KB (its TOAST threshold is fixed at compile time; neither
// `toast_tuple_target` nor lz4 changes that). So the row gets the trace packed and compressed here.
//
// Format 3: { format: 3, z: base64 of raw deflate (with DICTIONARY) of the JSON of the packed trace, offloaded? }
// where the packed trace is format 2 without `format`/`offloaded`, plus `t0` (epoch ms), with its spans packed:
// - a packed span is an array [id, blockId, name, type, status, start, duration, out, more, in], where `id` is the
//   uuid's 16 bytes in base64url, `start` is the span's start in ms after `t0` (its end is start + duration), `out` is
//   format 2's `out` or null, `more` an object of the span's other keys (error, tokens, cost, model, children, …) or 0,
//   and `in` format 2's `in`; trailing slots that say nothing (no `in`, no `more`, no `out`) are left off;
// - a span that does not fit (an id that is not a uuid, times that do not round-trip, a missing field) stays the
//   format-2 object, its children packed: the format is exact for any span, compact for the ones the engine makes.
// `offloaded` stays outside `z`: the logs list reads it in SQL (list.ts). Reading unpacks format 3 to format 2, key
// for key, so everything downstream of unpackTrace sees what it saw before.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { compareJsonbKeys, inJsonbKeyOrder, toJsonText } from '../../db/json.js';

export const PACKED_TRACE_FORMAT = 3;
/** What unpacking gives back: stored-trace.ts's format (each value once, spans as objects). */
const UNPACKED_FORMAT = 2;

/**
 * What deflate may refer back to before the first byte: the keys, block types, statuses and upstream headers most
 * traces hold. Rows are written with it: changing it is a new format.
 */
const DICTIONARY = Buffer.from(
  '"error","model","tokens":{"prompt":,"completion":,"total":},"cost":"unresolvedReferences":["<"children":[' +
    '"loop","loop_iteration","parallel","parallel_iteration","condition","router","function","variables","wait",' +
    '"agent","workflow","webhook_trigger","schedule_trigger","api","response","error","skipped",' +
    '"content-length":"","content-type":"application/json; charset=utf-8","date":" GMT","connection":"keep-alive",' +
    '"keep-alive":"timeout=5","transfer-encoding":"chunked","results":[{"$r":[0,"input"]},"method":"POST","url":"http://' +
    '{"detail":"full","finalAt":,"outputs":[{"input":{"data":{"$r":[-1,"body","result"]},"status":200,"headers":{},' +
    '"t0":,"spans":[["","start","API","api_trigger","success",0,0,0,0,{}],[',
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The envelope's keys held in an array slot; every other key of a span goes into `more`. */
const ENVELOPE = new Set(['id', 'blockId', 'name', 'type', 'status', 'startTime', 'endTime', 'duration', 'in', 'out']);

type StoredSpan = Record<string, unknown>;
type PackedSpan = unknown[];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Epoch ms of an ISO time that round-trips exactly (so it can be rewritten as it was), else undefined. */
function exactTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && new Date(ms).toISOString() === value ? ms : undefined;
}

function fitsEnvelope(span: StoredSpan): number | undefined {
  const start = exactTime(span.startTime);
  const { id, blockId, name, type, status, duration } = span;
  if (start === undefined || typeof id !== 'string' || !UUID.test(id)) return undefined;
  if (typeof blockId !== 'string' || typeof name !== 'string' || typeof type !== 'string' || typeof status !== 'string') return undefined;
  if (typeof duration !== 'number' || !Number.isInteger(duration) || exactTime(span.endTime) !== start + duration) return undefined;
  if (span.out !== undefined && typeof span.out !== 'number') return undefined;
  return start;
}

export interface PackedTrace {
  format: typeof PACKED_TRACE_FORMAT;
  z: string;
  offloaded?: unknown;
}

/** A format-2 trace (stored-trace.ts's StoredTrace) as the row keeps it. */
export function packTrace(trace: { spans: unknown[]; format?: unknown; offloaded?: unknown }): PackedTrace {
  const t0 = firstStart(trace.spans as StoredSpan[]) ?? 0;
  const pack = (span: StoredSpan): PackedSpan | StoredSpan => {
    const children = Array.isArray(span.children) ? { children: (span.children as StoredSpan[]).map(pack) } : {};
    const start = fitsEnvelope(span);
    if (start === undefined) return { ...span, ...children };
    const more: Record<string, unknown> = {};
    for (const key of Object.keys(span)) if (!ENVELOPE.has(key) && span[key] !== undefined) more[key] = span[key];
    Object.assign(more, children);
    const packed: PackedSpan = [
      Buffer.from(String(span.id).replaceAll('-', ''), 'hex').toString('base64url'),
      span.blockId,
      span.name,
      span.type,
      span.status,
      start - t0,
      span.duration,
      span.out ?? null,
      Object.keys(more).length > 0 ? more : 0,
    ];
    if (span.in !== undefined) packed.push(span.in);
    else while (packed.length > 7 && (packed.at(-1) === null || packed.at(-1) === 0)) packed.pop();
    return packed;
  };
  const { format: _, offloaded, ...rest } = trace;
  // As jsonb would have written it (keys of every object in its order, NUL and lone surrogates replaced): what a
  // format-2 row answered, this one answers too.
  const inner = toJsonText({ ...rest, t0, spans: trace.spans.map((s) => pack(s as StoredSpan)) }, inJsonbKeyOrder);
  const z = deflateRawSync(inner, { dictionary: DICTIONARY }).toString('base64');
  return { format: PACKED_TRACE_FORMAT, z, ...(offloaded !== undefined ? { offloaded } : {}) };
}

function firstStart(spans: StoredSpan[]): number | undefined {
  for (const span of spans) {
    const start = exactTime(span.startTime);
    if (start !== undefined) return start;
  }
  return undefined;
}

/** A format-3 column as format 2; any other value (format 2, a plain span array, null) as it is. */
export function unpackTrace(column: unknown): unknown {
  if (!isRecord(column) || column.format !== PACKED_TRACE_FORMAT || typeof column.z !== 'string') return column;
  const packed = JSON.parse(inflateRawSync(Buffer.from(column.z, 'base64'), { dictionary: DICTIONARY }).toString('utf8')) as Record<string, unknown>;
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

/** The span with its keys in jsonb's order, the order a format-2 span read back from the database has. */
function inJsonbOrder(value: StoredSpan): StoredSpan {
  const out: StoredSpan = {};
  for (const key of Object.keys(value).sort(compareJsonbKeys)) out[key] = value[key];
  return out;
}
