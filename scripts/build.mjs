#!/usr/bin/env node
// Builds the server into dist/: `npm run build` always, `npm start` (its prestart) and `bin/sluice.mjs` only when dist/
// is missing or stale. esbuild transpiles each TypeScript file on its own (types dropped, no bundling, ~0.5 s): a
// module keeps its own file, so every path the code finds relative to itself (the migrations, the web app, worker
// entry points) resolves from the build as from the sources. Type errors are the typecheck's (`npm run typecheck`,
// CI), not the build's: tsc would make every start after an edit take half a minute.
//
// dist/ mirrors the project's compiled part (dist/src/, dist/clients/typescript/src/), with `web` and `drizzle` linked
// back beside them, so `../../drizzle` from dist/src/db/ is the project's. Source maps (without the sources' text)
// let stack traces name TypeScript lines: dist/src/cli/sluice.js turns them on before it loads anything else.
//
// Stale means the fingerprint differs: the content of every source file, this script, tsconfig.json, esbuild's
// version and the Node it targets. A build is made aside and renamed into place, so processes starting together never
// run half of one. When a build cannot be made, the compiler's messages go to stderr and the command exits non-zero:
// nothing falls back to running the sources.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(root, 'dist');
/** The `sluice` command in the build (package.json "bin"). */
export const DIST_ENTRY = join(DIST, 'src', 'cli', 'sluice.js');
const FINGERPRINT_FILE = join(DIST, 'FINGERPRINT');
/** What is compiled: the server and the client CLI it includes (src/cli/main.ts imports it). */
const SOURCE_DIRS = ['src', 'clients/typescript/src'];
/** Found from compiled files by relative paths, so linked into the build. */
const LINKED = ['web', 'drizzle'];
/** Beside the sources, read by the build: a change to either changes what it makes. */
const BUILD_INPUTS = [fileURLToPath(import.meta.url), join(root, 'tsconfig.json')];
/** The Node the build is for: esbuild keeps every syntax this Node runs as it is written. */
const TARGET = `node${process.versions.node}`;

function listFiles(dir) {
  const files = [];
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.push(full);
    }
  };
  if (existsSync(dir)) walk(dir);
  return files.sort();
}

const sourceFiles = () => SOURCE_DIRS.flatMap((dir) => listFiles(join(root, dir)));

/** esbuild's version as installed, without loading it (a fresh dist/ needs no compiler to be found fresh). */
function esbuildVersion() {
  try {
    return JSON.parse(readFileSync(createRequire(import.meta.url).resolve('esbuild/package.json'), 'utf8')).version;
  } catch {
    return 'absent';
  }
}

/** Identifies what a build made now would be made from: any edit, addition or removal changes it. */
export function buildFingerprint() {
  const hash = createHash('sha256');
  hash.update(`esbuild ${esbuildVersion()}\0${TARGET}\n`);
  for (const file of [...BUILD_INPUTS, ...sourceFiles()]) {
    hash.update(`${relative(root, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\n');
  }
  return hash.digest('hex').slice(0, 16);
}

const builtFingerprint = () => (existsSync(FINGERPRINT_FILE) ? readFileSync(FINGERPRINT_FILE, 'utf8').trim() : undefined);

/** True when dist/ is missing or was built from anything other than what is here now. */
export function serverBuildIsStale(fingerprint = buildFingerprint()) {
  return !existsSync(DIST_ENTRY) || builtFingerprint() !== fingerprint;
}

/** The error a build that cannot be made ends with; the compiler's messages are already on stderr. */
export class BuildFailed extends Error {}

/**
 * Builds dist/ (always with `force`, else only when stale) and resolves to the entry to run. Throws BuildFailed,
 * after esbuild has printed its errors, when the sources do not compile or esbuild is not installed.
 */
export async function buildServer({ force = false } = {}) {
  const fingerprint = buildFingerprint();
  if (!force && !serverBuildIsStale(fingerprint)) return DIST_ENTRY;
  let build, stop;
  try {
    ({ build, stop } = await import('esbuild'));
  } catch (error) {
    throw new BuildFailed(`esbuild is not installed (${error.message}): run \`npm install\`, with the dev dependencies`);
  }
  const staging = join(root, `.dist-staging-${process.pid}-${Date.now()}`);
  try {
    const files = sourceFiles();
    try {
      await build({
        entryPoints: files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')),
        outdir: staging,
        outbase: root,
        format: 'esm',
        platform: 'node',
        target: TARGET,
        sourcemap: 'linked',
        // Stack traces need only the mappings; the sources are in the repository.
        sourcesContent: false,
        // `import … with { type: 'json' }` (Node 20.10+) is kept as written.
        supported: { 'import-attributes': true },
        // Messages name files from the project's root, wherever the command runs.
        absWorkingDir: root,
        logLevel: 'error',
      });
    } catch (error) {
      // esbuild has printed its messages (logLevel 'error'); a failure without any is not the sources' and goes as is.
      if (!Array.isArray(error.errors) || error.errors.length === 0) throw error;
      throw new BuildFailed(`the server does not compile (${error.errors.length === 1 ? 'the error' : 'the errors'} above)`);
    }
    // Plain JavaScript entry points (worker threads, the PGlite child) and JSON data go as they are.
    for (const file of files.filter((f) => f.endsWith('.mjs') || f.endsWith('.json'))) {
      const target = join(staging, relative(root, file));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(file, target);
    }
    for (const name of LINKED) symlinkSync(join('..', name), join(staging, name));
    writeFileSync(join(staging, 'FINGERPRINT'), `${fingerprint}\n`);
    replaceDist(staging, fingerprint);
  } finally {
    rmSync(staging, { recursive: true, force: true });
    // esbuild's service process would otherwise live as long as the server that bin/sluice.mjs starts after it.
    await stop();
  }
  return DIST_ENTRY;
}

/** Puts the staged build in dist/'s place, unless a process starting at the same moment already put the same one. */
function replaceDist(staging, fingerprint) {
  if (builtFingerprint() === fingerprint && existsSync(DIST_ENTRY)) return;
  const old = join(root, `.dist-old-${process.pid}-${Date.now()}`);
  try {
    renameSync(DIST, old);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  try {
    renameSync(staging, DIST);
  } catch (error) {
    // Another process renamed its build into place between ours: the same sources, so as good as ours.
    if (builtFingerprint() !== fingerprint) throw error;
  } finally {
    rmSync(old, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const force = !process.argv.includes('--if-stale');
  try {
    const before = builtFingerprint();
    await buildServer({ force });
    if (force || builtFingerprint() !== before) process.stdout.write(`built ${relative(root, DIST)}/ (${builtFingerprint()})\n`);
  } catch (error) {
    if (!(error instanceof BuildFailed)) throw error;
    process.stderr.write(`sluice: ${error.message}\n`);
    process.exit(1);
  }
}
