// Queue triggers (docs/workflows.md "Queue trigger"): each worker process consumes the queues, topics and subjects
// of the active deployments' `queue_trigger` blocks and starts one run per message. A message is acknowledged only
// once its run's log is durable, so a crash before that leaves it with the broker, which delivers it again (at least
// once). Every worker consumes every trigger, and the broker hands each message to one of them: RabbitMQ competing
// consumers, an MQTT shared subscription, a NATS JetStream durable consumer.
// The consumers follow deploys, undeploys and rotated credentials through the database's change feed (a changed
// workflow, deployment or credential row looks again at once); a slow poll catches what the feed may miss (a gap).
import { setMaxListeners } from 'node:events';
import { createHash } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { queueTriggerConfigSchema, type QueueTriggerConfig } from '../blocks/queue-trigger.js';
import { consumeAmqp } from '../connectors/amqp.js';
import type { ResolvedCredential } from '../connectors/credential-data.js';
import type { HostPolicy } from '../connectors/host-policy.js';
import { consumeMqtt } from '../connectors/mqtt.js';
import { consumeNats } from '../connectors/nats.js';
import type { MessageHandler, QueueConsumer, QueueMessage, Settlement } from '../connectors/queue-message.js';
import { ALL_TOPICS } from '../db/change-feed.js';
import type { HeldSlot } from '../db/client.js';
import { connectorErrorMessage } from '../connectors/test-connection.js';
import { credentials, deployments, workflows } from '../db/schema.js';
import { newExecutionId } from '../ids.js';
import {
  admitQueuedRun,
  debounceOf,
  enqueueAsyncExecution,
  type FlowWait,
  loadDeploymentVersion,
  type RunDebounce,
  runExecution,
  type RunFlow,
  runFlowOf,
  runHoldingSlot,
  type RunTarget,
  type RunThrottle,
  runThrottleOf,
  takeStartInBackground,
} from '../runs/index.js';
import { AppError } from '../errors.js';
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
  /** Its consumer is an MQTT session named after this process's slot: it closes when the slot is lost. */
  usesSlot?: boolean;
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
/** Changes come in bursts (a deploy writes the deployment, then the workflow): one look for all of them. */
const CHANGE_SETTLE_MS = 50;
/** Advisory-lock namespace of the worker slots (arbitrary constant, like MIGRATION_LOCK_ID). */
const WORKER_SLOT_LOCK = 7_345_113;
const MAX_WORKER_SLOTS = 1_024;

/** A name the brokers accept in a share group or durable name: letters, digits, `-` and `_`. */
const brokerName = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_');

/**
 * The MQTT client id of a trigger's consumer in a worker slot. Stable, so that a worker taking the slot of one that
 * died (kill -9) resumes its session and is sent the messages it had not acknowledged. Short (a hash): MQTT
 * servers need only accept 23 characters.
 */
export function mqttClientId(slot: number, workflowId: string, blockId: string): string {
  return `sl${slot}-${createHash('sha256').update(`${workflowId}\0${blockId}`).digest('hex').slice(0, 16)}`;
}

export function createQueueConsumers(app: AppContext, options: { pollIntervalMs: number }): QueueConsumers {
  const consumers = new Map<string, Running>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let reconciling: Promise<void> | undefined;
  /** The look queued behind the one under way. */
  let next: Promise<void> | undefined;

  const policy = () => ({ allowPrivateNetwork: app.blockServices.allowPrivateNetwork, allowedHosts: app.blockServices.allowedHosts });

  /**
   * A message of a debounced workflow: folded into its key's queued burst — the job takes this message as its input —
   * and acknowledged once that job is stored. The job, not the message, is then the durable record of the run (a
   * worker runs it, on any process, even after this one dies), so the message is acknowledged when it is collapsed,
   * not when the run ends: holding every message of a burst until its run's log is stored would cap a burst at the
   * trigger's prefetch (the broker sends no more until one is acknowledged), splitting it into runs of `concurrency`
   * messages. A crash between storing and acknowledging redelivers the message, which joins the burst again (or starts
   * the next one): at least once, as ever. A debounced run's failure is not redelivered (`redeliverOnError`): its
   * messages were acknowledged when they joined the burst.
   */
  async function debounceMessage(
    spec: QueueTriggerSpec,
    target: RunTarget,
    run: { input: Record<string, unknown>; executionId: string; flow?: RunFlow; throttle?: RunThrottle; debounce: RunDebounce },
  ): Promise<Settlement> {
    const { flow } = run;
    let waits = false;
    if (flow) {
      try {
        waits = (await admitQueuedRun(app, flow, { userId: target.owner.id, keyWorkspaceId: null })).waits;
      } catch (err) {
        // reject, or a singleton's skip, with the key full: acknowledged without a run, like an undebounced message.
        if (!(err instanceof AppError)) throw err;
        app.logger.warn({ workflowId: spec.workflowId, blockId: spec.blockId, code: err.code }, 'queue message not run: flow control refused it');
        return 'ack';
      }
    }
    await enqueueAsyncExecution(app, {
      workflowId: spec.workflowId,
      workspaceId: spec.workspaceId,
      deploymentVersion: spec.deploymentVersion,
      input: run.input,
      trigger: 'queue',
      triggerBlockId: spec.blockId,
      executionId: run.executionId,
      ...(flow ? { flow: { ...flow, waits } } : {}),
      ...(target.state.flowControl?.priority !== undefined ? { priority: target.state.flowControl.priority } : {}),
      ...(run.throttle ? { throttle: run.throttle } : {}),
      debounce: run.debounce,
    });
    return 'ack';
  }

  async function handle(spec: QueueTriggerSpec, runs: AbortController, message: QueueMessage): Promise<Settlement> {
    const target = await loadDeploymentVersion(app, spec.workflowId, spec.deploymentVersion);
    // Undeployed meanwhile: the message stays with the broker for whoever consumes the queue next.
    if (!target) return 'requeue';
    const input = { body: message.body, headers: message.headers, properties: message.properties };
    const executionId = newExecutionId();
    const flow = runFlowOf(spec.workflowId, target.state, input);
    const throttle = runThrottleOf(spec.workflowId, target.state, input);
    // Debounce (runs/flow-debounce.ts): the message joins its key's burst, a queued job (async-executions.ts) that
    // runs once with the burst's last message; it is acknowledged once that job holds it (see debounceMessage).
    const debounce = debounceOf(spec.workflowId, target.state, input);
    if (debounce) return debounceMessage(spec, target, { input, executionId, flow, throttle, debounce });
    // Flow control (runs/flow-background.ts): the message waits, unacknowledged, for a slot of its key and then a
    // start of its throttle (the broker holds the rest back once the prefetch is used up); a message the workflow
    // refuses over its concurrency limit (reject, a singleton's skip) is acknowledged without a run, as the broker
    // would hand it straight back otherwise. The throttle only delays a message, never drops it.
    let flowWait: FlowWait | undefined;
    let startedAt: Date | undefined;
    if (flow || throttle) {
      const start = await takeStartInBackground(app, { flow, throttle, refuseThrottled: false }, executionId, target.owner, runs.signal);
      if ('refused' in start) {
        app.logger.warn({ workflowId: spec.workflowId, blockId: spec.blockId, code: start.refused }, 'queue message not run: flow control refused it');
        return 'ack';
      }
      if ('stopped' in start) return 'requeue';
      flowWait = start.taken;
      startedAt = start.startedAt;
    }
    const run = () =>
      runExecution(app, {
        ...target,
        trigger: 'queue',
        triggerBlockId: spec.blockId,
        input,
        executionId,
        signal: runs.signal,
        timeoutMs: runTimeLimitMs(target.state.flowControl, app.config.executionTimeoutMs, false),
        canPark: true,
        markBeforeStart: true,
        ...(startedAt ? { startedAt } : {}),
        ...(flowWait ? { flowWait } : {}),
        ...(flow ? { holdsFlowSlot: true } : {}),
      });
    const outcome = flow ? await runHoldingSlot(app, executionId, run) : await run();
    // Not logged at all: only a redelivery can still give this message its run.
    if (outcome.stored === 'none') return 'requeue';
    // A run that paused (an approval, a long wait) goes on without the message: it is not a failure to redeliver.
    if (!outcome.result.success && outcome.result.stopReason !== 'paused' && spec.config.redeliverOnError) return 'requeue';
    return 'ack';
  }

  let slot: Promise<HeldSlot> | undefined;
  /** This process's worker slot, claimed when its first MQTT trigger opens. */
  function workerSlot(): Promise<HeldSlot> {
    if (slot) return slot;
    const claiming = app.database.claimSlot(WORKER_SLOT_LOCK, MAX_WORKER_SLOTS);
    slot = claiming;
    claiming.then(
      (held) => {
        void held.lost.then(() => {
          if (slot !== claiming || stopped) return;
          // Another process may take the slot, and with it the MQTT sessions: ours close and reopen in a new slot.
          app.logger.warn({ slot: held.index }, 'queue triggers: lost the worker slot; reopening MQTT consumers');
          slot = undefined;
          for (const [key, running] of consumers) {
            if (!running.usesSlot) continue;
            consumers.delete(key);
            void stopOne(running, 0);
          }
          retrySoon();
        });
      },
      () => {
        if (slot === claiming) slot = undefined;
      },
    );
    return claiming;
  }

  async function consume(spec: QueueTriggerSpec, running: Running, credential: ResolvedCredential, handler: MessageHandler, hosts: HostPolicy): Promise<QueueConsumer> {
    const { config, workflowId, blockId } = spec;
    const name = `sluice-${workflowId}-${blockId}`;
    switch (credential.type) {
      case 'amqp':
        if (!config.queue) throw new Error('The queue trigger names no queue');
        return consumeAmqp(credential as ResolvedCredential<'amqp'>, hosts, { queue: config.queue, prefetch: config.concurrency, consumerTag: `${name}-${randomSuffix()}` }, handler);
      case 'mqtt': {
        if (!config.topic) throw new Error('The queue trigger names no topic');
        running.usesSlot = true;
        const { index } = await workerSlot();
        return consumeMqtt(
          credential as ResolvedCredential<'mqtt'>,
          hosts,
          { topic: config.topic, group: brokerName(name), clientId: mqttClientId(index, workflowId, blockId), concurrency: config.concurrency },
          handler,
        );
      }
      case 'nats':
        if (!config.subject) throw new Error('The queue trigger names no subject');
        return consumeNats(
          credential as ResolvedCredential<'nats'>,
          hosts,
          { subject: config.subject, stream: config.stream, durable: brokerName(config.durable ?? name), concurrency: config.concurrency },
          handler,
        );
      default:
        throw new Error(`A queue trigger cannot consume with a ${credential.type} credential`);
    }
  }

  async function open(key: string, spec: QueueTriggerSpec, running: Running): Promise<void> {
    const credential = await loadCredentialForRun(app.db, app.cipher, spec.workspaceId, spec.config.credentialId);
    running.consumer = await consume(spec, running, credential, (message) => handle(spec, running.runs, message), policy());
    void running.consumer.closed.then((error) => {
      if (!error || consumers.get(key) !== running) return;
      app.logger.warn({ workflowId: spec.workflowId, blockId: spec.blockId, error: connectorErrorMessage(error) }, 'queue trigger consumer closed; reopening');
      consumers.delete(key);
      retrySoon();
    });
    const { queue, topic, subject } = spec.config;
    app.logger.info({ workflowId: spec.workflowId, blockId: spec.blockId, broker: credential.type, queue, topic, subject }, 'queue trigger consuming');
  }

  /**
   * Each trigger's key. The credential's version is part of it: a rotated credential reopens the consumer with the
   * new data. One query for every trigger's credential, not one per trigger.
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
        retrySoon();
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

  const reconcileNow = async () =>
    stopped ? undefined : reconcileOnce().catch((error: unknown) => app.logger.warn({ err: error }, 'queue triggers: could not read the deployments'));
  /**
   * A look that starts after every change already made: a look under way may have read the deployments before this
   * call's deploy, so the call waits for one that starts after it (one follow-up serves every call made meanwhile).
   */
  const reconcile = (): Promise<void> => {
    if (next) return next;
    const after = reconciling ?? Promise.resolve();
    const look: Promise<void> = after.then(() => {
      next = undefined;
      reconciling = look;
      return reconcileNow();
    });
    next = look;
    void look.finally(() => {
      if (reconciling === look) reconciling = undefined;
    });
    return look;
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void reconcile().finally(schedule), options.pollIntervalMs);
    timer.unref();
  };

  let soon: NodeJS.Timeout | undefined;
  /** One look shortly, for however many reasons arrive meanwhile. */
  const lookSoon = (delayMs: number) => {
    if (stopped || soon) return;
    soon = setTimeout(() => {
      soon = undefined;
      void reconcile();
    }, delayMs).unref();
  };
  function retrySoon() {
    lookSoon(RETRY_AFTER_FAILURE_MS + 100);
  }
  let unsubscribe: (() => void) | undefined;

  return {
    async start() {
      stopped = false;
      // A deploy, undeploy or activation changes a workflow row (active version) in the same transaction; a rotated
      // or deleted credential changes its row's version (drizzle/0024_credentials_change_feed.sql), which is part of
      // each consumer's key, so the look reopens its consumers with the new data.
      unsubscribe = app.database.changes.subscribe((topic) => {
        if (topic === ALL_TOPICS || topic.startsWith('workflows:') || topic.startsWith('deployments:') || topic.startsWith('credentials:')) {
          lookSoon(CHANGE_SETTLE_MS);
        }
      });
      await reconcile();
      schedule();
    },
    async stop(graceMs) {
      stopped = true;
      unsubscribe?.();
      if (timer) clearTimeout(timer);
      if (soon) clearTimeout(soon);
      await next;
      await reconciling;
      const all = [...consumers.values()];
      consumers.clear();
      await Promise.all(all.map((running) => stopOne(running, graceMs)));
      const held = slot;
      slot = undefined;
      await held?.then((h) => h.release()).catch(() => undefined);
    },
    reconcile,
    running: () => [...consumers.values()].filter((r) => r.consumer).map((r) => r.key),
  };
}

function randomSuffix(): string {
  return Math.random().toString(36).slice(2, 8);
}
