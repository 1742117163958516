// The non-streaming HTTP answer for a finished run (SPEC §4), shared by the triggers that answer like the execute
// endpoint: the response block's response when one ran, else the execution result.
import type { Context } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import type { ExecutionOutcome } from '../services/executions.js';
import type { StoredResponse } from '../services/idempotency.js';

/** `extra` fields join the success and failure bodies (e.g. a chat's conversationId). */
export function responseFor(outcome: ExecutionOutcome, timeoutMs: number, extra: Record<string, unknown> = {}): StoredResponse {
  const { result } = outcome;
  const metadata = { duration: result.durationMs, startTime: result.startedAt, endTime: result.endedAt };
  if (outcome.timedOut) {
    return {
      status: 408,
      headers: {},
      body: { error: `Execution timed out after ${timeoutMs} ms`, code: 'EXECUTION_TIMEOUT', executionId: outcome.executionId },
    };
  }
  if (!result.success) {
    return {
      status: 500,
      headers: {},
      body: { success: false, executionId: outcome.executionId, ...extra, error: result.error ?? 'Execution failed', code: 'EXECUTION_FAILED', output: result.output, metadata },
    };
  }
  if (result.response) {
    return { status: result.response.status, headers: result.response.headers, body: result.response.body };
  }
  return { status: 200, headers: {}, body: { success: true, executionId: outcome.executionId, ...extra, output: result.output, metadata } };
}

export function sendResponse(c: Context, response: StoredResponse, extraHeaders: Record<string, string>) {
  for (const [name, value] of Object.entries({ ...extraHeaders, ...response.headers })) c.header(name, value);
  const status = (response.status >= 200 && response.status <= 599 ? response.status : 200) as StatusCode;
  if (status === 204 || status === 304) return c.body(null, status);
  const hasContentType = Object.keys(response.headers).some((h) => h.toLowerCase() === 'content-type');
  if (typeof response.body === 'string' && hasContentType) return c.body(response.body, status as ContentfulStatusCode);
  return c.json(response.body ?? null, status as ContentfulStatusCode);
}
