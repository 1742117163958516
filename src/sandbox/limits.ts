// Resource limits for one sandbox run, with the defaults a function block gets when its caller sets none.

export interface SandboxLimits {
  /** Wall-clock budget for the whole run, including time spent draining promise jobs. Default 5000. */
  timeoutMs: number;
  /** Heap budget for the run. Default 64 MiB. */
  memoryLimitBytes: number;
  /** Captured console output beyond this many bytes is dropped and replaced with a note. Default 1 MiB. */
  maxStdoutBytes?: number;
}

export type ResolvedLimits = Required<SandboxLimits>;

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: ResolvedLimits = {
  timeoutMs: 5000,
  memoryLimitBytes: 64 * MiB,
  maxStdoutBytes: MiB,
};

/** WebAssembly memory is 32-bit and this build refuses to grow past 2 GiB, so larger budgets cannot be honoured. */
const MAX_MEMORY_LIMIT_BYTES = 1024 * MiB;

/** Fills in defaults and rejects nonsense; a bad limit is a programming error in the caller, not a user error. */
export function resolveLimits(limits: Partial<SandboxLimits> | undefined): ResolvedLimits {
  const resolved: ResolvedLimits = {
    timeoutMs: limits?.timeoutMs ?? DEFAULT_LIMITS.timeoutMs,
    memoryLimitBytes: limits?.memoryLimitBytes ?? DEFAULT_LIMITS.memoryLimitBytes,
    maxStdoutBytes: limits?.maxStdoutBytes ?? DEFAULT_LIMITS.maxStdoutBytes,
  };
  for (const [key, value] of Object.entries(resolved)) {
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`Sandbox limit ${key} must be a positive number, got ${value}`);
  }
  if (resolved.memoryLimitBytes > MAX_MEMORY_LIMIT_BYTES) {
    throw new RangeError(`Sandbox limit memoryLimitBytes must be at most ${formatBytes(MAX_MEMORY_LIMIT_BYTES)}`);
  }
  return resolved;
}

/** `67108864` → `64 MiB`: limits are usually round binary sizes and users read them in error messages. */
export function formatBytes(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
