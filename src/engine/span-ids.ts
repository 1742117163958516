// A trace span's id: a uuid (RFC 9562 version 8) whose first 12 bytes are drawn once per process and whose last 4
// count. Random uuids (version 4) were 16 bytes of noise per span that no compression shrinks; a run's spans now
// share 12 of them, which the packed trace's deflate (services/logs/packed-trace.ts) writes once per row: ~10 bytes
// less a span (issue 28: stored bytes). Span ids are names within a log, never handles to guess: nothing looks a span
// up by its id. Unique across processes by the drawn prefix (90 random bits), within one by the counter.
import { randomBytes } from 'node:crypto';

let prefix = '';
let counter = 2 ** 32;

/** `xxxxxxxx-xxxx-8xxx-Vxxx-xxxx` of 12 random bytes, with the version and variant bits set. */
function drawPrefix(): string {
  const bytes = randomBytes(12);
  bytes[6] = (bytes[6] & 0x0f) | 0x80;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 24)}`;
}

export function newSpanId(): string {
  if (counter >= 2 ** 32) {
    prefix = drawPrefix();
    counter = 0;
  }
  return prefix + (counter++).toString(16).padStart(8, '0');
}
