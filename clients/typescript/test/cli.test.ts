// The `sluice` command's client side (login, workflows, run, logs) run as a real process against a real server: what
// it prints, what it saves, and the exit codes scripts branch on.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendMemory } from '../../../src/services/agent-memory.js';
import { echoState, eventually, makeState, startClientTestServer, type ClientTestServer } from './support.js';

const SLUICE_BIN = resolve('bin/sluice.mjs');
let s: ClientTestServer;
let home: string;

beforeAll(async () => {
  s = await startClientTestServer();
  home = mkdtempSync(join(tmpdir(), 'sluice-cli-home-'));
});
afterAll(async () => {
  await s?.close();
  rmSync(home, { recursive: true, force: true });
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('SLUICE_') || name === 'DATABASE_URL') delete env[name];
  return { ...env, XDG_CONFIG_HOME: home, ...extra };
}

function start(args: string[], extra: Record<string, string> = {}) {
  return spawn(process.execPath, [SLUICE_BIN, ...args], { env: cleanEnv(extra), stdio: ['pipe', 'pipe', 'pipe'] });
}

function sluice(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<Result> {
  const child = start(args, options.env);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(options.stdin ?? '');
  return new Promise((done) => child.once('exit', (code) => done({ code, stdout, stderr })));
}

const lines = (text: string) => text.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));

describe('sluice login', () => {
  it('refuses a key the server refuses and saves nothing', async () => {
    const bad = await sluice(['login', '--url', s.t.url, '--key', 'sk-sluice-wrongwrongwrongwrongwrong']);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('(401 UNAUTHORIZED)');
    expect(existsSync(join(home, 'sluice', 'credentials.json'))).toBe(false);
    const noKey = await sluice(['login', '--url', s.t.url]);
    expect(noKey.code).toBe(2);
    const notLoggedIn = await sluice(['workflows', 'list']);
    expect(notLoggedIn.code).toBe(2);
    expect(notLoggedIn.stderr).toContain('Not logged in: run `sluice login --url <server> --key <key>`');
  });

  it('saves the profile, with the key in a file only the user can read', async () => {
    const login = await sluice(['login', '--url', `${s.t.url}/`, '--key-stdin', '--json'], { stdin: `${s.t.apiKey}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({ profile: 'default', url: s.t.url, email: 'admin@localhost', workspaceId: s.t.workspaceId });
    const dir = join(home, 'sluice');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'credentials.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8'))).toEqual({ default: s.t.apiKey });
    const config = readFileSync(join(dir, 'config.json'), 'utf8');
    expect(JSON.parse(config)).toEqual({ current: 'default', profiles: { default: { url: s.t.url, email: 'admin@localhost', workspaceId: s.t.workspaceId } } });
    expect(config).not.toContain(s.t.apiKey);
  });
});

describe('sluice workflows and run', { timeout: 120_000 }, () => {
  it('imports the README\'s example, lists, deploys and runs it by name, and exports it again', async () => {
    const file = resolve('examples/echo.workflow.json');
    const document = JSON.parse(readFileSync(file, 'utf8'));

    const imported = await sluice(['workflows', 'import', file, '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    const { workflow } = JSON.parse(imported.stdout);
    expect(workflow).toMatchObject({ name: 'Echo', isDeployed: false });

    const list = await sluice(['workflows', 'list']);
    expect(list.stdout).toMatch(new RegExp(`${workflow.id}\\s+Echo\\s+-`));
    const deploy = await sluice(['workflows', 'deploy', 'echo']);
    expect(deploy.stdout.trim()).toBe('Deployed Echo as version 1.');

    const run = await sluice(['run', 'Echo', '--input', '{"q":"hi"}']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ echoed: 'hi' });
    expect(run.stderr).toMatch(/^execution exec_\w+ \(HTTP 200\)/);
    const asJson = await sluice(['run', workflow.id, '--input', '{"q":"again"}', '--json', '--idempotency-key', 'k1']);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ status: 200, body: { echoed: 'again' }, replayed: false, executionId: expect.stringMatching(/^exec_/) });

    const out = join(home, 'exported.json');
    const exported = await sluice(['workflows', 'export', 'Echo', '-o', out]);
    expect(exported.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ format: 'sluice.workflow', name: 'Echo', state: document.state });
  });

  it('streams, runs asynchronously, and tells a failed run from a refused request by exit code', async () => {
    const shape = makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API', config: { inputFormat: [{ name: 'q', type: 'string' }] } },
        { id: 'fn', type: 'function', name: 'Shape', config: { code: "if (<api.q> === 'fail') throw new Error('told to fail'); return { upper: <api.q>.toUpperCase() };" } },
      ],
      [['start', 'fn']],
    );
    const wf = await s.client.workflows.create({ workspaceId: s.t.workspaceId, name: 'Shape', state: shape });
    await s.client.workflows.deploy(wf.id);

    const streamed = await sluice(['run', 'Shape', '--input', '{"q":"abc"}', '--stream', '--select', 'Shape.result', '--json']);
    expect(streamed.code, streamed.stderr).toBe(0);
    const records = lines(streamed.stdout);
    expect(records[0]).toEqual({ blockId: 'fn', chunk: JSON.stringify({ upper: 'ABC' }) });
    expect(records.at(-1)).toMatchObject({ event: 'done', success: true, executionId: expect.stringMatching(/^exec_/) });

    const waited = await sluice(['run', 'Shape', '--input', '{"q":"later"}', '--async']);
    expect(waited.code, waited.stderr).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({ result: { upper: 'LATER' } });
    const queued = await sluice(['run', 'Shape', '--input', '{"q":"later"}', '--async', '--no-wait', '--json']);
    expect(JSON.parse(queued.stdout)).toMatchObject({ status: 'queued', taskId: expect.stringMatching(/^job_/) });

    const failed = await sluice(['run', 'Shape', '--input', '{"q":"fail"}']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('told to fail');
    expect(failed.stderr).toMatch(/execution: exec_\w+/);
    const failedAsync = await sluice(['run', 'Shape', '--input', '{"q":"fail"}', '--async', '--json']);
    expect(failedAsync.code).toBe(1);
    expect(JSON.parse(failedAsync.stderr)).toMatchObject({ code: 'EXECUTION_FAILED', executionId: expect.stringMatching(/^exec_/) });

    const invalid = await sluice(['run', 'Shape', '--input', '{"q":7}', '--json']);
    expect(invalid.code).toBe(5);
    expect(JSON.parse(invalid.stderr)).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, details: [{ path: 'q' }] });
    expect((await sluice(['run', 'Shape', '--input', 'not json'])).code).toBe(2);
    expect((await sluice(['run', 'Missing workflow'])).code).toBe(4);
    expect((await sluice(['run', 'Shape', '--bogus-flag'])).code).toBe(2);
    const elsewhere = await sluice(['workflows', 'list'], { env: { SLUICE_URL: 'http://127.0.0.1:9', SLUICE_API_KEY: s.t.apiKey, SLUICE_WORKSPACE_ID: s.t.workspaceId } });
    expect(elsewhere.code).toBe(7);
    expect(elsewhere.stderr).toContain('Could not reach http://127.0.0.1:9');
  });

  it('a response block answering an error status makes the run exit 1, with its body printed', async () => {
    const state = makeState(
      [
        { id: 'start', type: 'api_trigger', name: 'API' },
        { id: 'out', type: 'response', name: 'Out', config: { status: 502, body: { error: 'upstream down' } } },
      ],
      [['start', 'out']],
    );
    const wf = await s.client.workflows.create({ workspaceId: s.t.workspaceId, name: 'Gateway', state });
    await s.client.workflows.deploy(wf.id);
    const run = await sluice(['run', 'Gateway']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({ error: 'upstream down' });
    expect(run.stderr).toContain('(HTTP 502)');
  });
});

describe('sluice logs', { timeout: 120_000 }, () => {
  it('prints recent logs, and follows new ones until interrupted', async () => {
    const wf = await s.client.workflows.create({ workspaceId: s.t.workspaceId, name: 'Watched', state: echoState() });
    await s.client.workflows.deploy(wf.id);
    const earlier = [(await s.client.executeWorkflow(wf.id, { q: '1' })).executionId, (await s.client.executeWorkflow(wf.id, { q: '2' })).executionId];
    const recent = await sluice(['logs', '--workflow', 'Watched', '-n', '5', '--json']);
    expect(recent.code, recent.stderr).toBe(0);
    expect(lines(recent.stdout).map((l) => l.executionId)).toEqual(earlier);
    const human = await sluice(['logs', '--workflow', wf.id, '--level', 'info']);
    expect(human.stdout).toContain(`Watched  ${earlier[1]}`);

    const follower = start(['logs', '--follow', '--workflow', 'Watched', '--interval', '100', '--json'], {});
    let stdout = '';
    let stderr = '';
    follower.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    follower.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((done) => follower.once('exit', (code) => done(code)));
    try {
      await eventually(() => stderr.includes('Following logs of'), 15_000, 'the follower to start');
      // It starts from now: the two earlier runs are not repeated; each new run appears once, in order.
      const fresh: string[] = [];
      for (const q of ['3', '4']) {
        const { executionId } = await s.client.executeWorkflow(wf.id, { q });
        fresh.push(executionId);
        await eventually(() => stdout.includes(executionId), 15_000, `log ${executionId} printed`);
      }
      expect(lines(stdout).map((l) => l.executionId)).toEqual(fresh);
    } finally {
      follower.kill('SIGINT');
    }
    expect(await exited, stderr).toBe(0);
  });

  it('marks a run that succeeded while a block reported an error, and --block-errors lists only those', async () => {
    const upstream = createServer((req, res) => res.writeHead(req.url === '/down' ? 500 : 200).end('{}'));
    await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
    try {
      const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
      const lookup = (path: string) =>
        makeState(
          [
            { id: 'start', type: 'api_trigger', config: { inputFormat: [] } },
            { id: 'fetch', type: 'api', name: 'Fetch', config: { url: `${base}${path}`, method: 'GET', retries: 0 } },
          ],
          [['start', 'fetch']],
        );
      const down = await s.client.workflows.create({ workspaceId: s.t.workspaceId, name: 'Lookup down', state: lookup('/down') });
      const up = await s.client.workflows.create({ workspaceId: s.t.workspaceId, name: 'Lookup up', state: lookup('/up') });
      await s.client.workflows.deploy(down.id);
      await s.client.workflows.deploy(up.id);
      const marked = (await s.client.executeWorkflow(down.id, {})).executionId;
      const clean = (await s.client.executeWorkflow(up.id, {})).executionId;

      const human = await sluice(['logs', '--workflow', 'Lookup down', 'Lookup up']);
      expect(human.code, human.stderr).toBe(0);
      const lineOf = (executionId: string) => human.stdout.split('\n').find((line) => line.includes(executionId));
      expect(lineOf(marked)).toMatch(/^\S+ {2}info .*Lookup down {2}exec_\w+ {2}succeeded, 1 block error$/);
      expect(lineOf(clean)).not.toContain('block error');
      const only = await sluice(['logs', '--workflow', 'Lookup down', 'Lookup up', '--block-errors', '--json']);
      expect(only.code, only.stderr).toBe(0);
      expect(lines(only.stdout).map((l) => [l.executionId, l.blockErrorCount])).toEqual([[marked, 1]]);
    } finally {
      await new Promise((done) => upstream.close(done));
    }
  });
});

describe('sluice members', () => {
  it('lists members, makes an invite link, changes a role by email address and removes the member', async () => {
    const added = await s.t.request('POST', `/api/v1/workspaces/${s.t.workspaceId}/members`, { body: { email: 'cli-bob@example.com', role: 'viewer' } });
    expect(added.status, added.text).toBe(201);

    const list = await sluice(['members', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/cli-bob@example\.com\s+viewer/);

    const invite = await sluice(['members', 'invite', '--role', 'editor', '--email', 'cli-carol@example.com']);
    expect(invite.code, invite.stderr).toBe(0);
    expect(invite.stdout.trim()).toMatch(/\/invite\?token=\S+$/);
    expect(invite.stderr).toContain('Invite for a editor (cli-carol@example.com only)');
    const pending = await sluice(['members', 'invites', '--json']);
    expect(JSON.parse(pending.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ role: 'editor', email: 'cli-carol@example.com' })]));

    const promoted = await sluice(['members', 'role', 'CLI-Bob@example.com', 'editor']);
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.stderr.trim()).toBe('cli-bob@example.com is now editor.');
    const badRole = await sluice(['members', 'role', 'cli-bob@example.com', 'owner']);
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('role must be one of admin, editor, viewer');
    const nobody = await sluice(['members', 'remove', 'nobody@example.com']);
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toContain('No member of this workspace has the address nobody@example.com');

    expect((await sluice(['members', 'remove', 'cli-bob@example.com'])).code).toBe(0);
    const after = await sluice(['members', 'list', '--json']);
    expect(JSON.parse(after.stdout).map((m: { email: string }) => m.email)).not.toContain('cli-bob@example.com');
  });
});

describe('sluice memories', { timeout: 60_000 }, () => {
  it('lists a workflow\'s memories, shows one\'s messages, and deletes it', async () => {
    const created = await s.t.request('POST', '/api/v1/workflows', { body: { workspaceId: s.t.workspaceId, name: 'Remembering', state: echoState() } });
    const workflowId: string = created.body.data.id;
    // What an agent with memory writes (written directly: no model needed).
    await appendMemory(s.t.app.db, { workflowId, key: 'conv/7', executionId: 'exec_cli' }, [
      { role: 'user', content: 'Add 1 and 2' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'add', arguments: '{"a":1,"b":2}' }] },
      { role: 'tool', content: '3', toolCallId: 'call_1', toolName: 'add', isError: false },
      { role: 'assistant', content: 'It is 3' },
    ]);

    const list = await sluice(['memories', 'list', 'Remembering']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/conv\/7\s+4\s+\d{4}-/);
    const shown = await sluice(['memories', 'show', workflowId, 'conv/7']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout.split('\n').filter(Boolean).map((line) => line.trim().replace(/\s+/g, ' '))).toEqual([
      '1 user Add 1 and 2',
      '2 assistant calls add({"a":1,"b":2})',
      '3 tool add → 3',
      '4 assistant It is 3',
    ]);
    const asJson = await sluice(['memories', 'show', 'Remembering', 'conv/7', '--json']);
    expect(lines(asJson.stdout).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);

    const deleted = await sluice(['memories', 'delete', 'Remembering', 'conv/7']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout.trim()).toBe('Deleted the memory "conv/7" of Remembering.');
    const gone = await sluice(['memories', 'show', 'Remembering', 'conv/7']);
    expect(gone.code).toBe(4);
    expect(gone.stderr).toContain('Memory not found');
  });
});

describe('sluice credentials', { timeout: 120_000 }, () => {
  it('creates one from standard input, lists it without its secret, tests it, maps it on import, and deletes it', async () => {
    const token = 'cli-bearer-secret-5a7c';
    const created = await sluice(['credentials', 'create', 'CLI API', '--type', 'http', '--data', '-', '--json'], {
      stdin: JSON.stringify({ scheme: 'bearer', token }),
    });
    expect(created.code, created.stderr).toBe(0);
    const credential = JSON.parse(created.stdout);
    expect(credential).toMatchObject({ name: 'CLI API', type: 'http', fields: { scheme: 'bearer' }, secretsSet: ['token'] });

    const list = await sluice(['credentials', 'list']);
    expect(list.stdout).toMatch(new RegExp(`${credential.id}\\s+CLI API\\s+http\\s+scheme=bearer\\s+token`));
    expect(list.stdout + list.stderr).not.toContain(token);

    const tested = await sluice(['credentials', 'test', 'CLI API']);
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stdout).toMatch(/^ok: bearer credential: applied to each request/);
    // A token endpoint that does not answer: the test fails, and so does the command.
    const unreachable = await sluice(['credentials', 'create', 'CLI OAuth', '--type', 'http', '--data', '-'], {
      stdin: JSON.stringify({ scheme: 'oauth2', tokenUrl: 'http://127.0.0.1:9/token', clientId: 'c', clientSecret: 's3cret-cli' }),
    });
    expect(unreachable.code, unreachable.stderr).toBe(0);
    const failed = await sluice(['credentials', 'test', 'CLI OAuth', '--json']);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ ok: false, message: expect.stringContaining('Token request failed') });

    // A document naming a credential this workspace does not have by that name: mapped with --credential.
    const document = {
      format: 'sluice.workflow',
      version: 1,
      name: 'Uses a credential',
      state: makeState(
        [
          { id: 'start', type: 'api_trigger', name: 'Start' },
          { id: 'call', type: 'api', name: 'Call', config: { url: 'https://example.com', credentialId: { credential: 'Prod API' } } },
        ],
        [['start', 'call']],
      ),
      credentials: [{ name: 'Prod API', type: 'http' }],
    };
    const unmapped = await sluice(['workflows', 'import', '-'], { stdin: JSON.stringify(document) });
    expect(unmapped.code).not.toBe(0);
    expect(unmapped.stderr).toContain('CREDENTIALS_UNMAPPED');
    const mapped = await sluice(['workflows', 'import', '-', '--credential', `Prod API=${credential.id}`, '--json'], { stdin: JSON.stringify(document) });
    expect(mapped.code, mapped.stderr).toBe(0);
    expect(JSON.parse(mapped.stdout).workflow.state.blocks.call.config.credentialId).toBe(credential.id);

    const deleted = await sluice(['credentials', 'delete', credential.id]);
    expect(deleted.stdout.trim()).toBe(`Deleted "CLI API" (${credential.id}).`);
    const gone = await sluice(['credentials', 'test', 'CLI API']);
    expect(gone.code).toBe(4);
  });
});

describe('sluice-client', () => {
  it('is the same commands without the server, from the package\'s own entry point', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', resolve('clients/typescript/src/cli/bin.ts'), 'workflows', 'list', '--json'], {
      env: cleanEnv({}),
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const code = await new Promise((done) => child.once('exit', done));
    expect(code).toBe(0);
    expect(JSON.parse(stdout).map((w: { name: string }) => w.name)).toContain('Echo');
  });
});
