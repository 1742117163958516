// Which client a request counts as for per-client limits: the TCP peer, unless SLUICE_TRUST_PROXY says a proxy in
// front of us appends X-Forwarded-For; IPv6 clients count per /64.
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { addressGroup, clientAddress } from '../../src/http/client-address.js';
import type { AppEnv } from '../../src/http/env.js';
import type { AppContext } from '../../src/services/app-context.js';

const servers: ServerType[] = [];

/** A real Node server answering with the client address as the app computes it under `env`. */
async function addressServer(env: Record<string, string>): Promise<number> {
  const config = loadConfig({ SLUICE_SECRET: 'x'.repeat(32), ...env });
  const app = new Hono<AppEnv>()
    .use(async (c, next) => {
      c.set('app', { config } as AppContext);
      await next();
    })
    .get('/', (c) => c.text(clientAddress(c)));
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return (server.address() as AddressInfo).port;
}

function addressSeen(port: number, localAddress: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, localAddress, path: '/', agent: false, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end();
  });
}

let direct: number;
let behindProxy: number;
beforeAll(async () => {
  direct = await addressServer({});
  behindProxy = await addressServer({ SLUICE_TRUST_PROXY: 'true' });
});
afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

describe('client address', () => {
  it('is the socket peer by default, whatever X-Forwarded-For claims', async () => {
    expect(await addressSeen(direct, '127.0.0.5', { 'x-forwarded-for': '198.51.100.7' })).toBe('127.0.0.5');
  });

  it('is the entry our proxy appended (the last one) with SLUICE_TRUST_PROXY=true', async () => {
    expect(await addressSeen(behindProxy, '127.0.0.5', { 'x-forwarded-for': '203.0.113.9, 198.51.100.7' })).toBe('198.51.100.7');
    // A request that did not come through the proxy has no header: its peer counts.
    expect(await addressSeen(behindProxy, '127.0.0.6')).toBe('127.0.0.6');
  });

  it('groups IPv6 addresses by /64 and unwraps IPv4-mapped ones', () => {
    expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8::7')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressGroup('::ffff:192.0.2.4')).toBe('192.0.2.4');
    expect(addressGroup('192.0.2.4')).toBe('192.0.2.4');
  });
});
