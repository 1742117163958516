// Configuration comes from environment variables only. Every variable is validated at start-up and a bad
// value stops the process with a message naming the variable, instead of failing later in some request.
import { z } from 'zod';
import { parseModelPricingOverride } from './model-pricing-override.js';
import { DEFAULT_MAX_BLOCK_OUTPUT_BYTES, DEFAULT_MAX_RUN_OUTPUT_BYTES } from './workflow/limits.js';

export const PLANS = ['free', 'pro', 'team', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
export const LIMIT_KINDS = ['SYNC', 'ASYNC', 'LOGS', 'USAGE_USD'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

/** Defaults per plan (docs/api.md 4.8, 6.5). `null` means unlimited. */
const DEFAULT_LIMITS: Record<LimitKind, Record<Plan, number | null>> = {
  SYNC: { free: 50, pro: 150, team: 300, enterprise: 600 },
  ASYNC: { free: 200, pro: 1000, team: 2500, enterprise: 5000 },
  LOGS: { free: 10, pro: 30, team: 60, enterprise: 600 },
  USAGE_USD: { free: 10, pro: 100, team: 500, enterprise: null },
};

export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** DATABASE_READ_URL: where the logs API reads (a replica of DATABASE_URL); unset, it reads from DATABASE_URL. */
  databaseReadUrl?: string;
  /** Undefined in embedded mode until the data directory provides one (see db/secret.ts). */
  secret?: string;
  baseUrl: string;
  allowPrivateNetwork: boolean;
  /** Connector hosts (databases, brokers, SMTP) allowed even on private addresses (SLUICE_ALLOWED_HOSTS). */
  allowedHosts: string[];
  bootstrapApiKey?: string;
  adminEmail: string;
  /** Anyone reaching the web app may create an account (SLUICE_ALLOW_SIGNUP, default false). */
  allowSignup: boolean;
  /**
   * Behind a reverse proxy: take the client address from the last X-Forwarded-For entry (SLUICE_TRUST_PROXY,
   * default false). Only for per-client limits such as sign-in attempts.
   */
  trustProxy: boolean;
  defaultPlan: Plan;
  limits: Record<LimitKind, Record<Plan, number | null>>;
  baseCostUsd: number;
  executionTimeoutMs: number;
  /** Largest execute request body, enforced while it streams in (docs/api.md 4.1: 30 MB). */
  maxRequestBytes: number;
  /** Largest output of one block (and config with references filled in), as JSON (docs/guarantees.md "Bounded output"). */
  maxBlockOutputBytes: number;
  /** Most that all blocks of one run may produce together: bounds its answer, stream, log and webhook. */
  maxRunOutputBytes: number;
  /**
   * A value of a log (a block output, a span input, the final output) larger than this as JSON is kept in file storage
   * instead of the log row (SLUICE_INLINE_VALUE_LIMIT; services/logs/offloaded-values.ts).
   */
  inlineValueLimitBytes: number;
  /** Lifetime of signed file download URLs. */
  fileUrlTtlMs: number;
  /** Where uploaded file bytes live (SLUICE_FILES_BACKEND): the data directory, or an S3-compatible bucket. */
  files: FilesConfig;
  /** Interval of `: ping` comments on SSE streams. */
  sseKeepaliveMs: number;
  /** On SIGTERM: how long requests in flight (streams included) may finish before their connections are closed. */
  httpShutdownGraceMs: number;
  /** Background worker: jobs claimed with a lease, run with bounded concurrency (docs/operations.md). */
  worker: WorkerConfig;
  /** Completion webhook deliveries (docs/guarantees.md 3.4). */
  webhooks: WebhookConfig;
  /**
   * Finished run logs (with their files) and finished webhook deliveries older than this many days are deleted
   * (SLUICE_LOG_RETENTION_DAYS; docs/guarantees.md 5). Null: kept for ever (the default).
   */
  logRetentionDays: number | null;
  logLevel: string;
  /** GET /metrics and OpenTelemetry traces (src/observability). */
  observability: ObservabilityConfig;
  /** Provider variables (OPENAI_API_KEY, …) handed to blocks; never logged. */
  providerEnv: Record<string, string | undefined>;
}

export interface WorkerConfig {
  /** Jobs one worker process runs at once. */
  concurrency: number;
  /** Longest wait between looks for due jobs; enqueues also wake workers at once (NOTIFY). */
  pollIntervalMs: number;
  /** How long a claimed job stays reserved without a heartbeat before another worker may take it. */
  leaseMs: number;
  /** On SIGTERM: how long in-flight jobs may finish before they are cancelled and released. */
  shutdownGraceMs: number;
}

export type FilesConfig = { backend: 'local' } | { backend: 's3'; s3: S3Config };

export interface S3Config {
  bucket: string;
  /** Objects are stored under `<prefix>/<workspaceId>/<fileId>`; '' stores them at the bucket's root. */
  prefix: string;
  /** For S3-compatible servers (MinIO, …); undefined means AWS S3 itself. */
  endpoint?: string;
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>` (MinIO and most self-hosted servers). */
  forcePathStyle: boolean;
  region: string;
  /** From AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN; undefined leaves the SDK's default chain (profiles, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /**
   * AWS_REQUEST_CHECKSUM_CALCULATION: WHEN_REQUIRED (default here) sends a plain streamed PUT that every
   * S3-compatible server understands; WHEN_SUPPORTED adds the SDK's CRC trailer (aws-chunked), which some do not.
   */
  checksumCalculation: 'WHEN_SUPPORTED' | 'WHEN_REQUIRED';
}

export interface ObservabilityConfig {
  /** Prometheus metrics collected and served at GET /metrics (SLUICE_METRICS_ENABLED, default true). */
  metricsEnabled: boolean;
  /** When set, GET /metrics wants `Authorization: Bearer <token>` (SLUICE_METRICS_TOKEN). */
  metricsToken?: string;
  /** OTLP/HTTP collector base URL (OTEL_EXPORTER_OTLP_ENDPOINT); traces are off without it. */
  otlpEndpoint?: string;
  /** service.name of the traces (OTEL_SERVICE_NAME, default `sluice`). */
  serviceName: string;
}

export interface WebhookConfig {
  /** Per attempt: connect, send and the receiver's answer. */
  timeoutMs: number;
  maxAttempts: number;
  /** Wait after failed attempt n is retryScheduleMs[n-1] (the last entry repeats), plus up to 10% jitter. */
  retryScheduleMs: number[];
}

const boolText = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => ['true', '1', 'yes'].includes(v));
const intText = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const fields = {
  PORT: intText(0, 65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  SLUICE_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  SLUICE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SLUICE_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  SLUICE_ALLOW_PRIVATE_NETWORK: boolText.default(false),
  SLUICE_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((text) => text.split(',').map((host) => host.trim()).filter(Boolean)),
  SLUICE_BOOTSTRAP_API_KEY: z
    .string()
    .regex(/^sk-sluice-[A-Za-z0-9]{22,}$/, 'must be sk-sluice- followed by at least 22 base62 characters')
    .optional(),
  SLUICE_ADMIN_EMAIL: z.email().default('admin@localhost'),
  SLUICE_ALLOW_SIGNUP: boolText.default(false),
  SLUICE_TRUST_PROXY: boolText.default(false),
  SLUICE_DEFAULT_PLAN: z.enum(PLANS).default('free'),
  SLUICE_BASE_COST_USD: z.coerce.number().min(0).max(1000).default(0.001),
  SLUICE_EXECUTION_TIMEOUT_MS: intText(1000, 3_600_000).default(300_000),
  SLUICE_MAX_REQUEST_BYTES: intText(1024, 1024 * 1024 * 1024).default(30 * 1024 * 1024),
  // At most 256 MB: PostgreSQL keeps no larger jsonb value, and JavaScript strings end not far above.
  SLUICE_MAX_BLOCK_OUTPUT_BYTES: intText(1024, 256 * 1024 * 1024).default(DEFAULT_MAX_BLOCK_OUTPUT_BYTES),
  SLUICE_MAX_RUN_OUTPUT_BYTES: intText(1024, 256 * 1024 * 1024).default(DEFAULT_MAX_RUN_OUTPUT_BYTES),
  // At least 1 KB (a smaller limit would send ordinary values to storage, a request each); at most the largest jsonb.
  SLUICE_INLINE_VALUE_LIMIT: intText(1024, 256 * 1024 * 1024).default(64 * 1024),
  SLUICE_SSE_KEEPALIVE_MS: intText(10, 600_000).default(15_000),
  SLUICE_HTTP_SHUTDOWN_GRACE_MS: intText(0, 600_000).default(10_000),
  SLUICE_FILE_URL_TTL_SECONDS: intText(1, 7 * 24 * 3600).default(3600),
  SLUICE_WORKER_CONCURRENCY: intText(1, 1000).default(32),
  SLUICE_WORKER_POLL_MS: intText(10, 60_000).default(500),
  SLUICE_JOB_LEASE_MS: intText(1000, 3_600_000).default(60_000),
  SLUICE_WORKER_SHUTDOWN_GRACE_MS: intText(0, 600_000).default(25_000),
  SLUICE_WEBHOOK_TIMEOUT_MS: intText(100, 300_000).default(30_000),
  SLUICE_WEBHOOK_MAX_ATTEMPTS: intText(1, 20).default(5),
  SLUICE_LOG_RETENTION_DAYS: intText(1, 36_500).optional(),
  SLUICE_WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\s*\d+(ms|s|m|h)?\s*(,\s*\d+(ms|s|m|h)?\s*)*$/, 'must be a comma-separated list of durations such as 5s,15s,1m')
    .transform(parseDurationList)
    .default([5_000, 15_000, 60_000, 180_000, 600_000]),
  // Model prices overriding src/llm/pricing.json; checked here so a typo stops start-up instead of mispricing runs.
  SLUICE_MODEL_PRICING: z
    .string()
    .optional()
    .superRefine((text, ctx) => {
      if (text === undefined) return;
      try {
        parseModelPricingOverride(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
      }
    }),
  SLUICE_FILES_BACKEND: z.enum(['local', 's3'], 'must be local or s3').default('local'),
  // AWS's rules for bucket names (MinIO follows them): 3-63 lowercase letters, digits, dots and hyphens.
  SLUICE_S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3-63 lowercase letters, digits, dots and hyphens')
    .optional(),
  SLUICE_S3_PREFIX: z
    .string()
    .max(512)
    .transform((prefix) => prefix.replace(/^\/+|\/+$/g, ''))
    .refine(
      (prefix) => prefix === '' || /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/.test(prefix),
      'must be a key prefix such as sluice/files (letters, digits, _ - . and single slashes; no dot-only segments)',
    )
    .default(''),
  SLUICE_S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://minio:9000' }).optional(),
  SLUICE_S3_FORCE_PATH_STYLE: boolText.default(false),
  AWS_REGION: z.string().regex(/^[a-z0-9-]{1,64}$/, 'must be a region name such as eu-west-1').optional(),
  AWS_REQUEST_CHECKSUM_CALCULATION: z.enum(['WHEN_SUPPORTED', 'WHEN_REQUIRED'], 'must be WHEN_SUPPORTED or WHEN_REQUIRED').default('WHEN_REQUIRED'),
  SLUICE_METRICS_ENABLED: boolText.default(true),
  SLUICE_METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,256}$/, 'must be 16–256 printable characters without spaces')
    .optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  OTEL_SERVICE_NAME: z.string().min(1).max(200).default('sluice'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
} as const;

const DURATION_UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `5s,15s,1m` → milliseconds; a bare number is milliseconds. */
function parseDurationList(text: string): number[] {
  return text.split(',').map((part) => {
    const [, amount, unit] = /^\s*(\d+)(ms|s|m|h)?\s*$/.exec(part)!;
    return Number(amount) * DURATION_UNIT_MS[unit ?? 'ms'];
  });
}

const PROVIDER_VARIABLES = ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'SLUICE_MODEL_PRICING'];

function parseField<T>(name: string, schema: z.ZodType<T>, env: NodeJS.ProcessEnv): T {
  const raw = env[name];
  const result = schema.safeParse(raw === '' ? undefined : raw);
  if (!result.success) throw new ConfigError(name, result.error.issues[0]?.message ?? 'is invalid');
  return result.data;
}

function parseLimits(env: NodeJS.ProcessEnv): Config['limits'] {
  const limits = structuredClone(DEFAULT_LIMITS);
  for (const kind of LIMIT_KINDS) {
    for (const plan of PLANS) {
      const name = `SLUICE_LIMIT_${kind}_${plan.toUpperCase()}`;
      const raw = env[name];
      if (raw === undefined || raw === '') continue;
      if (raw === 'unlimited') {
        limits[kind][plan] = null;
        continue;
      }
      const value = Number(raw);
      const valid = kind === 'USAGE_USD' ? Number.isFinite(value) && value >= 0 : Number.isInteger(value) && value >= 1;
      if (!valid) throw new ConfigError(name, `must be ${kind === 'USAGE_USD' ? 'a non-negative number' : 'a positive integer'} or "unlimited"`);
      limits[kind][plan] = value;
    }
  }
  return limits;
}

const S3_VARIABLES = ['SLUICE_S3_BUCKET', 'SLUICE_S3_PREFIX', 'SLUICE_S3_ENDPOINT', 'SLUICE_S3_FORCE_PATH_STYLE'];

function parseFilesConfig(env: NodeJS.ProcessEnv): FilesConfig {
  const backend = parseField('SLUICE_FILES_BACKEND', fields.SLUICE_FILES_BACKEND, env);
  if (backend === 'local') {
    // Without this, a forgotten SLUICE_FILES_BACKEND=s3 would quietly keep every file on the local disk.
    const stray = S3_VARIABLES.find((name) => env[name]);
    if (stray) throw new ConfigError(stray, 'is set but SLUICE_FILES_BACKEND is local: set SLUICE_FILES_BACKEND=s3 to store files in S3, or unset it');
    return { backend };
  }
  const bucket = parseField('SLUICE_S3_BUCKET', fields.SLUICE_S3_BUCKET, env);
  if (!bucket) throw new ConfigError('SLUICE_S3_BUCKET', 'is required when SLUICE_FILES_BACKEND=s3');
  const endpoint = parseField('SLUICE_S3_ENDPOINT', fields.SLUICE_S3_ENDPOINT, env);
  // The SDK would only notice a missing region at the first upload; S3-compatible servers mostly ignore it.
  const region = parseField('AWS_REGION', fields.AWS_REGION, env) ?? (endpoint ? 'us-east-1' : undefined);
  if (!region) throw new ConfigError('AWS_REGION', "is required when SLUICE_FILES_BACKEND=s3 without SLUICE_S3_ENDPOINT (the bucket's region, e.g. eu-west-1)");
  const accessKeyId = env.AWS_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY || undefined;
  if (accessKeyId && !secretAccessKey) throw new ConfigError('AWS_SECRET_ACCESS_KEY', 'is required when AWS_ACCESS_KEY_ID is set');
  if (secretAccessKey && !accessKeyId) throw new ConfigError('AWS_ACCESS_KEY_ID', 'is required when AWS_SECRET_ACCESS_KEY is set');
  return {
    backend,
    s3: {
      bucket,
      prefix: parseField('SLUICE_S3_PREFIX', fields.SLUICE_S3_PREFIX, env),
      endpoint,
      forcePathStyle: parseField('SLUICE_S3_FORCE_PATH_STYLE', fields.SLUICE_S3_FORCE_PATH_STYLE, env),
      region,
      credentials:
        accessKeyId && secretAccessKey
          ? { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN || undefined }
          : undefined,
      checksumCalculation: parseField('AWS_REQUEST_CHECKSUM_CALCULATION', fields.AWS_REQUEST_CHECKSUM_CALCULATION, env),
    },
  };
}

/** The base URL when SLUICE_BASE_URL is not set. */
export function defaultBaseUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = parseField('PORT', fields.PORT, env);
  const host = parseField('HOST', fields.HOST, env);
  const databaseUrl = parseField('DATABASE_URL', fields.DATABASE_URL, env);
  const secret = parseField('SLUICE_SECRET', fields.SLUICE_SECRET, env);
  if (databaseUrl && !secret) {
    throw new ConfigError('SLUICE_SECRET', 'is required when DATABASE_URL is set (all processes must share it)');
  }
  const baseUrl = parseField('SLUICE_BASE_URL', fields.SLUICE_BASE_URL, env) ?? defaultBaseUrl(host, port);
  const providerEnv: Record<string, string | undefined> = {};
  parseField('SLUICE_MODEL_PRICING', fields.SLUICE_MODEL_PRICING, env);
  for (const name of PROVIDER_VARIABLES) providerEnv[name] = env[name] || undefined;
  return {
    port,
    host,
    dataDir: parseField('SLUICE_DATA_DIR', fields.SLUICE_DATA_DIR, env),
    databaseUrl,
    databaseReadUrl: parseField('DATABASE_READ_URL', fields.DATABASE_READ_URL, env),
    secret,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    allowPrivateNetwork: parseField('SLUICE_ALLOW_PRIVATE_NETWORK', fields.SLUICE_ALLOW_PRIVATE_NETWORK, env),
    allowedHosts: parseField('SLUICE_ALLOWED_HOSTS', fields.SLUICE_ALLOWED_HOSTS, env),
    bootstrapApiKey: parseField('SLUICE_BOOTSTRAP_API_KEY', fields.SLUICE_BOOTSTRAP_API_KEY, env),
    adminEmail: parseField('SLUICE_ADMIN_EMAIL', fields.SLUICE_ADMIN_EMAIL, env),
    allowSignup: parseField('SLUICE_ALLOW_SIGNUP', fields.SLUICE_ALLOW_SIGNUP, env),
    trustProxy: parseField('SLUICE_TRUST_PROXY', fields.SLUICE_TRUST_PROXY, env),
    defaultPlan: parseField('SLUICE_DEFAULT_PLAN', fields.SLUICE_DEFAULT_PLAN, env),
    limits: parseLimits(env),
    baseCostUsd: parseField('SLUICE_BASE_COST_USD', fields.SLUICE_BASE_COST_USD, env),
    executionTimeoutMs: parseField('SLUICE_EXECUTION_TIMEOUT_MS', fields.SLUICE_EXECUTION_TIMEOUT_MS, env),
    maxRequestBytes: parseField('SLUICE_MAX_REQUEST_BYTES', fields.SLUICE_MAX_REQUEST_BYTES, env),
    maxBlockOutputBytes: parseField('SLUICE_MAX_BLOCK_OUTPUT_BYTES', fields.SLUICE_MAX_BLOCK_OUTPUT_BYTES, env),
    maxRunOutputBytes: parseField('SLUICE_MAX_RUN_OUTPUT_BYTES', fields.SLUICE_MAX_RUN_OUTPUT_BYTES, env),
    inlineValueLimitBytes: parseField('SLUICE_INLINE_VALUE_LIMIT', fields.SLUICE_INLINE_VALUE_LIMIT, env),
    sseKeepaliveMs: parseField('SLUICE_SSE_KEEPALIVE_MS', fields.SLUICE_SSE_KEEPALIVE_MS, env),
    httpShutdownGraceMs: parseField('SLUICE_HTTP_SHUTDOWN_GRACE_MS', fields.SLUICE_HTTP_SHUTDOWN_GRACE_MS, env),
    fileUrlTtlMs: parseField('SLUICE_FILE_URL_TTL_SECONDS', fields.SLUICE_FILE_URL_TTL_SECONDS, env) * 1000,
    files: parseFilesConfig(env),
    worker: {
      concurrency: parseField('SLUICE_WORKER_CONCURRENCY', fields.SLUICE_WORKER_CONCURRENCY, env),
      pollIntervalMs: parseField('SLUICE_WORKER_POLL_MS', fields.SLUICE_WORKER_POLL_MS, env),
      leaseMs: parseField('SLUICE_JOB_LEASE_MS', fields.SLUICE_JOB_LEASE_MS, env),
      shutdownGraceMs: parseField('SLUICE_WORKER_SHUTDOWN_GRACE_MS', fields.SLUICE_WORKER_SHUTDOWN_GRACE_MS, env),
    },
    webhooks: {
      timeoutMs: parseField('SLUICE_WEBHOOK_TIMEOUT_MS', fields.SLUICE_WEBHOOK_TIMEOUT_MS, env),
      maxAttempts: parseField('SLUICE_WEBHOOK_MAX_ATTEMPTS', fields.SLUICE_WEBHOOK_MAX_ATTEMPTS, env),
      retryScheduleMs: parseField('SLUICE_WEBHOOK_RETRY_SCHEDULE', fields.SLUICE_WEBHOOK_RETRY_SCHEDULE, env),
    },
    logRetentionDays: parseField('SLUICE_LOG_RETENTION_DAYS', fields.SLUICE_LOG_RETENTION_DAYS, env) ?? null,
    logLevel: parseField('LOG_LEVEL', fields.LOG_LEVEL, env),
    observability: {
      metricsEnabled: parseField('SLUICE_METRICS_ENABLED', fields.SLUICE_METRICS_ENABLED, env),
      metricsToken: parseField('SLUICE_METRICS_TOKEN', fields.SLUICE_METRICS_TOKEN, env),
      otlpEndpoint: parseField('OTEL_EXPORTER_OTLP_ENDPOINT', fields.OTEL_EXPORTER_OTLP_ENDPOINT, env),
      serviceName: parseField('OTEL_SERVICE_NAME', fields.OTEL_SERVICE_NAME, env),
    },
    providerEnv,
  };
}
