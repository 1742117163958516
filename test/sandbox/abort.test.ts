import { beforeAll, describe, expect, test } from 'vitest';
import { runUserCode } from '../../src/sandbox/index.js';

describe('abort', () => {
  // Worker threads start on first use; warm one so the aborts below (after 0.5 s, a fortieth of the deadline) land mid-run, not while a thread boots.
  beforeAll(async () => {
    await runUserCode({ code: 'return 1', inputs: {} });
  });

  test('a signal aborted before the call returns at once without running anything', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runUserCode({ code: 'console.log("ran"); return 1', inputs: {}, signal: controller.signal });
    expect(result).toEqual({ ok: false, result: null, stdout: '', error: 'Aborted' });
  });

  test('aborting mid-run stops asynchronous work well before the deadline', async () => {
    const controller = new AbortController();
    const code = 'console.log("started"); for (;;) await null;';
    const running = runUserCode({ code, inputs: {}, signal: controller.signal, limits: { timeoutMs: 20_000 } });
    setTimeout(() => controller.abort(), 500);
    expect(await running).toEqual({ ok: false, result: null, stdout: 'started\n', error: 'Aborted' });
  });

  test('aborting mid-run stops synchronous work that is interleaved with awaits', async () => {
    const controller = new AbortController();
    const code = 'for (;;) { for (let i = 0; i < 1e5; i++) {} await null; }';
    const running = runUserCode({ code, inputs: {}, signal: controller.signal, limits: { timeoutMs: 20_000 } });
    setTimeout(() => controller.abort(), 500);
    expect(await running).toMatchObject({ ok: false, error: 'Aborted' });
  });

  test('an abort after the run finished changes nothing', async () => {
    const controller = new AbortController();
    const result = await runUserCode({ code: 'return 7', inputs: {}, signal: controller.signal });
    controller.abort();
    expect(result).toEqual({ ok: true, result: 7, stdout: '' });
  });
});
