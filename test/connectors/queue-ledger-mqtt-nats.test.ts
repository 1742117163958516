// Reliability proof for MQTT and NATS queue triggers (issue 26, docs/guarantees.md), on PostgreSQL, with `sluice
// worker` processes: two workers share a trigger's messages (each message one run); and with one of two workers
// killed with SIGKILL while runs are in hand and another started, every message still gets a successful run.
// MQTT: the new worker takes the dead one's slot, resumes its session and is sent what it had not acknowledged.
// NATS: the JetStream consumer sends the dead worker's unacknowledged messages again after the ack wait.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect } from '@nats-io/transport-node';
import { and, eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { executions } from '../../src/db/schema.js';
import { startWorkerProcess, type WorkerProcess } from '../jobs/worker-process.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';
import { finalOutputColumns, withFinalOutputs } from '../support/final-outputs.js';

const MESSAGES = 120;

interface Broker {
  credential: { type: string; data: Record<string, unknown> };
  /** The trigger's config beside the credential. */
  trigger(name: string): Record<string, unknown>;
  setUp(name: string): Promise<void>;
  publish(name: string, n: number): Promise<void>;
  tearDown(name: string): Promise<void>;
}

async function mqttBroker(): Promise<Broker & { close(): Promise<void> }> {
  const client = await mqtt.connectAsync({ host: '127.0.0.1', port: 1883, protocolVersion: 5 });
  return {
    credential: { type: 'mqtt', data: { host: '127.0.0.1', port: 1883 } },
    trigger: (name) => ({ topic: `sluice/ledger/${name}/#` }),
    setUp: async () => {},
    publish: async (name, n) => void (await client.publishAsync(`sluice/ledger/${name}/m`, JSON.stringify({ n }), { qos: 1 })),
    tearDown: async () => {},
    close: () => client.endAsync(),
  };
}

async function natsBroker(): Promise<Broker & { close(): Promise<void> }> {
  const nc = await natsConnect({ servers: '127.0.0.1:4222' });
  const jsm = await jetstreamManager(nc);
  const js = jetstream(nc);
  return {
    credential: { type: 'nats', data: { host: '127.0.0.1', port: 4222 } },
    trigger: (name) => ({ subject: `sluice.ledger.${name}` }),
    setUp: async (name) => void (await jsm.streams.add({ name: `ledger_${name}`, subjects: [`sluice.ledger.${name}`] })),
    publish: async (name, n) => void (await js.publish(`sluice.ledger.${name}`, JSON.stringify({ n }))),
    tearDown: async (name) => void (await jsm.streams.delete(`ledger_${name}`).catch(() => false)),
    close: () => nc.close(),
  };
}

async function withWorkers(
  brokerOf: () => Promise<Broker & { close(): Promise<void> }>,
  body: (ctx: { t: TestApp; broker: Broker; name: string; wf: string; start(): Promise<WorkerProcess>; successes(): Promise<(number | undefined)[]>; all(): Promise<number> }) => Promise<void>,
  extraEnv: Record<string, string> = {},
) {
  const t = await startTestApp();
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-queue-ledger-'));
  const broker = await brokerOf();
  const name = randomUUID().slice(0, 8);
  const workers: WorkerProcess[] = [];
  try {
    await broker.setUp(name);
    const credential = await t.request('POST', '/api/v1/credentials', { body: { workspaceId: t.workspaceId, name: 'broker', ...broker.credential } });
    // Each run takes a little while, so a kill finds runs in hand.
    const wf = await createAndDeploy(
      t,
      makeState(
        [
          { id: 'q', type: 'queue_trigger', config: { credentialId: credential.body.data.id, concurrency: 8, ...broker.trigger(name) } },
          { id: 'pause', type: 'wait', config: { ms: 30 } },
          { id: 'echo', type: 'function', config: { code: 'return { n: <q.body>.n };' } },
        ],
        [
          ['q', 'pause'],
          ['pause', 'echo'],
        ],
      ),
      'Ledger consumer',
    );
    const workerEnv = {
      DATABASE_URL: t.databaseUrl!,
      SLUICE_SECRET: t.config.secret!,
      SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
      SLUICE_DATA_DIR: dataDir,
      SLUICE_WORKER_POLL_MS: '200',
      SLUICE_EXECUTION_TIMEOUT_MS: '60000',
      ...extraEnv,
    };
    const start = async () => {
      const worker = await startWorkerProcess(workerEnv);
      workers.push(worker);
      await eventually(async () => (worker.output().includes('"msg":"queue trigger consuming"') ? true : undefined), 30_000, 'the worker to consume');
      return worker;
    };
    const successes = async () => {
      const rows = withFinalOutputs(
        await t.app.db.select(finalOutputColumns).from(executions).where(and(eq(executions.workflowId, wf), eq(executions.status, 'success'))),
      );
      return rows.map((row) => (row.finalOutput as { result?: { n?: number } } | null)?.result?.n);
    };
    const all = async () => (await t.app.db.select({ id: executions.id }).from(executions).where(eq(executions.workflowId, wf))).length;
    await body({ t, broker, name, wf, start, successes, all });
  } finally {
    await Promise.all(workers.map((worker) => worker.stop('SIGTERM')));
    await broker.tearDown(name);
    await broker.close();
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const everyMessage = Array.from({ length: MESSAGES }, (_, n) => n);

describe.runIf(TEST_DATABASE_URL).each([
  ['MQTT', mqttBroker],
  ['NATS', natsBroker],
])('queue trigger ledger (PostgreSQL, %s)', (_label, brokerOf) => {
  it('two workers share the messages: each message runs exactly once', { timeout: 150_000 }, async () => {
    await withWorkers(brokerOf, async ({ broker, name, start, successes, all }) => {
      const workers = [await start(), await start()];
      for (const n of everyMessage) await broker.publish(name, n);
      const seen = await eventually(async () => ((await successes()).length >= MESSAGES ? await successes() : undefined), 90_000, 'a run for every message');
      // A moment for any second delivery to show up.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect([...seen].sort((a, b) => a! - b!)).toEqual(everyMessage);
      expect(await all()).toBe(MESSAGES);
      // Both took part (the broker split the messages between them).
      for (const worker of workers) expect(worker.output()).toContain('"msg":"queue trigger consuming"');
    });
  });

  it('runs every message at least once through a SIGKILLed worker', { timeout: 180_000 }, async () => {
    await withWorkers(brokerOf, async ({ broker, name, start, successes, all }) => {
      const [doomed] = [await start(), await start()];
      for (const n of everyMessage) await broker.publish(name, n);
      await eventually(async () => ((await successes()).length >= MESSAGES / 4 ? true : undefined), 60_000, 'a quarter of the runs');
      expect(await doomed.stop('SIGKILL')).toBeNull();
      await start();
      const seen = await eventually(
        async () => {
          const ns = new Set(await successes());
          return ns.size === MESSAGES ? ns : undefined;
        },
        120_000,
        'a successful run for every message',
      );
      expect([...seen].sort((a, b) => a! - b!)).toEqual(everyMessage);
      // The kill caught runs in hand: their messages, never acknowledged, ran again.
      expect(await all()).toBeGreaterThan(MESSAGES);
      // NATS sends the dead worker's messages again after the ack wait: 8 s here instead of 30 s (both workers have
      // it, so neither puts the consumer back to 30 s). The first test keeps 30 s: it counts exactly one run each.
    }, { SLUICE_TEST_NATS_ACK_WAIT_MS: '8000' });
  });
});
