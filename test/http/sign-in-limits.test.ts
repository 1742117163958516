// Sign-in lock-out (issue 12): attempts are counted before the password is checked, so parallel guesses cannot
// outrun the per-email limit; one client address cannot spread guesses over many emails either.
// Each case connects from its own loopback address (127.0.0.x), so the per-address counts of cases stay apart.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  setUserPassword,
  SIGN_IN_ATTEMPTS_PER_ADDRESS_PER_MINUTE,
  SIGN_IN_ATTEMPTS_PER_MINUTE,
} from '../../src/services/sessions.js';
import { startTestApp, type TestApp } from '../support/app.js';

const PASSWORD = 'correct horse battery';

let t: TestApp;
let nextAddress = 10;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: { code?: string };
}

/** POST /api/v1/auth/sign-in over a new connection from `localAddress`. */
function signInFrom(localAddress: string, email: string, password: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(t.url);
  const payload = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, localAddress, method: 'POST', path: '/api/v1/auth/sign-in', agent: false, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const minuteOf = (ms: number) => Math.floor(ms / 60_000);

/**
 * The limits count per fixed minute. A run that straddles a minute boundary spreads its attempts over two windows,
 * so it is repeated once, with a fresh email and address (a second boundary is a minute away).
 */
async function withinOneMinute<T>(run: (scope: { email: string; address: string }) => Promise<T>): Promise<T> {
  for (let tries = 0; ; tries++) {
    const scope = { email: `user${nextAddress}@example.com`, address: `127.0.0.${nextAddress++}` };
    const before = minuteOf(Date.now());
    const result = await run(scope);
    if (minuteOf(Date.now()) === before || tries > 0) return result;
  }
}

const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;

describe('sign-in lock-out', () => {
  it('checks at most the limit of parallel wrong passwords for one email, then refuses even the right one', async () => {
    const { burst, afterwards } = await withinOneMinute(async ({ email, address }) => {
      await setUserPassword(t.app.db, { email, password: PASSWORD, plan: 'free' });
      const burst = await Promise.all(Array.from({ length: 30 }, () => signInFrom(address, email, 'wrong password')));
      return { burst, afterwards: await signInFrom(address, email, PASSWORD) };
    });
    expect(count(burst, 401)).toBe(SIGN_IN_ATTEMPTS_PER_MINUTE);
    expect(count(burst, 429)).toBe(30 - SIGN_IN_ATTEMPTS_PER_MINUTE);
    for (const refused of burst.filter((a) => a.status === 429)) {
      expect(refused.body.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    }
    expect(afterwards.status).toBe(429);
    expect(Number(afterwards.retryAfter)).toBeGreaterThan(0);
  }, 60_000);

  it('refuses one address that tries many emails once it passes the per-address limit', async () => {
    // Each attempt claims another origin in X-Forwarded-For: without SLUICE_TRUST_PROXY that header is ignored.
    const answers = await withinOneMinute(({ address }) =>
      Promise.all(
        Array.from({ length: SIGN_IN_ATTEMPTS_PER_ADDRESS_PER_MINUTE + 5 }, (_, i) =>
          signInFrom(address, `spray${i}-${address}@example.com`, 'guess', { 'x-forwarded-for': `203.0.113.${i}` }),
        ),
      ),
    );
    expect(count(answers, 401)).toBe(SIGN_IN_ATTEMPTS_PER_ADDRESS_PER_MINUTE);
    expect(count(answers, 429)).toBe(5);
    // Another address is not affected.
    expect((await signInFrom(`127.0.0.${nextAddress++}`, 'someone@example.com', 'guess')).status).toBe(401);
  }, 60_000);

  it('does not count successful sign-ins, and a success does not wipe the failures before it', async () => {
    const statuses = await withinOneMinute(async ({ email, address }) => {
      await setUserPassword(t.app.db, { email, password: PASSWORD, plan: 'free' });
      const seen: number[] = [];
      const attempt = async (password: string) => seen.push((await signInFrom(address, email, password)).status);
      for (let i = 0; i < SIGN_IN_ATTEMPTS_PER_MINUTE - 1; i++) await attempt('wrong password');
      await attempt(PASSWORD); // would be the limit-th attempt if successes counted
      await attempt('wrong password'); // the limit-th failure: still checked
      await attempt(PASSWORD); // over the limit of failures: refused though right
      return seen;
    });
    expect(statuses).toEqual([...Array(SIGN_IN_ATTEMPTS_PER_MINUTE - 1).fill(401), 200, 401, 429]);
  }, 60_000);
});
