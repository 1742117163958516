// Assembles the process's AppContext: opens the database, creates the caches, limiters, run recorder and file
// services, and provisions the bootstrap admin when asked. The composition root: cli and tests start here.
import type { Config } from '../config.js';
import { createConnectionCache } from '../connectors/connection-cache.js';
import { openDatabase, openReadReplica, pgliteDataDir, type Database } from '../db/client.js';
import type { Logger } from '../logger.js';
import { queueStats } from '../jobs/queue-stats.js';
import { createMetrics, noMetrics, type Metrics } from '../observability/metrics.js';
import { startTracing } from '../observability/tracing.js';
import { sandboxPoolStats } from '../sandbox/index.js';
import {
  createCancellations,
  createRunRecorder,
  EXECUTION_JOB,
  RESUME_JOB,
  type Runner,
  startRunner,
  flowLeasesOf,
} from '../runs/index.js';
import { DELIVERY_JOB } from '../services/completion-webhooks/constants.js';
import { SCHEDULE_TICK_JOB } from '../triggers/next-schedule-tick.js';
import type { RateLimiter } from '../services/rate-limiter.js';
import { createKeyUsage } from '../services/api-key-usage.js';
import type { AppContext } from '../services/app-context.js';
import { createAppCaches } from '../services/cache/app-caches.js';
import { createCipher } from '../services/crypto.js';
import { createFileServices } from '../services/files/file-services.js';
import { openFileStorage } from '../services/files/open-storage.js';
import { createRateLimiter } from '../services/rate-limiter.js';
import { createReadiness } from '../services/readiness.js';
import { hasRunRole } from '../services/access.js';
import { setupToken } from '../services/setup.js';
import { createUsageMeter } from '../services/usage-meter.js';
import { bootstrapAdmin } from '../services/workspaces.js';
import { loadOrCreateSecret } from './secret.js';

export type { AppContext } from '../services/app-context.js';

export async function createAppContext(config: Config, logger: Logger, database?: Database): Promise<AppContext> {
  const secret = config.secret ?? loadOrCreateSecret(config.dataDir);
  const db =
    database ??
    (await openDatabase(
      config.databaseUrl
        ? { kind: 'postgres', url: config.databaseUrl }
        : { kind: 'pglite', dataDir: pgliteDataDir(config.dataDir) },
    ));
  if (config.bootstrapApiKey) {
    const result = await bootstrapAdmin(db.db, {
      apiKey: config.bootstrapApiKey,
      adminEmail: config.adminEmail,
      plan: config.defaultPlan,
    });
    if (result.created) logger.info({ userId: result.userId, workspaceId: result.workspaceId }, 'bootstrap admin and key provisioned');
  }
  const usage = createUsageMeter(db.db, config);
  const metrics: Metrics = config.observability.metricsEnabled
    ? createMetrics({
        databaseStatements: db.statements,
        databasePool: db.pool,
        jobQueue: () => queueStats(db.db),
        jobKinds: [EXECUTION_JOB, RESUME_JOB, DELIVERY_JOB, SCHEDULE_TICK_JOB],
        sandboxPool: sandboxPoolStats,
        runsInFlight: () => app.recorder.inFlight().length,
      })
    : noMetrics;
  // Loads the OpenTelemetry SDK only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const tracing = await startTracing(config.observability);
  let runner: Runner | undefined;
  const replica = config.databaseReadUrl ? openReadReplica(config.databaseReadUrl) : undefined;
  const storage = await openFileStorage(config.files, config.dataDir, logger);
  const app: AppContext = {
    config,
    db: db.db,
    logsDb: replica?.db ?? db.db,
    database: db,
    logger,
    cipher: createCipher(secret),
    files: createFileServices({
      dataDir: config.dataDir,
      secret,
      urlTtlMs: config.fileUrlTtlMs,
      storage,
    }),
    blockServices: {
      allowPrivateNetwork: config.allowPrivateNetwork,
      allowedHosts: config.allowedHosts,
      sandbox: { memoryLimitBytes: 64 * 1024 * 1024, timeoutMs: 5_000 },
      providerEnv: (name) => config.providerEnv[name],
      connections: createConnectionCache(),
    },
    caches: createAppCaches(db.changes),
    rateLimiter: countingRefusals(createRateLimiter(db.db), metrics),
    usage,
    keyUsage: createKeyUsage(db.db),
    setupToken: setupToken(secret),
    readiness: createReadiness(db.db, logger),
    recorder: createRunRecorder({
      db: db.db,
      logger,
      onCharged: (ownerId, cost) => usage.add(ownerId, cost),
      onCommitted: (runs) => metrics.recorderBatch(runs),
      offload: { storage, limit: config.inlineValueLimitBytes },
    }),
    // Cancelling is an editor's (docs/api.md "Members and invites"): a viewer's request is ignored where the run is.
    cancellations: createCancellations(db.changes, (request, workspaceId) =>
      hasRunRole(app, { userId: request.userId, keyWorkspaceId: request.keyWorkspaceId }, workspaceId, 'editor'),
    ),
    metrics,
    tracing,
    async startRunner() {
      // PGlite's data directory belongs to one process, so any other runner it names is from a process now gone.
      runner ??= await startRunner(app, { othersAreDead: db.kind === 'pglite' });
      // A process that beats as a runner and hears hand-over requests may keep a workflow's slots in memory.
      flowLeasesOf(app.db).listen(db.changes);
    },
    async close() {
      await app.recorder.drain();
      await flowLeasesOf(app.db).close();
      await runner?.stop();
      await tracing.shutdown();
      // The sandbox's thread pool is per process, not per app (several apps may share it in tests); idle, it holds
      // nothing that keeps the process alive.
      await db.close();
      await replica?.close();
      app.files.storage.close?.();
      await app.blockServices.connections.closeAll();
    },
  };
  return app;
}

/** Every refusal of a per-minute limit, counted by bucket (the limiter itself knows nothing of metrics). */
function countingRefusals(limiter: RateLimiter, metrics: Metrics): RateLimiter {
  if (!metrics.enabled) return limiter;
  return {
    async consume(input) {
      const decision = await limiter.consume(input);
      if (!decision.allowed) metrics.rateLimited(input.bucket);
      return decision;
    },
  };
}
