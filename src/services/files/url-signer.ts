// Signed download URLs (docs/api.md 4.2): the signature is the capability, so a download needs no API key. The key is
// derived from SLUICE_SECRET (HKDF, like the at-rest cipher, with its own label), so every process sharing the secret
// can verify a URL another one issued, and a leaked URL key would reveal nothing about the cipher key.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export interface UrlSigner {
  /** Lowercase hex HMAC-SHA256 binding the file id to its expiry (Unix ms). */
  sign(fileId: string, expiresAtMs: number): string;
  /** `${baseUrl}/api/files/<fileId>?expires=<ms>&signature=<hex>` */
  signedUrl(baseUrl: string, fileId: string, expiresAtMs: number): string;
  /** Checks query parameters as received; `expired` only once the signature itself is genuine. */
  verify(fileId: string, expires: string | undefined, signature: string | undefined, nowMs?: number): UrlCheck;
}

export type UrlCheck = 'valid' | 'expired' | 'invalid';

const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;
// At most 15 digits: any later expiry is meaningless, and the value stays an exact integer.
const EXPIRES_PATTERN = /^\d{1,15}$/;

export function createUrlSigner(secret: string): UrlSigner {
  const key = Buffer.from(hkdfSync('sha256', secret, 'sluice', 'sluice/file-url-signing/v1', 32));
  const sign = (fileId: string, expiresAtMs: number) =>
    createHmac('sha256', key).update(`files/v1\n${fileId}\n${expiresAtMs}`).digest('hex');
  return {
    sign,
    signedUrl(baseUrl, fileId, expiresAtMs) {
      const query = new URLSearchParams({ expires: String(expiresAtMs), signature: sign(fileId, expiresAtMs) });
      return `${baseUrl.replace(/\/+$/, '')}/api/files/${encodeURIComponent(fileId)}?${query}`;
    },
    verify(fileId, expires, signature, nowMs = Date.now()) {
      if (!expires || !signature || !EXPIRES_PATTERN.test(expires) || !SIGNATURE_PATTERN.test(signature)) {
        return 'invalid';
      }
      const expected = Buffer.from(sign(fileId, Number(expires)), 'hex');
      if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid';
      return Number(expires) <= nowMs ? 'expired' : 'valid';
    },
  };
}
