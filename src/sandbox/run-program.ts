// One sandbox run, on the worker thread: a fresh runtime and context on an instance checked out for this run alone,
// inputs in as JSON, the wrapped user code evaluated and its promise driven to completion under the deadline, the
// result out as JSON text.
import type { QuickJSHandle } from 'quickjs-emscripten';
import {
  ABORTED_MESSAGE,
  STACK_OVERFLOW_MESSAGE,
  formatError,
  isOutOfMemory,
  memoryMessage,
  startFailedMessage,
  timeoutMessage,
  type SourceMap,
} from './error-message.js';
import type { ResolvedLimits } from './limits.js';
import { createStdoutCapture, type StdoutCapture } from './stdout.js';
import { installHelpers, type ErrorDescription } from './vm-helpers.js';
import { acquireInstance, isHeapAtCeiling, releaseInstance, type SandboxInstance } from './wasm-pool.js';

/** Source to evaluate as a global script whose completion value is a promise (or a plain value). */
export interface Program {
  source: string;
  map: SourceMap;
}

/** A run's outcome with the value still as JSON text (it crosses back to the host as such). */
export interface ProgramOutcome {
  ok: boolean;
  resultJson?: string;
  stdout: string;
  error?: string;
}

export type StopReason = 'aborted' | 'timeout';

export interface RunControl {
  /** The deadline on this thread's performance.now() clock. */
  deadline: number;
  /** What the host has asked for; read on every interrupt check, so it must be cheap. */
  requestedStop(): StopReason | undefined;
}

/**
 * QuickJS's own recursion limit (~1100 plain JS frames), checked against its C stack in linear memory (5 MiB in
 * this build). On the main thread V8's ~1 MiB stack, which holds the native WebAssembly frames, ran out first above
 * ~300 KiB; worker threads get a 16 MiB stack (pool-options.ts), so now QuickJS's check fires first even for deep
 * native recursion (huge JSON nesting) and the run ends with its own error. Not raised further: JSON.stringify's
 * cycle check is quadratic in nesting depth and runs in native code without interrupt checks, so a deeper limit
 * turns a deeply nested result into seconds of uninterruptible work (192 KiB: ~2 s; 512 KiB: past the watchdog).
 */
const MAX_STACK_BYTES = 192 * 1024;
const NEVER_SETTLED_MESSAGE =
  'The returned promise never settled: nothing in the sandbox can resolve it (there are no timers or I/O)';

interface Disposable {
  readonly alive: boolean;
  dispose(): void;
}

export async function runProgram(
  program: Program,
  inputsJson: string,
  limits: ResolvedLimits,
  control: RunControl,
): Promise<ProgramOutcome> {
  const failed = (error: string): ProgramOutcome => ({ ok: false, stdout: '', error });
  let instance: SandboxInstance;
  try {
    instance = await acquireInstance(limits.memoryLimitBytes);
  } catch (error) {
    return failed(startFailedMessage(error instanceof Error ? error.message : String(error)));
  }
  const stop = control.requestedStop();
  if (stop) {
    releaseInstance(instance, true);
    return failed(stop === 'aborted' ? ABORTED_MESSAGE : timeoutMessage(limits.timeoutMs));
  }
  const stdout = createStdoutCapture(limits.maxStdoutBytes);
  const { result, reusable } = runInInstance(instance, program, inputsJson, limits, control, stdout);
  releaseInstance(instance, reusable);
  return result;
}

/** Synchronous on purpose: this thread has nothing else to do, and a stop reaches it through the shared slot. */
function runInInstance(
  instance: SandboxInstance,
  program: Program,
  inputsJson: string,
  limits: ResolvedLimits,
  control: RunControl,
  stdout: StdoutCapture,
): { result: ProgramOutcome; reusable: boolean } {
  const owned: Disposable[] = [];
  const own = <T extends Disposable>(value: T): T => {
    owned.push(value);
    return value;
  };
  let stopReason: StopReason | undefined;
  let outOfMemory = false;

  // Called by QuickJS every few thousand operations; once it has said stop, it keeps saying so, which makes the
  // interrupt uncatchable for the rest of the run.
  const shouldStop = (): boolean => {
    if (stopReason === undefined) {
      stopReason = control.requestedStop();
      if (stopReason === undefined && performance.now() > control.deadline) stopReason = 'timeout';
    }
    return stopReason !== undefined;
  };
  const stoppedMessage = () => (stopReason === 'aborted' ? ABORTED_MESSAGE : timeoutMessage(limits.timeoutMs));
  const failed = (error: string): ProgramOutcome => ({ ok: false, stdout: stdout.text(), error });

  const drive = (): ProgramOutcome => {
    const runtime = own(instance.module.newRuntime());
    runtime.setMemoryLimit(limits.memoryLimitBytes);
    runtime.setMaxStackSize(MAX_STACK_BYTES);
    runtime.setInterruptHandler(shouldStop);
    const context = own(runtime.newContext());
    const helpers = installHelpers(context);
    Object.values(helpers).forEach(own);

    /** The message for an exception handle (disposed here); `prefix` is for ordinary errors only. */
    const explain = (exception: QuickJSHandle, prefix = ''): string => {
      own(exception);
      if (stopReason) return stoppedMessage();
      // Reading the error allocates, and QuickJS's own (count-based) budget may be exactly spent by now. The
      // linear memory ceiling still holds.
      runtime.setMemoryLimit(-1);
      const described = context.callFunction(helpers.describeError, context.undefined, exception);
      if (described.error) {
        own(described.error);
        if (stopReason) return stoppedMessage();
        // describeError never throws, so failing to run at all means there was no memory left to run it.
        outOfMemory = true;
        return memoryMessage(limits.memoryLimitBytes);
      }
      const description = JSON.parse(context.getString(own(described.value))) as ErrorDescription;
      const thrownNull = 'thrown' in description && description.thrown === 'null';
      if (isOutOfMemory(description) || (thrownNull && isHeapAtCeiling(instance))) {
        outOfMemory = true;
        return memoryMessage(limits.memoryLimitBytes);
      }
      return prefix + formatError(description, program.map);
    };

    const write = own(
      context.newFunction('write', (line) => {
        if (context.typeof(line) === 'string') stdout.writeLine(context.getString(line));
      }),
    );
    const installed = context.callFunction(helpers.installConsole, context.undefined, write);
    if (installed.error) throw new Error('Sandbox console failed to install');
    installed.dispose();

    const defined = context.callFunction(helpers.defineInputs, context.undefined, own(context.newString(inputsJson)));
    if (defined.error) return failed(explain(defined.error, 'Could not pass inputs: '));
    defined.dispose();

    // 'global' explicitly: left unset, quickjs-emscripten guesses "module" for any code mentioning import/export.
    const evaluated = context.evalCode(program.source, program.map.filename, { type: 'global' });
    if (evaluated.error) return failed(explain(evaluated.error));
    const completion = own(evaluated.value);

    // Drive the promise one job at a time, checking for a stop between jobs. The run ends when the promise
    // settles; jobs still queued then (unawaited work) are discarded with the runtime.
    for (;;) {
      const state = context.getPromiseState(completion);
      if (state.type === 'fulfilled') {
        const value = state.notAPromise ? completion : own(state.value);
        const serialized = context.callFunction(helpers.serialize, context.undefined, value);
        if (serialized.error) return failed(explain(serialized.error, 'Result is not JSON-serializable: '));
        return { ok: true, resultJson: context.getString(own(serialized.value)), stdout: stdout.text() };
      }
      if (state.type === 'rejected') return failed(explain(state.error));
      if (shouldStop()) return failed(stoppedMessage());
      if (!runtime.hasPendingJob()) return failed(NEVER_SETTLED_MESSAGE);
      const ran = runtime.executePendingJobs(1);
      if (ran.error) return failed(explain(ran.error));
    }
  };

  try {
    const result = drive();
    return { result, reusable: dispose(owned, outOfMemory) };
  } catch (error) {
    // An exception out of the engine itself: V8's stack ran out inside native frames, or QuickJS aborted. Either
    // way the instance's internal state is unknown; it is dropped, not disposed.
    return { result: failed(stopReason ? stoppedMessage() : hostFailureMessage(error)), reusable: false };
  }
}

/**
 * Frees handles, context and runtime (newest first) so the instance can serve another run; false when it should be
 * dropped instead. After an out-of-memory, QuickJS can leak an object and then abort on runtime teardown, so such
 * an instance is dropped without trying: releasing its whole linear memory is the cleaner disposal.
 */
function dispose(owned: Disposable[], outOfMemory: boolean): boolean {
  if (outOfMemory) return false;
  try {
    for (const item of owned.reverse()) if (item.alive) item.dispose();
    return true;
  } catch {
    return false;
  }
}

function hostFailureMessage(error: unknown): string {
  if (error instanceof RangeError && /call stack/i.test(error.message)) return STACK_OVERFLOW_MESSAGE;
  return `Sandbox engine failure: ${error instanceof Error ? error.message : String(error)}`;
}
