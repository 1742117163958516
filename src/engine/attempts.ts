// A block's policy applied to its handler: each attempt under its own time limit, retried with backoff on the kinds
// of failure the policy names. A time limit is the block's own failure ("Block … timed out"), never the run's
// time-out or a cancellation: when the run's signal aborts, the attempt in flight ends and nothing is retried.
import { linkedController, whenAborted } from '../abort-listeners.js';
import { backoffBefore, POLICY_DEFAULTS, type BlockPolicy, type RetryOn } from '../workflow/index.js';
import { abortMessage, errorMessage, raceAbort } from './abort.js';
import type { BlockOutput, TraceSpan } from './types.js';

/** What one call of a block's handler gave. */
export interface AttemptResult {
  output: BlockOutput;
  sourceHandle?: string;
  continueOnError?: boolean;
  /** Spans of work the block ran as runs of their own (a sub-workflow's trace). */
  childSpans?: TraceSpan[];
}

export interface AttemptRecord {
  number: number;
  startedAtMs: number;
  endedAtMs: number;
  result: AttemptResult;
  /** Set when the attempt failed. */
  error?: string;
  failure?: RetryOn;
}

export interface AttemptsOutcome {
  /** The result the block ends with: the last attempt's, or the cancellation when the run stopped. */
  result: AttemptResult;
  attempts: AttemptRecord[];
}

export type Attempt = (signal: AbortSignal) => Promise<AttemptResult>;

/** Runs the attempts a policy allows. `outputError` says whether a result is a failure (output.error set). */
export async function runAttempts(
  policy: BlockPolicy | undefined,
  blockName: string,
  signal: AbortSignal,
  attempt: Attempt,
  outputError: (output: BlockOutput) => string | undefined,
): Promise<AttemptsOutcome> {
  const retry = policy?.retry;
  const maxAttempts = retry?.maxAttempts ?? 1;
  const retryOn = retry?.on ?? POLICY_DEFAULTS.retryOn;
  const attempts: AttemptRecord[] = [];
  for (let number = 1; ; number++) {
    const record = await runOneAttempt(number, policy?.timeoutMs, blockName, signal, attempt, outputError);
    attempts.push(record);
    const last = record.failure === undefined || signal.aborted || number >= maxAttempts || !retryOn.includes(record.failure);
    if (last) return { result: record.result, attempts };
    await pause(backoffBefore(retry!, number + 1), signal);
    // Stopped while waiting to retry: the stop, not the last attempt's own error, is how the block ends.
    if (signal.aborted) return { result: { output: { error: abortMessage(signal) } }, attempts };
  }
}

/** Why an attempt's signal was aborted by its own time limit (as opposed to the run's signal). */
class AttemptTimedOut extends Error {}

async function runOneAttempt(
  number: number,
  timeoutMs: number | undefined,
  blockName: string,
  signal: AbortSignal,
  attempt: Attempt,
  outputError: (output: BlockOutput) => string | undefined,
): Promise<AttemptRecord> {
  const startedAtMs = Date.now();
  const limited = timeLimit(signal, timeoutMs, blockName);
  let result: AttemptResult;
  try {
    result = await raceAbort(attempt(limited.signal), limited.signal);
  } catch (error) {
    result = { output: { error: limited.signal.aborted ? abortMessage(limited.signal) : errorMessage(error) } };
  } finally {
    limited.release();
  }
  const error = outputError(result.output);
  const record: AttemptRecord = { number, startedAtMs, endedAtMs: Date.now(), result };
  if (error !== undefined) {
    record.error = error;
    record.failure = limited.timedOut() ? 'timeout' : 'error';
  }
  return record;
}

export interface TimeLimit {
  /** Aborts with the run's signal, or with the block's time-out message once timeoutMs has passed. */
  signal: AbortSignal;
  /** True when the block's own limit (not the run's signal) ended it. */
  timedOut(): boolean;
  release(): void;
}

/** A child of the run's signal that also aborts after the block's timeoutMs (when it has one). */
export function timeLimit(parent: AbortSignal, timeoutMs: number | undefined, blockName: string): TimeLimit {
  // No limit of its own: the run's signal is the attempt's (a child controller per block run showed in profiles).
  if (timeoutMs === undefined) return { signal: parent, timedOut: () => false, release: () => undefined };
  const { controller, release } = linkedController(parent);
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => controller.abort(new AttemptTimedOut(blockTimeoutMessage(blockName, timeoutMs))), timeoutMs);
  return {
    signal: controller.signal,
    timedOut: () => controller.signal.reason instanceof AttemptTimedOut && !parent.aborted,
    release() {
      if (timer) clearTimeout(timer);
      release();
    },
  };
}

export function blockTimeoutMessage(blockName: string, timeoutMs: number): string {
  return `Block "${blockName}" timed out after ${timeoutMs} ms (its policy's timeoutMs)`;
}

/** Waits `ms`, or less if the signal aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stopWaiting();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stopWaiting = whenAborted(signal, done);
  });
}
