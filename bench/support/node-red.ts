// Node-RED as a peer in the execute benchmark, when installed somewhere (BENCH_NODE_RED_DIR: a folder where
// `npm install node-red` was run; it is not a dependency of Sluice). The same flow as the benchmarked workflow —
// http in (POST /flow) → http request (POST to the echo, JSON) → http response — with the editor off, nothing
// persisted beyond its flow file, and logging at warn.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchProcess } from './processes.js';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startNodeRed(installDir: string, echoUrl: string): Promise<BenchProcess & { version: string }> {
  const userDir = mkdtempSync(join(tmpdir(), 'node-red-bench-'));
  const port = await freePort();
  const flows = [
    { id: 'tab', type: 'tab', label: 'bench' },
    { id: 'in', type: 'http in', z: 'tab', url: '/flow', method: 'post', wires: [['req']] },
    { id: 'req', type: 'http request', z: 'tab', method: 'POST', ret: 'obj', url: `${echoUrl}/echo`, wires: [['out']] },
    { id: 'out', type: 'http response', z: 'tab', statusCode: '', wires: [] },
  ];
  writeFileSync(join(userDir, 'flows.json'), JSON.stringify(flows));
  writeFileSync(
    join(userDir, 'settings.js'),
    `module.exports = { uiHost: '127.0.0.1', uiPort: ${port}, httpAdminRoot: false, flowFile: 'flows.json',
      logging: { console: { level: 'warn' } }, editorTheme: { tours: false } };\n`,
  );
  const red = join(installDir, 'node_modules', 'node-red');
  const version = JSON.parse(readFileSync(join(red, 'package.json'), 'utf8')).version as string;
  const child = spawn(process.execPath, [join(red, 'red.js'), '--userDir', userDir, '--settings', join(userDir, 'settings.js')], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  // Node-RED prints nothing at this log level: it is up once the flow answers.
  for (let i = 0; ; i++) {
    const ok = await fetch(`${url}/flow`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (i > 600 || child.exitCode !== null) throw new Error('Node-RED did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    url,
    version,
    output: () => '',
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
