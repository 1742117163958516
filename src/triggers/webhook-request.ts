// What an inbound webhook call becomes for the run (`<webhook.body>`, `<webhook.headers>`, `<webhook.query>`).
// Senders use every content type, so the body is read by its declared type: JSON → the value; URL-encoded and
// multipart forms → an object of fields; anything else → the text as sent, or a base64 data URL when it is binary.
import { AppError } from '../errors.js';
import { assertJsonNesting } from '../json-nesting.js';

/** Form fields that repeat become arrays, in order; fields given once stay plain values. */
function collect<V>(entries: Iterable<[string, V]>): Record<string, V | V[]> {
  const out: Record<string, V | V[]> = {};
  for (const [key, value] of entries) {
    if (!Object.hasOwn(out, key)) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else {
      // Values are never arrays themselves, so an array here is one this loop made: append in place (a body of
      // many repeated fields must cost linear time, not quadratic).
      const current = out[key];
      if (Array.isArray(current)) current.push(value);
      else out[key] = [current as V, value];
    }
  }
  return out;
}

const mediaType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text, or undefined when they are not text (invalid UTF-8, or NUL bytes). */
function asText(raw: Buffer): string | undefined {
  if (raw.includes(0)) return undefined;
  try {
    return strictUtf8.decode(raw);
  } catch {
    return undefined;
  }
}

export async function parseWebhookBody(raw: Buffer, contentType: string | undefined): Promise<unknown> {
  const type = mediaType(contentType ?? '');
  const text = asText(raw);
  const json = type === 'application/json' || type.endsWith('+json');
  if (text === undefined && json) throw new AppError('INVALID_JSON', 400, 'The request body is declared as JSON but is not UTF-8 text');
  if (text === undefined && type !== 'multipart/form-data') {
    return `data:${type || 'application/octet-stream'};base64,${raw.toString('base64')}`;
  }
  return parseText(raw, text ?? '', type, contentType);
}

async function parseText(raw: Buffer, text: string, type: string, contentType: string | undefined): Promise<unknown> {
  if (type === 'application/json' || type.endsWith('+json') || (type === '' && /^\s*[[{]/.test(text))) {
    if (!text.trim()) return null;
    assertJsonNesting(raw); // the bytes, not the text: no copy to scan
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new AppError('INVALID_JSON', 400, 'The request body is declared as JSON but is not valid JSON');
    }
  }
  if (type === 'application/x-www-form-urlencoded') return collect(new URLSearchParams(text));
  if (type === 'multipart/form-data') {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType! } }).formData();
    } catch {
      throw new AppError('VALIDATION_ERROR', 400, 'The multipart body could not be parsed');
    }
    // Uploaded files are described, not carried: their bytes would bloat every log of the run.
    const fields: Array<[string, unknown]> = [...form.entries()].map(([key, value]) => [
      key,
      typeof value === 'string' ? value : { name: value.name, type: value.type, size: value.size },
    ]);
    return collect(fields);
  }
  return text;
}

export function webhookHeaders(headers: Headers): Record<string, string> {
  // Header names arrive lowercased; a repeated header is already joined with ", " by fetch's Headers.
  return Object.fromEntries(headers.entries());
}

export function webhookQuery(url: string): Record<string, string | string[]> {
  return collect(new URL(url).searchParams);
}
