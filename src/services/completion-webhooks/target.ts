// Where a subscription may point (docs/api.md 7): an absolute http(s) URL that is not a private, loopback or link-local
// address unless SLUICE_ALLOW_PRIVATE_NETWORK is set. Checked here when the URL is saved (so the user hears about
// it at once) and again by the guarded dispatcher on every attempt, after DNS resolution.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { badRequest } from '../../errors.js';
import { assertUrlAllowed, isForbiddenAddress, NetworkPolicyError } from '../../net/index.js';

const LOOKUP_TIMEOUT_MS = 3_000;

const refuse = (message: string) => badRequest('Invalid webhook URL', [{ path: 'url', message }]);

async function resolveAll(host: string): Promise<string[]> {
  const timeout = new Promise<string[]>((resolve) => setTimeout(() => resolve([]), LOOKUP_TIMEOUT_MS).unref());
  const addresses = lookup(host, { all: true, verbatim: true }).then(
    (list) => list.map((entry) => entry.address),
    // A name that does not resolve today may tomorrow; every attempt checks it again before connecting.
    () => [],
  );
  return Promise.race([addresses, timeout]);
}

export async function checkWebhookUrl(url: string, allowPrivateNetwork: boolean): Promise<void> {
  let parsed: URL;
  try {
    parsed = assertUrlAllowed(url, { allowPrivateNetwork });
  } catch (err) {
    if (err instanceof NetworkPolicyError) throw refuse(err.message);
    throw err;
  }
  if (allowPrivateNetwork) return;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return;
  const forbidden = (await resolveAll(host)).find(isForbiddenAddress);
  if (forbidden) {
    throw refuse(`${host} resolves to ${forbidden}, a private or reserved address; set SLUICE_ALLOW_PRIVATE_NETWORK=true to allow it`);
  }
}
