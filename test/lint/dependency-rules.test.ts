// The import rules `npm run lint` checks over src/ (.dependency-cruiser.mjs) fail on what they forbid: a cycle, http/
// reaching into db/, engine/ or blocks/, workflow/ importing the rest, engine/ importing db/. Played on a small
// project in a temp directory with the repository's rules, since src/ itself must pass them.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
let project: string;

function write(path: string, text: string): void {
  mkdirSync(dirname(join(project, path)), { recursive: true });
  writeFileSync(join(project, path), text);
}

/** Runs the repository's dependency rules over `<project>/src`; resolves to the exit code and the report. */
async function cruise(): Promise<{ code: number; report: string }> {
  const bin = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  try {
    const { stdout } = await run(process.execPath, [bin, '--config', join(root, '.dependency-cruiser.mjs'), 'src'], { cwd: project });
    return { code: 0, report: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, report: failed.stdout };
  }
}

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'sluice-deps-'));
  write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
  write('package.json', JSON.stringify({ type: 'module' }));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the dependency rules of npm run lint', { timeout: 60_000 }, () => {
  it('pass a src/ that keeps them', async () => {
    write('src/workflow/state.ts', 'export type State = { id: string };\n');
    write('src/engine/run.ts', "import type { State } from '../workflow/state.js';\nexport const run = (s: State) => s.id;\n");
    write('src/http/route.ts', "import { runWorkflow } from '../services/runs.js';\nexport const route = () => runWorkflow();\n");
    write('src/services/runs.ts', "import { run } from '../engine/run.js';\nexport const runWorkflow = () => run({ id: 'x' });\n");
    // A module loaded on demand may type itself against the module that loads it.
    write('src/tracing.ts', "export type Tracer = { name: string };\nexport const load = async () => (await import('./otel.js')).tracer;\n");
    write('src/otel.ts', "import type { Tracer } from './tracing.js';\nexport const tracer: Tracer = { name: 'otel' };\n");
    expect(await cruise()).toMatchObject({ code: 0 });
  });

  it('fail naming each rule a change breaks', async () => {
    write('src/db/client.ts', 'export const db = {};\nexport type Db = typeof db;\n');
    write('src/blocks/api.ts', 'export const api = {};\n');
    write('src/http/rows.ts', "import type { Db } from '../db/client.js';\nimport { api } from '../blocks/api.js';\nexport const rows: Db = api;\n");
    write('src/workflow/names.ts', "import { runWorkflow } from '../services/runs.js';\nexport const names = runWorkflow;\n");
    write('src/engine/store.ts', "import { db } from '../db/client.js';\nexport const store = db;\n");
    // A type-only cycle counts: the two modules cannot be understood one without the other.
    write('src/a.ts', "import type { B } from './b.js';\nexport type A = { b?: B };\n");
    write('src/b.ts', "import type { A } from './a.js';\nexport type B = { a?: A };\n");

    const { code, report } = await cruise();
    expect(code).not.toBe(0);
    expect(report).toMatch(/error http-is-thin: src\/http\/rows\.ts → src\/db\/client\.ts/);
    expect(report).toMatch(/error http-is-thin: src\/http\/rows\.ts → src\/blocks\/api\.ts/);
    expect(report).toMatch(/error workflow-is-pure: src\/workflow\/names\.ts → src\/services\/runs\.ts/);
    expect(report).toMatch(/error engine-has-no-io: src\/engine\/store\.ts → src\/db\/client\.ts/);
    expect(report).toMatch(/error no-circular: src\/a\.ts →\s+src\/b\.ts →\s+src\/a\.ts/);
    expect(report).not.toMatch(/otel|tracing/);
  });
});
