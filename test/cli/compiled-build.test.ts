// `sluice` runs the server compiled to JavaScript (bin/server-build.mjs), made for the sources as they are: what runs is
// the build while the sources match it, an edit is in effect at the next start, and without a build the sources run.
// Played on a copy of the project's sources (node_modules, web and drizzle linked), so the checkout is not touched.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
  for (const dir of ['bin', 'src', 'clients/typescript/src']) cpSync(join(root, dir), join(project, dir), { recursive: true });
  cpSync(join(root, 'package.json'), join(project, 'package.json'));
  for (const link of ['node_modules', 'web', 'drizzle']) symlinkSync(join(root, link), join(project, link));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

const sluice = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, [join(project, 'bin', 'sluice.mjs'), ...args], { env: { ...process.env, ...env } });
const builds = () => readdirSync(join(project, '.build')).filter((name) => !name.startsWith('.'));
const compiledMain = (build: string) => join(project, '.build', build, 'src', 'cli', 'main.js');

describe('the compiled server', { timeout: 120_000 }, () => {
  it('is built on first use and is what runs while the sources match it', async () => {
    expect((await sluice(['--help'])).stdout).toContain('Self-hosted workflow automation');
    expect(builds()).toHaveLength(1);
    const [build] = builds();
    expect(readFileSync(compiledMain(build), 'utf8')).not.toContain(': string'); // plain JavaScript, types gone

    // Marked, the build shows it is the one running; the sources did not change, so it is not made again.
    writeFileSync(compiledMain(build), "process.stdout.write('ran the build\\n');\n");
    expect((await sluice(['--help'])).stdout).toBe('ran the build\n');
    expect(builds()).toEqual([build]);

    // SLUICE_RUN_SOURCES=1 runs the TypeScript sources instead.
    expect((await sluice(['--help'], { SLUICE_RUN_SOURCES: '1' })).stdout).toContain('Self-hosted workflow automation');
  });

  it('takes an edited source at the next start, in a new build, keeping the previous one', async () => {
    const main = join(project, 'src', 'cli', 'main.ts');
    writeFileSync(main, readFileSync(main, 'utf8').replace('Self-hosted workflow automation', 'Edited description'));
    const before = builds();
    expect((await sluice(['--help'])).stdout).toContain('Edited description');
    const after = builds();
    expect(after).toHaveLength(2);
    expect(after).toEqual(expect.arrayContaining(before));
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
