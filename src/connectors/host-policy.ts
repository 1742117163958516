// The outbound address policy for connector hosts (databases, Redis, brokers, SMTP), the same as the API block's:
// private, loopback and link-local addresses are refused unless SLUICE_ALLOW_PRIVATE_NETWORK is set or the host is
// named in SLUICE_ALLOWED_HOSTS. The host is resolved once and the connection made to the checked address, so a DNS
// answer that changes between check and connect (rebinding) cannot slip past.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressRefusalReason } from '../net/address-policy.js';
import { forbiddenAddressError } from '../net/policy-error.js';

export interface HostPolicy {
  allowPrivateNetwork: boolean;
  /** Host names or addresses allowed even when private (SLUICE_ALLOWED_HOSTS). */
  allowedHosts?: readonly string[];
}

/** The address to connect to for `host`, or a NetworkPolicyError naming why it is refused. */
export async function checkedConnectorAddress(host: string, policy: HostPolicy): Promise<string> {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const allowed = policy.allowPrivateNetwork || (policy.allowedHosts ?? []).some((h) => h.toLowerCase() === bare.toLowerCase());
  const address = isIP(bare) ? bare : (await lookup(bare, { verbatim: true })).address;
  if (!allowed) {
    const reason = addressRefusalReason(address);
    if (reason) throw forbiddenAddressError(bare, address, reason);
  }
  return address;
}
