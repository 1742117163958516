// Reliability proof (issue 6, docs/guarantees.md 6), on PostgreSQL: hundreds of executions with two
// subscriptions each, a receiver that fails at random (500, 429, connection resets, hangs past the time-out), and
// worker processes killed with SIGKILL and restarted while they deliver. Afterwards the receiver's ledger must show
// every expected delivery acknowledged at least once, and every duplicate carrying the same delivery id.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, ne } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { deliveries, jobs } from '../../src/db/schema.js';
import { createLogger } from '../../src/logger.js';
import { generateApiKey } from '../../src/services/api-keys.js';
import { createAppContext } from '../../src/app/context.js';
import type { AppContext } from '../../src/services/app-context.js';
import { runExecution } from '../../src/runs/run-execution.js';
import { createSubscription } from '../../src/services/completion-webhooks/subscriptions.js';
import { createWorkflow, deployWorkflow } from '../../src/services/workflows.js';
import { bootstrapAdmin } from '../../src/services/workspaces.js';
import type { WorkflowState } from '../../src/workflow/index.js';
import { startWorkerProcess, type WorkerProcess } from '../jobs/worker-process.js';
import { createTestDatabase, TEST_DATABASE_URL } from '../support/database.js';
import { eventually, plainState, startReceiver } from './support.js';

const EXECUTIONS = 300;
const BATCH = 25;
const KILLS = 5;
const SECRET = 'ledger-secret-ledger-secret-ledger-0001';
const SIGNING_SECRET = 'whsec_ledger_signing';

interface Arrival {
  path: string;
  deliveryId: string;
  eventId: string;
  acked: boolean;
  signed: boolean;
}

function signatureValid(headers: Record<string, string | string[] | undefined>, body: Buffer): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(headers['service-signature'] ?? ''));
  if (!match || match[1] !== headers['service-timestamp']) return false;
  const expected = createHmac('sha256', SIGNING_SECRET).update(`${match[1]}.${body.toString()}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2], 'hex'));
}

describe.runIf(TEST_DATABASE_URL)('reliability ledger (PostgreSQL)', () => {
  it('delivers everything at least once through random receiver failures and SIGKILLed workers', { timeout: 60_000 }, async () => {
    const testDb = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'sluice-ledger-'));
    const arrivals: Arrival[] = [];
    const receiver = await startReceiver((req, res, recorded) => {
      const body = JSON.parse(recorded.body.toString()) as { id: string };
      const arrival: Arrival = {
        path: recorded.url.slice(recorded.url.lastIndexOf('/')),
        deliveryId: String(req.headers['service-delivery-id']),
        eventId: body.id,
        acked: false,
        signed: signatureValid(req.headers, recorded.body),
      };
      arrivals.push(arrival);
      const roll = Math.random();
      if (roll < 0.5) {
        arrival.acked = true;
        res.writeHead(200).end('ok');
      } else if (roll < 0.65) res.writeHead(500).end('flaky');
      else if (roll < 0.75) res.writeHead(429, { 'Retry-After': '0' }).end('slow down');
      else if (roll < 0.88) req.socket.destroy();
      // else: hang; the worker's 400 ms time-out gives up on us
    });
    const workers: WorkerProcess[] = [];
    let opened: AppContext | undefined;
    try {
      const config = loadConfig({
        DATABASE_URL: testDb.url!,
        SLUICE_SECRET: SECRET,
        SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
        SLUICE_DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
      });
      const app = await createAppContext(config, createLogger('silent'), testDb.database);
      opened = app;
      // As `serve --no-worker` does: this process beats a heartbeat, so the workers' crash sweep leaves its runs alone.
      await app.startRunner();
      const admin = await bootstrapAdmin(app.db, { apiKey: generateApiKey(), adminEmail: 'admin@localhost', plan: 'enterprise' });
      const state = plainState();
      const workflow = await createWorkflow(app.db, { workspaceId: admin.workspaceId, name: 'Ledger', state });
      const deployment = await deployWorkflow(app.db, workflow.id, admin.userId);
      await createSubscription(app, workflow, { url: `${receiver.url}/signed`, secret: SIGNING_SECRET });
      await createSubscription(app, workflow, { url: `${receiver.url}/plain` });

      const workerEnv = {
        DATABASE_URL: testDb.url!,
        SLUICE_SECRET: SECRET,
        SLUICE_ALLOW_PRIVATE_NETWORK: 'true',
        SLUICE_DATA_DIR: dataDir,
        SLUICE_WEBHOOK_TIMEOUT_MS: '400',
        SLUICE_WEBHOOK_RETRY_SCHEDULE: '50ms,100ms,200ms,300ms',
        SLUICE_WEBHOOK_MAX_ATTEMPTS: '20',
        SLUICE_JOB_LEASE_MS: '1500',
        SLUICE_WORKER_POLL_MS: '100',
        SLUICE_WORKER_CONCURRENCY: '16',
      };
      workers.push(...(await Promise.all([startWorkerProcess(workerEnv), startWorkerProcess(workerEnv)])));

      // Executions complete in this process (as in `serve --no-worker`) while workers die and come back.
      const produce = (async () => {
        for (let done = 0; done < EXECUTIONS; done += BATCH) {
          await Promise.all(
            Array.from({ length: BATCH }, (_, i) =>
              runExecution(app, {
                workflow: { id: workflow.id, workspaceId: workflow.workspaceId },
                state: state as WorkflowState,
                deploymentVersion: deployment.version,
                trigger: 'api',
                input: { q: `run ${done + i}` },
              }),
            ),
          );
          await new Promise((resolve) => setTimeout(resolve, 400));
        }
      })();
      let kills = 0;
      for (; kills < KILLS; kills++) {
        await new Promise((resolve) => setTimeout(resolve, 1_200));
        const victim = workers.splice(kills % workers.length, 1)[0];
        expect(await victim.stop('SIGKILL')).toBeNull();
        workers.push(await startWorkerProcess(workerEnv));
      }
      await produce;

      await eventually(
        async () => {
          const [{ open }] = await app.db.select({ open: count() }).from(deliveries).where(ne(deliveries.status, 'succeeded'));
          return open === 0;
        },
        40_000,
        'every delivery to succeed',
      );

      const rows = await app.db.select().from(deliveries);
      expect(rows).toHaveLength(EXECUTIONS * 2);
      expect(new Set(rows.map((r) => r.executionId)).size).toBe(EXECUTIONS);
      expect((await app.db.select({ n: count() }).from(jobs))[0].n).toBe(0);

      // Every expected delivery was acknowledged by the receiver at least once…
      const acked = new Set(arrivals.filter((a) => a.acked).map((a) => a.deliveryId));
      const missing = rows.filter((r) => !acked.has(r.id));
      expect(missing.map((r) => r.id)).toEqual([]);
      // …every arrival belongs to an expected delivery, at the subscription it was meant for…
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(arrivals.filter((a) => !byId.has(a.deliveryId))).toEqual([]);
      // …and duplicates (retries, or re-sends after a killed worker) carry the same delivery id.
      const idsPerEventAndPath = new Map<string, Set<string>>();
      for (const a of arrivals) {
        const key = `${a.eventId} ${a.path}`;
        idsPerEventAndPath.set(key, (idsPerEventAndPath.get(key) ?? new Set()).add(a.deliveryId));
      }
      expect(idsPerEventAndPath.size).toBe(EXECUTIONS * 2);
      expect([...idsPerEventAndPath.values()].every((ids) => ids.size === 1)).toBe(true);
      expect(arrivals.filter((a) => a.path === '/signed' && !a.signed)).toEqual([]);
      expect(arrivals.filter((a) => a.path === '/plain' && a.signed)).toEqual([]);

      const duplicates = arrivals.filter((a) => a.acked).length - acked.size;
      console.log(
        `ledger: ${rows.length} deliveries, ${arrivals.length} arrivals, ${acked.size} acknowledged, ` +
          `${duplicates} acknowledged more than once, ${kills} workers killed`,
      );
    } finally {
      await Promise.all(workers.map((w) => w.stop('SIGKILL')));
      await opened?.close();
      await receiver.close();
      await testDb.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
