// The options both SDK clients are built with: the guarded fetch (same private-network policy as the API block),
// and no retries or time-outs of their own — ours (call-model.ts) retry only before the first token, with the same
// messages, and our idle time-out also covers a stream that stalls after its headers.
import { guardedFetch } from './guarded-fetch.js';
import type { ProviderConnection } from './types.js';

/** Far beyond ours, so our idle time-out always fires first and with our message. */
const SDK_TIMEOUT_MS = 60 * 60 * 1000;

export function sdkClientOptions(connection: ProviderConnection) {
  return {
    apiKey: connection.apiKey,
    baseURL: connection.baseUrl,
    fetch: guardedFetch(connection.allowPrivateNetwork),
    maxRetries: 0,
    timeout: SDK_TIMEOUT_MS,
    logLevel: 'off' as const,
  };
}
