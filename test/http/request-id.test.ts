// X-Request-Id: the caller's id (when sane) or a new one, on every response, errors included; on the request's log
// lines; and kept on the run it started, shown in the log detail and the execution detail — also for an async run
// that a worker carries out later.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppWorker } from '../../src/app/worker.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { echoState } from '../support/states.js';
import { createAndDeploy, eventually, logDetailOf } from '../support/workflows.js';

const GENERATED = /^req_[A-Za-z0-9]{20}$/;

/** The app's log, line by line, as an operator's log shipper would read it. */
function captureLog() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { stream, lines };
}

let t: TestApp;
const log = captureLog();
beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'debug', SLUICE_WORKER_POLL_MS: '50' }, { logTo: log.stream });
});
afterAll(async () => {
  await t?.close();
});


describe('X-Request-Id', () => {
  it('returns the caller’s id unchanged', async () => {
    const id = 'edge-7f3a.91:req_01-B';
    const res = await t.request('GET', '/health', { headers: { 'X-Request-Id': id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(id);
  });

  it('makes one when the caller sends none, a different one each time', async () => {
    const [a, b] = await Promise.all([t.request('GET', '/health'), t.request('GET', '/health')]);
    expect(a.headers.get('x-request-id')).toMatch(GENERATED);
    expect(b.headers.get('x-request-id')).toMatch(GENERATED);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('replaces an id that is too long or has characters that do not belong in a header or a log', async () => {
    for (const bad of ['a'.repeat(129), 'has space', 'semi;colon', 'quote"d', 'é']) {
      const res = await fetch(`${t.url}/health`, { headers: { 'X-Request-Id': bad } });
      expect(res.headers.get('x-request-id'), bad).toMatch(GENERATED);
    }
    const longest = 'a'.repeat(128);
    expect((await t.request('GET', '/health', { headers: { 'X-Request-Id': longest } })).headers.get('x-request-id')).toBe(longest);
  });

  it('is on error responses too', async () => {
    const notFound = await t.request('GET', '/api/v1/no-such-thing', { headers: { 'X-Request-Id': 'err-404' } });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('x-request-id')).toBe('err-404');
    const unauthorized = await t.request('GET', '/api/v1/me', { apiKey: null, headers: { 'X-Request-Id': 'err-401' } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('x-request-id')).toBe('err-401');
    const invalid = await t.request('POST', '/api/v1/workflows', { body: { name: '' }, headers: { 'X-Request-Id': 'err-400' } });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('x-request-id')).toBe('err-400');
  });

  it('is kept on the run: the log detail and the execution detail show it', async () => {
    const wf = await createAndDeploy(t, echoState());
    const res = await t.request('POST', `/api/workflows/${wf}/execute`, { body: { q: 'hi' }, headers: { 'X-Request-Id': 'run-trace-42' } });
    expect(res.status).toBe(200);
    const executionId = res.headers.get('x-execution-id')!;
    expect((await logDetailOf(t, executionId)).requestId).toBe('run-trace-42');
    const detail = await t.request('GET', `/api/v1/logs/executions/${executionId}`);
    expect(detail.body.executionMetadata.requestId).toBe('run-trace-42');

    // A generated id is kept the same way.
    const plain = await t.request('POST', `/api/workflows/${wf}/execute`, { body: { q: 'hi' } });
    const generated = plain.headers.get('x-request-id')!;
    expect(generated).toMatch(GENERATED);
    expect((await logDetailOf(t, plain.headers.get('x-execution-id')!)).requestId).toBe(generated);
  });

  it('follows an async run into the worker that carries it out', async () => {
    const wf = await createAndDeploy(t, echoState());
    const worker = createAppWorker(t.app);
    await worker.start();
    try {
      const res = await t.request('POST', `/api/workflows/${wf}/execute`, {
        body: { q: 'later' },
        headers: { 'X-Execution-Mode': 'async', 'X-Request-Id': 'queued-run-7' },
      });
      expect(res.status).toBe(202);
      expect(res.headers.get('x-request-id')).toBe('queued-run-7');
      expect((await logDetailOf(t, res.body.executionId)).requestId).toBe('queued-run-7');
    } finally {
      await worker.stop(1_000);
    }
  });

  it('is on the request’s log lines', async () => {
    const res = await t.request('GET', '/api/v1/me', { headers: { 'X-Request-Id': 'log-line-check' } });
    expect(res.status).toBe(200);
    const line = await eventually(() => log.lines.find((l) => l.requestId === 'log-line-check'), 5_000, 'the log line');
    expect(line).toMatchObject({ msg: 'request', method: 'GET', route: '/api/v1/me', status: 200 });
    expect(typeof line.durationMs).toBe('number');
    // Lines of other requests carry their own ids.
    expect(log.lines.filter((l) => l.requestId === 'log-line-check')).toHaveLength(1);
  });
});
