// Runs embedded PGlite on its own thread. PGlite executes Postgres (WASM) and its synchronous file I/O (the WAL
// written at each commit) on whatever thread calls it; here that is this worker, so the HTTP event loop never waits
// on it. Plain JavaScript on purpose: a worker thread does not inherit the tsx loader of `npm run dev` or vitest.
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { openPgliteDirectory } from './pglite-open.mjs';
import { preparedStatements } from './pglite-prepared.mjs';

const identity = (value) => value;

function serializeError(err) {
  const out = { message: err instanceof Error ? err.message : String(err), name: err?.name ?? 'Error' };
  // DatabaseError carries code, detail, constraint, … — callers branch on `code` (e.g. 23505).
  for (const key of Object.keys(err ?? {})) {
    const value = err[key];
    if (value === undefined || typeof value === 'function' || typeof value === 'object') continue;
    out[key] = value;
  }
  return out;
}

const db = await openPgliteDirectory(workerData.dataDir);
// PGlite calls listeners while it reads a query's reply, before that query resolves: posted first, the notification
// reaches the main thread ahead of the result (messages keep their order), so a change is seen before its commit returns.
if (workerData.channel) {
  await db.listen(workerData.channel, (payload) => parentPort.postMessage({ type: 'notification', payload }));
}
const runPrepared = preparedStatements(db);
parentPort.postMessage({ type: 'ready' });

parentPort.on('message', async (message) => {
  if (message.type === 'memory') {
    // Diagnostics (bench/memory.bench.ts): this thread's V8 heap and the size of Postgres's WASM memory, which only grows.
    const heap = getHeapStatistics();
    const result = { wasmBytes: db.Module.HEAPU8.byteLength, heapUsed: heap.used_heap_size, heapTotal: heap.total_heap_size };
    parentPort.postMessage({ id: message.id, result });
    return;
  }
  if (message.type === 'close') {
    await db.close();
    parentPort.postMessage({ id: message.id, result: null });
    return;
  }
  try {
    const result = message.type === 'prepared' ? await runPrepared(message.name, message.sql, message.params) : await query(message);
    parentPort.postMessage({ id: message.id, result: { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows } });
  } catch (err) {
    parentPort.postMessage({ id: message.id, error: serializeError(err) });
  }
});

function query(message) {
  // Drizzle sends per-type parsers as functions, which cannot cross threads; it only ever asks for the raw text
  // (timestamps, dates, intervals and their arrays), so those types' parsers are set to identity on the instance once
  // and queries go without `parsers`: given any, PGlite copies its whole table (318 types) into a new object for the
  // query (~57 µs and its garbage per statement). Every query of this thread comes from Drizzle but BEGIN, COMMIT,
  // ROLLBACK and the WAL flush, which read no such column.
  if (message.options) {
    for (const type of message.options.parserTypes) if (db.parsers[type] !== identity) db.parsers[type] = identity;
  }
  return db.query(message.sql, message.params, message.options ? { rowMode: message.options.rowMode } : undefined);
}
