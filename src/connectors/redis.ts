// Redis for the redis block: one command per use on a client kept per credential version and process (ioredis
// pipelines concurrent commands over its one connection). A command waits at most COMMAND_TIMEOUT_MS; a server that
// is down fails the command instead of queueing it.
import type { Redis, RedisOptions } from 'ioredis';
import { onFirstUse } from '../lazy-import.js';
import { untilAborted } from './abortable.js';
import type { ConnectionOpener } from './connection-cache.js';
import { tlsServername, type ConnectorRun } from './connector-run.js';
import type { CredentialData, ResolvedCredential } from './credential-data.js';
import { checkedConnectorAddress, type HostPolicy } from './host-policy.js';

export const REDIS_OPERATIONS = ['get', 'set', 'del', 'incr', 'hget', 'hset', 'lpush', 'rpop', 'publish'] as const;
export type RedisOperation = (typeof REDIS_OPERATIONS)[number];

const CONNECT_TIMEOUT_MS = 10_000;
const COMMAND_TIMEOUT_MS = 10_000;

export interface RedisCommand {
  operation: RedisOperation;
  key?: string;
  /** Strings as they are; numbers and booleans as text; objects and arrays as JSON. */
  value?: unknown;
  /** `set` only: the key expires after this many seconds. */
  ttl?: number;
  field?: string;
  channel?: string;
  message?: unknown;
}

async function redisOptions(data: CredentialData<'redis'>, policy: HostPolicy): Promise<RedisOptions> {
  const address = await checkedConnectorAddress(data.host, policy);
  return {
    host: address,
    port: data.port ?? 6379,
    ...(data.user ? { username: data.user } : {}),
    ...(data.password ? { password: data.password } : {}),
    db: data.database ?? 0,
    ...(data.tls ? { tls: { servername: tlsServername(data.host) } } : {}),
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    // A command fails after one reconnection attempt rather than waiting out a long outage.
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  };
}

const ioredis = onFirstUse(() => import('ioredis'));

/** Connects, or rejects with the server's error and stops the client from retrying in the background. */
async function connected(options: RedisOptions): Promise<Redis> {
  const client = new (await ioredis()).Redis(options);
  // Errors reach the commands that were waiting; the client's own event would otherwise be printed to the console.
  let lastError: unknown;
  client.on('error', (error: unknown) => (lastError = error));
  try {
    await client.connect();
    return client;
  } catch (error) {
    client.disconnect();
    // connect() may only say "Connection is closed."; the socket's error (ECONNREFUSED…) says why.
    throw lastError ?? error;
  }
}

function redisClient(credential: ResolvedCredential<'redis'>, policy: HostPolicy): ConnectionOpener<Redis> {
  return {
    kind: 'redis',
    open: async () => connected(await redisOptions(credential.data, policy)),
    close: async (client) => {
      await client.quit().catch(() => client.disconnect());
    },
  };
}

function text(value: unknown, what: string): string {
  if (value === undefined || value === null) throw new Error(`${what} is required for this operation`);
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as number | boolean | bigint);
}

function send(client: Redis, command: RedisCommand): Promise<unknown> {
  const key = () => text(command.key === '' ? undefined : command.key, 'key');
  switch (command.operation) {
    case 'get':
      return client.get(key());
    case 'set':
      return command.ttl !== undefined
        ? client.set(key(), text(command.value, 'value'), 'EX', command.ttl)
        : client.set(key(), text(command.value, 'value'));
    case 'del':
      return client.del(key());
    case 'incr':
      return client.incr(key());
    case 'hget':
      return client.hget(key(), text(command.field, 'field'));
    case 'hset':
      return client.hset(key(), text(command.field, 'field'), text(command.value, 'value'));
    case 'lpush':
      return client.lpush(key(), text(command.value, 'value'));
    case 'rpop':
      return client.rpop(key());
    case 'publish':
      return client.publish(text(command.channel, 'channel'), text(command.message, 'message'));
  }
}

/** The command's reply: a string or null (get, hget, rpop), "OK" (set), or a number (del, incr, hset, lpush, publish). */
export function runRedisCommand(credential: ResolvedCredential<'redis'>, run: ConnectorRun, command: RedisCommand): Promise<unknown> {
  return run.connections.use(credential, redisClient(credential, run.policy), (client) => untilAborted(send(client, command), run.signal));
}

/** PING on a connection of its own, and the server's version. */
export async function testRedisCredential(credential: ResolvedCredential<'redis'>, ctx: { policy: HostPolicy; signal: AbortSignal }): Promise<string> {
  const client = await untilAborted(connected(await redisOptions(credential.data, ctx.policy)), ctx.signal, (late) => late.disconnect());
  try {
    const pong = await untilAborted(client.ping(), ctx.signal);
    // A user limited by ACLs may not run INFO; PONG alone then answers the test.
    const info = await untilAborted(client.info('server'), ctx.signal).catch(() => '');
    const version = /^redis_version:(.+)$/m.exec(info)?.[1]?.trim();
    return version ? `${pong} (Redis ${version})` : pong;
  } finally {
    client.disconnect();
  }
}
