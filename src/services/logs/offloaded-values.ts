// Large values out of the log row (issue 28, docs/operations.md "Large values"). A value of a stored log — a block
// output (the trigger's output is the run's input), a span's input, the final output — whose JSON is larger than
// SLUICE_INLINE_VALUE_LIMIT is written to file storage under its execution, and the row keeps
// `{ "$offloaded": key, "bytes": n }` in its place. Reading a log puts the values back before the trace is decoded,
// so every answer is the one an inline log gives.
//
// Which places hold a marker is said by the stored trace itself (`offloaded`), never guessed from the values: a user's
// own object with an `$offloaded` key is wrapped like one with `$r` (stored-trace.ts), and a row without the flag is
// read as it is. What is offloaded is the stored (encoded) form, so references inside it keep working.
//
// The files are recorded as rows of `files` before their bytes are written (orphaned-values.ts reserveValueRows),
// and given the execution's id by the statement that writes the log (record-statement.ts): retention then deletes
// them with their log, row by row or by dropping a month (retention.ts);
// housekeeping deletes those of logs deleted another way, a deleted workflow's (orphaned-values.ts).
import { randomBytes } from 'node:crypto';
import { inJsonbKeyOrder, toJsonText } from '../../db/json.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import { storageUnavailable, type FileStorage } from '../files/storage.js';
import { compressPacked, offloadedOf, packedText, unpackTrace, withPackedFinalOutput, type PackedTrace } from './packed-trace.js';
import { isStoredTrace, type StoredTrace } from './stored-trace.js';

export const DEFAULT_INLINE_VALUE_LIMIT = 64 * 1024;
/**
 * How long a log's value writes may take, together and with the reservation of their rows, before the log keeps its
 * values in its row instead: the run's answer waits for them (a stalled S3 would otherwise hold it for its SDK's
 * retries and 60 s socket timeout; a slow database, for as long as it is slow).
 */
export const OFFLOAD_WRITE_DEADLINE_MS = 5_000;

/** What the row holds in place of an offloaded value. */
export interface OffloadMarker {
  $offloaded: string;
  bytes: number;
}

/**
 * A value written to file storage, recorded as the `files` row `id`: reserved before its bytes are written (with no
 * log yet: orphaned-values.ts), given its log's execution id when the log is written.
 */
export interface OffloadedFile {
  id: string;
  key: string;
  bytes: number;
}

/** A log's trace and final output as the row stores them, and the files written for it. */
export interface StoredValues {
  trace: StoredTrace;
  finalOutput: Record<string, unknown> | null;
  files: OffloadedFile[];
  /** `trace` as the row's column (packed-trace.ts), when it was made on the way (nothing was offloaded). */
  packed?: PackedTrace;
}

interface StoredSpan {
  in?: unknown;
  children?: StoredSpan[];
  [key: string]: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * Longest JSON text of a number: a negative one of 17 significant digits between 1e-7 and 1e-6, which JavaScript
 * writes without an exponent (`-0.0000012345678901234567`, 25 characters); exponent forms take at most 24
 * (`-1.7976931348623157e+308`). Too small a bound would let a value over the limit stay in the row.
 */
export const MAX_NUMBER_TEXT = 25;
/** Characters JSON escapes (one character becomes up to six). */
const ESCAPED = /["\\\u0000-\u001f]/;
const NON_ASCII = /[^\x00-\x7f]/;

/** An upper bound of a string's JSON size in UTF-8 bytes (exact for the usual ASCII text without escapes). */
function stringBound(text: string): number {
  if (ESCAPED.test(text)) return text.length * 6 + 2;
  return (NON_ASCII.test(text) ? text.length * 3 : text.length) + 2;
}

/**
 * Whether the JSON of `value` may be larger than `limit` bytes: a walk that adds up an upper bound of its size and
 * stops as soon as it passes the limit, so the usual small value costs one cheap walk and no serialisation.
 */
function mayExceed(value: unknown, limit: number): boolean {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') total += stringBound(item);
    else if (typeof item === 'number') total += MAX_NUMBER_TEXT;
    else if (Array.isArray(item)) {
      total += 2 + item.length;
      for (const child of item) stack.push(child);
    } else if (isObject(item)) {
      total += 2;
      for (const key of Object.keys(item)) {
        total += stringBound(key) + 2;
        stack.push(item[key]);
      }
    } else total += 5; // true, false, null (undefined is left out by JSON and counted as if it were not)
    if (total > limit) return true;
  }
  return false;
}

/** The JSON text of `value` when it is larger than `limit` bytes (what a file holds), else undefined. */
function oversized(value: unknown, limit: number): Buffer | undefined {
  if (value === undefined || !mayExceed(value, limit)) return undefined;
  const bytes = Buffer.from(toJsonText(value), 'utf8');
  return bytes.length > limit ? bytes : undefined;
}

/** The prefix of every file of an execution's values. */
export const valuesPrefix = (executionId: string) => `executions/${executionId}/values/`;

export function isMarker(value: unknown): value is OffloadMarker {
  return isObject(value) && typeof value.$offloaded === 'string' && typeof value.bytes === 'number';
}

/**
 * The row's form of a log's values: every one larger than `limit` written to `storage` and replaced by its marker.
 * A run with no large value is returned as it is, without a request to storage. Throws when storage refuses a value
 * or does not store them all within `deadlineMs` (the reservation of their rows included): the caller then keeps the
 * log inline. Files already written for the log are deleted first, and a write that ends after the deadline has its
 * file deleted then (told to `logger` if that fails).
 */
export async function offloadValues(input: {
  storage: FileStorage;
  executionId: string;
  trace: StoredTrace;
  finalOutput: Record<string, unknown> | null;
  limit: number;
  deadlineMs?: number;
  logger?: Logger;
  /**
   * Records the files before any byte is written (orphaned-values.ts reserveValueRows), so that bytes of a process
   * dying before its log is written are found: the statement writing the log only gives these rows its execution id,
   * so bytes written without them would be found by nothing. Throwing, or missing the deadline, keeps the values in
   * the row.
   */
  reserve: (files: OffloadedFile[]) => Promise<void>;
}): Promise<StoredValues> {
  const { storage, executionId, trace, limit, deadlineMs = OFFLOAD_WRITE_DEADLINE_MS, logger } = input;
  // The packed JSON holds each value of the trace once, whole, and the final output: none is longer than it. When it
  // fits, nothing goes (the usual case, decided without a walk over the values) and it is the row's column already.
  const text = packedText(trace, input.finalOutput);
  if (Buffer.byteLength(text) <= limit) {
    return { trace, finalOutput: input.finalOutput, files: [], packed: compressPacked(text, trace.offloaded) };
  }
  const found: Array<{ bytes: Buffer; place: (marker: OffloadMarker) => void }> = [];
  const consider = (value: unknown, place: (marker: OffloadMarker) => void) => {
    const bytes = oversized(value, limit);
    if (bytes) found.push({ bytes, place });
  };

  let finalOutput = input.finalOutput;
  let final = false;
  consider(finalOutput, (marker) => {
    finalOutput = marker as unknown as Record<string, unknown>;
    final = true;
  });
  let outputs = trace.outputs; // copied only when one of them goes
  trace.outputs.forEach((value, i) =>
    consider(value, (marker) => {
      if (outputs === trace.outputs) outputs = [...outputs];
      outputs[i] = marker;
    }),
  );
  // Decided before anything is written: the places are filled only once every file is stored. Spans are copied only
  // where an input goes, and along the way to it.
  const spanPlaces = new Map<StoredSpan, StoredSpan>();
  const collect = (spans: StoredSpan[]) => {
    for (const span of spans) {
      if ('in' in span) consider(span.in, (marker) => spanPlaces.set(span, { ...(spanPlaces.get(span) ?? span), in: marker }));
      if (Array.isArray(span.children)) collect(span.children);
    }
  };
  collect(trace.spans as StoredSpan[]);
  if (found.length === 0) return { trace, finalOutput, files: [] };

  // Unique per write: a paused run's log is written again when it ends, and must not overwrite files of the first.
  const batch = randomBytes(4).toString('hex');
  const pending = found.map((f, i) => ({ ...f, id: newId('file'), key: `${valuesPrefix(executionId)}${batch}-${i}.json` }));
  const files = pending.map(({ id, key, bytes }) => ({ id, key, bytes: bytes.length }));
  // The deadline covers the reservation too: the run's answer waits for both.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), deadlineMs)));
  try {
    const reserving = input.reserve(files);
    if ((await Promise.race([reserving, late])) === 'late') {
      // No byte is written yet; a row the database records after all is an orphan housekeeping deletes.
      reserving.catch(() => undefined);
      throw new Error(`the database did not record the values within ${deadlineMs} ms`);
    }
  } catch (err) {
    clearTimeout(timer);
    throw err;
  }

  // All settled before judging: a write still under way when another failed would otherwise be left behind. A put
  // that throws at once is a refused write like any other (and the deadline's timer is still cleared).
  const abort = new AbortController();
  const writes = pending.map(({ key, bytes }) => Promise.resolve().then(() => storage.put(key, bytes, bytes.length, { signal: abort.signal })));
  const results = await Promise.race([Promise.allSettled(writes), late]).finally(() => clearTimeout(timer));
  if (results === 'late') {
    const error = new Error(`file storage did not store the values within ${deadlineMs} ms`);
    abort.abort(error);
    // An aborted request may still have been stored, and a local write past its abort may still land: each file is
    // deleted once its write has ended, whatever its outcome, so none is left that no row records.
    files.forEach((file, i) => {
      void writes[i].catch(() => undefined).then(() => deleteOffloaded(storage, [file], logger));
    });
    throw error;
  }
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await deleteOffloaded(storage, files.filter((_, i) => results[i].status === 'fulfilled'), logger);
    throw failed.reason;
  }
  for (const { key, bytes, place } of pending) place({ $offloaded: key, bytes: bytes.length });
  const rebuild = (spans: StoredSpan[]): StoredSpan[] =>
    spans.map((span) => {
      const own = spanPlaces.get(span) ?? span;
      if (!Array.isArray(span.children)) return own;
      const children = rebuild(span.children);
      return children.some((child, i) => child !== span.children![i]) ? { ...own, children } : own;
    });
  return {
    trace: { ...trace, outputs, spans: rebuild(trace.spans as StoredSpan[]), offloaded: { final } },
    finalOutput,
    files,
  };
}

/**
 * Best effort: the files of a log that was not written after all. Never rejects; with `logger`, a file that could not
 * be deleted is named in a warning (nothing else will find it).
 */
export async function deleteOffloaded(storage: FileStorage, files: Array<Pick<OffloadedFile, 'key'>>, logger?: Logger): Promise<void> {
  await Promise.all(
    files.map((f) =>
      storage.delete(f.key).catch((err: unknown) => logger?.warn({ err, storageKey: f.key }, 'could not delete a value file of a log that was not written')),
    ),
  );
}

/** Who hears of a value missing or damaged in storage: an operator (`logger`), a re-run that must not use its marker. */
export interface LostValues {
  logger?: Logger;
  /** Given the storage key of each value answered as its marker. */
  lost?(key: string): void;
}

async function fetchValue(storage: FileStorage, marker: OffloadMarker, { logger, lost }: LostValues): Promise<unknown> {
  const object = await storage.get(marker.$offloaded);
  if (!object) {
    // Gone from storage (deleted by hand, or a bucket emptied): the log still opens, showing the marker in its place.
    logger?.warn({ storageKey: marker.$offloaded }, 'an offloaded value of a log is missing from file storage');
    lost?.(marker.$offloaded);
    return marker;
  }
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
  } catch (err) {
    // A read that fails midway (a connection cut) is storage failing, as a refused request is: 503, not 500.
    throw err instanceof AppError ? err : storageUnavailable(err);
  }
  const bytes = Buffer.concat(chunks);
  let value: unknown;
  try {
    // Its size was recorded when it was written: a file of another size was cut short or replaced.
    if (bytes.length !== marker.bytes) throw new Error(`${bytes.length} bytes stored, ${marker.bytes} written`);
    value = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    // Damaged in storage: like a missing one, it must not make the log (or a whole page of the list) unreadable.
    logger?.warn({ err, storageKey: marker.$offloaded }, 'an offloaded value of a log is damaged in file storage');
    lost?.(marker.$offloaded);
    return marker;
  }
  // In the order an inline value has (a jsonb value, or packed-trace.ts sorting it): the answer must not depend on
  // where the value was kept. The file holds the keys in the order the run made them.
  return inJsonbKeyOrder(value);
}

/**
 * A row's trace and final output with every offloaded value fetched back: the same as if they had been stored inline.
 * Rows without offloaded values come back as they are, with no request to storage. A value missing from storage or
 * damaged there comes back as its marker (told to `heard`: a warning, the key); throws 503 FILE_STORAGE_UNAVAILABLE when
 * storage cannot be read.
 */
export async function restoreValues<F>(
  storage: FileStorage,
  row: { traceSpans: unknown; finalOutput: F },
  heard: LostValues = {},
): Promise<{ traceSpans: unknown; finalOutput: F }> {
  row = withPackedFinalOutput(row);
  // Said outside the packed part: a row with nothing offloaded (most) is not unpacked for it.
  const offloaded = offloadedOf(row.traceSpans);
  if (!offloaded) return row;
  // Packed spans (packed-trace.ts) hold their inputs in array slots: unpacked first, to find the markers among them.
  const stored = unpackTrace(row.traceSpans);
  if (!isStoredTrace(stored)) return row;
  const fetch = (value: unknown) => (isMarker(value) ? fetchValue(storage, value, heard) : value);
  const finalOutput = offloaded.final ? ((await fetch(row.finalOutput)) as F) : row.finalOutput;
  const outputs = await Promise.all(stored.outputs.map(fetch));
  const restoreSpans = (spans: StoredSpan[]): Promise<StoredSpan[]> =>
    Promise.all(
      spans.map(async (span) => {
        const copy: StoredSpan = { ...span };
        if ('in' in span && isMarker(span.in)) copy.in = await fetch(span.in);
        if (Array.isArray(span.children)) copy.children = await restoreSpans(span.children);
        return copy;
      }),
    );
  const { offloaded: _, ...rest } = stored;
  const trace: StoredTrace = { ...rest, outputs, spans: await restoreSpans(stored.spans as StoredSpan[]) };
  return { traceSpans: trace, finalOutput };
}

/**
 * The final output alone (a list read without the trace, an async run's result), fetched back when it is in file
 * storage: the stored trace's `offloaded` says whether the row holds a marker in its place.
 */
export async function restoreFinalOutput(storage: FileStorage, row: { traceSpans: unknown; finalOutput: unknown }, logger?: Logger): Promise<unknown> {
  const { traceSpans, finalOutput } = withPackedFinalOutput(row);
  return offloadedOf(traceSpans)?.final && isMarker(finalOutput) ? fetchValue(storage, finalOutput, { logger }) : finalOutput;
}
