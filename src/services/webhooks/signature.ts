// The signature scheme of SEED.md §Authentication: `t=<timestamp>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
import { createHmac } from 'node:crypto';

export function signatureHeader(secret: string, timestampMs: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${timestampMs}.${body}`).digest('hex');
  return `t=${timestampMs},v1=${digest}`;
}
