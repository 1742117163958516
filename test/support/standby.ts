// A real PostgreSQL primary and its streaming hot standby, made from the local PostgreSQL binaries for the tests of
// DATABASE_READ_URL: a replica's lag (replay paused, caught up) is what those tests are about, and a role or a
// read-only option on one server cannot lag. Both run in a temporary directory, on free loopback ports, and are
// stopped and deleted by `stop()`. A couple of seconds to make (initdb, base backup, two starts).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** Where the tests find PostgreSQL 15's server binaries; unset or missing, the tests that need them are skipped. */
export const POSTGRES_BIN = process.env.TEST_POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';
export const canStartStandby = existsSync(join(POSTGRES_BIN, 'pg_basebackup'));

export interface StandbyPair {
  primaryUrl: string;
  standbyUrl: string;
  /** Runs one statement on the standby (pg_wal_replay_pause(), …) and returns its rows. */
  onStandby<T = Record<string, unknown>>(text: string): Promise<T[]>;
  /** Resolves once the standby has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** initdb and postgres refuse to run as root: as root, they run as the postgres user. */
function asServerUser(command: string, args: string[]) {
  const path = join(POSTGRES_BIN, command);
  return process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, args);
}

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

export async function startStandbyPair(): Promise<StandbyPair> {
  const root = mkdtempSync(join(tmpdir(), 'sluice-standby-'));
  const primaryDir = join(root, 'primary');
  const standbyDir = join(root, 'standby');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const started: string[] = [];
  const stop = async () => {
    for (const dir of started.reverse()) await asServerUser('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  };
  // Speed over durability: throw-away clusters.
  const options = (port: number) =>
    `-c port=${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c fsync=off -c full_page_writes=off ` +
    `-c shared_buffers=16MB -c wal_level=replica -c max_wal_senders=4 -c hot_standby=on`;
  try {
    if (process.getuid?.() === 0) await run('chown', ['postgres', root]);
    await asServerUser('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync']);
    await asServerUser('pg_ctl', ['-D', primaryDir, '-o', options(primaryPort), '-l', join(root, 'primary.log'), '-w', 'start']);
    started.push(primaryDir);
    await asServerUser('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standbyDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
    await asServerUser('pg_ctl', ['-D', standbyDir, '-o', options(standbyPort), '-l', join(root, 'standby.log'), '-w', 'start']);
    started.push(standbyDir);
  } catch (error) {
    await stop();
    throw error;
  }
  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
  const standbyUrl = `postgres://postgres@127.0.0.1:${standbyPort}/postgres`;
  return {
    primaryUrl,
    standbyUrl,
    onStandby: (text) => query(standbyUrl, text),
    async caughtUp() {
      const [{ lsn }] = await query<{ lsn: string }>(primaryUrl, 'select pg_current_wal_insert_lsn()::text as lsn');
      for (let i = 0; i < 500; i++) {
        const [{ done }] = await query<{ done: boolean }>(standbyUrl, `select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn as done`);
        if (done) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`The standby did not replay up to ${lsn} within 10 s`);
    },
    stop,
  };
}
