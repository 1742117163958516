// Hostile code must end in a clear error, leave the host process untouched, and leave the sandbox usable.
import { afterEach, describe, expect, test } from 'vitest';
import { runUserCode } from '../../src/sandbox/index.js';

const MiB = 1024 * 1024;
const fast = { timeoutMs: 300 };
// Filling a heap costs up to a second or two of CPU on a quiet machine (most of it in QuickJS once the heap is nearly
// full), and a loaded one, where sandbox threads run at nice 10, stretches that past the default 5 s deadline. The
// memory limit must be what ends these runs however slow the CPU: a deadline they never come near, a test timeout
// beyond it.
const untilMemoryRunsOut = { timeoutMs: 120_000 };
const UNTIL_MEMORY_RUNS_OUT_TEST_MS = 150_000;

async function expectSandboxStillWorks(): Promise<void> {
  const after = await runUserCode({ code: 'console.log("ok"); return typeof Object.prototype.polluted', inputs: {} });
  expect(after).toEqual({ ok: true, result: 'undefined', stdout: 'ok\n' });
}

describe('escape attempts', () => {
  afterEach(async () => {
    expect(typeof process.exit).toBe('function');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await expectSandboxStillWorks();
  });

  test('while (true) {} times out', async () => {
    expect(await runUserCode({ code: 'while (true) {}', inputs: {}, limits: fast })).toEqual({
      ok: false,
      result: null,
      stdout: '',
      error: 'Execution timed out after 300 ms',
    });
  });

  test('the default timeout is 5000 ms and reported as such', async () => {
    const result = await runUserCode({ code: 'const end = Date.now() + 60000; while (Date.now() < end) {}', inputs: {} });
    expect(result.error).toBe('Execution timed out after 5000 ms');
  });

  test('for (;;) {} inside an async function times out', async () => {
    const code = 'async function spin() { await null; for (;;) {} }\nawait spin();';
    expect(await runUserCode({ code, inputs: {}, limits: fast })).toMatchObject({ ok: false, error: 'Execution timed out after 300 ms' });
  });

  test('an endless chain of awaits times out', async () => {
    expect(await runUserCode({ code: 'for (;;) await null;', inputs: {}, limits: fast })).toMatchObject({
      ok: false,
      error: 'Execution timed out after 300 ms',
    });
  });

  test('catching the interrupt does not keep the code running', async () => {
    const code = 'for (;;) { try { while (true) {} } catch (e) { console.log("caught") } }';
    const result = await runUserCode({ code, inputs: {}, limits: fast });
    expect(result).toMatchObject({ ok: false, stdout: '', error: 'Execution timed out after 300 ms' });
  });

  test('a promise that never resolves ends at once instead of hanging', async () => {
    const started = performance.now();
    const result = await runUserCode({ code: 'await new Promise(() => {}); return 1', inputs: {} });
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('never settled') });
    expect(performance.now() - started).toBeLessThan(4000);
  });

  test('a growing array of large strings hits the memory limit', { timeout: UNTIL_MEMORY_RUNS_OUT_TEST_MS }, async () => {
    const code = 'const keep = []; while (true) keep.push("x".repeat(1e6) + keep.length);';
    const result = await runUserCode({ code, inputs: {}, limits: untilMemoryRunsOut });
    expect(result).toEqual({ ok: false, result: null, stdout: '', error: 'Memory limit exceeded (64 MiB)' });
  });

  test('a growing array of arrays hits the memory limit', { timeout: UNTIL_MEMORY_RUNS_OUT_TEST_MS }, async () => {
    const code = 'globalThis.keep = []; while (true) keep.push(new Array(1000).fill(keep.length));';
    const result = await runUserCode({ code, inputs: {}, limits: { ...untilMemoryRunsOut, memoryLimitBytes: 16 * MiB } });
    expect(result).toMatchObject({ ok: false, error: 'Memory limit exceeded (16 MiB)' });
  });

  test('many small objects hit the memory limit', { timeout: UNTIL_MEMORY_RUNS_OUT_TEST_MS }, async () => {
    const code = 'const keep = []; while (true) keep.push({ n: keep.length });';
    const result = await runUserCode({ code, inputs: {}, limits: { ...untilMemoryRunsOut, memoryLimitBytes: 16 * MiB } });
    expect(result).toMatchObject({ ok: false, error: 'Memory limit exceeded (16 MiB)' });
  });

  test('typed arrays hit the memory limit', { timeout: UNTIL_MEMORY_RUNS_OUT_TEST_MS }, async () => {
    const code = 'const keep = []; while (true) keep.push(new Uint8Array(4 * 1024 * 1024));';
    const result = await runUserCode({ code, inputs: {}, limits: { ...untilMemoryRunsOut, memoryLimitBytes: 16 * MiB } });
    expect(result).toMatchObject({ ok: false, error: 'Memory limit exceeded (16 MiB)' });
  });

  test('one allocation over the limit fails cleanly', async () => {
    const result = await runUserCode({ code: 'return new ArrayBuffer(512 * 1024 * 1024).byteLength', inputs: {} });
    expect(result).toMatchObject({ ok: false, error: 'Memory limit exceeded (64 MiB)' });
  });

  test('a doubling string ends in an error, not a crash', async () => {
    const result = await runUserCode({ code: 'let s = "ab"; for (;;) s += s;', inputs: {} });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/string too long|Memory limit exceeded/);
  });

  test('deep recursion is stopped', async () => {
    const result = await runUserCode({ code: 'function down(n) { return down(n + 1) + 1 }\nreturn down(0)', inputs: {} });
    expect(result).toMatchObject({ ok: false, error: 'RangeError: Maximum call stack size exceeded at line 1' });
  });

  test('recursion inside native code (deep JSON) is stopped', async () => {
    const result = await runUserCode({ code: 'return JSON.parse("[".repeat(1e6))', inputs: {} });
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^RangeError: Maximum call stack size exceeded/) });
  });

  test('a deeply nested result is refused, not crashing the host', async () => {
    const code = 'let a = []; for (let i = 0; i < 1e5; i++) a = [a]; return a;';
    // Building and walking 100,000 levels takes seconds on a loaded machine: a roomy time limit, so only the depth decides.
    const result = await runUserCode({ code, inputs: {}, limits: { timeoutMs: 60_000 } });
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/Maximum call stack size exceeded/) });
  });

  test('the constructor chain reaches only the sandbox', async () => {
    const direct = await runUserCode({ code: "return this.constructor.constructor('return process')()", inputs: {} });
    expect(direct).toMatchObject({ ok: false, error: 'ReferenceError: process is not defined at line 1' });
    const probed = await runUserCode({
      code: "const F = this.constructor.constructor; return [F('return typeof process')(), F('return typeof require')()]",
      inputs: {},
    });
    expect(probed).toMatchObject({ ok: true, result: ['undefined', 'undefined'] });
  });

  test('no host objects exist as globals', async () => {
    const code = `return [typeof process, typeof globalThis.process, typeof require, typeof module, typeof Buffer,
      typeof fetch, typeof setTimeout, typeof setInterval, typeof setImmediate, typeof queueMicrotask,
      typeof WebAssembly, typeof std, typeof os]`;
    const result = await runUserCode({ code, inputs: {} });
    expect(result).toMatchObject({ ok: true, result: Array(13).fill('undefined') });
  });

  test('Function("return this")() is the sandbox global, with only ECMAScript built-ins', async () => {
    const code = `const g = Function('return this')();
      const allowed = new Set(${JSON.stringify(ECMASCRIPT_GLOBALS)});
      return Object.getOwnPropertyNames(g).filter((name) => !allowed.has(name));`;
    expect(await runUserCode({ code, inputs: {} })).toMatchObject({ ok: true, result: [] });
  });

  test('require and fetch are not defined', async () => {
    expect(await runUserCode({ code: 'return require("fs")', inputs: {} })).toMatchObject({ ok: false, error: 'ReferenceError: require is not defined at line 1' });
    expect(await runUserCode({ code: 'return await fetch("http://127.0.0.1")', inputs: {} })).toMatchObject({ ok: false, error: 'ReferenceError: fetch is not defined at line 1' });
  });

  test('dynamic import loads nothing', async () => {
    const result = await runUserCode({ code: 'const fs = await import("fs"); return Object.keys(fs)', inputs: {} });
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining("could not load module 'fs'") });
  });

  test('a static import is a syntax error in a function body', async () => {
    const result = await runUserCode({ code: 'import fs from "fs";\nreturn 1', inputs: {} });
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^SyntaxError/) });
  });

  test('prototype pollution stays inside its own run', async () => {
    const code = `Object.prototype.polluted = 1; Array.prototype.map = () => "hijacked"; JSON.stringify = () => "{}";
      return { seen: ({}).polluted, parsed: JSON.parse('{"__proto__": {"polluted": 2}}') };`;
    const result = await runUserCode({ code, inputs: {} });
    expect(result.ok).toBe(true);
    const value = result.result as { seen: number; parsed: Record<string, unknown> };
    expect(value.seen).toBe(1);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect([1].map((n) => n + 1)).toEqual([2]);
    // The next run starts from pristine built-ins.
    const next = await runUserCode({ code: 'return [({}).polluted, [1, 2].map((n) => n * 2), JSON.stringify({ a: 1 })]', inputs: {} });
    expect(next).toMatchObject({ ok: true, result: [null, [2, 4], '{"a":1}'] });
  });

  test('replacing console, JSON or Object.defineProperty cannot corrupt how the result is read', async () => {
    const code = 'Object.defineProperty = null; JSON.parse = null; console.log("still captured"); return [1, 2]';
    expect(await runUserCode({ code, inputs: { x: 1 } })).toEqual({ ok: true, result: [1, 2], stdout: 'still captured\n' });
  });

  test('a getter that loops while the result is being read still times out', async () => {
    const result = await runUserCode({ code: 'return { get trap() { for (;;) {} } }', inputs: {}, limits: fast });
    expect(result).toMatchObject({ ok: false, error: 'Execution timed out after 300 ms' });
  });

  test('an error whose name getter loops still times out', async () => {
    const result = await runUserCode({ code: 'throw { get name() { for (;;) {} } }', inputs: {}, limits: fast });
    expect(result).toMatchObject({ ok: false, error: 'Execution timed out after 300 ms' });
  });
});

describe('several runs at once', () => {
  test('a bomb in one run does not disturb runs alongside it', { timeout: UNTIL_MEMORY_RUNS_OUT_TEST_MS }, async () => {
    const bombCode = 'const keep = []; for (;;) { keep.push("y".repeat(1e6) + keep.length); await null; }';
    const bomb = runUserCode({ code: bombCode, inputs: {}, limits: untilMemoryRunsOut });
    const spinner = runUserCode({ code: 'for (;;) await null;', inputs: {}, limits: fast });
    const normal = Array.from({ length: 5 }, (_, i) =>
      runUserCode({ code: 'let total = 0; for (let j = 0; j < 100; j++) { total += j; await null; } return total + n', inputs: { n: i } }),
    );
    const [bombed, spun, ...normals] = await Promise.all([bomb, spinner, ...normal]);
    expect(bombed).toMatchObject({ ok: false, error: 'Memory limit exceeded (64 MiB)' });
    expect(spun).toMatchObject({ ok: false, error: 'Execution timed out after 300 ms' });
    expect(normals.map((r) => r.result)).toEqual([4950, 4951, 4952, 4953, 4954]);
  });
});

// Own properties of a pristine QuickJS global object (ES2023 built-ins plus the console the sandbox installs).
const ECMASCRIPT_GLOBALS = [
  'Object', 'Function', 'Array', 'Number', 'parseFloat', 'parseInt', 'Infinity', 'NaN', 'undefined', 'Boolean',
  'String', 'Symbol', 'Date', 'Promise', 'RegExp', 'Error', 'AggregateError', 'EvalError', 'RangeError',
  'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'InternalError', 'globalThis', 'JSON', 'Math', 'Intl',
  'ArrayBuffer', 'SharedArrayBuffer', 'Uint8Array', 'Int8Array', 'Uint16Array', 'Int16Array', 'Uint32Array',
  'Int32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'Uint8ClampedArray', 'BigUint64Array',
  'BigInt64Array', 'DataView', 'Map', 'BigInt', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry',
  'Proxy', 'Reflect', 'Iterator', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape',
  'unescape', 'eval', 'isFinite', 'isNaN', 'console',
];
