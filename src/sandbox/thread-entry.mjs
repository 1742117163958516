// Entry point of a sandbox worker thread. Plain JavaScript because a worker thread does not inherit the TypeScript
// loader of its parent (bin/sluice.mjs registers tsx on the main thread only, vitest transforms only its own
// imports). So the loader is registered here, once per thread, before the sandbox's TypeScript is imported.
import { register } from 'tsx/esm/api';

register();
await import('./thread-main.ts');
