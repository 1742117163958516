// Reliability proof for queue triggers (issue 26, docs/guarantees.md), on PostgreSQL: messages published to a
// RabbitMQ queue consumed by `sluice worker` processes, one of them killed with SIGKILL while runs are in hand, another
// started. Afterwards every message has at least one successful run in the log and none is lost.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import amqp from 'amqplib';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { executions } from '../../src/db/schema.js';
import { startWorkerProcess, type WorkerProcess } from '../jobs/worker-process.js';
import { startTestApp } from '../support/app.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { createAndDeploy, eventually, makeState } from '../support/workflows.js';
import { finalOutputColumns, withFinalOutputs } from '../support/final-outputs.js';

const MESSAGES = 200;

describe.runIf(TEST_DATABASE_URL)('queue trigger ledger (PostgreSQL, RabbitMQ)', () => {
  it('runs every message at least once through a SIGKILLed worker', { timeout: 120_000 }, async () => {
    const t = await startTestApp();
    const dataDir = mkdtempSync(join(tmpdir(), 'sluice-queue-ledger-'));
    const queue = `sluice-ledger-${randomUUID().slice(0, 8)}`;
    const model = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
    const channel = await model.createChannel();
    const workers: WorkerProcess[] = [];
    try {
      await channel.assertQueue(queue, { durable: true });
      const credential = await t.request('POST', '/api/v1/credentials', {
        body: { workspaceId: t.workspaceId, name: 'rabbit', type: 'amqp', data: { host: '127.0.0.1', user: 'guest', password: 'guest' } },
      });
      // Each run takes a little while, so the kill finds runs in hand.
      const wf = await createAndDeploy(
        t,
        makeState(
          [
            { id: 'q', type: 'queue_trigger', config: { credentialId: credential.body.data.id, queue, concurrency: 8 } },
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
      };
      workers.push(await startWorkerProcess(workerEnv));
      await eventually(async () => (await channel.checkQueue(queue)).consumerCount === 1 || undefined, 20_000, 'the first consumer');

      for (let n = 0; n < MESSAGES; n++) channel.sendToQueue(queue, Buffer.from(JSON.stringify({ n })), { persistent: true, contentType: 'application/json' });

      const finished = async () => {
        const rows = withFinalOutputs(
          await t.app.db.select(finalOutputColumns).from(executions).where(and(eq(executions.workflowId, wf), eq(executions.status, 'success'))),
        );
        return rows.map((row) => (row.finalOutput as { result?: { n?: number } } | null)?.result?.n);
      };
      // Kill the worker once some runs are done and more are in hand.
      await eventually(async () => ((await finished()).length >= MESSAGES / 4 ? true : undefined), 60_000, 'a quarter of the runs');
      expect(await workers[0].stop('SIGKILL')).toBeNull();
      workers.push(await startWorkerProcess(workerEnv));

      const seen = await eventually(
        async () => {
          const ns = new Set(await finished());
          return ns.size === MESSAGES ? ns : undefined;
        },
        90_000,
        'a successful run for every message',
      ).catch(async (error: unknown) => {
        const state = await channel.checkQueue(queue);
        const statuses = await t.app.db.select({ status: executions.status, error: executions.error }).from(executions).where(eq(executions.workflowId, wf));
        const counts: Record<string, number> = {};
        for (const row of statuses) counts[`${row.status} ${row.error ?? ''}`] = (counts[`${row.status} ${row.error ?? ''}`] ?? 0) + 1;
        throw new Error(`${String(error)}; distinct ${new Set(await finished()).size}; queue ${JSON.stringify(state)}; runs ${JSON.stringify(counts)}; worker: ${workers[1].output().slice(-3000)}`);
      });
      expect([...seen].sort((a, b) => a! - b!)).toEqual(Array.from({ length: MESSAGES }, (_, n) => n));
      // The kill caught runs in hand (their logs are, or will be swept to, "Interrupted"): their messages, never
      // acknowledged, ran again in the other worker — so there are more runs than messages.
      const all = await t.app.db.select({ id: executions.id }).from(executions).where(eq(executions.workflowId, wf));
      expect(all.length).toBeGreaterThan(MESSAGES);
      // Everything acknowledged: nothing waits in the queue or in a consumer's hands.
      await eventually(async () => ((await channel.checkQueue(queue)).messageCount === 0 ? true : undefined), 20_000, 'an empty queue');
    } finally {
      await Promise.all(workers.map((worker) => worker.stop('SIGTERM')));
      await channel.deleteQueue(queue).catch(() => {});
      await model.close();
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
