// Data URLs of inline files (docs/api.md 4.2: `data:<mime>;base64,<content>`). Checked completely before
// anything is stored, and decoded in slices so a 27 MB base64 string never needs a second full-size copy.

/** A checked data URL; the content stays inside the original string, from `contentStart` on. */
export interface DataUrl {
  /** The MIME type written in the URL (parameters kept), or undefined for `data:;base64,`. */
  mime: string | undefined;
  contentStart: number;
  /** Exact number of bytes the content decodes to. */
  decodedSize: number;
}

export type DataUrlCheck = { ok: true; dataUrl: DataUrl } | { ok: false; message: string };

const TOKEN = '[A-Za-z0-9!#$&^_.+-]';
const QUOTED = '"[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]*"'; // printable ASCII except `"` and `\`
/** type/subtype with optional `; name=value` parameters: safe to send back as a Content-Type header. */
export const MIME_PATTERN = new RegExp(
  `^[A-Za-z0-9]${TOKEN}{0,126}/[A-Za-z0-9]${TOKEN}{0,126}([ \\t]*;[ \\t]*${TOKEN}+=(?:${TOKEN}+|${QUOTED}))*$`,
);

/** The header (`data:<mime>;base64,`) is short; looking for its comma further would scan megabytes for nothing. */
const MAX_HEADER_LENGTH = 512;
const BASE64_MARKER = ';base64';
// '=' is in the class on purpose: V8 runs this class ~15× faster than the one without it (~20 ms instead of ~300 ms
// on 27 MB); where '=' may appear is then checked separately with indexOf.
const NOT_BASE64_OR_PAD = /[^A-Za-z0-9+/=]/;
/** Characters decoded per slice: a multiple of 4, so every slice is whole base64 quanta. */
const SLICE_CHARS = 1024 * 1024;

const MALFORMED = 'must be a data URL of the form data:<mime>;base64,<content>';

export function checkDataUrl(text: string): DataUrlCheck {
  if (text.slice(0, 5).toLowerCase() !== 'data:') return { ok: false, message: MALFORMED };
  const comma = text.slice(0, MAX_HEADER_LENGTH).indexOf(',');
  if (comma < 0) return { ok: false, message: MALFORMED };
  const header = text.slice(5, comma);
  if (!header.toLowerCase().endsWith(BASE64_MARKER)) {
    return { ok: false, message: 'must carry base64 content (data:<mime>;base64,<content>)' };
  }
  const mime = header.slice(0, -BASE64_MARKER.length).trim();
  if (mime !== '' && !MIME_PATTERN.test(mime)) {
    return { ok: false, message: 'has an invalid MIME type in its data URL' };
  }

  const contentStart = comma + 1;
  const contentLength = text.length - contentStart;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const quanta = contentLength - padding;
  // Padding, when present, completes the last quantum; without it a lone leftover character encodes nothing.
  const wellFormed = padding > 0 ? contentLength % 4 === 0 : contentLength % 4 !== 1;
  const firstPad = text.indexOf('=', contentStart);
  const padOnlyAtEnd = firstPad < 0 || firstPad >= contentStart + quanta;
  if (quanta < 0 || !wellFormed || !padOnlyAtEnd || NOT_BASE64_OR_PAD.test(text.slice(contentStart))) {
    return { ok: false, message: 'is not valid base64 (standard alphabet, no whitespace)' };
  }
  return { ok: true, dataUrl: { mime: mime || undefined, contentStart, decodedSize: Math.floor((quanta * 3) / 4) } };
}

/**
 * The decoded content, slice by slice, for streaming to storage. Every slice is decoded into the same scratch buffer,
 * so decoding makes no garbage that would sit in memory until the next GC: a consumer must be done with a chunk
 * before it asks for the next one (as `for await (…) await write(chunk)` is).
 */
export function* decodeDataUrl(text: string, dataUrl: DataUrl): Generator<Buffer> {
  const scratch = Buffer.allocUnsafeSlow(Math.min(dataUrl.decodedSize, (SLICE_CHARS / 4) * 3));
  for (let start = dataUrl.contentStart; start < text.length; start += SLICE_CHARS) {
    const written = scratch.write(text.slice(start, Math.min(text.length, start + SLICE_CHARS)), 'base64');
    yield scratch.subarray(0, written);
  }
}
