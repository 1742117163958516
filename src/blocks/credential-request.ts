// An outbound HTTP request with the auth of a stored `http` credential applied (docs/workflows.md "API"), shared by the
// API block and the agent's HTTP tools so both apply, refresh and redact a credential the same way. The credential's
// headers replace the request's own of the same name; its query parameters are appended; an OAuth2 token the API no
// longer accepts (a 401) is fetched again once; the credential's secrets are cut out of a transport error.
import { assertCredentialType } from '../connectors/credential-data.js';
import { dropCachedToken, httpAuthFor, redact, type HttpAuth } from '../connectors/http-auth.js';
import { connectorErrorMessage } from '../connectors/test-connection.js';
import { sendHttpRequest, type OutboundRequest, type OutboundResponse } from '../net/index.js';
import type { BlockServices } from './types.js';

export function stringifyValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Appends the params to any query string already in the URL, leaving the existing part byte-for-byte as it was. */
export function withQueryParams(url: URL, params: { key: string; value: unknown }[]): URL {
  const added = params
    .filter((p) => p.key !== '')
    .map((p) => `${encodeURIComponent(p.key)}=${encodeURIComponent(stringifyValue(p.value))}`);
  if (added.length === 0) return url;
  const existing = url.search.replace(/^\?/, '');
  const merged = new URL(url.href);
  merged.search = existing ? `${existing}&${added.join('&')}` : added.join('&');
  return merged;
}

/** A request before auth: its URL parsed, its headers already strings. */
export type UnauthorizedRequest = Omit<OutboundRequest, 'url' | 'headers' | 'allowPrivateNetwork' | 'signal'> & {
  url: URL;
  headers: Record<string, string>;
};

/** Thrown when the credential cannot be used (missing, wrong type, its OAuth2 token endpoint refused): no request went out. */
export class CredentialUnusableError extends Error {}

async function loadAuth(services: BlockServices, credentialId: string, signal: AbortSignal) {
  if (!services.credential) throw new CredentialUnusableError('Credentials are not available here');
  const credential = await services.credential(credentialId);
  assertCredentialType(credential, ['http']);
  const load = () => httpAuthFor(credential, { allowPrivateNetwork: services.allowPrivateNetwork, signal });
  return { auth: await load(), refresh: credential.data.scheme === 'oauth2' ? () => (dropCachedToken(credential), load()) : undefined };
}

/** Runs `step`, turning whatever it throws into a CredentialUnusableError (the request was not sent). */
async function unusable<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw error instanceof CredentialUnusableError ? error : new CredentialUnusableError(connectorErrorMessage(error), { cause: error });
  }
}

/**
 * Sends `request` through the guarded network layer, with the auth of `credentialId` when one is given (blank: none).
 * Throws CredentialUnusableError when the credential cannot be used; a failed request is an answer (status 0), as
 * sendHttpRequest gives it.
 */
export async function sendWithCredential(
  services: BlockServices,
  signal: AbortSignal,
  credentialId: string | undefined,
  request: UnauthorizedRequest,
): Promise<OutboundResponse> {
  const id = credentialId?.trim() ?? '';
  const credential = id === '' ? undefined : await unusable(() => loadAuth(services, id, signal));
  const send = (auth: HttpAuth | undefined) => {
    let headers = request.headers;
    if (auth) {
      const authHeaders = Object.keys(auth.headers).map((name) => name.toLowerCase());
      const ownHeaders = Object.entries(request.headers).filter(([name]) => !authHeaders.includes(name.toLowerCase()));
      headers = { ...Object.fromEntries(ownHeaders), ...auth.headers };
    }
    // Assigned, not spread: a spread followed by new properties takes V8's slow path, on every outbound call.
    return sendHttpRequest(
      Object.assign({}, request, {
        url: (auth ? withQueryParams(request.url, auth.query.map(([key, value]) => ({ key, value }))) : request.url).href,
        headers,
        signal,
        allowPrivateNetwork: services.allowPrivateNetwork,
      }),
    );
  };
  let auth = credential?.auth;
  let response = await send(auth);
  // An OAuth2 token the API no longer accepts (revoked, expired early) is fetched again, once.
  if (response.status === 401 && credential?.refresh) {
    auth = await unusable(credential.refresh);
    response = await send(auth);
  }
  if (response.error && auth) response.error = redact(response.error, auth.secrets);
  return response;
}
