// The process's connection cache: one connection per credential version, reused while that version is current,
// closed when idle, on rotation (once nobody uses it) and at shutdown; a connection that failed to open is retried.
import { describe, expect, it } from 'vitest';
import { createConnectionCache } from '../../src/connectors/connection-cache.js';

function opener() {
  const opened: number[] = [];
  const closed: number[] = [];
  let next = 0;
  return {
    opened,
    closed,
    kind: 'fake',
    async open() {
      const n = ++next;
      opened.push(n);
      return n;
    },
    async close(n: number) {
      closed.push(n);
    },
  };
}

describe('connection cache', () => {
  it('reuses one connection per credential version and closes the old one after a rotation', async () => {
    const cache = createConnectionCache();
    const fake = opener();
    const a = await cache.use({ id: 'c1', version: '1' }, fake, async (n) => n);
    const b = await cache.use({ id: 'c1', version: '1' }, fake, async (n) => n);
    expect(a).toBe(b);
    const other = await cache.use({ id: 'c2', version: '1' }, fake, async (n) => n);
    expect(other).not.toBe(a);
    const rotated = await cache.use({ id: 'c1', version: '2' }, fake, async (n) => n);
    expect(rotated).not.toBe(a);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.closed).toEqual([a]);
    await cache.closeAll();
    expect(fake.closed.sort()).toEqual([a, other, rotated].sort());
    expect(cache.size()).toBe(0);
  });

  it('closes connections idle for longer than the idle time, but not one in use', async () => {
    let now = 0;
    const cache = createConnectionCache({ idleMs: 1_000, now: () => now });
    const fake = opener();
    let release!: () => void;
    const busy = cache.use({ id: 'busy', version: '1' }, fake, () => new Promise<void>((resolve) => (release = resolve)));
    await cache.use({ id: 'idle', version: '1' }, fake, async () => undefined);
    now = 5_000;
    // A new use after the idle time sweeps nothing by itself; the sweeper runs on its interval (≥ 1 s).
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(fake.closed).toEqual([2]);
    release();
    await busy;
    await cache.closeAll();
  });

  it('forgets a connection that failed to open, so the next use tries again', async () => {
    const cache = createConnectionCache();
    let attempts = 0;
    const failing = {
      kind: 'flaky',
      async open() {
        attempts++;
        if (attempts === 1) throw new Error('ECONNREFUSED');
        return 'ok';
      },
      async close() {},
    };
    await expect(cache.use({ id: 'c', version: '1' }, failing, async (c) => c)).rejects.toThrow('ECONNREFUSED');
    await expect(cache.use({ id: 'c', version: '1' }, failing, async (c) => c)).resolves.toBe('ok');
    await cache.closeAll();
  });
});
