// The address a request came from, for per-client limits (sign-in). The TCP peer is the truth; X-Forwarded-For is
// anyone's to write, so it is read only when SLUICE_TRUST_PROXY says a reverse proxy in front of us appends it.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv } from './env.js';

/** What a request without a socket (Hono's app.request() in benchmarks) counts as: one shared client. */
const UNKNOWN_ADDRESS = 'unknown';

function socketAddress(c: Context<AppEnv>): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.socket.remoteAddress;
}

/** The last X-Forwarded-For entry: the one our own proxy appended (earlier ones are the client's to invent). */
function forwardedAddress(c: Context<AppEnv>): string | undefined {
  const entries = (c.req.header('x-forwarded-for') ?? '').split(',').map((entry) => entry.trim());
  return entries.filter((entry) => entry.length > 0).at(-1);
}

/**
 * Groups IPv6 clients by their /64 network: one host is usually handed a whole /64, so counting each address on
 * its own would give it 2^64 allowances. IPv4 (also IPv4-mapped IPv6) stays the whole address.
 */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const [head, tail = ''] = address.toLowerCase().split('%')[0].split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...headGroups, ...Array(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export function clientAddress(c: Context<AppEnv>): string {
  const address = (c.get('app').config.trustProxy ? forwardedAddress(c) : undefined) ?? socketAddress(c);
  return address ? addressGroup(address) : UNKNOWN_ADDRESS;
}
