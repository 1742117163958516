import { describe, expect, it } from 'vitest';
import { addressRefusalReason } from '../../src/net/address-policy.js';
import { isForbiddenAddress } from '../../src/net/index.js';

describe('isForbiddenAddress', () => {
  const forbidden: Array<[string, RegExp]> = [
    ['0.0.0.0', /unspecified/],
    ['0.1.2.3', /unspecified/],
    ['10.0.0.1', /private/],
    ['10.255.255.255', /private/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['100.127.255.254', /carrier-grade NAT/],
    ['127.0.0.1', /loopback/],
    ['127.255.0.9', /loopback/],
    ['169.254.169.254', /metadata/],
    ['169.254.1.1', /link-local/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.0.0.8', /IETF/],
    ['192.168.1.1', /private/],
    ['198.18.0.1', /benchmarking/],
    ['198.19.255.255', /benchmarking/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['240.0.0.1', /reserved/],
    ['255.255.255.255', /broadcast/],
    ['::', /unspecified/],
    ['::1', /loopback/],
    ['0:0:0:0:0:0:0:1', /loopback/],
    ['fc00::1', /unique local/],
    ['fd12:3456::1', /unique local/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['febf:ffff::1', /link-local/],
    ['ff02::1', /multicast/],
    ['::ffff:127.0.0.1', /loopback address 127\.0\.0\.1 in IPv4-mapped/],
    ['::ffff:7f00:1', /loopback address 127\.0\.0\.1 in IPv4-mapped/],
    ['::ffff:a9fe:a9fe', /metadata address 169\.254\.169\.254/],
    ['::ffff:10.1.2.3', /private/],
    ['0:0:0:0:0:ffff:c0a8:0101', /private address 192\.168\.1\.1/],
    ['64:ff9b::127.0.0.1', /loopback address 127\.0\.0\.1 in NAT64/],
    ['64:ff9b::a00:1', /private address 10\.0\.0\.1 in NAT64/],
    ['::127.0.0.1', /IPv4-compatible/],
    ['2002:7f00:1::', /loopback address 127\.0\.0\.1 in 6to4/],
    ['[::1]', /loopback/],
  ];

  it.each(forbidden)('refuses %s', (ip, reason) => {
    expect(isForbiddenAddress(ip)).toBe(true);
    expect(addressRefusalReason(ip)).toMatch(reason);
  });

  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '9.255.255.255', // just below 10/8
    '11.0.0.0', // just above 10/8
    '100.63.255.255', // just below 100.64/10
    '100.128.0.0', // just above 100.64/10
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ];

  it.each(allowed)('allows public address %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });

  it('refuses things that are not IP addresses, since they cannot be vouched for', () => {
    expect(isForbiddenAddress('localhost')).toBe(true);
    expect(isForbiddenAddress('')).toBe(true);
    expect(isForbiddenAddress('999.1.1.1')).toBe(true);
  });
});
