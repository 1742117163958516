// OpenTelemetry traces, received by a real OTLP/HTTP collector stand-in on loopback (JSON encoding, decoded here):
// one execute call that carries a W3C traceparent makes a server span under the caller's span, an execution span
// under it, and a span per block under that — blocks inside a loop under the loop's span.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppWorker } from '../../src/app/worker.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { echoState } from '../support/states.js';
import { failingState } from '../completion-webhooks/support.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status: { code?: number; message?: string };
  startNs: bigint;
  endNs: bigint;
  service: string;
}

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
const valueOf = (v: OtlpValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));
const attributesOf = (list: Array<{ key: string; value: OtlpValue }> = []) =>
  Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)!])) as Record<string, string | number | boolean>;

/** A collector that accepts OTLP/HTTP JSON on /v1/traces and keeps every span it is sent. */
async function startCollector() {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      contentTypes.push(String(req.headers['content-type']));
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const s of scope.spans ?? []) {
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              name: s.name,
              kind: s.kind,
              attributes: attributesOf(s.attributes),
              status: s.status ?? {},
              startNs: BigInt(s.startTimeUnixNano),
              endNs: BigInt(s.endTimeUnixNano),
              service,
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const SERVER = 2;
const INTERNAL = 1;
const STATUS_ERROR = 2;

let t: TestApp | undefined;
let collector: Awaited<ReturnType<typeof startCollector>> | undefined;
async function closeApp() {
  const app = t;
  t = undefined;
  await app?.close();
}
afterEach(async () => {
  await closeApp();
  await collector?.close();
  collector = undefined;
});

function loopState() {
  const state = makeState(
    [
      { id: 'start', type: 'api_trigger', name: 'API' },
      { id: 'box', type: 'loop', name: 'Twice' },
      { id: 'step', type: 'function', name: 'Step', config: { code: 'return <loop.index> * 10' }, parentId: 'box' },
      { id: 'out', type: 'response', name: 'Out', config: { body: { results: '<box.results>' } } },
    ],
    [
      ['start', 'box'],
      ['box', 'step'],
      ['box', 'out'],
    ],
  );
  return { ...state, loops: { box: { id: 'box', nodes: ['step'], loopType: 'for', iterations: 2 } } };
}

describe('OpenTelemetry traces', () => {
  it('exports the span tree of one execute call under the caller’s traceparent', async () => {
    collector = await startCollector();
    t = await startTestApp({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SERVICE_NAME: 'sluice-under-test' });
    const wf = await createAndDeploy(t, loopState());
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpanId = '00f067aa0ba902b7';
    const res = await t.request('POST', `/api/workflows/${wf}/execute`, {
      body: {},
      headers: { traceparent: `00-${traceId}-${callerSpanId}-01`, 'X-Request-Id': 'traced-call-1' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results.map((r: { result: number }) => r.result)).toEqual([0, 10]);
    const executionId = res.headers.get('x-execution-id');
    // Shutting down sends what is still buffered.
    await closeApp();

    expect(collector.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);
    const trace = collector.spans.filter((s) => s.traceId === traceId);
    expect(trace.every((s) => s.service === 'sluice-under-test')).toBe(true);

    const server = trace.find((s) => s.kind === SERVER && s.attributes['http.route'] === '/api/workflows/:workflowId/execute')!;
    expect(server).toMatchObject({
      name: 'POST /api/workflows/:workflowId/execute',
      parentSpanId: callerSpanId,
      attributes: { 'http.request.method': 'POST', 'http.response.status_code': 200, 'sluice.request.id': 'traced-call-1' },
    });

    const execution = trace.find((s) => s.name === 'execution api')!;
    expect(execution).toMatchObject({
      kind: INTERNAL,
      parentSpanId: server.spanId,
      attributes: {
        'sluice.workflow.id': wf,
        'sluice.execution.id': executionId,
        'sluice.trigger': 'api',
        'sluice.deployment.version': 1,
        'sluice.outcome': 'success',
        'sluice.request.id': 'traced-call-1',
      },
    });
    expect(execution.status.code ?? 0).not.toBe(STATUS_ERROR);

    const blocks = trace.filter((s) => s.name.startsWith('block '));
    const byId = (id: string) => blocks.filter((s) => s.attributes['sluice.block.id'] === id);
    const [trigger] = byId('start');
    const [loop] = byId('box');
    const [out] = byId('out');
    const steps = byId('step');
    for (const top of [trigger, loop, out]) expect(top.parentSpanId).toBe(execution.spanId);
    // The loop body ran twice, each run a span under the loop's.
    expect(steps.map((s) => s.attributes['sluice.block.iteration']).sort()).toEqual([0, 1]);
    for (const step of steps) expect(step.parentSpanId).toBe(loop.spanId);
    expect(trigger).toMatchObject({ name: 'block api_trigger', attributes: { 'sluice.block.type': 'api_trigger', 'sluice.block.name': 'API', 'sluice.block.status': 'success' } });
    expect(steps[0]).toMatchObject({ name: 'block function', attributes: { 'sluice.block.name': 'Step', 'sluice.block.status': 'success' } });
    expect(typeof out.attributes['sluice.block.duration_ms']).toBe('number');
    expect(blocks).toHaveLength(5);
    // Children lie within their parents — to the millisecond: the SDK anchors each span's clock on Date.now().
    const ms = 1_000_000n;
    for (const child of [execution, ...blocks]) {
      const parent = trace.find((s) => s.spanId === child.parentSpanId)!;
      expect(child.startNs + ms >= parent.startNs && child.endNs <= parent.endNs + ms, `${child.name} within ${parent.name}`).toBe(true);
    }
  });

  it('marks a failed run and its failed block as errors, and starts a trace of its own without a traceparent', async () => {
    collector = await startCollector();
    t = await startTestApp({ OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.url}/` });
    const wf = await createAndDeploy(t, failingState());
    const res = await t.request('POST', `/api/workflows/${wf}/execute`, { body: {}, headers: { traceparent: 'not-a-traceparent' } });
    expect(res.status).toBe(500);
    await closeApp();

    const execution = collector.spans.find((s) => s.name === 'execution api')!;
    expect(execution.attributes['sluice.outcome']).toBe('error');
    expect(execution.status).toMatchObject({ code: STATUS_ERROR });
    const server = collector.spans.find((s) => s.spanId === execution.parentSpanId)!;
    expect(server.kind).toBe(SERVER);
    expect(server.parentSpanId).toBeUndefined();
    expect(server.attributes['http.response.status_code']).toBe(500);
    expect(server.service).toBe('sluice');
    const boom = collector.spans.find((s) => s.attributes['sluice.block.id'] === 'boom')!;
    expect(boom).toMatchObject({ parentSpanId: execution.spanId, status: { code: STATUS_ERROR }, attributes: { 'sluice.block.status': 'error' } });
    expect(boom.status.message).toContain('boom');
  });

  it('continues the trace of the request that queued an async run in the worker that runs it', async () => {
    collector = await startCollector();
    t = await startTestApp({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, SLUICE_WORKER_POLL_MS: '50' });
    const wf = await createAndDeploy(t, echoState());
    const traceId = 'a3ce929d0e0e47364bf92f3577b34da6';
    const res = await t.request('POST', `/api/workflows/${wf}/execute`, {
      body: { q: 'later' },
      headers: { 'X-Execution-Mode': 'async', traceparent: `00-${traceId}-b7ad6b7169203331-01` },
    });
    expect(res.status).toBe(202);
    const worker = createAppWorker(t.app);
    await worker.start();
    try {
      await eventually(async () => (await t!.request('GET', `/api/jobs/${res.body.taskId}`)).body.status === 'completed', 10_000, 'the async run');
    } finally {
      await worker.stop(1_000);
    }
    await closeApp();

    const server = collector.spans.find((s) => s.kind === SERVER && s.traceId === traceId && s.attributes['http.response.status_code'] === 202)!;
    const execution = collector.spans.find((s) => s.name === 'execution api')!;
    expect(execution).toMatchObject({ traceId, parentSpanId: server.spanId, attributes: { 'sluice.execution.id': res.body.executionId } });
    expect(execution.startNs).toBeGreaterThanOrEqual(server.endNs - 1_000_000n);
    expect(collector.spans.filter((s) => s.parentSpanId === execution.spanId).map((s) => s.name).sort()).toEqual(['block api_trigger', 'block response']);
  });
});
