// The embedded database's data directory, seen from the commands: each command that opens PGlite holds its lock, and a
// command that cannot get it says who holds it and what to do instead (issue 15: offline commands run beside a live
// server used to print keys that server never saw).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { setupLink, setupToken } from '../services/setup.js';
import { acquireDataDirLock, DataDirBusyError, type DataDirHolder, type DataDirLock } from './data-dir-lock.js';

/** Holds the data directory for this command, or ends the process with a message. Nothing to hold on PostgreSQL. */
export async function lockDataDir(config: Config, command: string): Promise<DataDirLock | undefined> {
  if (config.databaseUrl) return undefined;
  try {
    return acquireDataDirLock(config.dataDir, command);
  } catch (err) {
    if (!(err instanceof DataDirBusyError)) throw err;
    process.stderr.write(`${await busyMessage(config, command, err)}\n`);
    process.exit(1);
  }
}

function describe(holder: DataDirHolder): string {
  return `\`sluice ${holder.command}\`, pid ${holder.pid}${holder.url ? `, at ${holder.url}` : ''}`;
}

/** The data directory's own secret, read without creating one (the running server made it). */
function readSecret(config: Config): string | undefined {
  if (config.secret) return config.secret;
  const file = join(config.dataDir, 'secret');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/** Asks the running server whether its owner account is still to be created; undefined when it cannot tell. */
async function ownerPending(url: string): Promise<boolean | undefined> {
  try {
    const res = await fetch(`${url}/api/v1/auth/setup`, { signal: AbortSignal.timeout(2000) });
    if (!res.ok) return undefined;
    return ((await res.json()) as { needed?: unknown }).needed === true;
  } catch {
    return undefined;
  }
}

/** What to do in the browser instead of an offline command, against the server that holds the data directory. */
async function browserInstead(config: Config, holder: DataDirHolder, goal: string): Promise<string> {
  if (!holder.url) return `use the web app of that server to ${goal}`;
  const secret = readSecret(config);
  if (secret && (await ownerPending(holder.url)) === true) {
    return `open ${setupLink(holder.url, setupToken(secret))} to create the owner account, then ${goal}`;
  }
  return `sign in at ${holder.url}/ and ${goal}`;
}

export async function busyMessage(config: Config, command: string, err: DataDirBusyError): Promise<string> {
  const holder = err.holder;
  const head = `sluice ${command}: the data directory ${err.dataDir} is in use by another Sluice process (${describe(holder)}). The embedded database (PGlite) allows one process at a time`;
  if (command === 'init') {
    return [
      `${head}, so init would write to a database that process does not see.`,
      `Instead, without stopping it: ${await browserInstead(config, holder, 'create a key under Settings → API keys.')}`,
      'Or stop that process and run `sluice init` again. (With DATABASE_URL, init works while servers run.)',
    ].join('\n');
  }
  if (command.startsWith('admin')) {
    return [
      `${head}, so this command would write to a database that process does not see.`,
      `Instead, without stopping it: ${await browserInstead(config, holder, 'manage people and keys in the web app.')}`,
      `Or stop that process and run \`sluice ${command}\` again. (With DATABASE_URL, admin commands work while servers run.)`,
    ].join('\n');
  }
  return [
    `${head}.`,
    'Stop that process first, give this one another SLUICE_DATA_DIR, or use PostgreSQL (DATABASE_URL) to run several processes on one database.',
  ].join('\n');
}
