#!/usr/bin/env node
// Runs the server compiled to JavaScript (bin/server-build.mjs: built on first use after any change to the sources,
// in about 0.3 s), or the TypeScript sources directly through tsx when no build can be made (a read-only install
// without one) or SLUICE_RUN_SOURCES=1 asks for it (stack traces with TypeScript line numbers while developing).
// Either way a fresh clone needs no build step.
import { pathToFileURL } from 'node:url';

async function compiledEntry() {
  if (process.env.SLUICE_RUN_SOURCES === '1') return undefined;
  try {
    const { buildServer } = await import('./server-build.mjs');
    return await buildServer();
  } catch (error) {
    if (process.env.SLUICE_DEBUG_BUILD === '1') process.stderr.write(`sluice: running the sources (no build: ${error.message})\n`);
    return undefined;
  }
}

const entry = await compiledEntry();
if (entry) {
  await import(pathToFileURL(entry).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
