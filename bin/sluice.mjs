#!/usr/bin/env node
// `sluice` from a checkout, as the tests and benches start it: builds dist/ first when it is missing or stale
// (scripts/build.mjs), then runs the build. When the build cannot be made, the compiler's messages are on stderr and
// this exits non-zero: the sources are never run in its place (`npm run dev` runs them, through tsx).
import { pathToFileURL } from 'node:url';
import { BuildFailed, buildServer } from '../scripts/build.mjs';

let entry;
try {
  entry = await buildServer();
} catch (error) {
  if (!(error instanceof BuildFailed)) throw error;
  process.stderr.write(`sluice: ${error.message}\n`);
  process.exit(1);
}
await import(pathToFileURL(entry).href);
