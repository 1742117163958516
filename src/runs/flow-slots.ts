// Flow control slots (docs/workflows.md "Flow control"): a workflow's concurrency limit or singleton, per workflow or
// per key, held across every process by rows of `flow_slots` — one per run in flight, numbered 0…limit-1 per key, so
// two processes can never take the same one (the primary key decides). A run takes its slot just before it starts and
// frees it when it ends; the slots of a process that died are freed with its runs by the crash recovery (runners.ts).
// - Sync and streaming calls take a slot before they run, waiting up to `maxWaitMs` (then 429 CONCURRENCY_LIMIT), or
//   are refused at once (`reject`; a singleton's `skip`: 409 ALREADY_RUNNING), or stop the running one (cancel-running).
// - Async runs wait in the queue: their job carries the key and the limit, and the claim (jobs/claim.ts) passes over a
//   job whose key has no free slot; the job takes its slot when it starts (async-executions.ts).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { CHANGES_CHANNEL } from '../db/change-feed.js';
import { toJsonText } from '../db/json.js';
import { RELAXED_COMMIT, RELAXED_COMMIT_TAKEN } from '../db/relaxed.js';
import { rowsOf } from '../db/rows.js';
import { AppError } from '../errors.js';
import { JOBS_CHANNEL } from '../jobs/enqueue.js';
import { nudgeLocalWorkers } from '../jobs/nudge.js';
import { flowLimitOf, type FlowMode, type FlowReason, type WorkflowState } from '../workflow/index.js';
import type { AppContext } from '../services/app-context.js';
import { RUNNER_ID } from './runner-id.js';
import { flowKeyOf } from './flow-keys.js';
import { slotHintsOf, type SlotHints } from './flow-slot-hints.js';
import { deleteSlotRows, flowLeasesOf } from './flow-leases.js';

/** Tries to take a slot when racing takers keep picking the same free number (see SlotTaker). */
const TAKE_ATTEMPTS = 4;
/** How often a call waiting for a slot looks again. */
const WAIT_POLL_MS = 25;
/** A cancel-running call waits at least this long for the run it stopped to free its slot. */
const CANCEL_RUNNING_WAIT_MS = 10_000;
/** Retry-After of a 429 CONCURRENCY_LIMIT (seconds): how long a run lasts is unknown, so soon. */
const RETRY_AFTER_SECONDS = 1;

/** A run's flow control: which slots it needs and what it does when none is free. */
export interface RunFlow {
  workflowId: string;
  /** `<workflowId>:<key value>`. */
  flowKey: string;
  limit: number;
  mode: FlowMode;
  maxWaitMs: number;
  reason: 'concurrency' | 'singleton';
}

/** What the log says of a run flow control held back. */
export interface FlowWait {
  queuedMs: number;
  reason?: FlowReason;
}

/** The flow control of a run of `state` with `input`; undefined when the workflow sets none. */
export function runFlowOf(workflowId: string, state: WorkflowState, input: Record<string, unknown>): RunFlow | undefined {
  const limit = flowLimitOf(state.flowControl);
  if (!limit) return undefined;
  return { workflowId, flowKey: flowKeyOf(workflowId, limit.key, input), limit: limit.limit, mode: limit.mode, maxWaitMs: limit.maxWaitMs, reason: limit.reason };
}

/** Most takes in one statement. */
const MAX_TAKE_BATCH = 256;

/** A shared take's answer: it holds a slot, the key is full, or another process holds the workflow's lease. */
type TakeAnswer = 'held' | 'full' | 'leased';

interface PendingTake {
  flow: RunFlow;
  executionId: string;
  attempt: number;
  /** Its guessed slot number was taken: it looks for a free one (the general take). */
  looks: boolean;
  done(answer: TakeAnswer): void;
  fail(err: unknown): void;
}

interface TakeRow {
  execution_id: string;
  holds: boolean;
  /** The slot number it holds, when it holds one. */
  slot: number | null;
  /** The general take picked a free number (another process may have taken it first). */
  picked?: boolean;
  /** Another process holds the workflow's lease (flow-leases.ts): no slot row may be taken now. */
  leased: boolean;
}

/**
 * Group take, as run-recorder.ts does for logs: the takes that arrive while a take statement is under way are made
 * together by the next one (one round trip for the batch), so a slot costs a run a share of a statement, not one of
 * its own. A lone take goes at once; under load, batches grow by themselves with no timer.
 *
 * A take first tries the slot number its process's hints say is free (flow-slot-hints.ts) with a plain insert — the
 * cheap statement, which is all a run needs when one process serves the key. A take whose guess was taken looks for
 * a free number with the general statement in the next round; a key of limit 1 has no other number, so it is full.
 */
class SlotTaker {
  private pending: PendingTake[] = [];
  private writing: Promise<void> | undefined;
  private readonly hints: SlotHints;

  constructor(private readonly db: Db) {
    this.hints = slotHintsOf(db);
  }

  take(flow: RunFlow, executionId: string): Promise<TakeAnswer> {
    return new Promise((done, fail) => {
      this.pending.push({ flow, executionId, attempt: 0, looks: false, done, fail });
      this.kick();
    });
  }

  private kick(): void {
    this.writing ??= this.writeAll().finally(() => {
      this.writing = undefined;
      if (this.pending.length > 0) this.kick();
    });
  }

  private async writeAll(): Promise<void> {
    for (;;) {
      const batch = this.pending.splice(0, MAX_TAKE_BATCH);
      if (batch.length === 0) return;
      const guesses = this.guess(batch.filter((take) => !take.looks));
      const looking = batch.filter((take) => !guesses.has(take));
      if (guesses.size > 0) await this.settle([...guesses.keys()], () => guessedTakeStatement(guesses), (take) => {
        // Its guess was taken: a key of limit 1 is full; one of a higher limit may have another number free.
        if (take.flow.limit > 1) {
          take.looks = true;
          this.pending.push(take);
        } else take.done('full');
      });
      if (looking.length > 0) await this.settle(looking, () => takeStatement(looking), (take, row) => {
        // Picked a free slot number another process took first: try again with the next batch.
        if (row?.picked && ++take.attempt < TAKE_ATTEMPTS) this.pending.push(take);
        // Full (no free slot number was left for it), or its workflow is gone.
        else take.done('full');
      });
    }
  }

  /** A slot number to try for each take, from the hints, none given twice in the batch. */
  private guess(takes: PendingTake[]): Map<PendingTake, number> {
    const guesses = new Map<PendingTake, number>();
    const inBatch = new Map<string, Set<number>>();
    const asked = new Set<string>();
    for (const take of takes) {
      // The same execution twice in a batch (a job claimed again): the general take answers both.
      if (asked.has(take.executionId)) continue;
      asked.add(take.executionId);
      let taken = inBatch.get(take.flow.flowKey);
      const slot = this.hints.guess(take.flow.flowKey, take.flow.limit, taken);
      if (slot === undefined) continue;
      if (!taken) inBatch.set(take.flow.flowKey, (taken = new Set()));
      taken.add(slot);
      guesses.set(take, slot);
    }
    return guesses;
  }

  private async settle(takes: PendingTake[], statement: () => SQL, notHeld: (take: PendingTake, row: TakeRow | undefined) => void): Promise<void> {
    let rows: TakeRow[];
    try {
      rows = await rowsOf<TakeRow>(this.db, statement());
    } catch (err) {
      takes.forEach((take) => take.fail(err));
      return;
    }
    const byId = new Map(rows.map((row) => [row.execution_id, row]));
    for (const take of takes) {
      const row = byId.get(take.executionId);
      if (row?.holds) {
        if (row.slot !== null) this.hints.held(take.executionId, take.flow.flowKey, Number(row.slot));
        take.done('held');
      } else if (row?.leased) take.done('leased');
      else notHeld(take, row);
    }
  }
}

/**
 * One statement taking the guessed slot numbers of a batch: a plain insert of each, which the primary key refuses
 * when the number is taken. Not while the key holds a number at or above the limit (a limit lowered by a new
 * deployment: the old runs finish first). A run that holds a slot already (a job claimed again) holds it still: the
 * statement's snapshot, read by its execution id's unique index, is from before the insert.
 */
function guessedTakeStatement(guesses: Map<PendingTake, number>): SQL {
  const requests = [...guesses].map(([take, slot]) => ({
    execution_id: take.executionId,
    flow_key: take.flow.flowKey,
    workflow_id: take.flow.workflowId,
    lim: take.flow.limit,
    slot,
  }));
  return sql`with ${RELAXED_COMMIT},
    req as (
      select * from jsonb_to_recordset(${toJsonText(requests)}::jsonb)
        as x(execution_id text, flow_key text, workflow_id text, lim int, slot int)),
    ${unleased(sql`req`)},
    taken as (
      insert into flow_slots (flow_key, slot, workflow_id, execution_id, runner_id)
      select r.flow_key, r.slot, r.workflow_id, r.execution_id, ${RUNNER_ID} from req r
      where ${RELAXED_COMMIT_TAKEN}
        and r.workflow_id in (select id from unleased)
        and not exists (select 1 from flow_slots f where f.flow_key = r.flow_key and f.slot >= r.lim)
      on conflict do nothing
      returning execution_id, slot)
    select h.execution_id, h.slot is not null as holds, h.slot, ${leasedOf(sql`h`)}
    from (select r.execution_id, r.workflow_id, coalesce(t.slot, (select f.slot from flow_slots f where f.execution_id = r.execution_id)) as slot
      from req r left join taken t on t.execution_id = r.execution_id) h`;
}

/**
 * The WITH item `unleased`: the workflows of the requests that no process holds the lease of (flow-leases.ts), their
 * rows locked FOR SHARE until the take commits — taking a lease updates the row, so it waits for this take, and a take
 * that waited for a lease being taken sees it (PostgreSQL reads the changed row again). Locked in id order, so two
 * batches and two leases being taken cannot wait for each other in a circle.
 */
function unleased(requests: SQL): SQL {
  return sql`unleased as (
      select w.id from workflows w where w.id in (select workflow_id from ${requests}) and w.flow_lease_holder is null
      order by w.id for share of w)`;
}

/** Whether another process holds the lease of the request's workflow (it exists, but is not among the unleased). */
function leasedOf(request: SQL): SQL {
  return sql`(${request}.slot is null and ${request}.workflow_id not in (select id from unleased)
      and exists (select 1 from workflows w where w.id = ${request}.workflow_id)) as leased`;
}

/**
 * One statement taking slots for a batch of runs: for each key, its lowest free slot numbers (probing only as many as
 * are in use plus as many as are wanted), handed to the key's takers in the order they asked, never more than the
 * limit leaves free (a limit lowered by a new deployment is respected while the old runs finish). Two processes
 * racing for a number: the primary key lets one in, the other's taker tries again. Relaxed commit (db/relaxed.ts): a
 * slot lost with a PostgreSQL crash is taken again by the run's retry, and one whose freeing was lost is freed by the
 * crash recovery once the run's log says it ended.
 */
function takeStatement(batch: PendingTake[]): SQL {
  // One request per execution (a job claimed again may ask twice in one batch): the first one's place counts.
  const requests = new Map<string, { execution_id: string; flow_key: string; workflow_id: string; lim: number; ord: number }>();
  batch.forEach((take, ord) => {
    if (!requests.has(take.executionId)) {
      requests.set(take.executionId, {
        execution_id: take.executionId,
        flow_key: take.flow.flowKey,
        workflow_id: take.flow.workflowId,
        lim: take.flow.limit,
        ord,
      });
    }
  });
  return sql`with ${RELAXED_COMMIT},
    req as (
      select * from jsonb_to_recordset(${toJsonText([...requests.values()])}::jsonb)
        as x(execution_id text, flow_key text, workflow_id text, lim int, ord int)),
    mine as (select f.execution_id, f.slot from flow_slots f where f.execution_id in (select execution_id from req)),
    ${unleased(sql`req`)},
    want as (
      select r.*, row_number() over (partition by r.flow_key order by r.ord) as nth from req r
      where r.execution_id not in (select execution_id from mine)
        and r.workflow_id in (select id from unleased)),
    keys as (
      select w.flow_key, min(w.lim) as lim, count(*) as wanted,
        (select count(*) from flow_slots f where f.flow_key = w.flow_key) as used
      from want w group by w.flow_key),
    free as (
      select k.flow_key, n.slot, row_number() over (partition by k.flow_key order by n.slot) as nth
      from keys k cross join lateral (
        select s as slot from generate_series(0, k.lim - 1) s
        where not exists (select 1 from flow_slots f where f.flow_key = k.flow_key and f.slot = s)
        order by s
        limit greatest(0, least(k.wanted, k.lim - k.used))) n),
    pick as (
      select w.execution_id, w.flow_key, w.workflow_id, f.slot from want w join free f on f.flow_key = w.flow_key and f.nth = w.nth),
    taken as (
      insert into flow_slots (flow_key, slot, workflow_id, execution_id, runner_id)
      select p.flow_key, p.slot, p.workflow_id, p.execution_id, ${RUNNER_ID} from pick p
      where ${RELAXED_COMMIT_TAKEN}
      on conflict do nothing
      returning execution_id, slot)
    select h.execution_id, h.slot is not null as holds, h.slot, h.picked, ${leasedOf(sql`h`)}
    from (select r.execution_id, r.workflow_id, coalesce(m.slot, t.slot) as slot, r.execution_id in (select execution_id from pick) as picked
      from req r left join taken t on t.execution_id = r.execution_id left join mine m on m.execution_id = r.execution_id) h`;
}

const takers = new WeakMap<Db, SlotTaker>();

function takerOf(db: Db): SlotTaker {
  let taker = takers.get(db);
  if (!taker) takers.set(db, (taker = new SlotTaker(db)));
  return taker;
}

/**
 * Takes a free slot of the run's key for `executionId`; true when it holds one (already holding one counts: a job
 * claimed again), false when the key is full. A sync or streaming call (`forCall`) takes it in memory when this
 * process holds the workflow's lease (flow-leases.ts); any other take has the lease handed over first.
 */
export async function takeSlot(db: Db, flow: RunFlow, executionId: string, options: { forCall?: boolean } = {}): Promise<boolean> {
  const leases = flowLeasesOf(db);
  if (options.forCall) {
    const inMemory = await leases.takeForCall(flow, executionId);
    if (inMemory !== undefined) return inMemory;
  } else await leases.share(flow.workflowId);
  const asking = Date.now();
  for (;;) {
    const answer = await takerOf(db).take(flow, executionId);
    if (answer !== 'leased') return answer === 'held';
    // Another process keeps the workflow's slots in memory: ask it to write them out, and take then (or count it full).
    if (!(await leases.awaitHandOver(flow.workflowId, asking))) return false;
  }
}

/** Frees the run's slot, if it holds one, and wakes the workers when a run of that key is queued (it may go now). */
export async function freeSlot(db: Db, executionId: string): Promise<void> {
  if (flowLeasesOf(db).release(executionId) === 'row') await deleteSlotRows(db, [executionId]);
}

/** Frees a run's slot outside its log's statement; on failure the crash recovery frees it (runners.ts). */
export async function freeSlotQuietly(app: AppContext, executionId: string): Promise<void> {
  await freeSlot(app.db, executionId).catch((err: unknown) => {
    app.logger.warn({ err, executionId }, 'could not free a flow control slot');
  });
}

/** Whether the run's slot went with its log (run-recorder.ts: a stored log frees it in the same statement). */
export const loggedWithSlot = (outcome: { stored: string } | undefined): boolean => outcome?.stored === 'full' || outcome?.stored === 'minimal';

/** The executions holding the key's slots, oldest first. */
export async function slotHolders(db: Db, flow: RunFlow): Promise<string[]> {
  const inMemory = flowLeasesOf(db).holders(flow);
  if (inMemory) return inMemory;
  const rows = await rowsOf<{ execution_id: string }>(
    db,
    sql`select execution_id from flow_slots where flow_key = ${flow.flowKey} order by acquired_at, slot`,
  );
  return rows.map((row) => row.execution_id);
}

/**
 * How many runs of the key are in flight or queued, counted from the rows: the workflow's lease is handed over first
 * (this process's at once; another's asked for, as FlowLeases.awaitHandOver waits).
 */
async function keyLoad(db: Db, flow: RunFlow): Promise<number> {
  const leases = flowLeasesOf(db);
  await leases.share(flow.workflowId);
  const asking = Date.now();
  for (;;) {
    const [row] = await rowsOf<{ n: number; leased: boolean }>(
      db,
      sql`select (select count(*) from flow_slots where flow_key = ${flow.flowKey})
        + (select count(*) from jobs where status = 'queued' and flow_key = ${flow.flowKey}) as n,
        exists (select 1 from workflows where id = ${flow.workflowId} and flow_lease_holder is not null) as leased`,
    );
    if (!row?.leased || !(await leases.awaitHandOver(flow.workflowId, asking))) return Number(row?.n ?? 0);
  }
}

/** Asks every process to stop the runs holding the key's slots (cancel-running): the newest run replaces them. */
async function cancelHolders(app: AppContext, flow: RunFlow, requester: { userId: string; keyWorkspaceId: string | null }): Promise<void> {
  for (const executionId of await slotHolders(app.db, flow)) {
    const topic = app.cancellations.topicFor({ executionId, userId: requester.userId, keyWorkspaceId: requester.keyWorkspaceId });
    await app.db.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${topic})`);
  }
}

export function concurrencyLimited(flow: RunFlow, waitedMs: number): AppError {
  const what = flow.reason === 'singleton' ? 'a run for this singleton key is in flight' : `${flow.limit} run${flow.limit === 1 ? ' is' : 's are'} in flight for this key`;
  return new AppError(
    'CONCURRENCY_LIMIT',
    429,
    `Concurrency limit reached: ${what}${waitedMs > 0 ? ` (waited ${waitedMs} ms)` : ''}; try again later`,
    undefined,
    { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  );
}

async function alreadyRunning(db: Db, flow: RunFlow): Promise<AppError> {
  const [running] = await slotHolders(db, flow);
  return new AppError(
    'ALREADY_RUNNING',
    409,
    `A run for this singleton key is already in flight${running ? ` (${running})` : ''}; this call was skipped`,
    undefined,
    undefined,
    running,
  );
}

/** A full key refuses a run at once under `skip` (409 ALREADY_RUNNING) and `reject` (429); other modes wait. */
async function refuseWhenItDoesNotWait(app: AppContext, flow: RunFlow): Promise<void> {
  if (flow.mode === 'skip') {
    app.metrics.flowRefused(flow.workflowId, 'ALREADY_RUNNING');
    throw await alreadyRunning(app.db, flow);
  }
  if (flow.mode === 'reject') {
    app.metrics.flowRefused(flow.workflowId, 'CONCURRENCY_LIMIT');
    throw concurrencyLimited(flow, 0);
  }
}

/**
 * For a sync or streaming call: takes a slot for the run, waiting as its flow control says, or throws the answer that
 * refuses it. Returns how long it waited and, when it did, why.
 */
export async function takeSlotForCall(
  app: AppContext,
  flow: RunFlow,
  executionId: string,
  requester: { userId: string; keyWorkspaceId: string | null },
): Promise<FlowWait> {
  const started = Date.now();
  if (await takeSlot(app.db, flow, executionId, { forCall: true })) return { queuedMs: 0 };
  await refuseWhenItDoesNotWait(app, flow);
  let waitMs = flow.maxWaitMs;
  if (flow.mode === 'cancel-running') {
    await cancelHolders(app, flow, requester);
    waitMs = Math.max(waitMs, CANCEL_RUNNING_WAIT_MS);
  }
  while (Date.now() - started < waitMs) {
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    if (await takeSlot(app.db, flow, executionId, { forCall: true })) {
      app.metrics.flowWaited(flow.workflowId, flow.reason);
      return { queuedMs: Date.now() - started, reason: flow.reason };
    }
  }
  app.metrics.flowRefused(flow.workflowId, 'CONCURRENCY_LIMIT');
  throw concurrencyLimited(flow, Date.now() - started);
}

/**
 * For an async call, before its job is queued: refuses it when its flow control says so (`reject` and `skip` with
 * the key full), stops the running ones (cancel-running). Returns whether the run will wait for a slot.
 */
export async function admitQueuedRun(
  app: AppContext,
  flow: RunFlow,
  requester: { userId: string; keyWorkspaceId: string | null },
): Promise<{ waits: boolean }> {
  const load = await keyLoad(app.db, flow);
  const waits = load >= flow.limit;
  if (!waits) return { waits };
  await refuseWhenItDoesNotWait(app, flow);
  if (flow.mode === 'cancel-running') await cancelHolders(app, flow, requester);
  return { waits };
}

/** How often a run no caller waits on looks again for a slot. */
const BACKGROUND_POLL_MS = 100;

export type BackgroundSlot = { taken: FlowWait } | { refused: 'ALREADY_RUNNING' | 'CONCURRENCY_LIMIT' } | { stopped: true };

/**
 * For a run no caller waits on (a queue trigger's message; a schedule tick looks once: flow-background.ts): takes a
 * slot, waiting as long as it takes — a message stays unacknowledged with its broker — until `signal` stops the wait
 * (an aborted one: no wait at all).
 * `reject` and a singleton's `skip` refuse it at once when the key is full; cancel-running stops the runs holding it
 * (asked as the workspace owner, on whose behalf these runs go).
 */
export async function takeSlotInBackground(
  app: AppContext,
  flow: RunFlow,
  executionId: string,
  owner: { id: string },
  signal: AbortSignal | undefined,
): Promise<BackgroundSlot> {
  const started = Date.now();
  if (await takeSlot(app.db, flow, executionId)) return { taken: { queuedMs: 0 } };
  if (flow.mode === 'skip' || flow.mode === 'reject') {
    const refused = flow.mode === 'skip' ? 'ALREADY_RUNNING' : 'CONCURRENCY_LIMIT';
    app.metrics.flowRefused(flow.workflowId, refused);
    return { refused };
  }
  if (flow.mode === 'cancel-running') await cancelHolders(app, flow, { userId: owner.id, keyWorkspaceId: null });
  while (!signal?.aborted) {
    await new Promise((resolve) => setTimeout(resolve, BACKGROUND_POLL_MS));
    if (signal?.aborted) break;
    if (await takeSlot(app.db, flow, executionId)) {
      app.metrics.flowWaited(flow.workflowId, flow.reason);
      return { taken: { queuedMs: Date.now() - started, reason: flow.reason } };
    }
  }
  return { stopped: true };
}

/** Runs `run` holding the execution's slot; frees it if the run's log did not (a log that could not be stored). */
export async function runHoldingSlot<T extends { stored: string }>(app: AppContext, executionId: string, run: () => Promise<T>): Promise<T> {
  let outcome: T | undefined;
  try {
    outcome = await run();
    return outcome;
  } finally {
    if (!loggedWithSlot(outcome)) await freeSlotQuietly(app, executionId);
  }
}
