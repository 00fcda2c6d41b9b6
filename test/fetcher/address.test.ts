import { describe, expect, it } from 'vitest';
import { classifyAddress, isPublicUnicast, type AddressClass } from '../../src/fetcher/address.js';

/** [address, class]: the first and last address of each range, and its neighbours. */
const IPV4: Array<[string, AddressClass]> = [
  ['0.0.0.0', 'unspecified'],
  ['0.0.0.1', 'reserved'],
  ['0.255.255.255', 'reserved'],
  ['1.0.0.0', 'public'],
  ['9.255.255.255', 'public'],
  ['10.0.0.0', 'private'],
  ['10.255.255.255', 'private'],
  ['11.0.0.0', 'public'],
  ['100.63.255.255', 'public'],
  ['100.64.0.0', 'private'],
  ['100.127.255.255', 'private'],
  ['100.128.0.0', 'public'],
  ['126.255.255.255', 'public'],
  ['127.0.0.0', 'loopback'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.255', 'loopback'],
  ['128.0.0.0', 'public'],
  ['169.253.255.255', 'public'],
  ['169.254.0.0', 'link_local'],
  ['169.254.169.254', 'link_local'],
  ['169.254.255.255', 'link_local'],
  ['169.255.0.0', 'public'],
  ['172.15.255.255', 'public'],
  ['172.16.0.0', 'private'],
  ['172.31.255.255', 'private'],
  ['172.32.0.0', 'public'],
  ['191.255.255.255', 'public'],
  ['192.0.0.0', 'reserved'],
  ['192.0.0.255', 'reserved'],
  ['192.0.1.0', 'public'],
  ['192.0.1.255', 'public'],
  ['192.0.2.0', 'reserved'],
  ['192.0.2.255', 'reserved'],
  ['192.0.3.0', 'public'],
  ['192.88.98.255', 'public'],
  ['192.88.99.0', 'reserved'],
  ['192.88.99.255', 'reserved'],
  ['192.88.100.0', 'public'],
  ['192.167.255.255', 'public'],
  ['192.168.0.0', 'private'],
  ['192.168.255.255', 'private'],
  ['192.169.0.0', 'public'],
  ['198.17.255.255', 'public'],
  ['198.18.0.0', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['198.20.0.0', 'public'],
  ['198.51.99.255', 'public'],
  ['198.51.100.0', 'reserved'],
  ['198.51.100.255', 'reserved'],
  ['198.51.101.0', 'public'],
  ['203.0.112.255', 'public'],
  ['203.0.113.0', 'reserved'],
  ['203.0.113.255', 'reserved'],
  ['203.0.114.0', 'public'],
  ['223.255.255.255', 'public'],
  ['224.0.0.0', 'multicast'],
  ['239.255.255.255', 'multicast'],
  ['240.0.0.0', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'reserved'],
  ['8.8.8.8', 'public'],
  ['93.184.216.34', 'public'],
];

const IPV6: Array<[string, AddressClass]> = [
  ['::', 'unspecified'],
  ['0:0:0:0:0:0:0:0', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::2', 'reserved'], // IPv4-compatible ::/96
  ['::ffff:ffff', 'reserved'],
  ['::127.0.0.1', 'reserved'],
  ['::1:0:0', 'reserved'],
  ['::fffe:ffff:ffff', 'reserved'],
  ['::ffff:0:0', 'ipv4_mapped'],
  ['::ffff:127.0.0.1', 'ipv4_mapped'],
  ['::ffff:7f00:1', 'ipv4_mapped'],
  ['::ffff:8.8.8.8', 'ipv4_mapped'], // refused even when the IPv4 address is public
  ['::ffff:ffff:ffff', 'ipv4_mapped'],
  ['::1:0:0:0', 'reserved'],
  ['64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['64:ff9b::', 'reserved'],
  ['64:ff9b::7f00:1', 'reserved'],
  ['64:ff9b::ffff:ffff', 'reserved'],
  ['64:ff9b:1::', 'reserved'],
  ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['100::', 'reserved'],
  ['100::ffff:ffff:ffff:ffff', 'reserved'],
  ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['2000::', 'public'],
  ['2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
  ['2001::', 'reserved'], // Teredo
  ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['2001:1::', 'public'],
  ['2001:2::', 'reserved'],
  ['2001:2:0:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['2001:2:1::', 'public'],
  ['2001:10::', 'reserved'],
  ['2001:2f:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['2001:30::', 'public'],
  ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
  ['2001:db8::', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['2001:DB8::1', 'reserved'],
  ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['2001:db9::', 'public'],
  ['2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
  ['2002::', 'reserved'], // 6to4
  ['2002:7f00:1::', 'reserved'],
  ['2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['2003::', 'public'],
  ['2606:4700:4700::1111', 'public'],
  ['2a00:1450:4001::1', 'public'],
  ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
  ['3fff::', 'reserved'],
  ['3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['3fff:1000::', 'public'],
  ['3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'],
  ['4000::', 'reserved'],
  ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['fc00::', 'unique_local'],
  ['fd12:3456::1', 'unique_local'],
  ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique_local'],
  ['fe00::', 'reserved'],
  ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['fe80::', 'link_local'],
  ['fe80::1', 'link_local'],
  ['fe80::1%eth0', 'link_local'],
  ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link_local'],
  ['fec0::', 'private'],
  ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'private'],
  ['ff00::', 'multicast'],
  ['ff02::1', 'multicast'],
  ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
];

const INVALID = [
  '',
  'localhost',
  '1.2.3',
  '127.1',
  '127.000.000.001',
  '0x7f.0.0.1',
  '[::1]',
  '1.2.3.4 ',
  '::g',
  '%eth0',
];

describe('classifyAddress', () => {
  it.each(IPV4)('IPv4 %s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
    expect(isPublicUnicast(ip)).toBe(kind === 'public');
  });

  it.each(IPV6)('IPv6 %s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
    expect(isPublicUnicast(ip)).toBe(kind === 'public');
  });

  it.each(INVALID)('%j is invalid, and never public', (ip) => {
    expect(classifyAddress(ip)).toBe('invalid');
    expect(isPublicUnicast(ip)).toBe(false);
  });

  it('does not match IPv4 rules against IPv6 addresses or the reverse', () => {
    // node:net's BlockList matches across families through the mapped form;
    // the classes must not blur: 10.0.0.1 is private, not ipv4_mapped.
    expect(classifyAddress('10.0.0.1')).toBe('private');
    expect(classifyAddress('::ffff:10.0.0.1')).toBe('ipv4_mapped');
    expect(classifyAddress('::a00:1')).toBe('reserved');
  });
});
