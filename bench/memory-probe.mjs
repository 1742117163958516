// Preloaded (`node --import`) into the `sluice serve` process that bench/memory.bench.ts starts: answers the bench's
// IPC message 'memory' with this process's V8 figures and those of the PGlite worker thread (its 'memory' message).
import { getHeapStatistics } from 'node:v8';
import { isMainThread } from 'node:worker_threads';

if (isMainThread && process.send) {
  let pgliteWorker;
  // The server starts one worker thread: the embedded database's.
  process.on('worker', (worker) => (pgliteWorker = worker));
  let nextId = -1;
  const askWorker = () =>
    new Promise((resolve) => {
      if (!pgliteWorker) return resolve(null);
      const id = nextId--; // negative ids: the thread client ignores replies it did not ask for
      const timer = setTimeout(() => resolve(null), 5000);
      const onMessage = (m) => {
        if (m?.id !== id) return;
        clearTimeout(timer);
        pgliteWorker.off('message', onMessage);
        resolve(m.result);
      };
      pgliteWorker.on('message', onMessage);
      pgliteWorker.postMessage({ type: 'memory', id });
    });
  process.on('message', async (message) => {
    if (message !== 'memory') return;
    const heap = getHeapStatistics();
    const usage = process.memoryUsage();
    process.send({
      main: { heapUsed: heap.used_heap_size, heapTotal: heap.total_heap_size, external: usage.external, arrayBuffers: usage.arrayBuffers },
      worker: await askWorker(),
    });
  });
  process.channel?.unref();
}
