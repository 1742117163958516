// Exit codes scripts can branch on (README "Command line"). Each failure maps to one code, whatever the command.
import { SluiceError } from '../errors.js';

export const EXIT = {
  ok: 0,
  /** The workflow ran and failed: EXECUTION_FAILED, a time-out, a failed async job, a response block answering 4xx/5xx. */
  runFailed: 1,
  /** Bad arguments or input, not logged in, an ambiguous workflow name. */
  usage: 2,
  /** The key was refused (401) or has no access (403). */
  auth: 3,
  /** 404: no such workflow, log, task. */
  notFound: 4,
  /** The server refused the request as invalid (400, 409, 413, 415, 422). */
  rejected: 5,
  /** A rate limit (429, after the client's retries) or the usage limit (402). */
  limited: 6,
  /** A server error (5xx) or no answer at all (network failure, waiting timed out). */
  unavailable: 7,
} as const;

/** A mistake in how the command was called; exits with EXIT.usage. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (!(error instanceof SluiceError)) return EXIT.unavailable;
  if (error.code === 'EXECUTION_FAILED' || error.code === 'EXECUTION_TIMEOUT') return EXIT.runFailed;
  if (error.status === 401 || error.status === 403) return EXIT.auth;
  if (error.status === 404) return EXIT.notFound;
  if (error.status === 429 || error.status === 402) return EXIT.limited;
  if (error.status >= 400 && error.status < 500) return EXIT.rejected;
  return EXIT.unavailable;
}

/** The error for stderr: `{error, code, status, details, executionId?}` with --json, else readable lines. */
export function describeError(error: unknown, json: boolean): string {
  const sluice = error instanceof SluiceError ? error : undefined;
  const code = sluice?.code ?? (error instanceof UsageError ? 'USAGE' : 'CLIENT_ERROR');
  const message = error instanceof Error ? error.message : String(error);
  if (json) {
    return JSON.stringify({
      error: message,
      code,
      ...(sluice ? { status: sluice.status, details: sluice.details } : {}),
      ...(sluice?.executionId ? { executionId: sluice.executionId } : {}),
      ...(sluice?.retryAfterSeconds !== undefined ? { retryAfterSeconds: sluice.retryAfterSeconds } : {}),
    });
  }
  const lines = [`sluice: ${message}${sluice && sluice.status ? ` (${sluice.status} ${code})` : sluice ? ` (${code})` : ''}`];
  for (const detail of sluice?.details ?? []) lines.push(`  ${detail.path || '(request)'}: ${detail.message}`);
  if (sluice?.executionId) lines.push(`  execution: ${sluice.executionId}`);
  if (sluice?.retryAfterSeconds !== undefined) lines.push(`  retry after: ${sluice.retryAfterSeconds} s`);
  return lines.join('\n');
}
