// The queue trigger's form in the editor (issue 26), in a real browser: it shows only the fields of the chosen
// credential's broker (amqp → queue; mqtt → topic; nats → subject, stream, durable consumer), and switching the
// credential keeps the other brokers' values in the saved config, so switching back finds them as they were.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { pageTools, useBrowserApp } from './support/browser-app.js';

const app = useBrowserApp({ owner: true });
const { shot, block, waitSaved, signedIn, keyApi, withFailureShot } = pageTools(app);
let page: Page;
beforeAll(() => {
  page = app.page;
});

const BROKER_FIELDS = ['Queue (RabbitMQ)', 'Topic (MQTT)', 'Subject (NATS)', 'Stream (NATS, optional)', 'Durable consumer (NATS, optional)'];

describe('the queue trigger form', { timeout: 150_000 }, () => {
  it('shows the fields of the chosen credential’s broker only, keeping the others’ values', withFailureShot('failure-queue-trigger-form', formJourney));
});

async function formJourney() {
  const workspaces = await keyApi('/api/v1/workspaces');
  const workspaceId = (workspaces.body.data as Array<{ id: string }>)[0].id;
  const credential = async (name: string, type: string) => {
    const created = await keyApi('/api/v1/credentials', { method: 'POST', body: { workspaceId, name, type, data: { host: '127.0.0.1' } } });
    expect(created.status).toBe(201);
    return (created.body.data as { id: string }).id;
  };
  const rabbit = await credential('Rabbit', 'amqp');
  await credential('Sensors', 'mqtt');
  await credential('Orders stream', 'nats');
  const created = await keyApi('/api/v1/workflows', {
    method: 'POST',
    body: {
      workspaceId,
      name: 'Consumer',
      state: {
        blocks: { q: { id: 'q', type: 'queue_trigger', name: 'Queue', position: { x: 0, y: 120 }, enabled: true, config: { credentialId: rabbit, queue: 'orders' } } },
        edges: [],
        loops: {},
        parallels: {},
      },
    },
  });
  expect(created.status).toBe(201);
  const workflowId = (created.body.data as { id: string }).id;

  await signedIn();
  await page.goto(`${app.url}/workflows/${workflowId}`);
  await block('Queue').click();
  const panel = page.getByTestId('config-panel');
  const credentialSelect = panel.getByLabel('Credential', { exact: true });
  /**
   * The broker fields the form shows, once it has settled on `expected`: until the credentials have loaded, the form
   * does not know the broker and shows every field.
   */
  const expectShown = async (expected: string[]) => {
    const shown = async () => {
      const labels: string[] = [];
      for (const label of BROKER_FIELDS) if ((await panel.getByLabel(label, { exact: true }).count()) > 0) labels.push(label);
      return labels;
    };
    await expect.poll(shown).toEqual(expected);
  };

  // RabbitMQ: the queue only.
  await expectShown(['Queue (RabbitMQ)']);
  await expect.poll(() => panel.getByLabel('Queue (RabbitMQ)', { exact: true }).inputValue()).toBe('orders');

  // MQTT: the topic only.
  await credentialSelect.selectOption({ label: 'Sensors (mqtt)' });
  await expectShown(['Topic (MQTT)']);
  await panel.getByLabel('Topic (MQTT)', { exact: true }).fill('sensors/#');
  await waitSaved();
  await shot('queue-trigger-form-mqtt');

  // NATS: subject, stream and durable consumer.
  await credentialSelect.selectOption({ label: 'Orders stream (nats)' });
  await expectShown(['Subject (NATS)', 'Stream (NATS, optional)', 'Durable consumer (NATS, optional)']);
  await panel.getByLabel('Subject (NATS)', { exact: true }).fill('orders.created');
  await waitSaved();
  await shot('queue-trigger-form-nats');

  // The hidden fields kept their values in the saved draft.
  const saved = await keyApi(`/api/v1/workflows/${workflowId}`);
  const config = (saved.body.data as { state: { blocks: Record<string, { config: Record<string, unknown> }> } }).state.blocks.q.config;
  expect(config).toMatchObject({ queue: 'orders', topic: 'sensors/#', subject: 'orders.created' });

  // Back to RabbitMQ: the queue is there as it was.
  await credentialSelect.selectOption({ label: 'Rabbit (amqp)' });
  await expectShown(['Queue (RabbitMQ)']);
  expect(await panel.getByLabel('Queue (RabbitMQ)', { exact: true }).inputValue()).toBe('orders');
  expect(app.errors).toEqual([]);
}
