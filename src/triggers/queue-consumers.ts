// Queue triggers (docs/workflows.md "Queue trigger"): each worker process consumes the queues of the active
// deployments' `queue_trigger` blocks and starts one run per message. A message is acknowledged only once its run's
// log is durable, so a crash before that leaves it with the broker, which delivers it again (at least once). Every
// worker consumes every trigger's queue as a competing consumer, so the broker hands each message to one of them.
// The consumers follow deploys and undeploys by looking at the active deployments every poll interval.
import { setMaxListeners } from 'node:events';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { queueTriggerConfigSchema, type QueueTriggerConfig } from '../blocks/queue-trigger.js';
import { consumeAmqp, type QueueConsumer, type QueueMessage, type Settlement } from '../connectors/amqp.js';
import type { ResolvedCredential } from '../connectors/credential-data.js';
import { connectorErrorMessage } from '../connectors/test-connection.js';
import { credentials, deployments, workflows } from '../db/schema.js';
import { loadDeploymentVersion, runExecution } from '../runs/index.js';
import { loadCredentialForRun } from '../services/credentials.js';
import type { AppContext } from '../services/app-context.js';
import { runTimeLimitMs, type WorkflowState } from '../workflow/index.js';

export interface QueueTriggerSpec {
  workflowId: string;
  workspaceId: string;
  deploymentVersion: number;
  blockId: string;
  config: QueueTriggerConfig;
}

/** The enabled queue triggers of every active deployment. */
export async function activeQueueTriggers(app: AppContext): Promise<QueueTriggerSpec[]> {
  const rows = await app.db
    .select({ workflowId: workflows.id, workspaceId: workflows.workspaceId, version: deployments.version, state: deployments.state })
    .from(workflows)
    .innerJoin(deployments, and(eq(deployments.workflowId, workflows.id), eq(deployments.version, workflows.activeVersion)))
    .where(sql`${deployments.state}::text like '%"queue_trigger"%'`);
  const specs: QueueTriggerSpec[] = [];
  for (const row of rows) {
    for (const block of Object.values((row.state as WorkflowState).blocks)) {
      if (block.type !== 'queue_trigger' || block.enabled === false) continue;
      const parsed = queueTriggerConfigSchema.safeParse(block.config);
      if (!parsed.success) continue;
      specs.push({ workflowId: row.workflowId, workspaceId: row.workspaceId, deploymentVersion: row.version, blockId: block.id, config: parsed.data });
    }
  }
  return specs;
}

interface Running {
  key: string;
  consumer?: QueueConsumer;
  starting?: Promise<void>;
  /** Aborts the runs in hand once the consumer's grace is over. */
  runs: AbortController;
  failedAt?: number;
}

export interface QueueConsumers {
  start(): Promise<void>;
  /** Stops every consumer: no new messages, `graceMs` for the runs in hand; unsettled messages go back to the broker. */
  stop(graceMs: number): Promise<void>;
  /** Looks at the deployments now (tests, after a deploy). */
  reconcile(): Promise<void>;
  /** Keys of the running consumers (workflowId:blockId:version:credential version). */
  running(): string[];
}

const RETRY_AFTER_FAILURE_MS = 5_000;

export function createQueueConsumers(app: AppContext, options: { pollIntervalMs: number }): QueueConsumers {
  const consumers = new Map<string, Running>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let reconciling: Promise<void> | undefined;

  const policy = () => ({ allowPrivateNetwork: app.blockServices.allowPrivateNetwork, allowedHosts: app.blockServices.allowedHosts });

  async function handle(spec: QueueTriggerSpec, runs: AbortController, message: QueueMessage): Promise<Settlement> {
    const target = await loadDeploymentVersion(app, spec.workflowId, spec.deploymentVersion);
    // Undeployed meanwhile: the message stays with the broker for whoever consumes the queue next.
    if (!target) return 'requeue';
    const outcome = await runExecution(app, {
      ...target,
      trigger: 'queue',
      triggerBlockId: spec.blockId,
      input: { body: message.body, headers: message.headers, properties: message.properties },
      signal: runs.signal,
      timeoutMs: runTimeLimitMs(target.state.flowControl, app.config.executionTimeoutMs, false),
      canPark: true,
      markBeforeStart: true,
    });
    // Not logged at all: only a redelivery can still give this message its run.
    if (outcome.stored === 'none') return 'requeue';
    // A run that paused (an approval, a long wait) goes on without the message: it is not a failure to redeliver.
    if (!outcome.result.success && outcome.result.stopReason !== 'paused' && spec.config.redeliverOnError) return 'requeue';
    return 'ack';
  }

  async function open(key: string, spec: QueueTriggerSpec, running: Running): Promise<void> {
    const credential = await loadCredentialForRun(app.db, app.cipher, spec.workspaceId, spec.config.credentialId);
    if (credential.type !== 'amqp') throw new Error(`Queue triggers on ${credential.type} credentials are not supported yet`);
    if (!spec.config.queue) throw new Error('The queue trigger names no queue');
    running.consumer = await consumeAmqp(
      credential as ResolvedCredential<'amqp'>,
      policy(),
      { queue: spec.config.queue, prefetch: spec.config.concurrency, consumerTag: `sluice-${spec.workflowId}-${spec.blockId}-${randomSuffix()}` },
      (message) => handle(spec, running.runs, message),
    );
    void running.consumer.closed.then((error) => {
      if (!error || consumers.get(key) !== running) return;
      app.logger.warn({ workflowId: spec.workflowId, blockId: spec.blockId, error: connectorErrorMessage(error) }, 'queue trigger consumer closed; reopening');
      consumers.delete(key);
    });
    app.logger.info({ workflowId: spec.workflowId, blockId: spec.blockId, queue: spec.config.queue }, 'queue trigger consuming');
  }

  /**
   * Each trigger's key. The credential's version is part of it: a rotated credential reopens the consumer with the
   * new data. One query for every trigger's credential, not one per trigger, since this runs every second.
   */
  async function keysOf(specs: QueueTriggerSpec[]): Promise<Map<string, QueueTriggerSpec>> {
    const ids = [...new Set(specs.map((spec) => spec.config.credentialId))];
    const rows = ids.length === 0 ? [] : await app.db.select({ id: credentials.id, version: credentials.version }).from(credentials).where(inArray(credentials.id, ids));
    const versions = new Map(rows.map((row) => [row.id, row.version]));
    return new Map(
      specs.map((spec) => [`${spec.workflowId}:${spec.blockId}:${spec.deploymentVersion}:${versions.get(spec.config.credentialId) ?? 'missing'}`, spec]),
    );
  }

  async function reconcileOnce(): Promise<void> {
    const wanted = await keysOf(await activeQueueTriggers(app));
    for (const [key, running] of consumers) {
      if (wanted.has(key)) continue;
      consumers.delete(key);
      void stopOne(running, app.config.worker.shutdownGraceMs);
    }
    for (const [key, spec] of wanted) {
      const existing = consumers.get(key);
      if (existing && !(existing.failedAt !== undefined && Date.now() - existing.failedAt > RETRY_AFTER_FAILURE_MS)) continue;
      const running: Running = { key, runs: new AbortController() };
      // Every run in hand listens on it (up to the trigger's concurrency).
      setMaxListeners(0, running.runs.signal);
      consumers.set(key, running);
      running.starting = open(key, spec, running).catch((error: unknown) => {
        running.failedAt = Date.now();
        app.logger.warn({ workflowId: spec.workflowId, blockId: spec.blockId, error: connectorErrorMessage(error) }, 'queue trigger cannot consume');
      });
    }
    await Promise.all([...consumers.values()].map((r) => r.starting));
  }

  async function stopOne(running: Running, graceMs: number): Promise<void> {
    await running.starting;
    const timeout = setTimeout(() => running.runs.abort(), graceMs).unref();
    await running.consumer?.stop(graceMs);
    clearTimeout(timeout);
  }

  const reconcile = async () => {
    reconciling ??= reconcileOnce()
      .catch((error: unknown) => app.logger.warn({ err: error }, 'queue triggers: could not read the deployments'))
      .finally(() => (reconciling = undefined));
    await reconciling;
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void reconcile().finally(schedule), options.pollIntervalMs);
    timer.unref();
  };

  return {
    async start() {
      stopped = false;
      await reconcile();
      schedule();
    },
    async stop(graceMs) {
      stopped = true;
      if (timer) clearTimeout(timer);
      await reconciling;
      const all = [...consumers.values()];
      consumers.clear();
      await Promise.all(all.map((running) => stopOne(running, graceMs)));
    },
    reconcile,
    running: () => [...consumers.values()].filter((r) => r.consumer).map((r) => r.key),
  };
}

function randomSuffix(): string {
  return Math.random().toString(36).slice(2, 8);
}
