#!/usr/bin/env node
// Builds web/dist when it is missing or older than any web source, so `npm start` from a fresh clone serves the app
// and a checkout with edited sources never serves a stale bundle. `--force` always builds.
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = fileURLToPath(new URL('.', import.meta.url));
const stamp = join(webDir, 'dist', 'index.html');
const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'build-if-stale.mjs'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

// The API reference page (/docs) ships with the web app: Scalar's standalone bundle, a development dependency.
const scalarCopy = join(webDir, 'dist', 'docs', 'scalar.js');

export function webBuildIsStale() {
  if (!existsSync(stamp) || !existsSync(scalarCopy)) return true;
  const built = statSync(stamp).mtimeMs;
  return sources.some((source) => newestMtime(join(webDir, source)) > built);
}

export async function buildWeb({ force = false, quiet = false } = {}) {
  if (!force && !webBuildIsStale()) return false;
  let build;
  try {
    ({ build } = await import('vite'));
  } catch {
    // Installed without dev dependencies: serve whatever build exists (or the server's "not built" page).
    process.stderr.write('web: vite is not installed (npm install without --omit=dev builds the web app); skipping the build\n');
    return false;
  }
  // vite and its React plugin read NODE_ENV: a web build is React's production build whoever starts it (vitest sets
  // `test`, and the browser tests build a stale web/dist themselves).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: join(webDir, 'vite.config.ts'), logLevel: quiet ? 'warn' : 'info' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  mkdirSync(join(webDir, 'dist', 'docs'), { recursive: true });
  copyFileSync(createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'), scalarCopy);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const force = process.argv.includes('--force');
  const built = await buildWeb({ force });
  if (!built) process.stdout.write('web/dist is up to date\n');
}
