// 429 answers carry Retry-After: the client waits that long and sends the request again (the server refused it before
// doing anything, so repeating it is safe), a bounded number of times.
import { networkError, retryAfterSeconds } from './errors.js';
import { sleep } from './sleep.js';

export interface RetryOptions {
  /** Further attempts after a 429; 0 turns retrying off. Default 3. */
  maxRetries?: number;
  /** A Retry-After longer than this is not waited for: the 429 is returned (and thrown as a SluiceError). Default 60 s. */
  maxRetryDelayMs?: number;
  /** Told before each wait, e.g. to log it. */
  onRetry?: (info: { attempt: number; delayMs: number; url: string }) => void;
}

export type FetchLike = (input: Request) => Promise<Response>;

export function retryingFetch(base: FetchLike, options: RetryOptions = {}): FetchLike {
  const maxRetries = options.maxRetries ?? 3;
  const maxDelayMs = options.maxRetryDelayMs ?? 60_000;
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        // A sent request's body is used up: every attempt sends a copy, so the next one still has it.
        response = await base(request.clone());
      } catch (err) {
        throw networkError(request.url, err);
      }
      if (response.status !== 429 || attempt >= maxRetries) return response;
      const delayMs = (retryAfterSeconds(response.headers) ?? 1) * 1000;
      if (delayMs > maxDelayMs) return response;
      await response.body?.cancel();
      options.onRetry?.({ attempt: attempt + 1, delayMs, url: request.url });
      try {
        await sleep(delayMs, request.signal);
      } catch (err) {
        throw networkError(request.url, err);
      }
    }
  };
}
