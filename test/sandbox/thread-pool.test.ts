// The worker-thread pool: stopping runs that never yield, the bounded queue, workers that get stuck or die, and the
// pool growing past its size while endless loops hold every thread. One worker that never grows and room for one
// waiting run (this file's process only), so "busy" and "queued" are easy to reach; the growing tests reshape it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  configureSandboxPool,
  evaluateExpression,
  runUserCode,
  sandboxPoolStats,
  shutdownSandboxPool,
} from '../../src/sandbox/index.js';
import { eventually } from '../support/eventually.js';

const SPIN = 'while (true) {}';
const long = { timeoutMs: 60_000 };

beforeAll(async () => {
  // 32 MiB of worker heap makes a worker-killing run cheap to write; a 100 ms grace makes the watchdog quick;
  // maxThreads 1 keeps a spinning run in the way of the others, as the queue tests need.
  configureSandboxPool({ size: 1, maxThreads: 1, maxQueued: 1, graceMs: 100, workerHeapMb: 32 });
  await runUserCode({ code: 'return 1', inputs: {} }); // start the worker, so deadlines below measure runs
});
afterAll(() => shutdownSandboxPool());

/** Starts a run that spins until aborted and resolves once it holds the worker. */
async function occupyWorker() {
  const controller = new AbortController();
  const run = runUserCode({ code: SPIN, inputs: {}, signal: controller.signal, limits: long });
  await eventually(() => sandboxPoolStats().busy === 1, 20_000, 'the spinning run to hold the worker');
  return { run, abort: () => controller.abort() };
}

/** Resolves with 'timer' after `ms`, for ordering assertions ("the run ended first"). */
const timer = (ms: number) => new Promise<'timer'>((resolve) => setTimeout(() => resolve('timer'), ms).unref());

describe('stopping a run that never yields', () => {
  test('an abort stops a synchronous endless loop long before its timeout, without the watchdog', async () => {
    const replacedBefore = sandboxPoolStats().workersReplaced;
    const spinner = await occupyWorker();
    spinner.abort();
    const first = await Promise.race([spinner.run, timer(long.timeoutMs / 2)]);
    expect(first).toEqual({ ok: false, result: null, stdout: '', error: 'Aborted' });
    // The shared stop flag ended it: the worker was not terminated and is free again.
    expect(sandboxPoolStats()).toMatchObject({ workersReplaced: replacedBefore, busy: 0, workers: 1 });
  });
});

describe('the queue', () => {
  test('a run beyond the bound is refused with "Sandbox is busy"; the waiting one still runs', async () => {
    const spinner = await occupyWorker();
    const waiting = runUserCode({ code: 'return "waited"', inputs: {}, limits: long });
    expect(sandboxPoolStats().queued).toBe(1);

    expect(await runUserCode({ code: 'return 1', inputs: {} })).toEqual({
      ok: false,
      result: null,
      stdout: '',
      error: 'Sandbox is busy: every worker (1) is running code and 1 runs are already waiting; try again later',
    });
    expect(await evaluateExpression({ expression: '1 + 1', inputs: {} })).toMatchObject({ ok: false, error: expect.stringMatching(/^Sandbox is busy: /) });

    spinner.abort();
    expect(await spinner.run).toMatchObject({ error: 'Aborted' });
    expect(await waiting).toEqual({ ok: true, result: 'waited', stdout: '' });
  });

  test('time spent waiting for a worker counts against the run deadline', async () => {
    const spinner = await occupyWorker();
    const waited = await runUserCode({ code: 'return 1', inputs: {}, limits: { timeoutMs: 300 } });
    expect(waited).toEqual({ ok: false, result: null, stdout: '', error: 'Execution timed out after 300 ms' });
    // It ended on its own deadline while the worker was still taken, not when the worker came free.
    expect(sandboxPoolStats()).toMatchObject({ busy: 1, queued: 0 });
    spinner.abort();
    await spinner.run;
  });

  test('aborting a waiting run removes it from the queue at once', async () => {
    const spinner = await occupyWorker();
    const controller = new AbortController();
    const waiting = runUserCode({ code: 'return 1', inputs: {}, signal: controller.signal, limits: long });
    controller.abort();
    expect(await waiting).toEqual({ ok: false, result: null, stdout: '', error: 'Aborted' });
    expect(sandboxPoolStats()).toMatchObject({ busy: 1, queued: 0 });
    spinner.abort();
    await spinner.run;
  });
});

describe('fair between tenants', () => {
  test("a tenant that fills its share is refused, another tenant's run is not, and the next free worker goes to it", async () => {
    const spin = () => {
      const controller = new AbortController();
      const run = runUserCode({ code: SPIN, inputs: {}, signal: controller.signal, limits: long, tenant: 'ws_flood' });
      return { run, abort: () => controller.abort() };
    };
    const first = spin();
    await eventually(() => sandboxPoolStats().busy === 1, 20_000, 'the flood to hold the worker');
    const second = spin(); // waits: the flood's share of the queue (1) is now full
    expect(await spin().run).toMatchObject({ ok: false, error: expect.stringMatching(/^Sandbox is busy: /) });

    // Another workspace still gets in line (the bound is per tenant)...
    const other = runUserCode({ code: 'return "served"', inputs: {}, limits: { timeoutMs: 10_000 }, tenant: 'ws_other' });
    expect(sandboxPoolStats().queued).toBe(2);
    // ...and the worker the flood frees goes to it, not to the flood's older waiting loop (which would hold it for a
    // minute: the other run would time out).
    first.abort();
    expect(await first.run).toMatchObject({ error: 'Aborted' });
    expect(await other).toEqual({ ok: true, result: 'served', stdout: '' });
    second.abort();
    expect(await second.run).toMatchObject({ error: 'Aborted' });
  });
});

describe('workers that stop answering or die', () => {
  test('a worker stuck in native code past deadline + grace is terminated and replaced', async () => {
    const replacedBefore = sandboxPoolStats().workersReplaced;
    // indexOf over a 4-billion-slot sparse array is one native call that never reaches QuickJS's interrupt check.
    const stuck = await runUserCode({ code: 'return new Array(2 ** 32 - 1).indexOf(1)', inputs: {}, limits: { timeoutMs: 300 } });
    expect(stuck).toEqual({ ok: false, result: null, stdout: '', error: 'Execution timed out after 300 ms' });
    expect(sandboxPoolStats().workersReplaced).toBe(replacedBefore + 1);
    expect(await runUserCode({ code: 'return 6 * 7', inputs: {} })).toEqual({ ok: true, result: 42, stdout: '' });
  });

  test('a worker that runs out of heap fails only its own run and is replaced', async () => {
    const replacedBefore = sandboxPoolStats().workersReplaced;
    // Each console line is copied into the worker's own heap (32 MiB here); the app's stdout cap is lifted.
    const flood = 'const line = "z".repeat(60000); for (;;) console.log(line)';
    const crashing = runUserCode({ code: flood, inputs: {}, limits: { maxStdoutBytes: 1024 ** 3, timeoutMs: 20_000 } });
    await eventually(() => sandboxPoolStats().busy === 1, 20_000, 'the flooding run to start');
    const behind = runUserCode({ code: 'return "unaffected"', inputs: {}, limits: { timeoutMs: 20_000 } });

    expect(await crashing).toEqual({
      ok: false,
      result: null,
      stdout: '',
      error: 'Sandbox failed: the worker thread running this code crashed (it ran out of memory); it has been replaced',
    });
    expect(await behind).toEqual({ ok: true, result: 'unaffected', stdout: '' });
    expect(sandboxPoolStats()).toMatchObject({ workersReplaced: replacedBefore + 1, workers: 1 });
  });
});

describe('shutdown', () => {
  test('fails what is running or waiting, and the next run starts the pool again', async () => {
    const spinner = await occupyWorker();
    const waiting = runUserCode({ code: 'return 1', inputs: {}, limits: long });
    await shutdownSandboxPool();
    expect(await spinner.run).toMatchObject({ ok: false, error: 'Sandbox is shutting down' });
    expect(await waiting).toMatchObject({ ok: false, error: 'Sandbox is shutting down' });
    expect(sandboxPoolStats()).toMatchObject({ workers: 0, busy: 0, queued: 0 });
    expect(await runUserCode({ code: 'return "again"', inputs: {} })).toMatchObject({ ok: true, result: 'again' });
  });
});

describe('growing past size while endless loops hold every thread', () => {
  // Two threads kept, up to six: one workspace may hold four of them (maxThreads - size). Extra threads idle for
  // 300 ms are ended.
  const SIZE = 2;
  beforeAll(async () => {
    await shutdownSandboxPool();
    configureSandboxPool({ size: SIZE, maxThreads: 6, shrinkAfterMs: 300 });
    await Promise.all(Array.from({ length: SIZE }, () => runUserCode({ code: 'return 1', inputs: {} })));
  });

  /** `count` runs of `tenant` that spin until aborted (or for a minute). */
  function spinners(count: number, tenant: string) {
    const controller = new AbortController();
    const runs = Array.from({ length: count }, () => runUserCode({ code: SPIN, inputs: {}, signal: controller.signal, limits: long, tenant }));
    return { runs, stop: () => controller.abort() };
  }

  // Each run below may wait 20 s, far longer than a thread takes to start even on a loaded machine. Without growing
  // it would wait for a loop's deadline, a minute away, and time out.
  const patient = { timeoutMs: 20_000 };

  test("a run of the loops' own workspace starts while they spin, and the extra threads end once idle", { timeout: 60_000 }, async () => {
    const loops = spinners(SIZE, 'ws_a');
    await eventually(() => sandboxPoolStats().busy === SIZE, 20_000, 'the loops to hold every thread');

    expect(await runUserCode({ code: 'return "served"', inputs: {}, limits: patient, tenant: 'ws_a' })).toEqual({ ok: true, result: 'served', stdout: '' });
    expect(sandboxPoolStats().workers).toBeGreaterThan(SIZE);
    expect(sandboxPoolStats().workers).toBeLessThanOrEqual(6);

    loops.stop();
    for (const run of loops.runs) expect(await run).toMatchObject({ ok: false, error: 'Aborted' });
    await eventually(() => sandboxPoolStats().workers === SIZE, 20_000, 'the pool to shrink back to its size');
  });

  test("one workspace's flood holds at most maxThreads - size threads: another workspace's run still gets one", { timeout: 60_000 }, async () => {
    const flood = spinners(5, 'ws_flood');
    await eventually(() => sandboxPoolStats().busy === 4, 30_000, 'the flood to hold four threads');
    expect(sandboxPoolStats().queued).toBe(1); // the fifth loop waits for one of its own

    expect(await runUserCode({ code: 'return "served"', inputs: {}, limits: patient, tenant: 'ws_other' })).toEqual({ ok: true, result: 'served', stdout: '' });
    expect(sandboxPoolStats()).toMatchObject({ busy: 4, queued: 1 });

    flood.stop();
    for (const run of flood.runs) expect(await run).toMatchObject({ ok: false, error: 'Aborted' });
  });
});
