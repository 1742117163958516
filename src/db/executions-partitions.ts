// Monthly partitions of `executions` on PostgreSQL (docs/operations.md "Log partitions"): range partitions by the
// month (UTC) of started_at, created ahead by worker housekeeping, with a default partition catching any row no
// month covers. Retention then drops a month wholly past the retention bound instead of deleting its rows one by
// one (services/logs/retention.ts).
//
// Drizzle's migrations are shared with PGlite, which keeps a plain table: the conversion is a step run after them
// on PostgreSQL only (db/client.ts, under the migration lock), and a no-op once the table is partitioned. Everything
// here asks the catalogue whether the table is partitioned rather than which database it is.
import { sql, type SQL } from 'drizzle-orm';
import { databaseErrorCode, LOCK_NOT_AVAILABLE } from './errors.js';

/** What this module needs of a database: client.ts's Db, which it cannot name (client.ts runs the conversion). */
export interface SqlRunner {
  execute(query: SQL): PromiseLike<unknown>;
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
}
type Db = SqlRunner;

async function rowsOf<Row>(db: Db, statement: SQL): Promise<Row[]> {
  return ((await db.execute(statement)) as { rows: Row[] }).rows;
}

/** Months created ahead of the current one, so a run never waits for a partition to be made. */
export const MONTHS_AHEAD = 2;
export const DEFAULT_PARTITION = 'executions_default';
/** Arbitrary constant: serialises partition creation and dropping when several workers' housekeeping runs at once. */
const PARTITION_LOCK_ID = 7_345_113;

/**
 * Takes, for the rest of the transaction `t`, the lock under which one worker at a time makes or drops partitions
 * (`exclusive`), or under which retention deletes expired logs row by row beside other workers doing the same but
 * never beside a drop (`shared`: services/logs/retention.ts); answers false at once when it is held in a mode that
 * excludes the one asked for.
 */
export async function tryPartitionLock(t: Db, mode: 'exclusive' | 'shared' = 'exclusive'): Promise<boolean> {
  const [mine] = await rowsOf<{ yes: boolean }>(
    t,
    mode === 'shared'
      ? sql`select pg_try_advisory_xact_lock_shared(${PARTITION_LOCK_ID}) as yes`
      : sql`select pg_try_advisory_xact_lock(${PARTITION_LOCK_ID}) as yes`,
  );
  return mine?.yes === true;
}
const MONTH_NAME = /^executions_p(\d{4})_(\d{2})$/;

export interface MonthPartition {
  name: string;
  /** Inclusive lower bound of started_at. */
  from: Date;
  /** Exclusive upper bound of started_at. */
  to: Date;
}

function month(year: number, monthIndex: number): MonthPartition {
  const from = new Date(Date.UTC(year, monthIndex, 1));
  const to = new Date(Date.UTC(year, monthIndex + 1, 1));
  return { name: `executions_p${from.getUTCFullYear()}_${String(from.getUTCMonth() + 1).padStart(2, '0')}`, from, to };
}

/** The partition holding runs started at `at`. */
export function monthPartition(at: Date): MonthPartition {
  return month(at.getUTCFullYear(), at.getUTCMonth());
}

/** Every month from the one holding `first` to the one holding `last`, plus MONTHS_AHEAD after it. */
function monthsCovering(first: Date, last: Date): MonthPartition[] {
  const months: MonthPartition[] = [];
  const end = monthPartition(last);
  for (let m = monthPartition(first); m.from <= end.from; m = monthPartition(m.to)) months.push(m);
  for (let i = 0; i < MONTHS_AHEAD; i++) months.push(monthPartition(months.at(-1)!.to));
  return months;
}

const createMonth = (m: MonthPartition) =>
  sql.raw(
    `create table if not exists "${m.name}" partition of executions for values from ('${m.from.toISOString()}') to ('${m.to.toISOString()}')`,
  );

export async function isPartitioned(db: Db): Promise<boolean> {
  const [row] = await rowsOf<{ kind: string }>(db, sql`select relkind::text as kind from pg_class where oid = to_regclass('executions')`);
  return row?.kind === 'p';
}

/** The month partitions that exist, oldest first (the default partition is not one). */
export async function monthPartitions(db: Db): Promise<MonthPartition[]> {
  const rows = await rowsOf<{ name: string }>(
    db,
    sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass('executions')`,
  );
  return rows
    .map((r) => MONTH_NAME.exec(r.name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => month(Number(m[1]), Number(m[2]) - 1))
    .sort((a, b) => a.from.getTime() - b.from.getTime());
}

/**
 * Turns a plain `executions` table into a partitioned one, keeping every row: the table is renamed aside, a
 * partitioned table with the same columns, constraints and indexes (read from the catalogue, so it follows whatever
 * the migrations made) takes its name, one partition per month its rows span plus the months ahead and the default
 * are created, the rows are copied, and the old table is dropped — in one transaction, so a failure leaves the plain
 * table as it was. Logs are neither written nor read meanwhile (the table is locked). No-op when already partitioned.
 */
export async function partitionExecutions(db: Db, now = new Date()): Promise<boolean> {
  if (await isPartitioned(db)) return false;
  await db.transaction(async (tx) => {
    const t = tx;
    await t.execute(sql`lock table executions in access exclusive mode`);
    const constraints = await rowsOf<{ name: string; def: string; type: string }>(
      t,
      sql`select conname as name, pg_get_constraintdef(oid) as def, contype::text as type from pg_constraint
          where conrelid = 'executions'::regclass and contype in ('p', 'u', 'f', 'c') order by contype desc, conname`,
    );
    // Indexes other than those behind a constraint, defined against "executions" (read before the rename).
    const indexes = await rowsOf<{ name: string; def: string }>(
      t,
      sql`select i.relname as name, pg_get_indexdef(i.oid) as def from pg_index x join pg_class i on i.oid = x.indexrelid
          where x.indrelid = 'executions'::regclass
            and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid and c.conrelid = x.indrelid and c.contype in ('p', 'u', 'x'))
          order by i.relname`,
    );
    const [span] = await rowsOf<{ first: string | null; last: string | null }>(
      t,
      sql`select min(started_at)::text as first, max(started_at)::text as last from executions`,
    );
    const first = span?.first ? new Date(span.first) : now;
    const last = span?.last && new Date(span.last) > now ? new Date(span.last) : now;

    await t.execute(sql`alter table executions rename to executions_unpartitioned`);
    // Index and constraint names are the new table's to take.
    for (const c of constraints) await t.execute(sql.raw(`alter table executions_unpartitioned drop constraint "${c.name}"`));
    for (const i of indexes) await t.execute(sql.raw(`drop index "${i.name}"`));
    await t.execute(
      sql`create table executions (like executions_unpartitioned including defaults including storage including comments) partition by range (started_at)`,
    );
    for (const m of monthsCovering(first, last)) await t.execute(createMonth(m));
    await t.execute(sql.raw(`create table if not exists "${DEFAULT_PARTITION}" partition of executions default`));
    // Rows first, then keys and indexes: building an index once is cheaper than maintaining it row by row.
    await t.execute(sql`insert into executions select * from executions_unpartitioned`);
    await t.execute(sql`drop table executions_unpartitioned`);
    for (const c of constraints) await t.execute(sql.raw(`alter table executions add constraint "${c.name}" ${c.def}`));
    for (const i of indexes) await t.execute(sql.raw(i.def));
  });
  return true;
}

/**
 * How long making a partition waits for the table's lock. `CREATE TABLE … PARTITION OF` takes an ACCESS EXCLUSIVE
 * lock on `executions`, and every log written or read queues behind a lock request waiting in front of it: a pg_dump
 * holds ACCESS SHARE for its whole run, so waiting it out stalled runs and the logs API for the length of a backup.
 * Months are made MONTHS_AHEAD early, so giving up and trying again at the next pass costs nothing.
 */
const PARTITION_LOCK_TIMEOUT = '2s';

export interface EnsuredPartitions {
  /** The partitions made. */
  created: string[];
  /** Missing months left for the next pass: the table stayed locked longer than PARTITION_LOCK_TIMEOUT. */
  deferred: string[];
}

/**
 * Housekeeping: the current month's partition and MONTHS_AHEAD after it, and the default partition, created when
 * missing. A month whose rows already sit in the default partition (housekeeping did not run for months) is left
 * there: creating it would fail, and the default partition serves those rows as well. When the table's lock is not
 * had within PARTITION_LOCK_TIMEOUT, nothing is made and the missing months are answered as deferred; when another
 * process is making or dropping months at the same moment, or deleting expired logs, nothing is made either: the
 * next pass does (MONTHS_AHEAD leaves room for that).
 */
export async function ensureExecutionPartitions(db: Db, now = new Date()): Promise<EnsuredPartitions> {
  const result: EnsuredPartitions = { created: [], deferred: [] };
  if (!(await isPartitioned(db))) return result;
  const existing = new Set((await monthPartitions(db)).map((m) => m.name));
  const [hasDefault] = await rowsOf<{ yes: boolean }>(db, sql`select to_regclass(${DEFAULT_PARTITION}) is not null as yes`);
  const missing = monthsCovering(now, now).filter((m) => !existing.has(m.name));
  if (missing.length === 0 && hasDefault?.yes) return result;
  const created: string[] = [];
  try {
    await db.transaction(async (tx) => {
      const t = tx;
      await t.execute(sql.raw(`set local lock_timeout = '${PARTITION_LOCK_TIMEOUT}'`));
      if (!(await tryPartitionLock(t))) return;
      if (!hasDefault?.yes) await t.execute(sql.raw(`create table if not exists "${DEFAULT_PARTITION}" partition of executions default`));
      for (const m of missing) {
        const [taken] = await rowsOf<{ yes: boolean }>(
          t,
          sql`select exists (select 1 from ${sql.identifier(DEFAULT_PARTITION)} where started_at >= ${m.from} and started_at < ${m.to}) as yes`,
        );
        if (taken?.yes) continue;
        const [made] = await rowsOf<{ yes: boolean }>(t, sql`select to_regclass(${m.name}) is null as yes`);
        await t.execute(createMonth(m));
        if (made?.yes) created.push(m.name);
      }
    });
  } catch (err) {
    if (databaseErrorCode(err) !== LOCK_NOT_AVAILABLE) throw err;
    // The transaction rolled back: none of this pass's months exist.
    result.deferred = missing.map((m) => m.name);
    return result;
  }
  result.created = created;
  return result;
}
