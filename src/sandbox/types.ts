import type { SandboxLimits } from './limits.js';

export interface CodeRunResult {
  ok: boolean;
  /** JSON-safe copy of the returned value: undefined, functions and symbols become null. Null when !ok. */
  result: unknown;
  /** One line per console call, each ending in a newline. */
  stdout: string;
  /** Set when !ok: 'Execution timed out after 5000 ms', 'Memory limit exceeded (64 MiB)', 'Aborted',
   *  'ReferenceError: x is not defined at line 3', … */
  error?: string;
}

export interface SandboxRunOptions {
  /** Values exposed to the code as globals, each a deep copy made through JSON. */
  inputs: Record<string, unknown>;
  limits?: Partial<SandboxLimits>;
  /** Aborting stops the run within milliseconds, even mid-loop (the worker reads a shared stop flag). */
  signal?: AbortSignal;
  /** Whose share of the workers this run counts against (thread-pool.ts: fair between tenants). */
  tenant?: string;
}
