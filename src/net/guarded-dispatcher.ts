// The undici Agent every outbound request uses. The address check happens inside the connection step, after DNS
// resolution, on the very address the socket connects to: checking a hostname earlier and connecting later would let
// DNS rebinding swap in a private address in between.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { addressRefusalReason } from './address-policy.js';
import { forbiddenAddressError } from './policy-error.js';
import { stripBrackets, type AddressClassifier } from './url-policy.js';

/** Resolves a hostname to every address it has; replaceable so tests can model public names without real DNS. */
export type Resolver = (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname, options) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

export interface GuardOptions {
  allowPrivateNetwork: boolean;
  classify?: AddressClassifier;
  resolve?: Resolver;
}

function guardedLookup(classify: AddressClassifier, resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, options).then(
      (addresses) => {
        if (addresses.length === 0) {
          callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
          return;
        }
        // Refuse the host if any of its addresses is forbidden, rather than filtering: a name that mixes public and
        // private records is either misconfigured or an attack, and either way the user should hear about it.
        for (const { address } of addresses) {
          const reason = classify(address);
          if (reason) {
            callback(forbiddenAddressError(hostname, address, reason), '');
            return;
          }
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/** Builds a guarded Agent; production code uses the cached getGuardedDispatcher instead. */
export function createGuardedAgent(options: GuardOptions): Agent {
  if (options.allowPrivateNetwork) return new Agent();
  const classify = options.classify ?? addressRefusalReason;
  const connectWithLookup = buildConnector({ lookup: guardedLookup(classify, options.resolve ?? systemResolver) });
  // IP-literal hosts never reach the lookup (net.connect skips DNS for them), so they are checked here as well; this
  // also protects callers that hand this dispatcher to fetch or an SDK without calling assertUrlAllowed first.
  const connect: buildConnector.connector = (connectOptions, callback) => {
    const host = stripBrackets(connectOptions.hostname);
    const reason = isIP(host) !== 0 ? classify(host) : null;
    if (reason) {
      callback(forbiddenAddressError(host, host, reason), null);
      return;
    }
    connectWithLookup(connectOptions, callback);
  };
  return new Agent({ connect });
}

const agents = new Map<boolean, Agent>();

export function getGuardedDispatcher(options: { allowPrivateNetwork: boolean }): Dispatcher {
  let agent = agents.get(options.allowPrivateNetwork);
  if (!agent) {
    agent = createGuardedAgent({ allowPrivateNetwork: options.allowPrivateNetwork });
    agents.set(options.allowPrivateNetwork, agent);
  }
  return agent;
}
