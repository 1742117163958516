// Where a profiled frame's code lives — the rows bench/REPORT-execute.md sums CPU by. Used by profile-summary.mjs
// (node --cpu-prof) and perf-summary.mjs (Linux perf): a frame is { functionName, url }.
/** Where a frame's code lives, from its URL and name; the first rule that matches names it. */
export const places = [
  ['idle', (f) => f.functionName === '(idle)'],
  ['GC', (f) => f.functionName === '(garbage collector)'],
  ['program (native, unattributed)', (f) => f.functionName === '(program)'],
  ['PGlite (embedded database: its wasm and JS)', (f) => /@electric-sql\/pglite/.test(f.url) || /^wasm:\/\//.test(f.url)],
  ['database driver (pg) + drizzle', (f) => /node_modules\/(pg|pg-protocol|pg-types|pg-pool|postgres-|drizzle-orm)/.test(f.url)],
  ['undici (outbound HTTP)', (f) => /undici/.test(f.url)],
  ['Hono + node-server', (f) => /node_modules\/(hono|@hono)/.test(f.url)],
  ['zod', (f) => /node_modules\/zod/.test(f.url)],
  ['pino (logging)', (f) => /node_modules\/(pino|sonic-boom)/.test(f.url)],
  ['other dependencies', (f) => /node_modules/.test(f.url)],
  ['engine/', (f) => /\/(src|dist)\/engine\//.test(f.url) || /dist\/.*engine/.test(f.url)],
  ['runs/', (f) => /\/(src|dist)\/runs\//.test(f.url)],
  ['services/ (logs, caches, usage, webhooks)', (f) => /\/(src|dist)\/services\//.test(f.url)],
  ['blocks/ + net/', (f) => /\/(src|dist)\/(blocks|net)\//.test(f.url)],
  ['http/ + triggers/ (routes)', (f) => /\/(src|dist)\/(http|triggers|app)\//.test(f.url)],
  ['workflow/', (f) => /\/(src|dist)\/workflow\//.test(f.url)],
  ['db/', (f) => /\/(src|dist)\/db\//.test(f.url)],
  ['Sluice, other', (f) => /\/(src|dist)\//.test(f.url)],
  ['socket writes (writev/write)', (f) => /^(writev|writeUtf8String|writeBuffer|writeLatin1String)$/.test(f.functionName) && !f.url],
  ['Node http/net/streams', (f) => /^node:(_http|http|net|stream|internal\/(streams|http|net|stream_base))/.test(f.url) || /^node:internal\/(streams|http)/.test(f.url)],
  ['AbortSignal/EventTarget/timers', (f) => /^node:internal\/(abort_controller|event_target|timers)/.test(f.url)],
  ['microtasks/promises', (f) => /^node:internal\/process\/task_queues/.test(f.url) || f.functionName === 'processTicksAndRejections'],
  ['Node, other', (f) => /^node:/.test(f.url)],
  ['native/builtins (JSON, RegExp, …)', () => true],
];

export const placeOf = (frame) => places.find(([, test]) => test(frame))[0];
