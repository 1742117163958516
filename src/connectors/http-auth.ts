// HTTP authentication from an `http` credential (the API block's `credentialId`): a bearer token, basic auth, an API
// key in a header or in the query, or an OAuth2 client-credentials token fetched from the credential's token URL
// through the same guarded network layer as the API block. Tokens are cached per credential id and version (a rotated
// credential fetches a new one) until shortly before they expire; a 401 drops the cached token so the caller can fetch
// a new one once.
import { sendHttpRequest } from '../net/index.js';
import { SLUICE_VERSION } from '../version.js';
import type { CredentialData, ResolvedCredential } from './credential-data.js';

type HttpData = CredentialData<'http'>;
type OAuth2Data = Extract<HttpData, { scheme: 'oauth2' }>;

/** What a credential adds to one request. */
export interface HttpAuth {
  headers: Record<string, string>;
  query: [string, string][];
  /** Values that must never appear in what the block shows (errors): the secret and anything derived from it. */
  secrets: string[];
}

/** A token is used until this long before its expiry, so that it does not expire in flight. */
const EXPIRY_MARGIN_MS = 30_000;
/** When the token endpoint does not say how long its token lives. */
const DEFAULT_TOKEN_LIFETIME_MS = 3_600_000;
const TOKEN_TIMEOUT_MS = 15_000;
const MAX_CACHED_TOKENS = 1_000;

interface CachedToken {
  token: Promise<string>;
  expiresAt: number;
}

const tokens = new Map<string, CachedToken>();
const cacheKey = (credential: ResolvedCredential) => `${credential.id}@${credential.version}`;

export interface TokenRequestOptions {
  allowPrivateNetwork: boolean;
  signal?: AbortSignal;
}

/** Fetches a client-credentials token (client id and secret in the form body, RFC 6749 section 2.3.1). */
export async function fetchOAuth2Token(data: OAuth2Data, options: TokenRequestOptions): Promise<{ token: string; expiresInMs: number }> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: data.clientId, client_secret: data.clientSecret });
  if (data.scope) form.set('scope', data.scope);
  if (data.audience) form.set('audience', data.audience);
  const response = await sendHttpRequest({
    url: data.tokenUrl,
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', 'User-Agent': `Sluice/${SLUICE_VERSION}` },
    body: form.toString(),
    timeoutMs: TOKEN_TIMEOUT_MS,
    retries: 1,
    signal: options.signal,
    allowPrivateNetwork: options.allowPrivateNetwork,
  });
  const secrets = [data.clientSecret];
  if (response.status === 0) throw new Error(redact(`Token request failed: ${response.error ?? 'no answer'}`, secrets));
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(response.body.toString('utf8'));
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: reported below with the status.
  }
  if (response.status < 200 || response.status > 299 || typeof body.access_token !== 'string' || body.access_token === '') {
    const said = typeof body.error === 'string' ? `: ${body.error}${typeof body.error_description === 'string' ? ` (${body.error_description})` : ''}` : '';
    const what = response.status >= 200 && response.status <= 299 ? 'answered without an access_token' : `answered HTTP ${response.status}`;
    throw new Error(redact(`The token endpoint ${what}${said}`.slice(0, 500), secrets));
  }
  const expiresIn = Number(body.expires_in);
  return { token: body.access_token, expiresInMs: Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn * 1000 : DEFAULT_TOKEN_LIFETIME_MS };
}

/** The cached token of an oauth2 credential, fetched when there is none or it is about to expire. */
function oauth2Token(credential: ResolvedCredential, data: OAuth2Data, options: TokenRequestOptions): Promise<string> {
  const key = cacheKey(credential);
  const cached = tokens.get(key);
  if (cached && cached.expiresAt > Date.now()) return cached.token;
  if (tokens.size >= MAX_CACHED_TOKENS) {
    for (const [k, v] of tokens) if (v.expiresAt <= Date.now()) tokens.delete(k);
    if (tokens.size >= MAX_CACHED_TOKENS) tokens.delete(tokens.keys().next().value as string);
  }
  // Concurrent runs share one request: the promise is cached until the answer says how long the token lives.
  const entry: CachedToken = { token: Promise.resolve(''), expiresAt: Number.POSITIVE_INFINITY };
  entry.token = fetchOAuth2Token(data, options).then(
    ({ token, expiresInMs }) => {
      entry.expiresAt = Date.now() + Math.max(0, expiresInMs - EXPIRY_MARGIN_MS);
      return token;
    },
    (error: unknown) => {
      if (tokens.get(key) === entry) tokens.delete(key);
      throw error;
    },
  );
  tokens.set(key, entry);
  return entry.token;
}

/** Forgets the cached token of a credential (the API answered 401): the next request fetches a new one. */
export function dropCachedToken(credential: ResolvedCredential): void {
  tokens.delete(cacheKey(credential));
}

/** What an `http` credential adds to a request. Throws (with the secret redacted) when an OAuth2 token cannot be had. */
export async function httpAuthFor(credential: ResolvedCredential<'http'>, options: TokenRequestOptions): Promise<HttpAuth> {
  const data = credential.data;
  switch (data.scheme) {
    case 'bearer':
      return { headers: { Authorization: `Bearer ${data.token}` }, query: [], secrets: [data.token] };
    case 'basic': {
      const encoded = Buffer.from(`${data.user}:${data.password}`).toString('base64');
      return { headers: { Authorization: `Basic ${encoded}` }, query: [], secrets: [data.password, encoded] };
    }
    case 'header':
      return { headers: { [data.name]: data.value }, query: [], secrets: [data.value] };
    case 'query':
      return { headers: {}, query: [[data.name, data.value]], secrets: [data.value, encodeURIComponent(data.value)] };
    case 'oauth2': {
      const token = await oauth2Token(credential, data, options);
      return { headers: { Authorization: `Bearer ${token}` }, query: [], secrets: [data.clientSecret, token] };
    }
  }
}

/** Replaces every secret in a text shown to a user. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}

/** `POST /credentials/{id}/test` for `http`: an OAuth2 credential fetches a token; the others have nothing to open. */
export async function testHttpCredential(credential: ResolvedCredential<'http'>, options: TokenRequestOptions): Promise<string> {
  const data = credential.data;
  if (data.scheme !== 'oauth2') return `${data.scheme} credential: applied to each request`;
  const { expiresInMs } = await fetchOAuth2Token(data, options);
  return `Token received from ${new URL(data.tokenUrl).host} (valid ${Math.round(expiresInMs / 1000)} s)`;
}
