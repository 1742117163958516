import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkDataUrl, decodeDataUrl } from '../../src/services/files/data-url.js';

function decode(text: string): Buffer {
  const check = checkDataUrl(text);
  if (!check.ok) throw new Error(check.message);
  // Chunks share one scratch buffer: copy each before taking the next.
  return Buffer.concat(Array.from(decodeDataUrl(text, check.dataUrl), (chunk) => Buffer.from(chunk)));
}

describe('data URLs', () => {
  it('decodes base64 content of any length, padded or not, and reports its exact size', () => {
    for (const length of [0, 1, 2, 3, 4, 5, 100, 3 * 1024 * 1024 + 1, 4 * 1024 * 1024 + 2]) {
      const bytes = randomBytes(length);
      for (const content of [bytes.toString('base64'), bytes.toString('base64').replace(/=+$/, '')]) {
        const text = `data:application/octet-stream;base64,${content}`;
        const check = checkDataUrl(text);
        expect(check.ok && check.dataUrl.decodedSize).toBe(length);
        expect(decode(text).equals(bytes)).toBe(true);
      }
    }
  });

  it('reads the MIME type, with parameters, or none', () => {
    const mimeOf = (text: string) => {
      const check = checkDataUrl(text);
      return check.ok ? check.dataUrl.mime : check.message;
    };
    expect(mimeOf('data:image/png;base64,AAAA')).toBe('image/png');
    expect(mimeOf('DATA:text/plain;charset=utf-8;BASE64,AAAA')).toBe('text/plain;charset=utf-8');
    expect(mimeOf('data:;base64,AAAA')).toBeUndefined();
  });

  it.each([
    ['not a data URL', 'https://example.com/a.png', /data URL/],
    ['no comma', 'data:image/png;base64', /data URL/],
    ['not base64', 'data:text/plain,hello', /base64/],
    ['header injection in the MIME type', 'data:text/html\r\nX-Evil: 1;base64,AAAA', /MIME/],
    ['a character outside the alphabet', 'data:a/b;base64,AA*A', /not valid base64/],
    ['whitespace', 'data:a/b;base64,AAAA AAAA', /not valid base64/],
    ['base64url characters', 'data:a/b;base64,AA-_', /not valid base64/],
    ['padding in the middle', 'data:a/b;base64,AA==AAAA', /not valid base64/],
    ['too much padding', 'data:a/b;base64,A===', /not valid base64/],
    ['a lone trailing character', 'data:a/b;base64,AAAAA', /not valid base64/],
    ['padding that does not complete a quantum', 'data:a/b;base64,AAAAA=', /not valid base64/],
  ])('refuses %s', (_label, text, message) => {
    const check = checkDataUrl(text);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(message);
  });
});
