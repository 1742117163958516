import { describe, expect, it } from 'vitest';
import { attachmentDisposition, createUrlSigner } from '../../src/services/files/index.js';

describe('URL signer', () => {
  const signer = createUrlSigner('a-secret-of-at-least-32-characters!!');
  const future = Date.now() + 60_000;

  it('issues URLs of this service that verify until they expire', () => {
    const url = new URL(signer.signedUrl('http://files.example:8080/', 'file_abc', future));
    expect(url.origin + url.pathname).toBe('http://files.example:8080/api/files/file_abc');
    const expires = url.searchParams.get('expires') ?? undefined;
    const signature = url.searchParams.get('signature') ?? undefined;
    const check = (now?: number) => signer.verify('file_abc', expires, signature, now);
    expect(check()).toBe('valid');
    expect(check(future)).toBe('expired');
  });

  it('refuses another file id, another expiry, another secret, and malformed parameters', () => {
    const signature = signer.sign('file_abc', future);
    expect(signer.verify('file_abd', String(future), signature)).toBe('invalid');
    expect(signer.verify('file_abc', String(future + 1), signature)).toBe('invalid');
    const otherSecret = createUrlSigner('another-secret-of-at-least-32-characters');
    expect(otherSecret.verify('file_abc', String(future), signature)).toBe('invalid');
    const malformed: Array<[string | undefined, string | undefined]> = [
      [undefined, signature],
      [String(future), undefined],
      ['soon', signature],
      [String(future), signature.toUpperCase()],
      [String(future), signature.slice(2)],
    ];
    for (const [expires, sig] of malformed) expect(signer.verify('file_abc', expires, sig)).toBe('invalid');
  });
});

describe('Content-Disposition', () => {
  it('keeps any name inside the header: ASCII fallback plus the exact UTF-8 name', () => {
    expect(attachmentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(attachmentDisposition('résumé "final".pdf')).toBe(
      `attachment; filename="r_sum_ _final_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.pdf`,
    );
    const hostile = attachmentDisposition('a\r\nSet-Cookie: x=1;\u0000../../etc/passwd\ud800');
    expect(hostile).not.toMatch(/[\r\n\u0000]/);
    expect(hostile).not.toContain('/');
    expect(attachmentDisposition(' \u0001 ')).toContain('filename="_"');
  });
});
