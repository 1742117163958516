// The `fetch` both SDKs are given: undici's own fetch on the guarded dispatcher, so model calls obey the same
// private-network policy as the API block (the address is checked after DNS, on the socket that connects).
// undici's fetch and not the global one: a dispatcher only works with the undici instance that created it.
import { fetch as undiciFetch, type RequestInfo as UndiciRequestInfo, type RequestInit as UndiciRequestInit } from 'undici';
import { getGuardedDispatcher } from '../net/index.js';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export function guardedFetch(allowPrivateNetwork: boolean): FetchLike {
  const dispatcher = getGuardedDispatcher({ allowPrivateNetwork });
  return async (input, init) => {
    // The SDKs pass a URL string or URL; a global Request would not be understood by undici's fetch, so unpack it.
    const url = input instanceof Request ? input.url : input;
    const response = await undiciFetch(url as UndiciRequestInfo, { ...(init as UndiciRequestInit), dispatcher });
    // undici's Response is the WHATWG Response the SDKs expect; only the TypeScript declarations differ.
    return response as unknown as Response;
  };
}
