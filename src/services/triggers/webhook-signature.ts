// Optional HMAC check of inbound webhook calls, in the scheme Sluice signs its own deliveries with (SEED.md
// §Authentication): header `X-Sluice-Signature: t=<unix ms>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
// Calls more than 5 minutes away from our clock are refused, so a captured call cannot be replayed later.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_SIGNATURE_HEADER = 'x-sluice-signature';
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

export function verifyWebhookSignature(secret: string, header: string | undefined, rawBody: Buffer, now = Date.now()): SignatureCheck {
  if (!header) return { ok: false, reason: 'Missing X-Sluice-Signature header' };
  const match = /^t=(\d{1,16}),v1=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!match) return { ok: false, reason: 'Malformed X-Sluice-Signature header: expected t=<unix ms>,v1=<hex digest>' };
  const [, timestamp, digest] = match;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  const provided = Buffer.from(digest!, 'hex');
  if (!timingSafeEqual(provided, expected)) return { ok: false, reason: 'Invalid webhook signature' };
  if (Math.abs(now - Number(timestamp)) > SIGNATURE_TOLERANCE_MS) {
    return { ok: false, reason: 'The webhook signature timestamp is more than 5 minutes from the server time' };
  }
  return { ok: true };
}
