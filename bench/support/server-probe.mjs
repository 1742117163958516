// Preloaded (`node --import`) into a benchmarked server process: answers IPC messages from the benchmark with this
// process's event-loop delay (since the last 'lag-reset'), its memory (VmRSS now, VmHWM = peak since start) and the CPU
// time it has used.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

if (isMainThread && process.send) {
  const lag = monitorEventLoopDelay({ resolution: 1 });
  lag.enable();
  const kib = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);
  process.on('message', (message) => {
    if (message === 'lag-reset') {
      lag.reset();
      process.send({ type: 'lag-reset' });
    } else if (message === 'cpu') {
      // user + system time of the whole process (every thread: PGlite's, the sandbox pool's), in microseconds.
      const { user, system } = process.cpuUsage();
      process.send({ type: 'cpu', micros: user + system });
    } else if (message === 'probe') {
      process.send({
        type: 'probe',
        lagP50Ms: lag.percentile(50) / 1e6,
        lagP99Ms: lag.percentile(99) / 1e6,
        lagMaxMs: lag.max / 1e6,
        rssMb: kib('VmRSS') / 1024,
        peakRssMb: kib('VmHWM') / 1024,
      });
    }
  });
  process.channel?.unref();
}
