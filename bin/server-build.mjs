#!/usr/bin/env node
// The server's TypeScript compiled to plain JavaScript, so `sluice` runs without a TypeScript loader: tsx's loader
// thread, its source maps and the name-keeping helper it wraps every function in cost the embedded server ~70 MB of
// memory and the execute path several per cent of CPU (bench/REPORT-execute.md). The sources stay the truth: a
// build is made for one fingerprint of them (paths, sizes, modification times) and used only while they match, so an
// edited checkout never runs stale code — `bin/sluice.mjs` builds again (≈0.3 s) or, if it cannot, runs the sources
// through tsx as before.
//
// Each build is its own directory, `.build/<fingerprint>/`, mirroring the project (src/, clients/typescript/src/)
// with `web` and `drizzle` linked back, so every path the code finds relative to its own file (migrations, the web
// app, worker entry points) resolves as it does from the sources. A build is written aside and renamed into place,
// so processes starting at the same moment never see half of one, and one that is running keeps its files.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const buildsDir = join(root, '.build');
/** What is compiled: the server and the client CLI it includes (src/cli/main.ts imports it). */
const SOURCE_DIRS = ['src', 'clients/typescript/src'];
/** Found from compiled files by relative paths, so linked into each build. */
const LINKED = ['web', 'drizzle'];

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

/** Identifies the sources (and this builder) as they are now: any edit, addition or removal changes it. */
export function sourceFingerprint() {
  const hash = createHash('sha256');
  for (const file of [fileURLToPath(import.meta.url), ...sourceFiles()]) {
    const info = statSync(file);
    hash.update(`${relative(root, file)}\0${info.size}\0${info.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** The compiled CLI entry for the sources as they are now, if that build exists. */
export function compiledEntry(fingerprint = sourceFingerprint()) {
  const entry = join(buildsDir, fingerprint, 'src', 'cli', 'main.js');
  return existsSync(entry) ? entry : undefined;
}

/** Compiles the sources into `.build/<fingerprint>/` unless that build exists; returns the CLI entry. */
export async function buildServer() {
  const fingerprint = sourceFingerprint();
  const existing = compiledEntry(fingerprint);
  if (existing) return existing;
  const { build } = await import('esbuild');
  mkdirSync(buildsDir, { recursive: true });
  const staging = join(buildsDir, `.staging-${process.pid}-${Date.now()}`);
  try {
    const files = sourceFiles();
    await build({
      entryPoints: files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')),
      outdir: staging,
      outbase: root,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // `import … with { type: 'json' }` (Node 20.10+) is kept as written.
      supported: { 'import-attributes': true },
      logLevel: 'silent',
    });
    // Plain JavaScript entry points (worker threads, the PGlite child) and JSON data go as they are.
    for (const file of files.filter((f) => f.endsWith('.mjs') || f.endsWith('.json'))) {
      const target = join(staging, relative(root, file));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(file, target);
    }
    for (const name of LINKED) symlinkSync(join('..', '..', name), join(staging, name));
    writeFileSync(join(staging, 'FINGERPRINT'), `${fingerprint}\n`);
    try {
      renameSync(staging, join(buildsDir, fingerprint));
    } catch (error) {
      // Another process finished the same build first: theirs is as good as ours.
      if (!compiledEntry(fingerprint)) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  pruneBuilds(fingerprint);
  return compiledEntry(fingerprint);
}

/**
 * Keeps this build and the one before it (a process started from it may still load files from it), and drops what
 * a build that died half-way left aside.
 */
function pruneBuilds(current) {
  const entries = readdirSync(buildsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== current)
    .map((entry) => ({ name: entry.name, path: join(buildsDir, entry.name), mtime: statSync(join(buildsDir, entry.name)).mtimeMs }));
  const abandoned = entries.filter((e) => e.name.startsWith('.staging-') && Date.now() - e.mtime > 10 * 60_000);
  const older = entries.filter((e) => !e.name.startsWith('.')).sort((a, b) => b.mtime - a.mtime).slice(1);
  for (const old of [...abandoned, ...older]) rmSync(old.path, { recursive: true, force: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const entry = await buildServer();
  process.stdout.write(`compiled server: ${relative(root, entry)}\n`);
}
