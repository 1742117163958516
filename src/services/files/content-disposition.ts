// `Content-Disposition: attachment` for a user-supplied file name (RFC 6266): an ASCII-only `filename` for old
// clients and the exact name in `filename*` (RFC 8187), so no name can break out of the header or pick a path.

/** Control characters, path separators and characters that would end or escape the quoted string. */
const UNSAFE_IN_FALLBACK = /[^\x20-\x7e]|["\\/]/g;
const CONTROL_OR_SEPARATOR = /[\x00-\x1f\x7f/\\]/g;
/** A lone UTF-16 surrogate (possible via a JSON `\ud800` escape) would make encodeURIComponent throw. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function attachmentDisposition(name: string): string {
  const cleaned = name.replace(LONE_SURROGATE, '\ufffd').replace(CONTROL_OR_SEPARATOR, '_').trim() || 'file';
  const fallback = cleaned.replace(UNSAFE_IN_FALLBACK, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc8187(cleaned)}`;
}

/** encodeURIComponent leaves `'()*` and `!` alone; RFC 8187's attr-char does not allow `'()*`. */
function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
