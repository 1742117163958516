// Sums a `node --cpu-prof` profile's self time by where the code lives, as shares of the busy samples (idle and
// start-up excluded): how bench/REPORT-execute.md says where an execution's CPU goes.
//
//   node bench/support/profile-summary.mjs <file.cpuprofile> [skip seconds at start (default 3)] [top N functions (default 25)]
import { readFileSync } from 'node:fs';

const [file, skipArg, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/support/profile-summary.mjs <file.cpuprofile> [skip seconds] [top N]\n');
  process.exit(2);
}
const skipUs = Number(skipArg ?? 3) * 1e6;
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));

/** Where a frame's code lives, from its URL and name; the first rule that matches names it. */
const places = [
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

const placeOf = (frame) => places.find(([, test]) => test(frame))[0];
const selfUs = new Map();
let t = profile.startTime;
const timeDeltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  t += timeDeltas[i];
  if (t - profile.startTime < skipUs) continue;
  const node = nodes.get(profile.samples[i]);
  const dt = timeDeltas[i + 1] ?? 0;
  const key = node.id;
  selfUs.set(key, (selfUs.get(key) ?? 0) + dt);
}
const byPlace = new Map();
const byFunction = new Map();
let busy = 0;
for (const [id, us] of selfUs) {
  const frame = nodes.get(id).callFrame;
  const place = placeOf(frame);
  if (place === 'idle') continue;
  busy += us;
  byPlace.set(place, (byPlace.get(place) ?? 0) + us);
  const fn = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(node_modules|src|dist)\//, '$1/')}:${frame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / busy).toFixed(1)} %`;
process.stdout.write(`busy ${(busy / 1e6).toFixed(2)} s of samples after the first ${skipUs / 1e6} s\n\n| where | share of busy CPU |\n|---|---|\n`);
for (const [place, us] of [...byPlace].sort((a, b) => b[1] - a[1])) process.stdout.write(`| ${place} | ${pct(us)} |\n`);
process.stdout.write(`\ntop ${top} functions by self time:\n`);
for (const [fn, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(us).padStart(7)}  ${fn}\n`);
