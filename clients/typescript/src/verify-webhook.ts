// Verifying completion webhooks as a receiver (README "Receiving completion webhooks"): the Service-signature header is
// `t=<unix ms>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, and t must equal Service-timestamp and be recent.
// Web Crypto only, so it runs in Node, Deno, Bun, workers and browsers alike.
import { SluiceError } from './errors.js';
import type { WebhookEvent } from './types.js';

export interface VerifyWebhookOptions {
  /** How far the signature's time may be from now. Default 5 minutes. */
  toleranceMs?: number;
  /** The current time in ms, for tests. */
  now?: number;
}

/** Node's IncomingHttpHeaders (lowercase names), a fetch Headers, or any record of header names. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

const invalid = (code: string, message: string) => new SluiceError({ status: 401, code, message });

function toHex(buffer: ArrayBuffer): string {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Compares in time independent of where the texts differ. */
function equalText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Checks a delivery's signature and freshness against the subscription's secret and returns the event. `rawBody` must
 * be the exact bytes received, before any JSON parsing. Throws SluiceError (status 401; code
 * WEBHOOK_SIGNATURE_MISSING, WEBHOOK_TIMESTAMP_INVALID or WEBHOOK_SIGNATURE_INVALID): answer 401 then.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const signature = header(headers, 'service-signature');
  if (!signature) throw invalid('WEBHOOK_SIGNATURE_MISSING', 'The request has no Service-signature header');
  const parts = signature.split(',').map((part) => part.trim().split('='));
  const t = parts.find(([name]) => name === 't')?.[1];
  const given = parts.filter(([name]) => name === 'v1').map(([, value]) => value ?? '');
  const timestamp = header(headers, 'service-timestamp');
  const now = options.now ?? Date.now();
  if (!t || !/^\d+$/.test(t) || (timestamp !== undefined && timestamp !== t)) {
    throw invalid('WEBHOOK_TIMESTAMP_INVALID', 'The signature time is missing or differs from Service-timestamp');
  }
  if (Math.abs(now - Number(t)) > (options.toleranceMs ?? 5 * 60_000)) {
    throw invalid('WEBHOOK_TIMESTAMP_INVALID', 'The signature is too old (or from the future): possibly a replay');
  }
  const body = typeof rawBody === 'string' ? new TextEncoder().encode(rawBody) : new Uint8Array(rawBody);
  const prefix = new TextEncoder().encode(`${t}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = toHex(await crypto.subtle.sign('HMAC', key, signed));
  // Every v1 is compared, so a match does not end the loop early.
  const matched = given.reduce((ok, value) => equalText(value.toLowerCase(), expected) || ok, false);
  if (!matched) throw invalid('WEBHOOK_SIGNATURE_INVALID', 'The signature does not match the body and the secret');
  try {
    return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent;
  } catch {
    throw invalid('WEBHOOK_SIGNATURE_INVALID', 'The signed body is not JSON');
  }
}
