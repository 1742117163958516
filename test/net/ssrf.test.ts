// The SSRF matrix end to end: real requests through the real guarded dispatcher, against loopback servers that must
// never see a request. A redirect from a public host to a private one cannot be staged with real public hosts (every
// local server is itself private), so those tests use the same sender and agent code with a classifier that treats
// exactly 127.0.0.1 as "public" and a resolver that maps test hostnames; everything else follows the real rules.
import type { LookupAddress } from 'node:dns';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressRefusalReason } from '../../src/net/address-policy.js';
import { createGuardedAgent } from '../../src/net/guarded-dispatcher.js';
import { getGuardedDispatcher, NetworkPolicyError, sendHttpRequest } from '../../src/net/index.js';
import { createHttpSender } from '../../src/net/send-http-request.js';
import { checkUrl } from '../../src/net/url-policy.js';
import { startUpstream, type FakeUpstream } from './fake-upstream.js';

let upstream: FakeUpstream;
let privateTarget: FakeUpstream; // listens on 127.0.0.2: private under the real rules and under the test classifier

beforeAll(async () => {
  upstream = await startUpstream((_req, res) => res.end('reached'));
  privateTarget = await startUpstream((_req, res) => res.end('secret'), '127.0.0.2');
});

afterAll(async () => {
  await upstream.close();
  await privateTarget.close();
});

describe('sendHttpRequest without private networking', () => {
  // PORT is the loopback upstream's port, so a refusal that failed to happen would show up as a recorded request.
  const targets = [
    'http://127.0.0.1:PORT/',
    'http://localhost:PORT/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://0.0.0.0:PORT/',
    'http://[::1]:PORT/',
    'http://[fc00::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:127.0.0.1]:PORT/',
    'http://[::ffff:7f00:1]:PORT/',
    'http://2130706433:PORT/',
  ];

  it.each(targets)('refuses %s', async (target) => {
    const before = upstream.requests.length;
    const url = target.replace('PORT', String(upstream.port));
    const response = await sendHttpRequest({ url, method: 'GET', allowPrivateNetwork: false, retryBaseMs: 1 });
    expect(response.status).toBe(0);
    expect(response.error).toMatch(/^Refused to connect to .+; set SLUICE_ALLOW_PRIVATE_NETWORK=true/);
    // Policy refusals are never retried.
    expect(response.attempts).toBeLessThanOrEqual(1);
    expect(upstream.requests.length).toBe(before);
  });

  it('refuses localhost after resolving it, naming the address it resolved to', async () => {
    const response = await sendHttpRequest({
      url: `http://localhost:${upstream.port}/`,
      method: 'GET',
      allowPrivateNetwork: false,
    });
    expect(response.error).toMatch(/^Refused to connect to localhost \(resolves to (127\.0\.0\.1|::1)\) \(loopback address\)/);
    expect(response.attempts).toBe(1);
  });

  it('refuses ftp:// and relative URLs before connecting', async () => {
    const ftp = await sendHttpRequest({ url: 'ftp://example.com/x', method: 'GET', allowPrivateNetwork: true });
    expect(ftp).toMatchObject({ status: 0, attempts: 0, error: expect.stringMatching(/only http and https/) });
    const relative = await sendHttpRequest({ url: '/api/x', method: 'GET', allowPrivateNetwork: true });
    expect(relative).toMatchObject({ status: 0, attempts: 0, error: expect.stringMatching(/absolute http\(s\) URL/) });
  });

  it('reaches the same loopback server when private networking is allowed', async () => {
    const response = await sendHttpRequest({ url: `http://localhost:${upstream.port}/`, method: 'GET', allowPrivateNetwork: true });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('reached');
  });
});

describe('getGuardedDispatcher used directly (as fetch or an SDK would)', () => {
  it('refuses an IP literal even without assertUrlAllowed', async () => {
    const before = upstream.requests.length;
    const attempt = request(`http://127.0.0.1:${upstream.port}/`, { dispatcher: getGuardedDispatcher({ allowPrivateNetwork: false }) });
    await expect(attempt).rejects.toBeInstanceOf(NetworkPolicyError);
    expect(upstream.requests.length).toBe(before);
  });

  it('refuses a hostname that resolves to a private address', async () => {
    const attempt = request(`http://localhost:${upstream.port}/`, { dispatcher: getGuardedDispatcher({ allowPrivateNetwork: false }) });
    await expect(attempt).rejects.toThrow(/Refused to connect to localhost \(resolves to/);
  });

  it('is one cached agent per setting', () => {
    expect(getGuardedDispatcher({ allowPrivateNetwork: false })).toBe(getGuardedDispatcher({ allowPrivateNetwork: false }));
    expect(getGuardedDispatcher({ allowPrivateNetwork: true })).not.toBe(getGuardedDispatcher({ allowPrivateNetwork: false }));
  });
});

describe('with 127.0.0.1 modelled as a public host', () => {
  const classify = (ip: string): string | null => (ip === '127.0.0.1' ? null : addressRefusalReason(ip));
  const names: Record<string, LookupAddress[]> = {
    'public.test': [{ address: '127.0.0.1', family: 4 }],
    'internal.test': [{ address: '127.0.0.2', family: 4 }],
    'mixed.test': [
      { address: '127.0.0.1', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ],
  };
  const agent = createGuardedAgent({
    allowPrivateNetwork: false,
    classify,
    resolve: async (hostname) => {
      const found = names[hostname];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return found;
    },
  });
  const send = createHttpSender({ dispatcher: () => agent, checkUrl: (url) => checkUrl(url, false, classify) });
  let redirector: FakeUpstream;

  beforeAll(async () => {
    // Redirects to whatever ?to= says.
    redirector = await startUpstream((req, res) => {
      const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
      if (to) res.writeHead(302, { location: to }).end();
      else res.end('public page');
    });
  });

  afterAll(async () => {
    await redirector.close();
    await agent.close();
  });

  const via = (target: string) => `http://public.test:${redirector.port}/?to=${encodeURIComponent(target)}`;

  it('follows a redirect between public hosts (the control case)', async () => {
    const response = await send({ url: via(`http://127.0.0.1:${redirector.port}/landing`), method: 'GET', allowPrivateNetwork: false });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('public page');
  });

  it('refuses a redirect to a private IP literal and never contacts it', async () => {
    const before = privateTarget.requests.length;
    const response = await send({ url: via(`http://127.0.0.2:${privateTarget.port}/`), method: 'GET', allowPrivateNetwork: false, retryBaseMs: 1 });
    expect(response.status).toBe(0);
    expect(response.error).toMatch(/^Refused to connect to 127\.0\.0\.2 \(loopback address\)/);
    expect(response.attempts).toBe(1);
    expect(privateTarget.requests.length).toBe(before);
  });

  it('refuses a redirect to a hostname that resolves to a private address', async () => {
    const before = privateTarget.requests.length;
    const response = await send({ url: via(`http://internal.test:${privateTarget.port}/`), method: 'GET', allowPrivateNetwork: false, retryBaseMs: 1 });
    expect(response.error).toMatch(/^Refused to connect to internal\.test \(resolves to 127\.0\.0\.2\)/);
    expect(response.attempts).toBe(1);
    expect(privateTarget.requests.length).toBe(before);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    const response = await send({ url: via('ftp://public.test/file'), method: 'GET', allowPrivateNetwork: false });
    expect(response.error).toMatch(/only http and https/);
  });

  it('refuses a hostname with any private address among its records', async () => {
    const response = await send({ url: `http://mixed.test:${redirector.port}/`, method: 'GET', allowPrivateNetwork: false });
    expect(response.error).toMatch(/resolves to 10\.0\.0\.7\) \(private address\)/);
  });

  it('the real policy follows the same redirect when private networking is allowed', async () => {
    const response = await sendHttpRequest({
      url: `${redirector.url}/?to=${encodeURIComponent(`http://127.0.0.2:${privateTarget.port}/`)}`,
      method: 'GET',
      allowPrivateNetwork: true,
    });
    expect(response.body.toString()).toBe('secret');
  });
});
