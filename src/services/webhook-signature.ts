// The one signature scheme of Sluice's webhooks, both ways (docs/guarantees.md 3.2): `t=<unix ms>,v1=<hex
// HMAC-SHA256(secret, "<t>.<body>")>`. Completion webhooks we send carry it in `Service-signature`; inbound calls of
// a webhook trigger with a secret must carry it in `X-Sluice-Signature` — so one verifier fits both directions.
// Calls more than 5 minutes away from our clock are refused, so a captured call cannot be replayed later.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_SIGNATURE_HEADER = 'x-sluice-signature';
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

const hmac = (secret: string, timestamp: string | number, body: string | Buffer) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();

/** The header value for a body sent at `timestampMs`. */
export function signatureHeader(secret: string, timestampMs: number, body: string): string {
  return `t=${timestampMs},v1=${hmac(secret, timestampMs, body).toString('hex')}`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

export function verifyWebhookSignature(secret: string, header: string | undefined, rawBody: Buffer, now = Date.now()): SignatureCheck {
  if (!header) return { ok: false, reason: 'Missing X-Sluice-Signature header' };
  const match = /^t=(\d{1,16}),v1=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!match) return { ok: false, reason: 'Malformed X-Sluice-Signature header: expected t=<unix ms>,v1=<hex digest>' };
  const [, timestamp, digest] = match;
  if (!timingSafeEqual(Buffer.from(digest!, 'hex'), hmac(secret, timestamp!, rawBody))) return { ok: false, reason: 'Invalid webhook signature' };
  if (Math.abs(now - Number(timestamp)) > SIGNATURE_TOLERANCE_MS) {
    return { ok: false, reason: 'The webhook signature timestamp is more than 5 minutes from the server time' };
  }
  return { ok: true };
}
