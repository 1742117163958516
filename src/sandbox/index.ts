// Runs user JavaScript (function blocks) and condition expressions inside QuickJS compiled to WebAssembly. The code
// sees only the ECMAScript built-ins, its inputs and a console that writes to the captured stdout: no process,
// require, import, fetch, timers or any other host object.
import { resolveLimits } from './limits.js';
import { expressionProgram, functionBodyProgram } from './programs.js';
import { runProgram } from './run-program.js';
import type { CodeRunResult, SandboxRunOptions } from './types.js';

export { DEFAULT_LIMITS, type SandboxLimits } from './limits.js';
export { rewriteReferences, defaultReferenceName, type ReferenceSpan } from './rewrite-references.js';
export type { CodeRunResult, SandboxRunOptions } from './types.js';

/** Runs `code` as the body of an async function; its return value is the result. */
export async function runUserCode(options: SandboxRunOptions & { code: string }): Promise<CodeRunResult> {
  return runProgram(functionBodyProgram(options.code), options.inputs, resolveLimits(options.limits), options.signal);
}

/** Evaluates one expression (it may use `await`); its value is the result. */
export async function evaluateExpression(options: SandboxRunOptions & { expression: string }): Promise<CodeRunResult> {
  return runProgram(expressionProgram(options.expression), options.inputs, resolveLimits(options.limits), options.signal);
}
