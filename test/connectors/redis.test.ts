// The redis block against the real local Redis (issue 26), signed in as an ACL user the test makes: get, set with a
// TTL, del, incr, hget/hset, lpush/rpop and publish, each seen from a plain client too; a server error and a refused
// connection on the error edge; the credential test; the password nowhere in answers, logs or log lines.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredential, deployBlock, execute, executeKeepingSecret, startConnectorApp, uniqueName, type ConnectorApp } from './support.js';

const PASSWORD = 'redis-Secret-pw-52x';
const user = uniqueName('sluice_redis');
const prefix = `${uniqueName('sluice')}:`;

let app: ConnectorApp;
let direct: Redis;
let credentialId: string;
const deployed = new Map<string, string>();

/** Runs one command through a workflow holding just that block (deployed once per distinct config). */
async function redis(config: Record<string, unknown>) {
  const key = JSON.stringify(config);
  let workflowId = deployed.get(key);
  if (!workflowId) {
    workflowId = await deployBlock(app.t, { type: 'redis', config: { credentialId, ...config } }, ['result']);
    deployed.set(key, workflowId);
  }
  return executeKeepingSecret(app, workflowId, {}, PASSWORD);
}

beforeAll(async () => {
  direct = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true });
  await direct.connect();
  // Only its own keys and channels: what the block does is all it may do.
  await direct.call('ACL', 'SETUSER', user, 'on', `>${PASSWORD}`, `~${prefix}*`, `&${prefix}*`, '+@all', '-@dangerous');
  app = await startConnectorApp();
  credentialId = await createCredential(app.t, 'redis', { host: '127.0.0.1', port: 6379, user, password: PASSWORD });
});

afterAll(async () => {
  await app?.t.close();
  const keys = await direct.keys(`${prefix}*`);
  if (keys.length > 0) await direct.del(...keys);
  await direct.call('ACL', 'DELUSER', user);
  direct.disconnect();
});

describe('redis block', () => {
  it('sets a value with a TTL, gets it, deletes it', async () => {
    const key = `${prefix}greeting`;
    expect((await redis({ operation: 'set', key, value: 'hello', ttl: 60 })).body).toEqual({ result: 'OK' });
    expect(await direct.get(key)).toBe('hello');
    const ttl = await direct.ttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
    expect((await redis({ operation: 'get', key })).body).toEqual({ result: 'hello' });
    expect((await redis({ operation: 'del', key })).body).toEqual({ result: 1 });
    expect((await redis({ operation: 'get', key })).body).toEqual({ result: null });
    expect(await direct.exists(key)).toBe(0);
  });

  it('stores an object value as JSON, without a TTL when none is given', async () => {
    const key = `${prefix}order`;
    await redis({ operation: 'set', key, value: { id: 7, items: ['a'] } });
    expect(JSON.parse((await direct.get(key))!)).toEqual({ id: 7, items: ['a'] });
    expect(await direct.ttl(key)).toBe(-1);
  });

  it('increments a counter', async () => {
    const key = `${prefix}counter`;
    expect((await redis({ operation: 'incr', key })).body).toEqual({ result: 1 });
    expect((await redis({ operation: 'incr', key })).body).toEqual({ result: 2 });
    expect(await direct.get(key)).toBe('2');
  });

  it('sets and gets a hash field, and pushes to and pops from a list', async () => {
    const hash = `${prefix}user`;
    expect((await redis({ operation: 'hset', key: hash, field: 'name', value: 'Ana' })).body).toEqual({ result: 1 });
    expect(await direct.hget(hash, 'name')).toBe('Ana');
    expect((await redis({ operation: 'hget', key: hash, field: 'name' })).body).toEqual({ result: 'Ana' });

    const list = `${prefix}jobs`;
    expect((await redis({ operation: 'lpush', key: list, value: 'first' })).body).toEqual({ result: 1 });
    expect((await redis({ operation: 'lpush', key: list, value: 'second' })).body).toEqual({ result: 2 });
    expect((await redis({ operation: 'rpop', key: list })).body).toEqual({ result: 'first' });
    expect(await direct.lrange(list, 0, -1)).toEqual(['second']);
  });

  it('publishes a message that a subscriber receives, answering how many received it', async () => {
    const channel = `${prefix}events`;
    const subscriber = direct.duplicate();
    try {
      const received = new Promise<string>((resolve) => subscriber.on('message', (_channel: string, message: string) => resolve(message)));
      await subscriber.subscribe(channel);
      expect((await redis({ operation: 'publish', channel, message: { event: 'shipped' } })).body).toEqual({ result: 1 });
      expect(JSON.parse(await received)).toEqual({ event: 'shipped' });
    } finally {
      subscriber.disconnect();
    }
  });

  it('takes the error edge with the server’s error', async () => {
    const key = `${prefix}not-a-number`;
    await direct.set(key, 'abc');
    const run = await redis({ operation: 'incr', key });
    expect(run.status, run.text).toBe(422);
    expect(run.body.error).toMatch(/not an integer/);

    const forbidden = await redis({ operation: 'get', key: 'outside-its-keys' });
    expect(forbidden.status).toBe(422);
    expect(forbidden.body.error).toMatch(/NOPERM/);
  });

  it('takes the error edge when the server cannot be reached', async () => {
    const unreachable = await createCredential(app.t, 'redis', { host: '127.0.0.1', port: 1, password: PASSWORD });
    const wf = await deployBlock(app.t, { type: 'redis', config: { credentialId: unreachable, operation: 'get', key: 'k' } }, ['result']);
    const run = await executeKeepingSecret(app, wf, {}, PASSWORD);
    expect(run.status, run.text).toBe(422);
    expect(run.body.error).toMatch(/ECONNREFUSED/);
  });

  it('refuses, at save, an operation without what it needs', async () => {
    const res = await app.t.request('POST', '/api/v1/workflows', {
      body: {
        workspaceId: app.t.workspaceId,
        name: uniqueName('incomplete'),
        state: {
          blocks: { r: { id: 'r', type: 'redis', name: 'r', position: { x: 0, y: 0 }, config: { credentialId, operation: 'hset', key: 'k' } } },
          edges: [],
          loops: {},
          parallels: {},
        },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string; message: string }) => `${d.path}: ${d.message}`).sort()).toEqual([
      'state.blocks.r.config.field: is required for hset',
      'state.blocks.r.config.value: is required for hset',
    ]);
  });

  it('answers the credential test with PONG and the server version', async () => {
    const tested = await app.t.request('POST', `/api/v1/credentials/${credentialId}/test`);
    // This user may not run INFO (a "dangerous" command): PONG alone.
    expect(tested.body.data, tested.text).toMatchObject({ ok: true, message: 'PONG' });
    const server = await createCredential(app.t, 'redis', { host: '127.0.0.1' });
    const full = await app.t.request('POST', `/api/v1/credentials/${server}/test`);
    expect(full.body.data, full.text).toMatchObject({ ok: true, message: expect.stringMatching(/^PONG \(Redis \d+\.\d+/) });
    const wrong = await createCredential(app.t, 'redis', { host: '127.0.0.1', user, password: 'not-it-at-all' });
    const refused = await app.t.request('POST', `/api/v1/credentials/${wrong}/test`);
    expect(refused.body.data).toMatchObject({ ok: false, message: expect.stringMatching(/WRONGPASS/) });
    expect(refused.text).not.toContain('not-it-at-all');
    await execute(app.t, await deployBlock(app.t, { type: 'redis', config: { credentialId: wrong, operation: 'get', key: 'k' } }, ['result']));
    expect(app.logText()).not.toContain('not-it-at-all');
  });
});
