// What the embedded database's WAL flusher (src/db/pglite-wal-flusher.ts) costs: it looks at most once a second, so
// its worst case is one look with WAL pending per second. Each figure is a mean over many rounds on an on-disk
// database (its worker thread, real fsync), beside the round trip of `select 1` and an ordinary (flushed) commit.
// Targets (ratios, as fsync times depend on the disk and its other users): a look with nothing pending costs no more
// than 2× `select 1`, a flushing one no more than 2× an ordinary commit — the worst case is one extra commit a second.
// Run: node --import tsx bench/wal-flush.bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.js';
import { FLUSH_PENDING_WAL, WAL_FLUSH_DELAY_MS } from '../src/db/pglite-wal-flusher.js';
import { RELAXED_COMMIT } from '../src/db/relaxed.js';

const ROUNDS = 300;
const loadAtStart = loadavg()[0].toFixed(1);
const dir = mkdtempSync(join(tmpdir(), 'sluice-wal-flush-bench-'));
const database = await openDatabase({ kind: 'pglite', dataDir: join(dir, 'pglite') });
const { db } = database;
await db.execute(sql`create table bench_wal (v int)`);

const elapsedMs = async (work: () => Promise<unknown>) => {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
};

const look = () => db.execute(sql.raw(FLUSH_PENDING_WAL));
const relaxedInsert = () => db.execute(sql`with ${RELAXED_COMMIT} insert into bench_wal select 1 from relaxed`);
try {
  // Interleaved, round by round, so a change in the machine's load touches every figure alike.
  const totals = { roundTrip: 0, idleLook: 0, pendingLook: 0, flushedCommit: 0 };
  for (let round = -20; round < ROUNDS; round++) {
    const roundTrip = await elapsedMs(() => db.execute(sql`select 1`));
    await look(); // nothing pending after this
    const idleLook = await elapsedMs(look);
    await relaxedInsert();
    const pendingLook = await elapsedMs(look);
    const flushedCommit = await elapsedMs(() => db.execute(sql`insert into bench_wal values (1)`));
    if (round < 0) continue; // warm-up
    totals.roundTrip += roundTrip;
    totals.idleLook += idleLook;
    totals.pendingLook += pendingLook;
    totals.flushedCommit += flushedCommit;
  }
  const { roundTrip, idleLook, pendingLook, flushedCommit } = Object.fromEntries(
    Object.entries(totals).map(([name, ms]) => [name, ms / ROUNDS]),
  ) as typeof totals;
  const share = (pendingLook / WAL_FLUSH_DELAY_MS) * 100;
  const met = (ratio: number) => (ratio <= 2 ? 'met' : 'NOT met');
  const row = (label: string, ms: number) => `${label.padEnd(40)} ${ms.toFixed(3).padStart(7)} ms   ${(ms / roundTrip).toFixed(1).padStart(5)}× select 1`;
  console.log(`WAL flusher on embedded PGlite — mean of ${ROUNDS} rounds — ${cpus()[0]?.model.trim()} ×${cpus().length}, Node ${process.version}, machine load average at start ${loadAtStart}`);
  console.log(row('select 1 (round trip, reference)', roundTrip));
  console.log(row('look, nothing pending', idleLook));
  console.log(row('look, a relaxed commit pending (flush)', pendingLook));
  console.log(row('ordinary flushed commit (reference)', flushedCommit));
  console.log(
    `look, nothing pending ${(idleLook / roundTrip).toFixed(1)}× select 1 (target ≤ 2×: ${met(idleLook / roundTrip)}); ` +
      `flushing look ${(pendingLook / flushedCommit).toFixed(1)}× an ordinary commit (target ≤ 2×: ${met(pendingLook / flushedCommit)})`,
  );
  console.log(`worst case: one flushing look per ${WAL_FLUSH_DELAY_MS} ms = ${share.toFixed(2)} % of the database's time`);
} finally {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}
