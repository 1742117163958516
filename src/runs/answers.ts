// What a caller is told about a run, as docs/api.md 4.4–4.6 promises it. Made here rather than in the routes
// because an Idempotency-Key answer is stored with the run's log, in the same commit, and replayed from there.
import type { StoredResponse } from './idempotency.js';
import type { ExecutionOutcome } from './types.js';

export const EXECUTION_ID_HEADER = 'X-Execution-Id';

/**
 * The non-streaming answer: the response block's response when one ran, else the execution result; a run over
 * its time-out is 408 (known from the engine's stop reason, never from the error text). `extra` fields join the
 * success and failure bodies (a chat's conversationId). Every answer names its execution in X-Execution-Id.
 */
export function syncAnswer(outcome: ExecutionOutcome, extra: Record<string, unknown> = {}): StoredResponse {
  const { result, executionId } = outcome;
  const headers = { [EXECUTION_ID_HEADER]: executionId };
  const metadata = { duration: result.durationMs, startTime: result.startedAt, endTime: result.endedAt };
  if (result.stopReason === 'paused') return { status: 202, headers, body: pausedAnswer(executionId) };
  if (result.stopReason === 'cancelled') {
    return {
      status: 409,
      headers,
      body: { success: false, executionId, ...extra, error: result.error ?? 'Execution cancelled', code: 'EXECUTION_CANCELLED', output: result.output, metadata },
    };
  }
  if (result.stopReason === 'timeout') {
    return {
      status: 408,
      headers,
      body: { error: result.error ?? 'Execution timed out', code: 'EXECUTION_TIMEOUT', executionId },
    };
  }
  if (!result.success) {
    return {
      status: 500,
      headers,
      body: { success: false, executionId, ...extra, error: result.error ?? 'Execution failed', code: 'EXECUTION_FAILED', output: result.output, metadata },
    };
  }
  if (result.response) {
    return { status: result.response.status, headers: { ...result.response.headers, ...headers }, body: result.response.body };
  }
  return { status: 200, headers, body: { success: true, executionId, ...extra, output: result.output, metadata } };
}

/** What the caller of a run that paused for an approval is told: where to resume it (README "Human approval"). */
export function pausedAnswer(executionId: string) {
  return { executionId, status: 'paused', links: { resume: `/api/v1/executions/${executionId}/resume` } };
}

/**
 * The final record of a streamed run (docs/api.md 4.5), with any extra fields a trigger adds. A run that paused
 * ends its stream too: its record says so and where to resume it (the rest of the run is not streamed).
 */
export function doneRecord(outcome: Pick<ExecutionOutcome, 'result' | 'executionId'>, extra: Record<string, unknown> = {}) {
  const { result } = outcome;
  if (result.stopReason === 'paused') {
    return { event: 'done', success: true, ...extra, paused: true, ...pausedAnswer(outcome.executionId), output: {}, metadata: { duration: result.durationMs } };
  }
  return {
    event: 'done',
    success: result.success,
    ...extra,
    output: result.output,
    metadata: { duration: result.durationMs },
    ...(result.success ? {} : { error: result.error ?? 'Execution failed' }),
    ...(result.stopReason === 'cancelled' ? { cancelled: true } : {}),
  };
}

export const sseRecord = (record: unknown) => `data: ${typeof record === 'string' ? record : JSON.stringify(record)}\n\n`;

/**
 * What a repeated streaming call with the same Idempotency-Key is sent: the first run's final record and the
 * terminator, as an event stream (the chunks it streamed are not kept).
 */
export function streamReplayAnswer(outcome: ExecutionOutcome): StoredResponse {
  return {
    status: 200,
    headers: { 'Content-Type': 'text/event-stream', [EXECUTION_ID_HEADER]: outcome.executionId },
    body: sseRecord(doneRecord(outcome)) + sseRecord('[DONE]'),
  };
}
