// Which IP addresses outbound requests may reach when private networking is not allowed. Everything that is not
// plainly public unicast is refused: loopback, RFC 1918, link-local (cloud metadata lives at 169.254.169.254),
// CGNAT, multicast, reserved and documentation ranges, and IPv6 forms that embed one of those IPv4 addresses.
import { isIPv4, isIPv6 } from 'node:net';

type Ipv4Rule = readonly [base: string, prefixLength: number, reason: string];

// Order matters only where ranges nest (broadcast inside 240/4, the metadata address inside 169.254/16).
const IPV4_RULES: readonly Ipv4Rule[] = [
  ['169.254.169.254', 32, 'cloud metadata address'],
  ['255.255.255.255', 32, 'broadcast address'],
  ['0.0.0.0', 8, 'unspecified address'],
  ['10.0.0.0', 8, 'private address'],
  ['100.64.0.0', 10, 'carrier-grade NAT address'],
  ['127.0.0.0', 8, 'loopback address'],
  ['169.254.0.0', 16, 'link-local address'],
  ['172.16.0.0', 12, 'private address'],
  ['192.0.0.0', 24, 'IETF protocol assignment address'],
  ['192.0.2.0', 24, 'documentation address'],
  ['192.168.0.0', 16, 'private address'],
  ['198.18.0.0', 15, 'benchmarking address'],
  ['198.51.100.0', 24, 'documentation address'],
  ['203.0.113.0', 24, 'documentation address'],
  ['224.0.0.0', 4, 'multicast address'],
  ['240.0.0.0', 4, 'reserved address'],
];

function ipv4ToNumber(ip: string): number {
  return ip.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

const IPV4_RANGES = IPV4_RULES.map(([base, prefixLength, reason]) => {
  const size = 2 ** (32 - prefixLength);
  const start = ipv4ToNumber(base);
  return { start, end: start + size - 1, reason };
});

function classifyIpv4(ip: string): string | null {
  const value = ipv4ToNumber(ip);
  const hit = IPV4_RANGES.find((range) => value >= range.start && value <= range.end);
  return hit ? hit.reason : null;
}

/** Expands an IPv6 address (zone id, `::` and a dotted IPv4 tail allowed) into its eight 16-bit groups. */
function ipv6Groups(ip: string): number[] {
  let text = ip.split('%')[0];
  const dottedTail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dottedTail) {
    const v4 = ipv4ToNumber(dottedTail[1]);
    text = `${text.slice(0, dottedTail.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined): number[] =>
    part ? part.split(':').map((group) => parseInt(group, 16)) : [];
  const headGroups = parse(head);
  if (tail === undefined) return headGroups;
  const tailGroups = parse(tail);
  const zeros = new Array<number>(8 - headGroups.length - tailGroups.length).fill(0);
  return [...headGroups, ...zeros, ...tailGroups];
}

function groupsToIpv4(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

function embedded(ipv4: string, form: string): string | null {
  const reason = classifyIpv4(ipv4);
  return reason ? `${reason} ${ipv4} in ${form}` : null;
}

function classifyIpv6(ip: string): string | null {
  const g = ipv6Groups(ip);
  const firstSixZero = g.slice(0, 6).every((x) => x === 0);
  if (firstSixZero && g[6] === 0 && g[7] === 0) return 'unspecified address';
  if (firstSixZero && g[6] === 0 && g[7] === 1) return 'loopback address';
  // ::ffff:a.b.c.d reaches the IPv4 host on dual-stack sockets, so it is judged by the IPv4 address it carries.
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    return embedded(groupsToIpv4(g[6], g[7]), 'IPv4-mapped IPv6 address');
  }
  // Deprecated IPv4-compatible (::a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d) forms are never public targets.
  if (firstSixZero) return 'IPv4-compatible IPv6 address (deprecated)';
  if (g.slice(0, 4).every((x) => x === 0) && g[4] === 0xffff && g[5] === 0) return 'IPv4-translated IPv6 address';
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return embedded(groupsToIpv4(g[6], g[7]), 'NAT64 address');
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'local-use NAT64 address';
  if (g[0] === 0x2002) return embedded(groupsToIpv4(g[1], g[2]), '6to4 address');
  if (g[0] === 0x2001 && g[1] === 0) return 'Teredo tunnelling address';
  if (g[0] === 0x2001 && g[1] === 0xdb8) return 'documentation address';
  if (g[0] === 0x100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return 'discard-only address';
  if ((g[0] & 0xfe00) === 0xfc00) return 'unique local address';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local address';
  if ((g[0] & 0xffc0) === 0xfec0) return 'site-local address (deprecated)';
  if ((g[0] & 0xff00) === 0xff00) return 'multicast address';
  return null;
}

/**
 * Why `ip` may not be contacted without SLUICE_ALLOW_PRIVATE_NETWORK, or null for a public unicast address.
 * Anything that is not an IP address is refused: an address we cannot parse is one we cannot vouch for.
 */
export function addressRefusalReason(ip: string): string | null {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (isIPv4(bare)) return classifyIpv4(bare);
  if (isIPv6(bare)) return classifyIpv6(bare);
  return 'not an IP address';
}

export function isForbiddenAddress(ip: string): boolean {
  return addressRefusalReason(ip) !== null;
}
