// Sums an on-CPU profile recorded by Linux perf (cpu-per-execution.bench.ts BENCH_CPU_PERF_DIR: `perf record -e
// cpu-clock -g` of a server started with node's --perf-basic-prof) by where the code lives: each sample goes to the
// innermost JavaScript frame on its stack, with the V8 builtins, runtime, libc and kernel code that frame called — so
// `JSON.stringify` counts where it is called from, and a socket write counts its kernel time (only the time on a
// CPU: perf samples CPU time, where --cpu-prof samples wall time while JavaScript is on the stack). Samples with no
// JavaScript frame are the garbage collector, the compiler threads, the event loop's own polling, PGlite's thread.
//
//   node bench/support/perf-summary.mjs <perf.data> [top N functions (default 25)] [only the functions of places starting with this]
import { execFileSync } from 'node:child_process';
import { placeOf } from './code-places.mjs';

const [file, topArg, onlyPlace] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/support/perf-summary.mjs <perf.data> [top N]\n');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const script = execFileSync('perf', ['script', '-i', file, '-F', 'tid,ip,sym'], { maxBuffer: 1 << 30, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

/** A perf-map JIT symbol: `JS:*name url:line:column` (node --perf-basic-prof); else undefined. */
function jsFrame(symbol) {
  const match = /^JS:[*~^]?(\S*) (.*?):(\d+):\d+$/.exec(symbol) ?? /^JS:[*~^]?(\S*) (\S+)$/.exec(symbol);
  if (!match) return undefined;
  return { functionName: match[1], url: match[2], line: match[3] ?? '' };
}

const byPlace = new Map();
const byFunction = new Map();
let total = 0;
let kernel = 0;
const add = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
for (const sample of script.split('\n\n')) {
  const lines = sample.split('\n').filter((line) => line.trim() !== '');
  if (lines.length < 2) continue;
  const frames = lines.slice(1).map((line) => line.trim().replace(/^[0-9a-f]+ /, '').replace(/\+0x[0-9a-f]+$/, ''));
  total++;
  if (/^ffff/.test(lines[1].trim())) kernel++; // kernel addresses are the top half
  const js = frames.map(jsFrame).find((frame) => frame !== undefined);
  if (js) {
    add(byPlace, placeOf(js));
    if (!onlyPlace || placeOf(js).startsWith(onlyPlace)) add(byFunction, `${js.functionName || '(anonymous)'} ${js.url.replace(/^.*\/(node_modules|src|dist)\//, '$1/')}:${js.line}`);
  } else if (frames.some((f) => /Scavenger|MarkCompact|Heap::|GCTracer|ConcurrentMarking|Sweeper/.test(f))) add(byPlace, 'GC (no JavaScript on the stack)');
  else if (frames.some((f) => /compiler::|Compile|Maglev|Turbofan/.test(f))) add(byPlace, 'V8 compiler threads');
  else if (frames.some((f) => /uv__io_poll|uv_run|epoll/.test(f))) add(byPlace, 'event loop (polling, callbacks into C++)');
  else add(byPlace, 'native, no JavaScript (other threads, libc, kernel)');
}
const pct = (n) => `${((100 * n) / total).toFixed(1)} %`;
process.stdout.write(`${total} samples on a CPU (kernel at the leaf: ${pct(kernel)})\n\n| where (with the builtins and kernel time it calls) | share of CPU |\n|---|---|\n`);
for (const [place, n] of [...byPlace].sort((a, b) => b[1] - a[1])) process.stdout.write(`| ${place} | ${pct(n)} |\n`);
process.stdout.write(`\ntop ${top} JavaScript functions (innermost on the stack, with what they call natively):\n`);
for (const [fn, n] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(n).padStart(7)}  ${fn}\n`);
