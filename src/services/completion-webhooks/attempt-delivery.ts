// One delivery attempt, run by the worker (job kind `webhook.deliver`). The body was fixed when the delivery was
// created (stored, or built afresh from the execution's log, which does not change: delivery-body.ts); the headers, the timestamp and the signature are made afresh for every attempt, and the target is taken
// from the subscription as it is now (URL or secret changes apply to retries) and checked again by the guarded
// dispatcher after DNS resolution.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { storableText } from '../../db/storable.js';
import { AppError } from '../../errors.js';
import type { ClaimedJob, JobHandler, JobResult, JobRunContext } from '../../jobs/types.js';
import { sendHttpRequest, type OutboundResponse } from '../../net/index.js';
import type { AppContext } from '../app-context.js';
import { signatureHeader } from '../webhook-signature.js';
import { COMPLETION_EVENT, UNBUILT_GIVE_UP_MS } from './constants.js';
import type { DeliveryJobPayload } from './create-deliveries.js';
import { deliveryBodies, LOG_GONE } from './delivery-body.js';
import { judgeAttempt, retryDelayMs, type RetryPolicy } from './retry-policy.js';

/** We only need to know the receiver answered; its body is kept for the attempt's error text. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const ERROR_BODY_PREVIEW = 300;
/** Crash re-claims on top of the attempts themselves before a delivery is given up as poison. */
const CLAIM_MARGIN = 10;

function deliveryHeaders(input: { deliveryId: string; timestamp: number; body: string; secret: string | null; test: boolean }) {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'Sluice-Webhooks/1.0',
    'Service-event': COMPLETION_EVENT,
    'Service-timestamp': String(input.timestamp),
    'Service-delivery-id': input.deliveryId,
    'Idempotency-Key': input.deliveryId,
  };
  if (input.secret) headers['Service-signature'] = signatureHeader(input.secret, input.timestamp, input.body);
  if (input.test) headers['Service-test'] = 'true';
  return headers;
}

/**
 * The attempt's error text, as stored. It quotes what the receiver answered, which may hold a NUL byte: stored as
 * U+FFFD, else recording the attempt would fail and the delivery would wait out the job's lease instead of its
 * retry schedule.
 */
function attemptError(response: OutboundResponse): string | null {
  if (response.status >= 200 && response.status <= 299) return null;
  if (response.status === 0) return storableText(response.error ?? 'No response');
  const preview = response.body.subarray(0, ERROR_BODY_PREVIEW).toString('utf8').trim();
  return storableText(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${preview ? `: ${preview}` : ''}`);
}

/** What one attempt needs, read in one query (this is the hot path: raw SQL, no query builder). */
interface DeliveryToSend {
  id: string;
  /** Null when its execution's log is gone. */
  body: string | null;
  status: string;
  attempts: number;
  isTest: boolean;
  url: string;
  secretEncrypted: string | null;
  active: boolean;
  /** Why its body could not be built (file storage could not give back a large value of the log); body is null. */
  unbuilt?: unknown;
}

function toDeliveryToSend(row: Record<string, unknown>, body: string | null, unbuilt: unknown): DeliveryToSend {
  return {
    id: String(row.id),
    body,
    ...(unbuilt === undefined ? {} : { unbuilt }),
    status: String(row.status),
    attempts: Number(row.attempts),
    isTest: row.is_test === true,
    url: String(row.url),
    secretEncrypted: row.secret_encrypted === null ? null : String(row.secret_encrypted),
    active: row.active === true,
  };
}

/**
 * The deliveries with their bodies. When a large value of a log cannot be read, every pending one is returned with
 * `unbuilt` (the file storage's error) and no body; the database's errors are thrown.
 */
async function loadDeliveries(app: AppContext, deliveryIds: string[]): Promise<DeliveryToSend[]> {
  const ids = sql.join(
    deliveryIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = await rowsOf(app.db, sql`
    select d.id, d.event_id, d.execution_id, d.body, d.envelope, d.status, d.attempts, d.execution_id is null as is_test,
      s.url, s.secret_encrypted, s.active
    from deliveries d join webhook_subscriptions s on s.id = d.subscription_id
    where d.id in (${ids})`);
  // Only the pending ones are sent: a settled delivery needs no body.
  const pending = rows.filter((row) => row.status === 'pending');
  let unbuilt: unknown;
  const bodies = await deliveryBodies(
    { db: app.db, storage: app.files.storage, logger: app.logger },
    pending.map((row) => ({
      eventId: String(row.event_id),
      executionId: row.execution_id === null ? null : String(row.execution_id),
      body: row.body === null ? null : String(row.body),
      envelope: row.envelope === null ? null : String(row.envelope),
    })),
  ).catch((err: unknown) => {
    // Only file storage's own failure; the database's errors and any other go the worker's way (its claims and retry).
    if (!(err instanceof AppError && err.code === 'FILE_STORAGE_UNAVAILABLE')) throw err;
    unbuilt = err;
    return [];
  });
  const bodyOf = new Map(pending.map((row, i) => [row, bodies[i]]));
  return rows.map((row) => toDeliveryToSend(row, bodyOf.get(row) ?? null, row.status === 'pending' ? unbuilt : undefined));
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Ends a pending delivery without an attempt (its subscription is off, its secret or body can no longer be had, its
 * job was given up): `failed` with the reason, in the history and open to redelivery.
 */
function giveUpWrites(deliveryId: string, error: string, now: number): NonNullable<JobResult['writes']> {
  return (held) => [
    sql`update deliveries set status = 'failed', last_error = ${error}::text, next_attempt_at = null,
          completed_at = ${iso(now)}::timestamptz
        where id = ${deliveryId} and status = 'pending' and ${held}`,
  ];
}

function giveUp(deliveryId: string, error: string, now: number): JobResult {
  return { outcome: { type: 'fail', error }, writes: giveUpWrites(deliveryId, error, now) };
}

/**
 * What the history says of a body that could not be built: file storage's 503 message, which a client may see (the
 * backend's own error, which may name server paths, is only in the server log).
 */
function unbuiltReason(err: unknown): string {
  const detail = err instanceof AppError ? err.message : 'file storage could not be read';
  return `the body could not be built from the execution's log (${detail})`;
}

export function createDeliveryHandler(app: AppContext): JobHandler {
  const { timeoutMs, maxAttempts, retryScheduleMs } = app.config.webhooks;
  const policy: RetryPolicy = { maxAttempts, scheduleMs: retryScheduleMs };

  /** Rows read by prefetch for the jobs about to run, by job id and claim number (a stale entry never matches). */
  const prefetched = new Map<string, DeliveryToSend>();
  const cacheKey = (job: ClaimedJob) => `${job.id}#${job.attempts}`;

  async function prefetch(jobs: ClaimedJob[]): Promise<void> {
    if (jobs.length < 2) return;
    // Best effort: a body that cannot be built now (file storage unreadable) is left to each run to find out alone, so
    // one log's unreadable value does not hold back the others' deliveries.
    const rows = await loadDeliveries(app, jobs.map((job) => (job.payload as DeliveryJobPayload).deliveryId)).catch(() => []);
    const byId = new Map(rows.filter((row) => row.unbuilt === undefined).map((row) => [row.id, row]));
    for (const job of jobs) {
      const row = byId.get((job.payload as DeliveryJobPayload).deliveryId);
      if (row) prefetched.set(cacheKey(job), row);
    }
  }

  /**
   * A delivery whose body could not be built (file storage down, or a value of the log unreadable): nothing was sent,
   * so it is no attempt, and the claim is handed back rather than counted — claims bound crash loops (maxClaims), and
   * an outage must not use them up. It waits the retry schedule, by how often this happened to it, and says why in
   * its history meanwhile. A try UNBUILT_GIVE_UP_MS after the first that still fails (a value that will never be read
   * back) gives it up, failed with the reason and open to redelivery once storage answers again: never left pending
   * for ever (which would also keep its log from retention for ever).
   */
  function notBuilt(job: ClaimedJob, delivery: DeliveryToSend, attempt: number, now: number): JobResult {
    const reason = unbuiltReason(delivery.unbuilt);
    app.logger.warn({ err: delivery.unbuilt, deliveryId: delivery.id }, 'could not build the body of a webhook delivery');
    const { unbuilt } = job.payload as DeliveryJobPayload;
    const since = unbuilt?.since ?? now;
    if (now - since >= UNBUILT_GIVE_UP_MS) {
      app.metrics.webhookDelivery('not_sent', attempt);
      const hours = Math.round(UNBUILT_GIVE_UP_MS / 3_600_000);
      return giveUp(delivery.id, storableText(`Not sent: ${reason} for ${hours} hours; redeliver it once file storage can be read`), now);
    }
    const count = (unbuilt?.count ?? 0) + 1;
    const runAt = now + retryDelayMs(count, policy);
    const error = storableText(`Not sent yet: ${reason}; trying again on the retry schedule`);
    return {
      outcome: { type: 'release', runAt, payloadPatch: { unbuilt: { since, count } } },
      writes: (held) => [
        sql`update deliveries set last_error = ${error}::text, next_attempt_at = ${iso(runAt)}::timestamptz
            where id = ${delivery.id} and status = 'pending' and ${held}`,
      ],
    };
  }

  async function run(job: ClaimedJob, context: JobRunContext): Promise<JobResult> {
    const { deliveryId, manual } = job.payload as DeliveryJobPayload;
    const key = cacheKey(job);
    let delivery = prefetched.get(key);
    prefetched.delete(key);
    if (!delivery) [delivery] = await loadDeliveries(app, [deliveryId]);
    // Gone with its subscription, or already settled by an earlier holder of this job: nothing to send.
    if (!delivery || delivery.status !== 'pending') return { outcome: { type: 'complete' } };
    const attempt = delivery.attempts + 1;
    if (!delivery.active && !manual) {
      app.metrics.webhookDelivery('not_sent', attempt);
      return giveUp(delivery.id, 'Not sent: the subscription is disabled', context.clock.now());
    }
    if (delivery.unbuilt !== undefined) return notBuilt(job, delivery, attempt, context.clock.now());
    // Only reachable by a redelivery made as retention deleted the log (a pending delivery keeps its log).
    if (delivery.body === null) {
      app.metrics.webhookDelivery('not_sent', attempt);
      return giveUp(delivery.id, `Not sent: ${LOG_GONE}`, context.clock.now());
    }
    const body = delivery.body;
    let secret: string | null = null;
    if (delivery.secretEncrypted) {
      try {
        secret = app.cipher.decrypt(delivery.secretEncrypted);
      } catch {
        app.metrics.webhookDelivery('not_sent', attempt);
        return giveUp(delivery.id, 'Not sent: the signing secret cannot be decrypted (was SLUICE_SECRET changed?)', context.clock.now());
      }
    }

    const timestamp = context.clock.now();
    const started = performance.now();
    const response = await sendHttpRequest({
      url: delivery.url,
      method: 'POST',
      headers: deliveryHeaders({ deliveryId: delivery.id, timestamp, body, secret, test: delivery.isTest }),
      body,
      timeoutMs,
      retries: 0,
      followRedirects: false,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      allowPrivateNetwork: app.config.allowPrivateNetwork,
      signal: context.signal,
    });
    // Cut short by the worker stopping: not an attempt; the job goes back to the queue as it was.
    if (response.status === 0 && context.signal.aborted) return { outcome: { type: 'release' } };

    const durationMs = Math.round(performance.now() - started);
    const verdict = judgeAttempt(response, attempt, policy);
    app.metrics.webhookDelivery(verdict.kind === 'success' ? 'success' : verdict.kind === 'retry' ? 'retry' : 'failed', attempt);
    const error = attemptError(response);
    const now = context.clock.now();
    const nextAttemptAt = verdict.kind === 'retry' ? now + verdict.delayMs : null;
    const status = verdict.kind === 'success' ? 'succeeded' : verdict.kind === 'fail' ? 'failed' : 'pending';
    const statusCode = response.status || null;
    const writes = (held: SQL) => [
      // The id is deterministic: attempt n of a delivery can only ever be recorded once (the job fence sees to that).
      sql`insert into delivery_attempts (id, delivery_id, attempt, started_at, duration_ms, status_code, error)
          select ${`${delivery.id}.${attempt}`}::text, ${delivery.id}::text, ${attempt}::int, ${iso(timestamp)}::timestamptz,
                 ${durationMs}::int, ${statusCode}::int, ${error}::text
          where ${held}`,
      sql`update deliveries set status = ${status}::text, attempts = ${attempt}::int,
            next_attempt_at = ${iso(nextAttemptAt)}::timestamptz, last_status_code = ${statusCode}::int,
            last_error = ${error}::text, completed_at = ${verdict.kind === 'retry' ? null : iso(now)}::timestamptz
          where id = ${delivery.id} and ${held}`,
    ];
    if (verdict.kind === 'success') return { outcome: { type: 'complete' }, writes };
    if (verdict.kind === 'retry') return { outcome: { type: 'retry', runAt: nextAttemptAt!, error: error ?? '' }, writes };
    return { outcome: { type: 'fail', error: error ?? 'failed' }, writes };
  }

  /** Given up by the worker (it kept stopping during this job): the delivery says so, rather than stay pending. */
  function abandoned(job: ClaimedJob, error: string, now: number) {
    return giveUpWrites((job.payload as DeliveryJobPayload).deliveryId, `Not sent: ${error}`, now);
  }

  return { run, prefetch, abandoned, maxClaims: maxAttempts + CLAIM_MARGIN };
}
