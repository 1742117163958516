// The transport every call shares: openapi-fetch over the generated `paths`, with the key, the 429 retries, and the
// rule that a refused answer becomes a SluiceError.
import createClient from 'openapi-fetch';
import { errorFromResponse } from './errors.js';
import type { paths } from './generated/openapi.js';
import { retryingFetch, type FetchLike, type RetryOptions } from './retry.js';

export interface SluiceClientOptions extends RetryOptions {
  /** The server, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  apiKey: string;
  /** Replaces the global fetch (tests, proxies, instrumentation). */
  fetch?: FetchLike;
  /** Sent with every request. */
  headers?: Record<string, string>;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

export function createApi(options: SluiceClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const api = createClient<paths>({
    baseUrl,
    headers: { 'X-API-Key': options.apiKey, ...options.headers },
    fetch: retryingFetch(options.fetch ?? ((request) => globalThis.fetch(request)), options),
  });
  /** The data of a JSON answer, or the SluiceError it stands for. */
  async function answer<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await call;
    if (!response.ok) throw errorFromResponse(response, error);
    return data as T;
  }
  return { baseUrl, api, answer };
}

export type Api = ReturnType<typeof createApi>;
