// Runs user JavaScript (function blocks) and condition expressions inside QuickJS compiled to WebAssembly, on a
// pool of worker threads so that user code never holds the HTTP event loop. The code sees only the ECMAScript
// built-ins, its inputs and a console that writes to the captured stdout: no process, require, import, fetch,
// timers or any other host object.
import { ABORTED_MESSAGE } from './error-message.js';
import { encodeInputs } from './inputs.js';
import { formatBytes, resolveLimits } from './limits.js';
import { expressionProgram, functionBodyProgram } from './programs.js';
import type { Program } from './run-program.js';
import { runOnPool } from './thread-pool.js';
import type { CodeRunResult, SandboxRunOptions } from './types.js';

export { DEFAULT_LIMITS, type SandboxLimits } from './limits.js';
export { defaultPoolOptions, type SandboxPoolOptions } from './pool-options.js';
export { rewriteReferences, defaultReferenceName, type ReferenceSpan } from './rewrite-references.js';
export { configureSandboxPool, sandboxPoolStats, shutdownSandboxPool, type SandboxPoolStats } from './thread-pool.js';
export type { CodeRunResult, SandboxRunOptions } from './types.js';

/** Runs `code` as the body of an async function; its return value is the result. */
export async function runUserCode(options: SandboxRunOptions & { code: string }): Promise<CodeRunResult> {
  return run(functionBodyProgram(options.code), options);
}

/** Evaluates one expression (it may use `await`); its value is the result. */
export async function evaluateExpression(options: SandboxRunOptions & { expression: string }): Promise<CodeRunResult> {
  return run(expressionProgram(options.expression), options);
}

async function run(program: Program, options: SandboxRunOptions): Promise<CodeRunResult> {
  const limits = resolveLimits(options.limits);
  const failed = (error: string, stdout = ''): CodeRunResult => ({ ok: false, result: null, stdout, error });
  if (options.signal?.aborted) return failed(ABORTED_MESSAGE);
  // Checked here rather than on the worker: these failures need no thread, and the inputs cross as this text.
  const encoded = encodeInputs(options.inputs);
  if ('error' in encoded) return failed(encoded.error);
  if (Buffer.byteLength(encoded.json) > limits.memoryLimitBytes) {
    return failed(`Inputs are larger than the memory limit (${formatBytes(limits.memoryLimitBytes)})`);
  }
  const outcome = await runOnPool({ program, inputsJson: encoded.json, limits, signal: options.signal, tenant: options.tenant });
  if (!outcome.ok) return failed(outcome.error ?? 'Sandbox run failed', outcome.stdout);
  return { ok: true, result: JSON.parse(outcome.resultJson ?? 'null') as unknown, stdout: outcome.stdout };
}
