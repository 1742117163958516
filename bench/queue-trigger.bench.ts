// Queue trigger throughput (issue 26): messages per second from a RabbitMQ queue through a one-block workflow to a
// durable log on PostgreSQL (one in-process worker, the trigger's concurrency = prefetch), beside the floor: the same
// messages consumed with the same prefetch and acked at once by a plain amqplib consumer (no Sluice, no database).
// Writes its figures to stdout (bench/run.ts puts them in bench/REPORT.md).
//
//   node --import tsx bench/queue-trigger.bench.ts
//       BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres): a throw-away database is created
//       there and dropped afterwards. BENCH_MESSAGES=2000, BENCH_CONCURRENCY=16. Needs RabbitMQ on 127.0.0.1:5672.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import amqp from 'amqplib';
import { and, count, eq } from 'drizzle-orm';
import pg from 'pg';
import { createAppContext } from '../src/app/context.js';
import { createAppWorker } from '../src/app/worker.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { executions } from '../src/db/schema.js';
import { createLogger } from '../src/logger.js';
import { generateApiKey } from '../src/services/api-keys.js';
import { createCredential } from '../src/services/credentials.js';
import { createWorkflow, deployWorkflow } from '../src/services/workflows.js';
import { bootstrapAdmin } from '../src/services/workspaces.js';
import type { WorkflowState } from '../src/workflow/index.js';

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function fill(channel: amqp.Channel, queue: string) {
  for (let n = 0; n < MESSAGES; n++) channel.sendToQueue(queue, Buffer.from(JSON.stringify({ n, at: Date.now() })), { persistent: true });
  await channel.checkQueue(queue); // a round-trip after the publishes: they have reached the broker
}

async function waitFor(check: () => Promise<boolean>) {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The floor: a bare consumer with the same prefetch, acking each message at once. */
async function floor(channel: amqp.Channel): Promise<number> {
  const queue = `bench-floor-${randomBytes(4).toString('hex')}`;
  await channel.assertQueue(queue, { durable: true });
  await fill(channel, queue);
  const consumer = channel;
  await consumer.prefetch(CONCURRENCY);
  let got = 0;
  const started = performance.now();
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  await consumer.consume(queue, (message) => {
    if (!message) return;
    consumer.ack(message);
    if (++got === MESSAGES) done();
  });
  await finished;
  const seconds = (performance.now() - started) / 1000;
  await channel.deleteQueue(queue);
  return MESSAGES / seconds;
}

async function throughSluice(channel: amqp.Channel): Promise<number> {
  const name = `sluice_bench_${randomBytes(5).toString('hex')}`;
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-bench-queue-'));
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 10 });
  const config = loadConfig({
    DATABASE_URL: url.toString(),
    SLUICE_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
    SLUICE_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
  });
  const app = await createAppContext(config, createLogger('silent'), database);
  const queue = `bench-sluice-${randomBytes(4).toString('hex')}`;
  await channel.assertQueue(queue, { durable: true });
  const worker = createAppWorker(app, { pollIntervalMs: 200 });
  try {
    await app.startRunner();
    const owner = await bootstrapAdmin(app.db, { apiKey: generateApiKey(), adminEmail: 'admin@localhost', plan: 'enterprise' });
    const credential = await createCredential(app.db, app.cipher, {
      workspaceId: owner.workspaceId,
      name: 'rabbit',
      type: 'amqp',
      data: { host: '127.0.0.1', user: 'guest', password: 'guest' },
      createdBy: null,
    });
    const state = {
      blocks: {
        q: { id: 'q', type: 'queue_trigger', name: 'q', position: { x: 0, y: 0 }, enabled: true, config: { credentialId: credential.id, queue, concurrency: CONCURRENCY } },
        set: { id: 'set', type: 'variables', name: 'set', position: { x: 200, y: 0 }, enabled: true, config: { assignments: [{ name: 'n', value: '<q.body.n>' }] } },
      },
      edges: [{ id: 'e0', source: 'q', target: 'set' }],
      loops: {},
      parallels: {},
    } as unknown as WorkflowState;
    const workflow = await createWorkflow(app.db, { workspaceId: owner.workspaceId, name: 'Queue bench', state });
    await fill(channel, queue);
    await deployWorkflow(app.db, workflow.id, owner.userId);
    const started = performance.now();
    await worker.start();
    await waitFor(async () => {
      const [row] = await app.db
        .select({ n: count() })
        .from(executions)
        .where(and(eq(executions.workflowId, workflow.id), eq(executions.status, 'success')));
      return row.n >= MESSAGES;
    });
    const seconds = (performance.now() - started) / 1000;
    return MESSAGES / seconds;
  } finally {
    await worker.stop(2_000);
    await channel.deleteQueue(queue).catch(() => {});
    await app.close();
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const model = await amqp.connect(AMQP_URL);
const channel = await model.createChannel();
const floorRate = await floor(channel);
const sluiceRate = await throughSluice(channel);
await model.close();
process.stdout.write(
  [
    `machine: ${cpus().length} cores; ${MESSAGES} persistent messages, prefetch/concurrency ${CONCURRENCY}; PostgreSQL`,
    `floor (amqplib consumer, ack at once):          ${floorRate.toFixed(0)} msg/s`,
    `Sluice (queue_trigger → variables, successful run's log durable, then ack): ${sluiceRate.toFixed(0)} msg/s`,
    `ratio Sluice / floor: ${(sluiceRate / floorRate).toFixed(3)}`,
    '',
  ].join('\n'),
);
