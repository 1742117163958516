// Embedded PGlite belongs to one process: two processes opening the same data directory each keep their own copy of
// the database in memory and overwrite each other's files (a key one of them stored is lost, the next start may
// crash). Every command that opens PGlite therefore holds `<data dir>/pglite.lock` while it runs, and a second one
// stops with a message naming the holder.
//
// The lock is a file created atomically (link of a complete temporary file: no reader ever sees it half written)
// holding the pid of its process and, on Linux, that process's start time. A lock whose process is gone (or whose pid
// now belongs to another process) is stale and taken over, so a crash never needs a manual clean-up.
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

export const LOCK_FILE = 'pglite.lock';

export interface DataDirHolder {
  pid: number;
  /** What the holder runs: `serve`, `worker`, `init`, `admin set-password`. */
  command: string;
  /** Where a serving holder answers, once it listens. */
  url?: string;
  startedAt: string;
  hostname: string;
  /** Linux: the process's start time in clock ticks since boot, which tells a reused pid from the holder. */
  processStart?: string;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: DataDirHolder,
  ) {
    super(`The data directory ${dataDir} is in use by \`sluice ${holder.command}\` (pid ${holder.pid})`);
    this.name = 'DataDirBusyError';
  }
}

export interface DataDirLock {
  readonly holder: DataDirHolder;
  /** Records what others should know of the holder (the URL it serves at), for their messages. */
  update(fields: Partial<Pick<DataDirHolder, 'url'>>): void;
  release(): void;
}

/** Field 22 of /proc/<pid>/stat (after the parenthesised command name, which may contain spaces). */
function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function isAlive(holder: DataDirHolder): boolean {
  if (holder.pid === process.pid && holder.processStart === processStartTime(process.pid)) return true;
  // Our own pid in someone else's lock: a container restarted and handed us the pid its crashed holder had.
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (holder.processStart === undefined) return true;
  const now = processStartTime(holder.pid);
  return now === undefined || now === holder.processStart;
}

function readHolder(file: string): DataDirHolder | null | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as DataDirHolder;
    return Number.isInteger(parsed.pid) && parsed.pid > 0 ? parsed : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** The live process holding the data directory, or null when none does. */
export function dataDirHolder(dataDir: string): DataDirHolder | null {
  const holder = readHolder(join(dataDir, LOCK_FILE));
  return holder && holder !== 'unreadable' && isAlive(holder) ? holder : null;
}

/** Takes the data directory for this process, or throws DataDirBusyError naming the live holder. */
export function acquireDataDirLock(dataDir: string, command: string): DataDirLock {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  const holder: DataDirHolder = {
    pid: process.pid,
    command,
    startedAt: new Date().toISOString(),
    hostname: hostname(),
    processStart: processStartTime(process.pid),
  };
  const write = (target: string) => writeFileSync(target, `${JSON.stringify(holder)}\n`, { mode: 0o644 });
  const temporary = `${file}.${process.pid}.tmp`;
  for (let attempt = 0; ; attempt++) {
    write(temporary);
    try {
      linkSync(temporary, file);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw err;
      const current = readHolder(file);
      // Files are only ever linked in whole, so an unreadable one was not written by us: treat it as stale.
      if (current && current !== 'unreadable' && isAlive(current)) throw new DataDirBusyError(dir, current);
      try {
        unlinkSync(file);
      } catch (unlinkError) {
        if ((unlinkError as NodeJS.ErrnoException).code !== 'ENOENT') throw unlinkError;
      }
    } finally {
      unlinkSync(temporary);
    }
  }

  const ours = () => {
    const current = readHolder(file);
    return current !== null && current !== 'unreadable' && current.pid === holder.pid && current.startedAt === holder.startedAt;
  };
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    try {
      if (ours()) unlinkSync(file);
    } catch {
      // Already gone: nothing to release.
    }
  };
  // A process that exits without closing (process.exit on a fatal error) still lets go; a crash leaves a stale lock.
  process.on('exit', release);
  return {
    holder,
    update(fields) {
      if (released || !ours()) return;
      Object.assign(holder, fields);
      write(temporary);
      renameSync(temporary, file);
    },
    release,
  };
}
