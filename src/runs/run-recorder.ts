// Group commit for runs. Every run's outcome — its log, its owner's usage, its completion webhook deliveries, its
// idempotency answer — must be durable before its caller hears of it (a 200 means the log exists). Instead of one
// transaction and one WAL flush per run, the completions that arrive while a write is under way are written
// together by the next one (record-statement.ts: one statement, one round trip, one flush for the whole batch).
// A lone run is written at once; under load, batches grow by themselves, with no timer adding latency.
//
// Running markers (status `running`, what the logs horizon and crash recovery look at) ride in the same batches:
// a run gets one once it has been in flight MARKER_DELAY_MS, or before it starts when its caller asks (async jobs and
// schedule ticks: a job claimed again must know the run had started). Runs that finish sooner are written once, whole.
// The logs horizon's settle margin (logs/horizon.ts, 1 s) covers a marker's delay plus one batch.
//
// Nothing is lost to a bad row: a failed batch is written again run by run, and a run whose full log still cannot be
// written gets a minimal error log saying so (with its webhooks), so no completed run is ever left unlogged.
import type { Db } from '../db/client.js';
import { rowsOfPrepared } from '../db/rows.js';
import { storableText } from '../db/storable.js';
import type { Logger } from '../logger.js';
import { nudgeLocalWorkers } from '../jobs/nudge.js';
import type { FileStorage } from '../services/files/storage.js';
import { currentPeriod } from '../services/limits.js';
import { offloadValues } from '../services/logs/offloaded-values.js';
import { reserveValueRows } from '../services/logs/orphaned-values.js';
import { storeTrace } from '../services/logs/stored-trace.js';
import { slotsFreed } from './flow-slot-hints.js';
import { slotRowsToFree } from './flow-leases.js';
import {
  recordStatement,
  type DeliveryRecord,
  type ExecutionRecord,
  type IdempotencyRecord,
  type FollowUpJob,
  type RecordBatch,
} from './record-statement.js';

/** How long a run may be in flight before its running marker is written. */
export const MARKER_DELAY_MS = 200;
/** Most completions in one statement. */
const MAX_BATCH = 256;

export interface StartedRun {
  /** The running marker: status `running`, no outcome yet. */
  marker: ExecutionRecord;
  /** The state the run executes, stored (once per content hash) with the first record that names it. */
  state: unknown;
}

export interface CompletedRun {
  started: StartedRun;
  /** The log as it should be stored. */
  log: ExecutionRecord;
  ownerId: string;
  /** What the owner is charged now when not the log's whole cost (a resumed run paid for its earlier part already). */
  chargeUsd?: number;
  /** Completion webhook deliveries for `log` (computed again for the minimal log if the full one cannot be stored). */
  deliveries(log: ExecutionRecord): Promise<DeliveryRecord[]>;
  idempotency?: IdempotencyRecord;
  /** Jobs queued in the same statement as the log, and only if it is written (an approval's time-out). */
  followUps?: FollowUpJob[];
  /** The run holds a flow control slot (flow-slots.ts): freed in the statement that writes its log. */
  freesSlot?: boolean;
}

/** What became of a run's log: `minimal` = an error log saying the full one could not be stored. */
export type StoredAs = 'full' | 'minimal' | 'none';

export interface RunRecorder {
  /** Registers a run in flight. With `markNow`, resolves once its running marker is written. */
  begin(run: StartedRun, options?: { markNow?: boolean }): Promise<void>;
  /** Resolves once the run's log (and everything with it) is durable. Never rejects. */
  complete(run: CompletedRun): Promise<StoredAs>;
  /** Runs in flight in this process, oldest first. */
  inFlight(): StartedRun[];
  /** Waits for everything queued to be written. */
  drain(): Promise<void>;
}

interface QueuedCompletion {
  run: CompletedRun;
  deliveries: DeliveryRecord[];
  done: (stored: StoredAs) => void;
}

interface QueuedMarker {
  run: StartedRun;
  done?: () => void;
}

export interface RunRecorderDeps {
  db: Db;
  logger: Logger;
  /** Told of each owner's committed cost (the usage meter). */
  onCharged(ownerId: string, costUsd: number): void;
  /** Told of each commit that carried completed runs, with their number (the metrics' batch sizes). */
  onCommitted?(runs: number): void;
  /**
   * Where values of a log larger than `limit` bytes of JSON go instead of its row (SLUICE_INLINE_VALUE_LIMIT,
   * services/logs/offloaded-values.ts); without it every value stays in the row.
   */
  offload?: { storage: FileStorage; limit: number };
}

const ENDED_HOW: Partial<Record<ExecutionRecord['status'], string>> = {
  success: 'ended successfully',
  paused: 'paused for an approval',
};

const chargeOf = (run: CompletedRun) => run.chargeUsd ?? run.log.costTotal;

export function createRunRecorder({ db, logger, onCharged, onCommitted, offload }: RunRecorderDeps): RunRecorder {
  const inFlight = new Map<string, StartedRun>();
  const marked = new Set<string>();
  let completions: QueuedCompletion[] = [];
  let urgentMarkers: QueuedMarker[] = [];
  /** Snapshot hashes known to be stored (content-addressed: once written, never needed again). */
  const knownSnapshots = new Set<string>();
  let writing: Promise<void> | undefined;
  let markerTimer: NodeJS.Timeout | undefined;

  /** Runs in flight long enough to need their marker, not yet marked. */
  function dueMarkers(now: number): QueuedMarker[] {
    const due: QueuedMarker[] = [];
    for (const run of inFlight.values()) {
      if (run.marker.startedAt.getTime() + MARKER_DELAY_MS > now) break; // oldest first: the rest are younger
      if (!marked.has(run.marker.id)) due.push({ run });
    }
    return due;
  }

  function armMarkerTimer(): void {
    if (markerTimer) return;
    const oldest = [...inFlight.values()].find((run) => !marked.has(run.marker.id));
    if (!oldest) return;
    const wait = Math.max(0, oldest.marker.startedAt.getTime() + MARKER_DELAY_MS - Date.now());
    markerTimer = setTimeout(() => {
      markerTimer = undefined;
      if (dueMarkers(Date.now()).length > 0) void kick();
      else armMarkerTimer();
    }, wait + 5);
    markerTimer.unref();
  }

  function kick(): Promise<void> {
    writing ??= writeAll().finally(() => {
      writing = undefined;
      // Anything queued during the last write's final moments.
      if (completions.length > 0 || urgentMarkers.length > 0) void kick();
      else armMarkerTimer();
    });
    return writing;
  }

  async function writeAll(): Promise<void> {
    for (;;) {
      const batch = completions.splice(0, MAX_BATCH);
      // Urgent markers last: a run whose caller waits on its marker (markNow) may also be due by now, and the entry
      // kept must be the one with `done`, or that caller waits for ever.
      const markers = [...dueMarkers(Date.now()), ...urgentMarkers.splice(0)];
      const unique = new Map(markers.map((m) => [m.run.marker.id, m]));
      for (const item of batch) unique.delete(item.run.started.marker.id);
      if (batch.length === 0 && unique.size === 0) return;
      await writeBatch(batch, [...unique.values()]);
    }
  }

  function batchOf(items: QueuedCompletion[], markers: QueuedMarker[]): RecordBatch {
    const snapshots = new Map<string, unknown>();
    const want = (run: StartedRun) => {
      if (!knownSnapshots.has(run.marker.snapshotHash)) snapshots.set(run.marker.snapshotHash, run.state);
    };
    markers.forEach((m) => want(m.run));
    items.forEach((item) => want(item.run.started));
    const usage = new Map<string, number>();
    for (const { run } of items) {
      const charge = chargeOf(run);
      if (charge > 0) usage.set(run.ownerId, (usage.get(run.ownerId) ?? 0) + charge);
    }
    const period = currentPeriod();
    return {
      // A slot kept in memory under a lease (flow-leases.ts) is freed here; only a slot's row goes with the log.
      freedSlots: slotRowsToFree(db, items.flatMap((item) => (item.run.freesSlot ? [item.run.log.executionId] : []))),
      snapshots: [...snapshots].map(([hash, state]) => ({ hash, state })),
      markers: markers.map((m) => m.run.marker),
      completions: items.map((item) => item.run.log),
      usage: [...usage].map(([userId, costUsd]) => ({ userId, period, costUsd })),
      deliveries: items.flatMap((item) => item.deliveries),
      idempotency: items.flatMap((item) => (item.run.idempotency ? [item.run.idempotency] : [])),
      followUps: items.flatMap((item) => item.run.followUps ?? []),
    };
  }

  async function write(items: QueuedCompletion[], markers: QueuedMarker[]): Promise<void> {
    const batch = batchOf(items, markers);
    // A marker someone waits for (markNow) must survive a crash: the job that waits on it relies on it.
    const [row] = await rowsOfPrepared<{ woke_slots?: number }>(
      db,
      recordStatement(batch, { durable: markers.some((m) => m.done) }),
    );
    const wokeForSlots = Number(row?.woke_slots ?? 0) > 0;
    if (batch.freedSlots && batch.freedSlots.length > 0) slotsFreed(db, batch.freedSlots);
    batch.snapshots.forEach((s) => knownSnapshots.add(s.hash));
    if (knownSnapshots.size > 10_000) knownSnapshots.clear();
    // A run that completed while its marker was being written is gone from inFlight: nothing to remember for it.
    for (const m of markers) if (inFlight.has(m.run.marker.id)) marked.add(m.run.marker.id);
    if (items.length > 0) onCommitted?.(items.length);
    for (const item of items) if (chargeOf(item.run) > 0) onCharged(item.run.ownerId, chargeOf(item.run));
    if (batch.deliveries.length > 0 || wokeForSlots) nudgeLocalWorkers();
  }

  async function writeBatch(items: QueuedCompletion[], markers: QueuedMarker[]): Promise<void> {
    try {
      await write(items, markers);
      items.forEach((item) => item.done('full'));
      markers.forEach((m) => m.done?.());
      return;
    } catch (err) {
      if (items.length + markers.length === 1 && items.length === 1) return writeMinimal(items[0], err);
      if (items.length + markers.length === 1) {
        logger.warn({ err, executionId: markers[0].run.marker.executionId }, 'could not write a running marker');
        markers[0].done?.();
        return;
      }
      logger.warn({ err, runs: items.length, markers: markers.length }, 'batched run write failed; writing run by run');
    }
    for (const marker of markers) await writeBatch([], [marker]);
    for (const item of items) await writeBatch([item], []);
  }

  /**
   * The log as its row will store it: values too large for the row written to file storage first, once per run (not
   * per attempt at the batch), so the batch statement itself never waits on storage. A log with no large value is
   * left as it is. When storage refuses a value, the database does not record their rows, or both together do not
   * within OFFLOAD_WRITE_DEADLINE_MS (the run's answer waits for this), the log keeps them in the row: larger, but
   * nothing is lost. The warning's `err` says which.
   */
  async function withOffloadedValues(log: ExecutionRecord): Promise<ExecutionRecord> {
    if (!offload || !log.traceSpans) return log;
    let trace;
    try {
      trace = storeTrace(log.traceSpans, log.finalOutput, log.traceKept);
    } catch {
      return log; // fails again in the batch, which then stores a minimal log saying why
    }
    try {
      const stored = await offloadValues({
        storage: offload.storage,
        executionId: log.executionId,
        trace,
        finalOutput: log.finalOutput,
        limit: offload.limit,
        logger,
        reserve: reserveValueRows(db, log.workspaceId),
      });
      return { ...log, stored };
    } catch (err) {
      logger.warn({ err, executionId: log.executionId }, 'could not write the large values of a log to file storage; the log keeps them in its row');
      return { ...log, stored: { trace, finalOutput: log.finalOutput, files: [] } };
    }
  }

  /** The full log could not be written: store an error log that says so, with its webhooks. */
  async function writeMinimal(item: QueuedCompletion, cause: unknown): Promise<void> {
    const { log } = item.run;
    logger.error({ err: cause, executionId: log.executionId }, 'could not store the full log of a run; storing a minimal one');
    // Values written for the full log stay orphans, which housekeeping deletes (services/logs/orphaned-values.ts):
    // deleted here, they would be lost to a full log that was committed after all, its answer lost on the way.
    const reason = cause instanceof Error ? cause.message.split('\n')[0].slice(0, 300) : 'unknown error';
    const minimal: ExecutionRecord = {
      ...log,
      status: 'error',
      level: 'error',
      finalOutput: {},
      traceSpans: [],
      stored: undefined,
      files: null,
      cost: null,
      blockErrorCount: 0,
      models: [],
      // A pause that cannot be stored cannot be resumed: the run ends here.
      pause: null,
      endedAt: log.endedAt ?? new Date(),
      error: storableText(
        `The run ${ENDED_HOW[log.status] ?? 'ended with an error'} but its full log could not be stored (${reason}); its output and trace are lost`,
      ),
    };
    const run: CompletedRun = { ...item.run, log: minimal, idempotency: undefined, followUps: undefined };
    try {
      const deliveries = await item.run.deliveries(minimal);
      await write([{ run, deliveries, done: () => undefined }], []);
      item.done('minimal');
    } catch (err) {
      logger.error({ err, executionId: log.executionId }, 'could not store even a minimal log of a run');
      item.done('none');
    }
  }

  return {
    async begin(run, options = {}) {
      inFlight.set(run.marker.id, run);
      if (!options.markNow) {
        armMarkerTimer();
        return;
      }
      await new Promise<void>((resolve) => {
        urgentMarkers.push({ run, done: resolve });
        void kick();
      });
    },
    async complete(run) {
      inFlight.delete(run.started.marker.id);
      marked.delete(run.started.marker.id);
      let deliveries: DeliveryRecord[];
      try {
        deliveries = await run.deliveries(run.log);
      } catch (err) {
        logger.error({ err, executionId: run.log.executionId }, 'could not prepare completion webhooks of a run');
        deliveries = [];
      }
      run = { ...run, log: await withOffloadedValues(run.log) };
      return new Promise<StoredAs>((resolve) => {
        completions.push({ run, deliveries, done: resolve });
        void kick();
      });
    },
    inFlight: () => [...inFlight.values()],
    async drain() {
      while (writing || completions.length > 0 || urgentMarkers.length > 0) await kick();
    },
  };
}
