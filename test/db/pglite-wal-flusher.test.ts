// The WAL flusher of the embedded database stays cheap: one look a second at most however many statements run, none
// while nothing runs, none after close — and a look flushes only WAL that is pending (the kill -9 proof that it saves
// a run's marker is in test/runs/orphaned-runs.test.ts).
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { FLUSH_PENDING_WAL, startWalFlusher, WAL_FLUSH_DELAY_MS } from '../../src/db/pglite-wal-flusher.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('WAL flusher schedule', () => {
  it('looks once a second under a steady stream of statements, and never while idle or after stopping', async () => {
    vi.useFakeTimers();
    const flush = vi.fn(async () => undefined);
    const flusher = startWalFlusher(flush);

    await vi.advanceTimersByTimeAsync(10 * WAL_FLUSH_DELAY_MS);
    expect(flush).not.toHaveBeenCalled(); // idle: nothing

    for (let ms = 0; ms < 5 * WAL_FLUSH_DELAY_MS; ms += 10) {
      flusher.noteStatement();
      await vi.advanceTimersByTimeAsync(10);
    }
    expect(flush).toHaveBeenCalledTimes(5); // 500 statements, one look a second (the last at the end)
    await vi.advanceTimersByTimeAsync(10 * WAL_FLUSH_DELAY_MS);
    expect(flush).toHaveBeenCalledTimes(5); // then idle again

    flusher.noteStatement();
    await flusher.stop();
    flusher.noteStatement();
    await vi.advanceTimersByTimeAsync(10 * WAL_FLUSH_DELAY_MS);
    expect(flush).toHaveBeenCalledTimes(5);
  });

  it('a failed look is not an unhandled error, and the next statement schedules another', async () => {
    vi.useFakeTimers();
    const flush = vi.fn(async () => Promise.reject(new Error('thread gone')));
    const flusher = startWalFlusher(flush);
    flusher.noteStatement();
    await vi.advanceTimersByTimeAsync(WAL_FLUSH_DELAY_MS);
    flusher.noteStatement();
    await vi.advanceTimersByTimeAsync(WAL_FLUSH_DELAY_MS);
    expect(flush).toHaveBeenCalledTimes(2);
    await flusher.stop();
  });
});

describe('the flush statement', () => {
  it('flushes a relaxed commit, and writes nothing when nothing is pending', async () => {
    // Any database will do: global setup's migrated one loads in a fraction of an initdb.
    const db = await PGlite.create({ loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]) });
    try {
      const lsns = async () =>
        (await db.query<{ inserted: string; flushed: string }>(
          'select pg_current_wal_insert_lsn()::text as inserted, pg_current_wal_flush_lsn()::text as flushed',
        )).rows[0];
      await db.query('create table t (v int)');
      await db.query(`with relaxed as (select set_config('synchronous_commit', 'off', true)) insert into t select 1 from relaxed`);
      const pending = await lsns();
      expect(pending.inserted).not.toBe(pending.flushed);

      await db.query(FLUSH_PENDING_WAL);
      const flushed = await lsns();
      expect(flushed.flushed).toBe(flushed.inserted);

      await db.query(FLUSH_PENDING_WAL);
      expect(await lsns()).toEqual(flushed); // nothing pending: no record written, nothing synced
    } finally {
      await db.close();
    }
  });
});
