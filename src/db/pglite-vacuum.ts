// The autovacuum PGlite lacks. On PostgreSQL the autovacuum daemon makes the space of deleted and updated rows free
// for new ones, freezes old transaction ids before they wrap around, and keeps the planner's statistics current.
// PGlite runs Postgres in single-user mode: no daemon runs, and the activity counters its thresholds read are never
// collected (pg_stat_user_tables stays at zero). Without it an embedded database only grew: the rows retention
// pruned, finished deliveries and expired sessions left space no new row ever took (measured: a table whose rows
// were all deleted and written again grew by its whole size each round, and stayed the same size with a VACUUM
// between), no old transaction id was ever frozen, and the planner never had statistics.
//
// So the worker's housekeeping (app/maintenance.ts) runs it on PGlite, every pass: one database-wide VACUUM (the
// catalogs too; pages unchanged since the last pass are skipped by the visibility map, so a pass costs about what
// changed since the last one: ~70 ms after a retention day of 3,300 logs at 100,000), then ANALYZE of each table of
// over ANALYZE_THRESHOLD rows whose row count has moved by a tenth since it was last analysed here, that was never
// analysed, or that was last analysed here a day ago (retention keeps a table's count level while every row changes);
// ~1.2 s for the logs at 100,000 (the 30,000-row sample, whatever the table's size). Both hold the database's one
// connection while they run, as any statement does.
import { sql } from 'drizzle-orm';
import type { Db } from './client.js';
import { rowsOf } from './rows.js';

/** A table is analysed again once its row count has moved by this share (autovacuum's default is 0.1)… */
const ANALYZE_SCALE = 0.1;
/** …plus this many rows (autovacuum: 50; higher here, as each ANALYZE holds the only connection). */
const ANALYZE_THRESHOLD = 500;
/** A table analysed this long ago (by this process) is analysed again, whatever its count did. */
const ANALYZE_AGAIN_MS = 24 * 3_600_000;

export interface PgliteVacuum {
  /** One pass: VACUUM, then ANALYZE where due. Says which tables were analysed. */
  run(): Promise<{ analyzed: string[] }>;
}

export function createPgliteVacuum(db: Db, now: () => number = Date.now): PgliteVacuum {
  // Row counts and times of the last ANALYZE of this process; a table first seen with statistics counts as just
  // analysed (the counters autovacuum would compare against are not kept across a restart, nor collected at all here).
  const analyzedAt = new Map<string, { tuples: number; at: number }>();
  return {
    async run() {
      await rowsOf(db, sql`vacuum`);
      // reltuples: the row count the VACUUM just estimated (-1: never vacuumed nor analysed).
      const tables = await rowsOf<{ name: string; tuples: number; analysed: boolean }>(
        db,
        sql`select c.relname as name, c.reltuples::float8 as tuples,
              exists (select 1 from pg_statistic s where s.starelid = c.oid) as analysed
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'public' and c.relkind in ('r', 'p')`,
      );
      const analyzed: string[] = [];
      for (const { name, tuples: raw, analysed } of tables) {
        const tuples = Math.max(0, Number(raw));
        const last = analyzedAt.get(name) ?? { tuples: analysed ? tuples : 0, at: now() };
        const moved = Math.abs(tuples - last.tuples) > ANALYZE_SCALE * last.tuples + ANALYZE_THRESHOLD;
        const stale = tuples > ANALYZE_THRESHOLD && now() - last.at >= ANALYZE_AGAIN_MS;
        if (!moved && !stale) {
          analyzedAt.set(name, last);
          continue;
        }
        await rowsOf(db, sql`analyze ${sql.identifier(name)}`);
        analyzedAt.set(name, { tuples, at: now() });
        analyzed.push(name);
      }
      return { analyzed };
    },
  };
}
