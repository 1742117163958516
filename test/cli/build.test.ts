// `sluice` runs the server built into dist/ (scripts/build.mjs): made when dist/ is missing or stale, never replaced by
// the sources when it cannot be made (the compiler's message and a non-zero exit instead), with stack traces that name
// TypeScript lines. Played on a copy of the project (node_modules, web and drizzle linked), so the checkout is not
// touched.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/services/api-keys.js';
import { startSluice } from '../support/process.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'sluice-build-'));
  for (const path of ['bin', 'scripts/build.mjs', 'src', 'clients/typescript/src', 'package.json', 'tsconfig.json']) {
    cpSync(join(root, path), join(project, path), { recursive: true });
  }
  for (const link of ['node_modules', 'web', 'drizzle']) symlinkSync(join(root, link), join(project, link));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Runs `node <project>/<script> …args`, resolving to its exit code and output whether it succeeds or not. */
async function node(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(project, script), ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
const sluice = (args: string[]) => node('bin/sluice.mjs', args);
const fingerprint = () => readFileSync(join(project, 'dist', 'FINGERPRINT'), 'utf8').trim();
const compiledMain = () => join(project, 'dist', 'src', 'cli', 'main.js');
/** Edits a file of the copy; resolves to a function that puts it back. */
function edit(path: string, change: (text: string) => string): () => void {
  const file = join(project, path);
  const before = readFileSync(file, 'utf8');
  const after = change(before);
  if (after === before) throw new Error(`edit changed nothing in ${path}`);
  writeFileSync(file, after);
  return () => writeFileSync(file, before);
}

describe('the server build (dist/)', { timeout: 120_000 }, () => {
  it('is made when missing, and is what runs while it matches the sources', async () => {
    expect(existsSync(join(project, 'dist'))).toBe(false);
    expect((await sluice(['--help'])).stdout).toContain('Self-hosted workflow automation');
    expect(readFileSync(compiledMain(), 'utf8')).not.toContain(': string'); // plain JavaScript, types gone
    const built = fingerprint();

    // Marked, the build shows it is the one running; nothing changed, so it is not made again.
    writeFileSync(compiledMain(), "process.stdout.write('ran the build\\n');\n");
    expect((await sluice(['--help'])).stdout).toBe('ran the build\n');
    expect(await node('scripts/build.mjs', ['--if-stale'])).toMatchObject({ code: 0, stdout: '' });
    expect(fingerprint()).toBe(built);
  });

  it('is made again when a source or the compiler settings change', async () => {
    const restore = edit('src/cli/main.ts', (text) => text.replace('Self-hosted workflow automation', 'Edited description'));
    expect((await sluice(['--help'])).stdout).toContain('Edited description');
    restore();
    const before = fingerprint();
    edit('tsconfig.json', (text) => `${text}\n`);
    const rebuilt = await node('scripts/build.mjs', ['--if-stale']);
    expect(rebuilt.stdout).toMatch(/^built dist\//);
    expect(fingerprint()).not.toBe(before);
    expect((await sluice(['--help'])).stdout).toContain('Self-hosted workflow automation');
  });

  it('stops start-up with the compiler\'s message when a source does not compile, running nothing', async () => {
    const restore = edit('src/ids.ts', (text) => `${text}\nexport const broken = ;\n`);
    try {
      const started = await sluice(['--help']);
      expect(started.code).not.toBe(0);
      expect(started.stdout).toBe('');
      expect(started.stderr).toContain('[ERROR] Unexpected ";"');
      expect(started.stderr).toMatch(/src\/ids\.ts:\d+:\d+:/);
      expect(started.stderr).toContain('sluice: the server does not compile');
      // `npm run build` (and npm start's prestart) fail the same way.
      const build = await node('scripts/build.mjs', []);
      expect(build.code).toBe(1);
      expect(build.stderr).toContain('src/ids.ts');
    } finally {
      restore();
    }
  });

  it('gives stack traces that name the TypeScript file and line', async () => {
    const restore = edit('src/cli/main.ts', (text) =>
      text.replace(
        "const server = () => import('./server-commands.js');",
        "const server = () => import('./server-commands.js');\nif (process.argv.includes('--fail-for-test')) throw new Error('failed for the test');",
      ),
    );
    try {
      const line = readFileSync(join(project, 'src/cli/main.ts'), 'utf8').split('\n').findIndex((l) => l.includes('--fail-for-test')) + 1;
      const failed = await sluice(['--fail-for-test']);
      expect(failed.code).not.toBe(0);
      expect(failed.stderr).toContain('failed for the test');
      expect(failed.stderr).toContain(`src/cli/main.ts:${line}:`);
    } finally {
      restore();
    }
  });

  it('serves and runs sandboxed code from the build (worker threads and the embedded database included)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sluice-build-data-'));
    const apiKey = generateApiKey();
    const server = await startSluice({ SLUICE_DATA_DIR: dataDir, SLUICE_BOOTSTRAP_API_KEY: apiKey }, ['serve'], join(project, 'bin', 'sluice.mjs'));
    try {
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(server.url + path, {
          method,
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return (await res.json()) as any;
      };
      const me = await call('GET', '/api/v1/me');
      const state = {
        blocks: {
          start: { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'n', type: 'number' }] } },
          fn: { id: 'fn', type: 'function', name: 'Fn', config: { code: 'return { doubled: <api.n> * 2 };' } },
        },
        edges: [{ id: 'e1', source: 'start', target: 'fn' }],
      };
      const created = await call('POST', '/api/v1/workflows', { workspaceId: me.workspaces[0].id, name: 'compiled', state });
      await call('POST', `/api/v1/workflows/${created.data.id}/deploy`);
      const answer = await call('POST', `/api/workflows/${created.data.id}/execute`, { n: 21 });
      expect(answer).toMatchObject({ success: true, output: { result: { doubled: 42 } } });
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
