// QuickJS WebAssembly instances, each with its own capped linear memory.
//
// Why not one shared QuickJSWASMModule for the process: in quickjs-emscripten 0.32 `runtime.setMemoryLimit` only
// refuses a single allocation larger than the limit; large strings, typed arrays and array storage never add up
// (justjake/quickjs-emscripten#271, #255), so a loop of 1 MiB strings grows the process to gigabytes. The only
// hard ceiling available without a custom build is the WebAssembly.Memory `maximum`, and that belongs to an
// instance, not to a runtime. Instances also die for good when QuickJS aborts or when deep native recursion
// overflows the host stack, so a broken one must be replaceable without restarting the process.
//
// So the .wasm is compiled once per worker thread, and instances are created from it on demand (a few ms), checked out
// by exactly one run at a time (so one run's allocations can never eat another run's budget), and kept idle for
// reuse only after a clean run.
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import {
  RELEASE_SYNC,
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten';

export interface SandboxInstance {
  module: QuickJSWASMModule;
  memory: WebAssembly.Memory;
  maxBytes: number;
}

const PAGE_BYTES = 64 * 1024;
const MiB = 1024 * 1024;
/** The prebuilt module's INITIAL_MEMORY: static data and the C stack live here, the rest is the first heap. */
const BASE_MEMORY_BYTES = 16 * MiB;
/** The prebuilt module's own growth ceiling (2 GiB); asking for more would fail at instantiation. */
const MAX_MEMORY_BYTES = 2048 * MiB;
/** Linear memory never shrinks, so an instance that grew past this is dropped rather than kept idle. */
const MAX_IDLE_MEMORY_BYTES = 32 * MiB;
/** Idle instances kept per memory ceiling, and in all: enough for back-to-back runs, little memory held. */
const MAX_IDLE_PER_SIZE = 2;
const MAX_IDLE_TOTAL = 4;

let compiled: Promise<WebAssembly.Module> | undefined;
const idle = new Map<number, SandboxInstance[]>();

function compiledQuickJS(): Promise<WebAssembly.Module> {
  compiled ??= compileQuickJS().catch((error: unknown) => {
    compiled = undefined; // let a later run retry instead of caching a transient read failure forever
    throw error;
  });
  return compiled;
}

async function compileQuickJS(): Promise<WebAssembly.Module> {
  // Resolved from quickjs-emscripten's own location: the variant package is its dependency, not ours.
  const requireFromQuickJS = createRequire(createRequire(import.meta.url).resolve('quickjs-emscripten'));
  const wasmPath = requireFromQuickJS.resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
  return WebAssembly.compile(await readFile(wasmPath));
}

function capFor(memoryLimitBytes: number): number {
  const wanted = Math.ceil((BASE_MEMORY_BYTES + memoryLimitBytes) / PAGE_BYTES) * PAGE_BYTES;
  return Math.min(wanted, MAX_MEMORY_BYTES);
}

/** An instance for one run whose heap cannot grow much beyond `memoryLimitBytes`; give it back with releaseInstance. */
export async function acquireInstance(memoryLimitBytes: number): Promise<SandboxInstance> {
  const maxBytes = capFor(memoryLimitBytes);
  const reused = idle.get(maxBytes)?.pop();
  if (reused) return reused;
  const memory = new WebAssembly.Memory({ initial: BASE_MEMORY_BYTES / PAGE_BYTES, maximum: maxBytes / PAGE_BYTES });
  const wasmModule = await compiledQuickJS();
  const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmModule, wasmMemory: memory }));
  return { module, memory, maxBytes };
}

/**
 * `clean` means every runtime and handle of the run was disposed without error. Anything else (a host stack
 * overflow mid-call, a QuickJS abort, an exhausted heap) leaves the instance unusable or bloated: it is dropped and
 * the garbage collector frees its whole linear memory at once.
 */
export function releaseInstance(instance: SandboxInstance, clean: boolean): void {
  if (!clean || instance.memory.buffer.byteLength > MAX_IDLE_MEMORY_BYTES) return;
  const pool = idle.get(instance.maxBytes) ?? [];
  const idleTotal = [...idle.values()].reduce((sum, instances) => sum + instances.length, 0);
  if (pool.length >= MAX_IDLE_PER_SIZE || idleTotal >= MAX_IDLE_TOTAL) return;
  pool.push(instance);
  idle.set(instance.maxBytes, pool);
}

/** Compiles the module and leaves one instance idle, so the first run on this thread pays neither. */
export async function warmUp(memoryLimitBytes: number): Promise<void> {
  releaseInstance(await acquireInstance(memoryLimitBytes), true);
}

/**
 * True when linear memory has grown to within a few MiB of its ceiling. QuickJS throws `null` instead of an
 * InternalError when it cannot even allocate the error object; this tells that apart from a user's `throw null`.
 */
export function isHeapAtCeiling(instance: SandboxInstance): boolean {
  return instance.memory.buffer.byteLength + 8 * 1024 * 1024 >= instance.maxBytes;
}
