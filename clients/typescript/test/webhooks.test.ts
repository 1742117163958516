// Webhook subscriptions through sluice-client, and verifyWebhook on the deliveries a real server sends: a genuine
// delivery verifies and comes back as the typed event; a changed body, another secret or an old signature do not.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../src/index.js';
import { echoState, eventually, refusal, startClientTestServer, type ClientTestServer } from './support.js';

const SECRET = 'whsec-client-test-0123';

let s: ClientTestServer;
let receiver: Server;
let receiverUrl: string;
const received: Array<{ headers: IncomingHttpHeaders; body: Buffer }> = [];

beforeAll(async () => {
  s = await startClientTestServer();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await new Promise((done) => receiver?.close(done));
  await s?.close();
});

describe('webhook subscriptions and verifyWebhook', () => {
  it('manages a subscription, and verifies what the server delivers', async () => {
    const wf = await s.client.workflows.create({ workspaceId: s.t.workspaceId, name: 'Hooked', state: echoState() });
    await s.client.workflows.deploy(wf.id);
    const sub = await s.client.webhooks.create(wf.id, { url: receiverUrl, secret: SECRET, includeFinalOutput: true });
    expect(sub).toMatchObject({ url: receiverUrl, hasSecret: true, includeFinalOutput: true, active: true });
    expect(await s.client.webhooks.list(wf.id)).toEqual([sub]);
    expect((await s.client.webhooks.update(wf.id, sub.id, { levelFilter: ['info', 'error'] })).levelFilter).toEqual(['info', 'error']);

    const run = await s.client.executeWorkflow(wf.id, { q: 'signed' });
    await eventually(() => received.length >= 1, 15_000, 'the delivery');
    const { headers, body } = received[0];
    const event = await verifyWebhook(body, headers, SECRET);
    expect(event).toMatchObject({ type: 'workflow.execution.completed', data: { executionId: run.executionId, finalOutput: { status: 200, body: { echoed: 'signed' } } } });
    // A string body and fetch-style Headers work the same.
    const asHeaders = new Headers(Object.entries(headers).map(([k, v]): [string, string] => [k, String(v)]));
    expect((await verifyWebhook(body.toString('utf8'), asHeaders, SECRET)).id).toBe(event.id);

    const tampered = Buffer.from(body.toString('utf8').replace('signed', 'forged'));
    expect(await refusal(verifyWebhook(tampered, headers, SECRET))).toMatchObject({ status: 401, code: 'WEBHOOK_SIGNATURE_INVALID' });
    expect((await refusal(verifyWebhook(body, headers, 'another-secret'))).code).toBe('WEBHOOK_SIGNATURE_INVALID');
    const later = Number(headers['service-timestamp']) + 6 * 60_000;
    expect((await refusal(verifyWebhook(body, headers, SECRET, { now: later }))).code).toBe('WEBHOOK_TIMESTAMP_INVALID');
    const { ['service-signature']: _dropped, ...unsigned } = headers;
    expect((await refusal(verifyWebhook(body, unsigned, SECRET))).code).toBe('WEBHOOK_SIGNATURE_MISSING');

    // The test event and the delivery history, with a redelivery.
    const test = await s.client.webhooks.test(wf.id, sub.id);
    await eventually(() => received.length >= 2, 15_000, 'the test delivery');
    expect(received[1].headers['service-test']).toBe('true');
    const history = await s.client.webhooks.deliveries(wf.id, sub.id, { limit: 10 });
    expect(history.data.map((d) => d.id)).toContain(test.id);
    const again = await s.client.webhooks.redeliver(wf.id, test.id);
    expect(again.eventId).toBe(test.eventId);
    await eventually(() => received.length >= 3, 15_000, 'the redelivery');
    const redelivered = await verifyWebhook(received[2].body, received[2].headers, SECRET);
    expect(redelivered.id).toBe(test.eventId);

    await s.client.webhooks.delete(wf.id, sub.id);
    expect(await s.client.webhooks.list(wf.id)).toEqual([]);
  });
});
