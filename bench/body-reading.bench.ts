// Reading a 20 MB JSON request body (issue 21, item 1): the time parseJsonRequestBody — what readJsonBodyLimited does
// with the bytes once they are in: the nesting check, then parseJsonBytes — holds the event loop, beside the
// reference JSON.parse(bytes.toString()) of the same bytes, for escape-heavy shapes and for the plain base64 string
// of an inline file (the case parseJsonBytes exists for). The scan for long strings once restarted its search for the
// closing quote after every backslash: a 20 MB body of `\n` escapes would have taken about 20 minutes.
// Run: node --import tsx bench/body-reading.bench.ts [runs]   (target: under 200 ms per 20 MB body, every shape)
import { cpus } from 'node:os';
import { parseJsonRequestBody } from '../src/http/body.js';

const RUNS = Number(process.argv[2] ?? 5);
const BODY_BYTES = 20 * 1024 * 1024;
const TARGET_MS = 200;

/** A body of about BODY_BYTES: `{"q":"…"}` with `unit` repeated. */
const stringOf = (unit: string) => `{"q":"${unit.repeat(Math.floor(BODY_BYTES / unit.length))}"}`;
const shapes: Array<[string, () => string]> = [
  ['\\n escapes, one string', () => stringOf('\\n')],
  ['unicode escapes (\\u00e9)', () => stringOf('\\u00e9')],
  ['escaped backslashes', () => stringOf('\\\\')],
  ['escaped quotes', () => stringOf('\\"')],
  ['small escaped strings', () => `[${'"\\n",'.repeat(Math.floor(BODY_BYTES / 5))}"x"]`],
  ['base64 file, no escape', () => stringOf('QUJD')],
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Medians over RUNS runs, after one warm-up; each run is one synchronous block of the event loop. Wall time is what
 * other requests wait; CPU time is beside it because on a shared machine wall time also counts other processes' turns.
 */
function timed(run: () => unknown): { wall: number; cpu: number } {
  run();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const [wallStart, cpuStart] = [performance.now(), cpuMs()];
    run();
    walls.push(performance.now() - wallStart);
    cpus.push(cpuMs() - cpuStart);
  }
  return { wall: median(walls), cpu: median(cpus) };
}

const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(`JSON body reading — 20 MB bodies, median of ${RUNS} — ${cpu} ×${cpus().length}, Node ${process.version}`);
for (const [name, build] of shapes) {
  const bytes = Buffer.from(build());
  const ours = timed(() => parseJsonRequestBody(bytes));
  const reference = timed(() => JSON.parse(bytes.toString('utf8')));
  const mb = bytes.length / 2 ** 20;
  console.log(
    `${name.padEnd(24)} parseJsonRequestBody ${ours.wall.toFixed(0).padStart(4)} ms (cpu ${ours.cpu.toFixed(0).padStart(4)}, ` +
      `${(ours.wall / mb).toFixed(1)} ms/MB) | JSON.parse ${reference.wall.toFixed(0).padStart(4)} ms (cpu ` +
      `${reference.cpu.toFixed(0).padStart(4)}) | ratio ${(ours.wall / reference.wall).toFixed(2)}× | target < ${TARGET_MS} ms`,
  );
}
