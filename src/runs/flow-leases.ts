// Flow control leases (docs/workflows.md "Flow control"): while one process alone serves a workflow's sync and
// streaming calls, it holds the workflow's lease (`workflows.flow_lease_holder`) and keeps the workflow's slots in
// memory, so such a call takes and frees its slot with no statement of its own. Everything else goes the shared way,
// through rows of `flow_slots` (flow-slots.ts):
// - A process that needs a leased workflow's slots another way (an async run's admission or its job, a resumed run, a
//   queue message, a schedule tick) first has the lease handed over: the holder writes the slots it keeps in memory
//   to `flow_slots` and clears the lease in one statement. Another process asks for it on the change feed
//   (`flow-lease:<workflow id>`); this one does it itself.
// - No process takes the lease again for HOLD_DOWN_MS after a hand-over, so two processes serving one workflow settle
//   on the shared way instead of passing the lease back and forth.
// - Exclusion: a shared take locks the workflow's row FOR SHARE and goes only while it holds no lease; taking the lease
//   is an UPDATE of that row, so it waits for the takes under way and any take after it sees the lease (PostgreSQL
//   re-reads a row that changed while a locking read waited for it). Once the lease is written, this process reads
//   the workflow's slot rows: it keeps the lease only when every one is a run of its own and no run of the workflow
//   waits in the queue.
// - A process that dies holding a lease: the crash recovery clears it (runners.ts), and a process waiting for a
//   hand-over breaks the lease of a holder whose heartbeat stopped. Its runs died with it, so its slots did too.
import { sql } from 'drizzle-orm';
import { ALL_TOPICS, CHANGES_CHANNEL, type ChangeFeed } from '../db/change-feed.js';
import type { Db } from '../db/client.js';
import { toJsonText } from '../db/json.js';
import { RELAXED_COMMIT, RELAXED_COMMIT_TAKEN } from '../db/relaxed.js';
import { rowsOf } from '../db/rows.js';
import { JOBS_CHANNEL } from '../jobs/enqueue.js';
import { nudgeLocalWorkers } from '../jobs/nudge.js';
import { slotHintsOf, type SlotHints } from './flow-slot-hints.js';
import { DEAD_AFTER_MS, RUNNER_ID } from './runner-id.js';

/** After a hand-over, no process takes the workflow's lease again for this long. */
export const HOLD_DOWN_MS = 30_000;
/** A process that found the lease held elsewhere (or lost a race for it) tries again after this long. */
const RETRY_MS = 5_000;
/** A process waiting for a hand-over asks again this often (a notification may be missed while a connection drops). */
const ASK_EVERY_MS = 250;
/** How long a process waits for another to hand a lease over before it counts the key as full. */
const HAND_OVER_WAIT_MS = 5_000;
/** How often a process waiting for a hand-over looks again. */
const HAND_OVER_POLL_MS = 10;
const TOPIC_PREFIX = 'flow-lease:';

/** A slot kept in memory under a lease. */
interface LocalSlot {
  workflowId: string;
  flowKey: string;
  /** Its number in `flow_slots` when it has a row there (taken before the lease, or written by a hand-over under way). */
  slot: number | null;
  /** A hand-over is writing it; `freed`: its run ended meanwhile, so the row is deleted once written. */
  handing?: { freed: boolean };
}

type Lease =
  | { state: 'acquiring' | 'handing'; settled: Promise<void> }
  /** Each key's runs holding a slot, in the order they took it. */
  | { state: 'held'; keys: Map<string, Set<string>> };

export interface LeaseFlow {
  workflowId: string;
  flowKey: string;
  limit: number;
}

let registries = 0;

/** One database's leases in this process. */
export class FlowLeases {
  /** Who holds a lease: the process (its runner id, whose heartbeat says it lives) and which of its databases. */
  readonly holder = `${RUNNER_ID}#${++registries}`;
  private listening: (() => void) | undefined;
  private feed: ChangeFeed | undefined;
  private readonly leases = new Map<string, Lease>();
  private readonly slots = new Map<string, LocalSlot>();
  /** Per workflow: no lease is tried before this time. */
  private readonly sharedUntil = new Map<string, number>();
  /** Per workflow: when this process last asked for a hand-over. */
  private readonly asked = new Map<string, number>();
  private readonly hints: SlotHints;

  constructor(private readonly db: Db) {
    this.hints = slotHintsOf(db);
  }

  /**
   * Hears hand-over requests; only a process that hears them (and beats as a runner) may hold a lease. While the feed
   * is not live a request could go unheard, so no lease is taken and those held are handed over.
   */
  listen(feed: ChangeFeed): void {
    this.feed = feed;
    const handOver = (workflowIds: string[]) => workflowIds.forEach((id) => void this.share(id).catch(() => undefined));
    this.listening ??= feed.subscribe((topic) => {
      if (topic === ALL_TOPICS && !feed.isLive()) handOver([...this.leases.keys()]);
      else if (topic.startsWith(TOPIC_PREFIX)) handOver([topic.slice(TOPIC_PREFIX.length)].filter((id) => this.leases.has(id)));
    });
  }

  /** Whether this process may take a lease now: it hears hand-over requests. */
  private hearsRequests(): boolean {
    return this.listening !== undefined && this.feed?.isLive() === true;
  }

  /**
   * A sync or streaming call's take: true or false when this process holds the workflow's lease (taking it when it
   * may); undefined when the call must take its slot the shared way.
   */
  async takeForCall(flow: LeaseFlow, executionId: string): Promise<boolean | undefined> {
    for (;;) {
      const lease = this.leases.get(flow.workflowId);
      if (!lease) {
        if (!this.hearsRequests() || Date.now() < (this.sharedUntil.get(flow.workflowId) ?? 0)) return undefined;
        await this.acquire(flow.workflowId);
        continue;
      }
      if (lease.state !== 'held') {
        await lease.settled;
        continue;
      }
      let holders = lease.keys.get(flow.flowKey);
      if (holders?.has(executionId)) return true;
      // A limit lowered by a new deployment holds while the old runs finish: they still count.
      if ((holders?.size ?? 0) >= flow.limit) return false;
      if (!holders) lease.keys.set(flow.flowKey, (holders = new Set()));
      holders.add(executionId);
      this.slots.set(executionId, { workflowId: flow.workflowId, flowKey: flow.flowKey, slot: null });
      return true;
    }
  }

  /** Before any take or admission that is not a call's: the workflow's slots go the shared way (hand-over if held). */
  async share(workflowId: string): Promise<void> {
    for (;;) {
      const lease = this.leases.get(workflowId);
      if (!lease) {
        this.sharedUntil.set(workflowId, Math.max(this.sharedUntil.get(workflowId) ?? 0, Date.now() + HOLD_DOWN_MS));
        return;
      }
      if (lease.state === 'held') await this.handOver(workflowId, lease.keys);
      else await lease.settled;
    }
  }

  /**
   * A run's slot is freed: 'memory' when it was kept in memory only (nothing to delete), 'row' when its row of
   * `flow_slots` must go (the caller deletes it).
   */
  release(executionId: string): 'memory' | 'row' {
    const slot = this.slots.get(executionId);
    // Forgotten at once, not when the row is gone: a lease taken meanwhile must not count the run as holding a slot.
    this.hints.forget(executionId);
    if (!slot) return 'row';
    this.slots.delete(executionId);
    const lease = this.leases.get(slot.workflowId);
    if (lease?.state === 'held') {
      const holders = lease.keys.get(slot.flowKey);
      holders?.delete(executionId);
      if (holders?.size === 0) lease.keys.delete(slot.flowKey);
    }
    if (slot.handing) {
      slot.handing.freed = true;
      return 'memory';
    }
    return slot.slot === null ? 'memory' : 'row';
  }

  /** The runs holding the key's slots, oldest first, when this process keeps them; undefined when they are rows. */
  holders(flow: LeaseFlow): string[] | undefined {
    const lease = this.leases.get(flow.workflowId);
    return lease?.state === 'held' ? [...(lease.keys.get(flow.flowKey) ?? [])] : undefined;
  }

  /**
   * For a process that found the workflow's lease held elsewhere (since `askingSince`): asks for the hand-over and
   * waits a moment before the caller looks again; false, without waiting, once HAND_OVER_WAIT_MS have passed.
   */
  async awaitHandOver(workflowId: string, askingSince: number): Promise<boolean> {
    if (Date.now() - askingSince > HAND_OVER_WAIT_MS) return false;
    await this.askForHandOver(workflowId);
    await new Promise((resolve) => setTimeout(resolve, HAND_OVER_POLL_MS));
    return true;
  }

  /**
   * Asks the holder of another process to hand the workflow's lease over (at most every ASK_EVERY_MS), breaking it
   * at once when the holder's process is gone.
   */
  private async askForHandOver(workflowId: string): Promise<void> {
    const now = Date.now();
    if (now - (this.asked.get(workflowId) ?? 0) < ASK_EVERY_MS) return;
    this.asked.set(workflowId, now);
    if (this.asked.size > 10_000) this.asked.clear();
    // PostgreSQL runs a data-modifying WITH item whether or not the statement reads it.
    await this.db.execute(sql`with broken as (
        update workflows set ${leaseCleared(HOLD_DOWN_MS)}
        where id = ${workflowId} and flow_lease_holder is not null and not exists (
          select 1 from runners r where r.id = split_part(flow_lease_holder, '#', 1)
            and r.heartbeat_at > now() - ${DEAD_AFTER_MS}::float8 * interval '1 millisecond')
        returning id)
      select pg_notify(${CHANGES_CHANNEL}, ${TOPIC_PREFIX + workflowId})`);
  }

  /** Hands every lease over (a process stopping: its runs have drained, so this only clears them) and stops hearing. */
  async close(): Promise<void> {
    this.listening?.();
    this.listening = undefined;
    for (const workflowId of [...this.leases.keys()]) await this.share(workflowId).catch(() => undefined);
  }

  private acquire(workflowId: string): Promise<void> {
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    this.leases.set(workflowId, { state: 'acquiring', settled });
    void this.tryAcquire(workflowId)
      .catch(() => {
        // Could not tell whether it holds the lease: gives it back (a stale one is broken by whoever asks for it).
        this.goShared(workflowId, RETRY_MS);
        void this.clearLease(workflowId, 0).catch(() => undefined);
      })
      .finally(settle);
    return settled;
  }

  private async tryAcquire(workflowId: string): Promise<void> {
    const won = await rowsOf(
      this.db,
      sql`update workflows set flow_lease_holder = ${this.holder}
        where id = ${workflowId} and flow_lease_holder is null and (flow_lease_after is null or flow_lease_after <= now())
        returning id`,
    );
    if (won.length === 0) return this.goShared(workflowId, RETRY_MS);
    // Every take that locked the row before the lease has committed: its slot row is there to be read.
    const rows = await rowsOf<{ execution_id: string; flow_key: string; slot: number | null }>(
      this.db,
      sql`select execution_id, flow_key, slot from flow_slots where workflow_id = ${workflowId}
        union all (select id, null, null from jobs
          where status in ('queued', 'running') and flow_key is not null and left(flow_key, ${workflowId.length + 1}) = ${`${workflowId}:`}
          limit 1)`,
    );
    // Read synchronously from here on: a run of this process that ends now is forgotten by the hints first (release).
    const own = rows.map((row) => ({ row, hint: this.hints.slotOf(row.execution_id) }));
    if (own.some(({ row, hint }) => row.flow_key === null || hint?.flowKey !== row.flow_key || hint.slot !== Number(row.slot))) {
      // Another process's runs hold slots of it, or runs of it wait in the queue: the shared way it stays.
      this.goShared(workflowId, HOLD_DOWN_MS);
      await this.clearLease(workflowId, HOLD_DOWN_MS);
      return;
    }
    const keys = new Map<string, Set<string>>();
    for (const { row } of own) {
      let holders = keys.get(row.flow_key);
      if (!holders) keys.set(row.flow_key, (holders = new Set()));
      holders.add(row.execution_id);
      this.slots.set(row.execution_id, { workflowId, flowKey: row.flow_key, slot: Number(row.slot) });
    }
    this.leases.set(workflowId, { state: 'held', keys });
  }

  /**
   * Writes the slots kept in memory to `flow_slots` and clears the lease, in one statement. Numbers: the lowest free
   * ones per key (no other process holds any while the lease is held).
   */
  private handOver(workflowId: string, keys: Map<string, Set<string>>): Promise<void> {
    const written: Array<{ executionId: string; slot: LocalSlot }> = [];
    for (const holders of keys.values()) {
      const used = new Set<number>();
      for (const id of holders) {
        const slot = this.slots.get(id);
        if (slot?.slot != null) used.add(slot.slot);
      }
      let next = 0;
      for (const id of holders) {
        const slot = this.slots.get(id);
        if (!slot || slot.slot !== null) continue;
        while (used.has(next)) next++;
        slot.slot = next;
        used.add(next);
        slot.handing = { freed: false };
        written.push({ executionId: id, slot });
      }
    }
    const rows = written.map(({ executionId, slot }) => ({ execution_id: executionId, flow_key: slot.flowKey, slot: slot.slot }));
    const settled = (async () => {
      try {
        await this.db.execute(sql`with written as (
            insert into flow_slots (flow_key, slot, workflow_id, execution_id, runner_id)
            select r.flow_key, r.slot, ${workflowId}, r.execution_id, ${RUNNER_ID}
            from jsonb_to_recordset(${toJsonText(rows)}::jsonb) as r(execution_id text, flow_key text, slot int)
            on conflict do nothing
            returning 1),
          cleared as (
            update workflows set ${leaseCleared(HOLD_DOWN_MS)}
            where id = ${workflowId} and flow_lease_holder = ${this.holder}
            returning 1)
          select (select count(*) from written) as written, (select count(*) from cleared) as cleared`);
      } catch (err) {
        // Nothing was written and the lease is still held: keep serving from memory (runs freed meanwhile are gone).
        for (const { slot } of written) {
          slot.slot = null;
          delete slot.handing;
        }
        this.leases.set(workflowId, { state: 'held', keys });
        throw err;
      }
      // The slots are rows now: freed with their logs like any other, and known to the hints like any other.
      for (const holders of keys.values()) {
        for (const id of holders) {
          const slot = this.slots.get(id);
          this.slots.delete(id);
          if (slot?.slot != null) this.hints.held(id, slot.flowKey, slot.slot);
        }
      }
      const freed = written.filter(({ slot }) => slot.handing?.freed).map(({ executionId }) => executionId);
      this.goShared(workflowId, HOLD_DOWN_MS);
      if (freed.length > 0) await deleteSlotRows(this.db, freed);
    })();
    this.leases.set(workflowId, { state: 'handing', settled: settled.catch(() => undefined) });
    return settled;
  }

  private goShared(workflowId: string, forMs: number): void {
    this.leases.delete(workflowId);
    this.sharedUntil.set(workflowId, Date.now() + forMs);
    if (this.sharedUntil.size > 10_000) this.sharedUntil.clear();
  }

  private async clearLease(workflowId: string, holdMs: number): Promise<void> {
    await this.db.execute(
      sql`update workflows set ${leaseCleared(holdMs)} where id = ${workflowId} and flow_lease_holder = ${this.holder}`,
    );
  }
}

/** The SET list that clears a workflow's lease, no process taking it again for `holdMs`. */
const leaseCleared = (holdMs: number) => sql`flow_lease_holder = null, flow_lease_after = now() + ${holdMs}::float8 * interval '1 millisecond'`;

/** Deletes the runs' slot rows (relaxed commit: a lost delete is redone by the crash recovery), and wakes the workers when a run of one of their keys is queued (it may go now). */
export async function deleteSlotRows(db: Db, executionIds: string[]): Promise<void> {
  const rows = await rowsOf(
    db,
    sql`with ${RELAXED_COMMIT}, freed as (
        delete from flow_slots
        where execution_id in (select jsonb_array_elements_text(${toJsonText(executionIds)}::jsonb)) and ${RELAXED_COMMIT_TAKEN}
        returning flow_key)
      select pg_notify(${JOBS_CHANNEL}, '') as woke from jobs j
      where j.status = 'queued' and j.flow_key in (select flow_key from freed) limit 1`,
  );
  if (rows.length > 0) nudgeLocalWorkers();
}

/** Of the runs whose logs are being written: those whose slot rows the log's statement must delete (run-recorder.ts). */
export function slotRowsToFree(db: Db, executionIds: string[]): string[] {
  const leases = flowLeasesOf(db);
  return executionIds.filter((id) => leases.release(id) === 'row');
}

const registry = new WeakMap<Db, FlowLeases>();

/** This process's leases on `db`. */
export function flowLeasesOf(db: Db): FlowLeases {
  let leases = registry.get(db);
  if (!leases) registry.set(db, (leases = new FlowLeases(db)));
  return leases;
}
