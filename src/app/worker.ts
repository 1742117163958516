// The worker as Sluice runs it: the job queue (src/jobs, which knows no business) handed every job kind the service
// knows, with the configured concurrency, lease and poll interval. Used by `sluice serve` (in-process),
// `sluice worker`, the tests and the benchmarks.
import type { AppContext } from '../services/app-context.js';
import {
  createExecutionJobHandler,
  createResumeJobHandler,
  EXECUTION_JOB,
  RESUME_JOB,
  runExecution,
} from '../runs/index.js';
import { createQueueConsumers } from '../triggers/queue-consumers.js';
import { createScheduleTickHandler } from '../triggers/run-schedule-tick.js';
import { SCHEDULE_TICK_JOB } from '../triggers/next-schedule-tick.js';
import { DELIVERY_JOB } from '../services/completion-webhooks/constants.js';
import { createDeliveryHandler } from '../services/completion-webhooks/attempt-delivery.js';
import type { Clock, JobHandlers } from '../jobs/types.js';
import { createWorker, type Worker } from '../jobs/worker.js';

/** How often queue consumers look at the deployments without being told of a change. */
const QUEUE_TRIGGER_POLL_MS = 30_000;

export function createJobHandlers(app: AppContext): JobHandlers {
  return {
    [DELIVERY_JOB]: createDeliveryHandler(app),
    [EXECUTION_JOB]: createExecutionJobHandler(app),
    [RESUME_JOB]: createResumeJobHandler(app, runExecution),
    [SCHEDULE_TICK_JOB]: createScheduleTickHandler(app),
  };
}

export interface AppWorkerOptions {
  clock?: Clock;
  workerId?: string;
  concurrency?: number;
  pollIntervalMs?: number;
  leaseMs?: number;
  handlers?: JobHandlers;
  queueTriggers?: boolean;
}

/**
 * The job worker, and beside it the consumers of the active deployments' queue triggers (they start and stop with
 * it: `queueTriggers: false` leaves them out, for tests of the job queue alone).
 */
export interface AppWorker extends Worker {
  /** The queue triggers this process consumes now (workflowId:blockId:version:credential version). */
  queueConsumers(): string[];
}

export function createAppWorker(app: AppContext, options: AppWorkerOptions = {}): AppWorker {
  const worker = createJobWorker(app, options);
  if (options.queueTriggers === false) return Object.assign(worker, { queueConsumers: () => [] });
  // The change feed brings deploys at once; the poll is the safety net (and picks up rotated credentials).
  const consumers = createQueueConsumers(app, { pollIntervalMs: QUEUE_TRIGGER_POLL_MS });
  return {
    get id() {
      return worker.id;
    },
    async start() {
      await worker.start();
      await consumers.start();
    },
    wake: () => {
      worker.wake();
      void consumers.reconcile();
    },
    async stop(graceMs) {
      await Promise.all([consumers.stop(graceMs), worker.stop(graceMs)]);
    },
    inFlight: () => worker.inFlight(),
    running: () => worker.running(),
    stats: () => worker.stats(),
    queueConsumers: () => consumers.running(),
  };
}

function createJobWorker(app: AppContext, options: AppWorkerOptions): Worker {
  return createWorker({
    db: app.db,
    database: app.database,
    handlers: options.handlers ?? createJobHandlers(app),
    logger: app.logger,
    concurrency: options.concurrency ?? app.config.worker.concurrency,
    pollIntervalMs: options.pollIntervalMs ?? app.config.worker.pollIntervalMs,
    leaseMs: options.leaseMs ?? app.config.worker.leaseMs,
    clock: options.clock,
    workerId: options.workerId,
  });
}
