// Turns what the sandbox reports about a failure into the one-line message a workflow author reads.
import { formatBytes } from './limits.js';
import type { ErrorDescription } from './vm-helpers.js';

/** Where the user's text sits inside the evaluated source, so engine line numbers can be mapped back to theirs. */
export interface SourceMap {
  filename: string;
  /** Lines of wrapper before the user's first line. */
  lineOffset: number;
  /** Lines the user wrote; positions past the end (e.g. a missing `}`) are reported on the last one. */
  lineCount: number;
}

export const timeoutMessage = (timeoutMs: number) => `Execution timed out after ${timeoutMs} ms`;
export const memoryMessage = (limitBytes: number) => `Memory limit exceeded (${formatBytes(limitBytes)})`;
export const ABORTED_MESSAGE = 'Aborted';
export const STACK_OVERFLOW_MESSAGE = 'RangeError: Maximum call stack size exceeded';
export const busyMessage = (workers: number, queued: number) =>
  `Sandbox is busy: every worker (${workers}) is running code and ${queued} runs are already waiting; try again later`;
export const crashedMessage = (reason: string) => `Sandbox failed: the worker thread running this code crashed (${reason}); it has been replaced`;
export const startFailedMessage = (reason: string) => `Sandbox failed to start: ${reason}`;
export const SHUTDOWN_MESSAGE = 'Sandbox is shutting down';

export function isOutOfMemory(description: ErrorDescription): boolean {
  return 'name' in description && description.name === 'InternalError' && description.message === 'out of memory';
}

export function formatError(description: ErrorDescription, source: SourceMap): string {
  if ('thrown' in description) return description.thrown;
  const line = userLine(description.stack, source);
  const at = line === undefined ? '' : ` at line ${line}`;
  // The parser (also JSON.parse) reports running out of stack as a SyntaxError; either way it is a depth limit.
  if ((description.name === 'InternalError' || description.name === 'SyntaxError') && description.message === 'stack overflow') {
    return STACK_OVERFLOW_MESSAGE + at;
  }
  // QuickJS quotes the name ('x' is not defined); Node does not, and Node's wording is what users search for.
  const message =
    description.name === 'ReferenceError' ? description.message.replace(/^'(.+)' is not defined$/, '$1 is not defined') : description.message;
  return `${description.name}${message ? `: ${message}` : ''}${at}`;
}

/** The innermost frame in the user's file: QuickJS stacks look like `    at f (user-code.js:3:7)` or `    at user-code.js:3:9`. */
function userLine(stack: string, source: SourceMap): number | undefined {
  const escaped = source.filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}:(\\d+)`).exec(stack);
  if (!match) return undefined;
  const line = Number(match[1]) - source.lineOffset;
  return Math.min(Math.max(line, 1), Math.max(source.lineCount, 1));
}
