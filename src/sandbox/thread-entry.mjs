// Entry point of a sandbox worker thread. Plain JavaScript because a worker thread does not inherit the TypeScript
// loader of its parent (vitest transforms only its own imports; `npm run dev` runs the sources through tsx on the
// main thread only). In the build (dist/, scripts/build.mjs) thread-main.js sits beside this file and is imported
// as it is; from the sources, the loader is registered here, once per thread, before the sandbox's TypeScript.
import { existsSync } from 'node:fs';

if (existsSync(new URL('./thread-main.js', import.meta.url))) {
  await import('./thread-main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./thread-main.ts');
}
