import { describe, expect, it } from 'vitest';
import { assertUrlAllowed, NetworkPolicyError } from '../../src/net/index.js';

const strict = { allowPrivateNetwork: false };
const lenient = { allowPrivateNetwork: true };

describe('assertUrlAllowed', () => {
  it('returns the parsed URL for public http and https targets', () => {
    expect(assertUrlAllowed('https://api.example.com/v1?x=1', strict).href).toBe('https://api.example.com/v1?x=1');
    expect(assertUrlAllowed('http://8.8.8.8/', strict).hostname).toBe('8.8.8.8');
  });

  it.each(['ftp://example.com/file', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/plain,hi', 'gopher://x/'])(
    'refuses the non-http scheme of %s even when private targets are allowed',
    (url) => {
      expect(() => assertUrlAllowed(url, lenient)).toThrow(/only http and https are allowed/);
    },
  );

  it.each(['/relative/path', 'example.com/path', '', 'http//missing-colon'])('refuses the non-absolute URL %j', (url) => {
    expect(() => assertUrlAllowed(url, lenient)).toThrow(/must be an absolute http\(s\) URL/);
  });

  it.each([
    ['http://127.0.0.1/', '127.0.0.1'],
    ['http://10.1.2.3/', '10.1.2.3'],
    ['http://172.16.0.1/', '172.16.0.1'],
    ['http://192.168.0.10/', '192.168.0.10'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://100.64.0.1/', '100.64.0.1'],
    ['http://0.0.0.0/', '0.0.0.0'],
    ['http://[::1]/', '::1'],
    ['http://[fc00::1]/', 'fc00::1'],
    ['http://[fe80::1]/', 'fe80::1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[::ffff:7f00:1]/', '::ffff:7f00:1'],
    // Alternative IPv4 spellings are normalised by the URL parser before the check.
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://017700000001/', '127.0.0.1'],
  ])('refuses the IP-literal host of %s', (url, address) => {
    let caught: unknown;
    try {
      assertUrlAllowed(url, strict);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(NetworkPolicyError);
    expect((caught as Error).message).toContain(`Refused to connect to ${address} (`);
    expect((caught as Error).message).toContain('SLUICE_ALLOW_PRIVATE_NETWORK=true');
  });

  it('explains the refusal of a loopback address', () => {
    expect(() => assertUrlAllowed('http://127.0.0.1:8080/', strict)).toThrow(
      'Refused to connect to 127.0.0.1 (loopback address); set SLUICE_ALLOW_PRIVATE_NETWORK=true to allow private network targets',
    );
  });

  it('lets private literals through when private networking is allowed', () => {
    expect(assertUrlAllowed('http://127.0.0.1:8080/x', lenient).port).toBe('8080');
  });

  it('leaves hostnames to the guarded lookup, which judges the resolved address', () => {
    expect(assertUrlAllowed('http://localhost/', strict).hostname).toBe('localhost');
  });
});
