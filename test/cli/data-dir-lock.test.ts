// The PGlite data-directory lock (issue 15): one holder at a time, a crashed holder's lock is taken over, and the
// holder's address is readable by the commands it turns away.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, dataDirHolder, DataDirBusyError, LOCK_FILE } from '../../src/cli/data-dir-lock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sluice-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has already exited (so nobody holds it, short of an immediate reuse). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((done) => child.once('exit', done));
  return child.pid!;
}

const lockFile = () => join(dir, LOCK_FILE);

describe('data directory lock', () => {
  it('admits one holder, names it to the next, and lets go on release', () => {
    const lock = acquireDataDirLock(dir, 'serve');
    lock.update({ url: 'http://127.0.0.1:4321' });
    let refused: unknown;
    try {
      acquireDataDirLock(dir, 'init');
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(DataDirBusyError);
    expect((refused as DataDirBusyError).holder).toMatchObject({ pid: process.pid, command: 'serve', url: 'http://127.0.0.1:4321' });
    expect(dataDirHolder(dir)).toMatchObject({ command: 'serve', url: 'http://127.0.0.1:4321' });

    lock.release();
    expect(existsSync(lockFile())).toBe(false);
    expect(dataDirHolder(dir)).toBeNull();
    const next = acquireDataDirLock(dir, 'init');
    expect(dataDirHolder(dir)).toMatchObject({ command: 'init' });
    next.release();
  });

  it('takes over the lock of a process that died without releasing it', async () => {
    const pid = await deadPid();
    writeFileSync(lockFile(), JSON.stringify({ pid, command: 'serve', startedAt: new Date().toISOString(), hostname: 'x' }));
    expect(dataDirHolder(dir)).toBeNull();
    const lock = acquireDataDirLock(dir, 'serve');
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('tells a live process that reused a dead holder\'s pid from the holder (its start time differs)', async () => {
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await new Promise((done) => sleeper.once('spawn', done));
      writeFileSync(
        lockFile(),
        JSON.stringify({ pid: sleeper.pid, command: 'serve', startedAt: new Date().toISOString(), hostname: 'x', processStart: '1' }),
      );
      expect(dataDirHolder(dir)).toBeNull();
      const lock = acquireDataDirLock(dir, 'serve');
      lock.release();
    } finally {
      sleeper.kill();
    }
  });

  it('treats an unreadable lock file as stale, and a release never removes another holder\'s lock', () => {
    writeFileSync(lockFile(), 'garbage');
    const lock = acquireDataDirLock(dir, 'worker');
    // Someone replaced the file (a later holder after a takeover): releasing must not delete theirs.
    const theirs = JSON.stringify({ pid: process.ppid, command: 'serve', startedAt: '2020-01-01T00:00:00.000Z', hostname: 'x' });
    writeFileSync(lockFile(), theirs);
    lock.release();
    expect(readFileSync(lockFile(), 'utf8')).toBe(theirs);
  });
});
