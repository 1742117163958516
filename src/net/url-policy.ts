// Checks a URL before any connection is attempted: scheme, absoluteness, and IP-literal hosts. Node's net.connect
// skips the DNS lookup for IP literals, so the guarded lookup alone would never see them.
import { isIP } from 'node:net';
import { addressRefusalReason } from './address-policy.js';
import { forbiddenAddressError, invalidUrlError } from './policy-error.js';

export type AddressClassifier = (ip: string) => string | null;

export function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** Same as assertUrlAllowed with a replaceable address classifier (tests use it to model a "public" host). */
export function checkUrl(input: string, allowPrivateNetwork: boolean, classify: AddressClassifier): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw invalidUrlError(input, 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const scheme = url.protocol.slice(0, -1);
    throw invalidUrlError(`${url.protocol}//${url.host}`, `only http and https are allowed, got ${scheme}`);
  }
  if (!url.hostname) throw invalidUrlError(input, 'missing host');
  if (!allowPrivateNetwork) {
    // WHATWG parsing already normalised tricks such as http://2130706433/ and http://0x7f.1/ to dotted IPv4.
    const host = stripBrackets(url.hostname);
    if (isIP(host) !== 0) {
      const reason = classify(host);
      if (reason) throw forbiddenAddressError(host, host, reason);
    }
  }
  return url;
}

export function assertUrlAllowed(url: string, options: { allowPrivateNetwork: boolean }): URL {
  return checkUrl(url, options.allowPrivateNetwork, addressRefusalReason);
}
