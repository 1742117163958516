// One model call as the agent block sees it: provider attempts wrapped in an idle time-out, cancellation and a
// bounded retry loop. A retry would repeat text the client already received, so once a token has been streamed a
// failure is final; before that, 429, 5xx and connection trouble are retried with backoff, honouring Retry-After.
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelayMs, retryDelayMs } from '../net/retry-timing.js';
import { LlmError } from './errors.js';
import type { ChatRequest, ChatResult, LlmProvider, ProviderConnection } from './types.js';

export interface CallModelOptions {
  provider: LlmProvider;
  connection: ProviderConnection;
  request: ChatRequest;
  /** The run's signal: aborting it closes the upstream connection. */
  signal: AbortSignal;
  onToken(text: string): void;
  /** Longest silence allowed from the provider: before the response starts and between stream events. */
  timeoutMs: number;
  /** Further attempts after the first. */
  retries: number;
  retryBaseMs?: number;
  maxRetryAfterMs?: number;
}

export interface CallModelResult extends ChatResult {
  attempts: number;
}

const DEFAULT_RETRY_BASE_MS = 500;
const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;

async function attemptOnce(options: CallModelOptions, onToken: (text: string) => void): Promise<ChatResult> {
  const { provider, timeoutMs } = options;
  const idle = new AbortController();
  const timer = setTimeout(() => idle.abort(), timeoutMs);
  const signal = AbortSignal.any([options.signal, idle.signal]);
  const timedOut = () =>
    new LlmError(`${provider.label} request failed: timed out after ${timeoutMs} ms without data from the model`, true);
  try {
    const result = await provider.streamChat(options.connection, options.request, {
      signal,
      onActivity: () => timer.refresh(),
      onToken,
    });
    // The SDKs end a stream quietly when it is aborted, so a "successful" return may be a cut-off one.
    if (options.signal.aborted) throw options.signal.reason;
    if (idle.signal.aborted) throw timedOut();
    return result;
  } catch (error) {
    if (!options.signal.aborted && idle.signal.aborted) throw timedOut();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

export async function callModel(options: CallModelOptions): Promise<CallModelResult> {
  const base = options.retryBaseMs ?? DEFAULT_RETRY_BASE_MS;
  const maxRetryAfter = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  for (let attempt = 1; ; attempt++) {
    let streamed = false;
    try {
      const result = await attemptOnce(options, (text) => {
        streamed = true;
        options.onToken(text);
      });
      return { ...result, attempts: attempt };
    } catch (error) {
      // Cancellation is the run's business; it reports it with its own reason.
      if (options.signal.aborted) throw options.signal.reason ?? error;
      const failure =
        error instanceof LlmError
          ? error
          : new LlmError(`${options.provider.label} request failed: ${error instanceof Error ? error.message : String(error)}`, false);
      if (!failure.retryable || streamed || attempt > options.retries) {
        if (attempt === 1) throw failure;
        throw new LlmError(`${failure.message} (after ${attempt} attempts)`, false);
      }
      const wait = retryDelayMs(backoffDelayMs(base, attempt), failure.retryAfterMs, maxRetryAfter);
      await sleep(wait, undefined, { signal: options.signal });
    }
  }
}
