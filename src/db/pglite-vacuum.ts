// The autovacuum PGlite lacks. On PostgreSQL the autovacuum daemon makes the space of deleted and updated rows free
// for new ones, freezes old transaction ids before they wrap around, and keeps the planner's statistics current.
// PGlite runs Postgres in single-user mode: no daemon runs, and the activity counters its thresholds read are never
// collected (pg_stat_user_tables stays at zero). Without it an embedded database only grew: the rows retention
// pruned, finished deliveries and expired sessions left space no new row ever took (measured: a table whose rows
// were all deleted and written again grew by its whole size each round, and stayed the same size with a VACUUM
// between), and after about two billion write transactions Postgres would stop accepting writes.
//
// So the worker's housekeeping (app/maintenance.ts) runs it on PGlite, every pass: one database-wide VACUUM (the
// catalogs too, so the database's oldest transaction id moves on; pages unchanged since the last pass are skipped by
// the visibility map, so a pass costs about what changed since the last one: ~70 ms after a retention day of 3,300
// logs at 100,000), then ANALYZE of each table whose row count has moved by a tenth since it was last analysed here,
// or that was never analysed (~1.2 s for the logs at 100,000: the 30,000-row sample, whatever the table's size).
// Both hold the database's one connection while they run, as any statement does.
import { sql } from 'drizzle-orm';
import type { Db } from './client.js';
import { rowsOf } from './rows.js';

/** A table is analysed again once its row count has moved by this share (autovacuum's default is 0.1)… */
const ANALYZE_SCALE = 0.1;
/** …plus this many rows (autovacuum: 50; higher here, as each ANALYZE holds the only connection). */
const ANALYZE_THRESHOLD = 500;

export interface PgliteVacuum {
  /** One pass: VACUUM, then ANALYZE where due. Says which tables were analysed. */
  run(): Promise<{ analyzed: string[] }>;
}

export function createPgliteVacuum(db: Db): PgliteVacuum {
  // Row counts at the last ANALYZE of this process; a table first seen with statistics counts as just analysed
  // (the counters autovacuum would compare against are not kept across a restart, nor collected at all here).
  const analyzedAt = new Map<string, number>();
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
        const before = analyzedAt.get(name) ?? (analysed ? tuples : 0);
        if (Math.abs(tuples - before) <= ANALYZE_SCALE * before + ANALYZE_THRESHOLD) {
          analyzedAt.set(name, before);
          continue;
        }
        await rowsOf(db, sql`analyze ${sql.identifier(name)}`);
        analyzedAt.set(name, tuples);
        analyzed.push(name);
      }
      return { analyzed };
    },
  };
}
