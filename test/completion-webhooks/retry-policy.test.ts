// The retry decisions on their own: which results are retried, the delays with their jitter bounds, the
// Retry-After cap, and the configuration that can change the schedule.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { OutboundResponse } from '../../src/net/index.js';
import { judgeAttempt, retryDelayMs } from '../../src/services/completion-webhooks/retry-policy.js';

const SCHEDULE = [5_000, 15_000, 60_000, 180_000, 600_000];
const policy = (random: number) => ({ maxAttempts: 5, scheduleMs: SCHEDULE, random: () => random });

function response(status: number, extra: Partial<OutboundResponse> = {}): OutboundResponse {
  return { status, statusText: '', headers: {}, body: Buffer.alloc(0), attempts: 1, durationMs: 1, ...extra };
}

describe('retry policy', () => {
  it('waits schedule[n-1] plus 0–10% after failed attempt n', () => {
    for (let n = 1; n <= 5; n++) {
      expect(retryDelayMs(n, policy(0))).toBe(SCHEDULE[n - 1]);
      expect(retryDelayMs(n, policy(0.999_999))).toBe(Math.round(SCHEDULE[n - 1] * 1.1));
    }
    // More attempts than schedule entries reuse the last delay.
    expect(retryDelayMs(9, policy(0))).toBe(600_000);
    const samples = Array.from({ length: 2000 }, () => retryDelayMs(1, { maxAttempts: 5, scheduleMs: SCHEDULE }));
    expect(Math.min(...samples)).toBeGreaterThanOrEqual(5_000);
    expect(Math.max(...samples)).toBeLessThanOrEqual(5_500);
    // Jitter really spreads retries (not all at the same instant).
    expect(new Set(samples).size).toBeGreaterThan(100);
  });

  it('succeeds on any 2xx; retries 5xx, 429, time-outs and failed connections; fails everything else', () => {
    for (const status of [200, 201, 202, 204, 299]) expect(judgeAttempt(response(status), 1, policy(0)).kind).toBe('success');
    for (const status of [500, 502, 503, 504, 599, 429]) expect(judgeAttempt(response(status), 1, policy(0))).toEqual({ kind: 'retry', delayMs: 5_000 });
    for (const status of [100, 301, 302, 304, 307, 308, 400, 401, 403, 404, 409, 410, 422]) {
      expect(judgeAttempt(response(status), 1, policy(0)).kind, String(status)).toBe('fail');
    }
    const transport = (error: string) => judgeAttempt(response(0, { error }), 1, policy(0)).kind;
    expect(transport('Request timed out after 30000 ms')).toBe('retry');
    expect(transport('Connection failed: connect ECONNREFUSED 127.0.0.1:1 (ECONNREFUSED)')).toBe('retry');
    expect(transport('Connection failed: other side closed (UND_ERR_SOCKET)')).toBe('retry');
    expect(transport('Refused to connect to 10.0.0.1 (private address); set SLUICE_ALLOW_PRIVATE_NETWORK=true to allow private network targets')).toBe('fail');
    expect(transport('Invalid URL "x": must be an absolute http(s) URL')).toBe('fail');
  });

  it('stops after the last allowed attempt', () => {
    expect(judgeAttempt(response(500), 4, policy(0)).kind).toBe('retry');
    expect(judgeAttempt(response(500), 5, policy(0)).kind).toBe('fail');
    expect(judgeAttempt(response(500), 1, { ...policy(0), maxAttempts: 1 }).kind).toBe('fail');
  });

  it('honours a longer Retry-After up to 10 minutes, never a shorter one', () => {
    const at = (retryAfterMs: number, attempt = 1) => judgeAttempt(response(429, { retryAfterMs }), attempt, policy(0));
    expect(at(120_000)).toEqual({ kind: 'retry', delayMs: 120_000 });
    expect(at(3_600_000)).toEqual({ kind: 'retry', delayMs: 600_000 });
    expect(at(1_000)).toEqual({ kind: 'retry', delayMs: 5_000 });
    expect(at(1_000, 4)).toEqual({ kind: 'retry', delayMs: 180_000 });
    expect(judgeAttempt(response(503, { retryAfterMs: 90_000 }), 1, policy(0))).toEqual({ kind: 'retry', delayMs: 90_000 });
  });
});

describe('webhook and worker configuration', () => {
  const base = { SLUICE_DATA_DIR: '/tmp/x' };
  it('defaults to the documented retry limits (docs/guarantees.md 3.4)', () => {
    const config = loadConfig(base);
    expect(config.webhooks).toEqual({ timeoutMs: 30_000, maxAttempts: 5, retryScheduleMs: SCHEDULE });
    expect(config.worker).toEqual({ concurrency: 32, pollIntervalMs: 500, leaseMs: 60_000, shutdownGraceMs: 25_000 });
  });

  it('reads overrides and refuses bad values naming the variable', () => {
    const config = loadConfig({ ...base, SLUICE_WEBHOOK_RETRY_SCHEDULE: '250ms, 2s,1m,1h,90', SLUICE_WEBHOOK_MAX_ATTEMPTS: '8', SLUICE_WEBHOOK_TIMEOUT_MS: '5000' });
    expect(config.webhooks).toEqual({ timeoutMs: 5_000, maxAttempts: 8, retryScheduleMs: [250, 2_000, 60_000, 3_600_000, 90] });
    for (const [name, value] of [
      ['SLUICE_WEBHOOK_RETRY_SCHEDULE', '5s,,1m'],
      ['SLUICE_WEBHOOK_RETRY_SCHEDULE', 'soon'],
      ['SLUICE_WEBHOOK_MAX_ATTEMPTS', '0'],
      ['SLUICE_WEBHOOK_TIMEOUT_MS', '10'],
      ['SLUICE_WORKER_CONCURRENCY', '0'],
      ['SLUICE_JOB_LEASE_MS', 'long'],
    ]) {
      expect(() => loadConfig({ ...base, [name]: value }), `${name}=${value}`).toThrow(name);
    }
  });
});
