// Sums a `node --cpu-prof` profile's self time by where the code lives, as shares of the busy samples (idle and
// start-up excluded): how bench/REPORT-execute.md says where an execution's CPU goes.
//
//   node bench/support/profile-summary.mjs <file.cpuprofile> [skip seconds at start (default 3)] [top N functions (default 25)]
import { readFileSync } from 'node:fs';
import { placeOf } from './code-places.mjs';

const [file, skipArg, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/support/profile-summary.mjs <file.cpuprofile> [skip seconds] [top N]\n');
  process.exit(2);
}
const skipUs = Number(skipArg ?? 3) * 1e6;
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));

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
