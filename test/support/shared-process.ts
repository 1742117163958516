// Setup file run before each test file (vitest.config.ts `setupFiles`). Test files share their worker process
// (`isolate: false`: the app's modules load once per worker, not once per file), so what a file changes for the whole
// process is put back when it ends, and the next file starts as it would in a process of its own.
import { afterAll, vi } from 'vitest';
import { configureSandboxPool, shutdownSandboxPool } from '../../src/sandbox/index.js';

afterAll(async () => {
  // The sandbox's worker threads and shape are per process: a file that set a one-thread pool, or left a loop
  // spinning until its deadline, would otherwise hand both to the next file.
  await shutdownSandboxPool();
  configureSandboxPool({});
  vi.useRealTimers();
});
