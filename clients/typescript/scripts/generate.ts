// Regenerates src/generated/openapi.ts.
//   npm run client:generate                       the document this checkout's server serves at /api/openapi.json
//   npm run client:generate -- --url <server>     a running server's /api/openapi.json
//   npm run client:generate -- --check            exit 1 (changing nothing) when the checked-in file is out of date
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTypes } from './generate-types.js';

const target = join(dirname(fileURLToPath(import.meta.url)), '../src/generated/openapi.ts');
const args = process.argv.slice(2);
const urlIndex = args.indexOf('--url');

async function loadDocument(): Promise<unknown> {
  if (urlIndex >= 0) {
    const base = args[urlIndex + 1]?.replace(/\/+$/, '');
    if (!base) throw new Error('--url needs the server address, e.g. --url http://127.0.0.1:3000');
    const res = await fetch(`${base}/api/openapi.json`);
    if (!res.ok) throw new Error(`GET ${base}/api/openapi.json answered ${res.status}`);
    return res.json();
  }
  // The same function the server answers /api/openapi.json with, so no server has to run.
  const { openApiDocument } = await import('../../../src/http/openapi.js');
  return openApiDocument('http://127.0.0.1:3000');
}

const generated = await generateTypes(await loadDocument());
let current = '';
try {
  current = readFileSync(target, 'utf8');
} catch {
  // first generation
}
if (args.includes('--check')) {
  if (current !== generated) {
    process.stderr.write(`${target} is out of date: run npm run client:generate\n`);
    process.exit(1);
  }
  process.stdout.write('generated types are up to date\n');
} else if (current === generated) {
  process.stdout.write(`${target} unchanged\n`);
} else {
  writeFileSync(target, generated);
  process.stdout.write(`wrote ${target}\n`);
}
