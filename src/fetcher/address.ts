/**
 * Which IP addresses a citation fetch may connect to: public unicast only.
 * Everything else (loopback, private and shared ranges, link-local with the
 * cloud metadata endpoint 169.254.169.254, multicast, documentation and
 * special-purpose ranges, and IPv6 forms that embed an IPv4 address) is
 * refused, since a URL chosen by untrusted content must not reach the
 * cluster's own network.
 *
 * Ranges from the IANA special-purpose registries:
 * https://www.iana.org/assignments/iana-ipv4-special-registry/
 * https://www.iana.org/assignments/iana-ipv6-special-registry/
 */
import { BlockList, isIP } from 'node:net';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'unique_local'
  | 'multicast'
  | 'unspecified'
  | 'ipv4_mapped'
  | 'reserved'
  | 'invalid';

type RefusedClass = Exclude<AddressClass, 'public' | 'invalid'>;
type Range = readonly [kind: RefusedClass, network: string, prefix: number];

// Order matters: the first matching range names the class (0.0.0.0 is
// 'unspecified' before 0.0.0.0/8 makes it 'reserved').
const IPV4_RANGES: readonly Range[] = [
  ['unspecified', '0.0.0.0', 32],
  ['reserved', '0.0.0.0', 8], // "this network"; Linux connects 0.x to the local host
  ['private', '10.0.0.0', 8],
  ['private', '100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['loopback', '127.0.0.0', 8],
  ['link_local', '169.254.0.0', 16], // includes the metadata endpoint 169.254.169.254
  ['private', '172.16.0.0', 12],
  ['reserved', '192.0.0.0', 24], // IETF protocol assignments
  ['reserved', '192.0.2.0', 24], // TEST-NET-1
  ['reserved', '192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['private', '192.168.0.0', 16],
  ['reserved', '198.18.0.0', 15], // benchmarking
  ['reserved', '198.51.100.0', 24], // TEST-NET-2
  ['reserved', '203.0.113.0', 24], // TEST-NET-3
  ['multicast', '224.0.0.0', 4],
  ['reserved', '255.255.255.255', 32], // limited broadcast, before 240/4 for clarity
  ['reserved', '240.0.0.0', 4],
];

const IPV6_RANGES: readonly Range[] = [
  ['unspecified', '::', 128],
  ['loopback', '::1', 128],
  // An IPv4-mapped address reaches the IPv4 address it carries; refused
  // whatever that address is, so no IPv4 check can be sidestepped by spelling.
  ['ipv4_mapped', '::ffff:0:0', 96],
  ['reserved', '::', 96], // deprecated IPv4-compatible addresses
  // NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo
  // (2001::/32) are translated into IPv4 by a gateway whose target we cannot check.
  ['reserved', '64:ff9b::', 96],
  ['reserved', '64:ff9b:1::', 48],
  ['reserved', '100::', 64], // discard-only
  ['reserved', '2001::', 32],
  ['reserved', '2001:2::', 48], // benchmarking
  ['reserved', '2001:10::', 28], // ORCHID (deprecated)
  ['reserved', '2001:20::', 28], // ORCHIDv2: identifiers, not locators
  ['reserved', '2001:db8::', 32], // documentation
  ['reserved', '2002::', 16],
  ['reserved', '3fff::', 20], // documentation (RFC 9637)
  ['unique_local', 'fc00::', 7],
  ['link_local', 'fe80::', 10],
  ['private', 'fec0::', 10], // deprecated site-local, the old IPv6 private range
  ['multicast', 'ff00::', 8],
];

interface CompiledRange {
  kind: RefusedClass;
  list: BlockList;
}

// One BlockList per range and per family: a BlockList holding both families
// matches an IPv4 address against IPv6 rules through its mapped form (and the
// reverse), which would blur the classes.
function compile(ranges: readonly Range[], family: 'ipv4' | 'ipv6'): CompiledRange[] {
  return ranges.map(([kind, network, prefix]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return { kind, list };
  });
}

const V4 = compile(IPV4_RANGES, 'ipv4');
const V6 = compile(IPV6_RANGES, 'ipv6');

// Global unicast is 2000::/3; the rest of the IPv6 space is unassigned.
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

/**
 * Classifies a textual IP address (no brackets; an IPv6 zone index such as
 * `%eth0` is ignored, since the zone does not change the address's scope).
 * Anything that is not an IP address is 'invalid'.
 */
export function classifyAddress(ip: string): AddressClass {
  if (typeof ip !== 'string') return 'invalid';
  const family = isIP(ip);
  if (family === 4) {
    return V4.find((r) => r.list.check(ip, 'ipv4'))?.kind ?? 'public';
  }
  if (family === 6) {
    const address = ip.includes('%') ? ip.slice(0, ip.indexOf('%')) : ip;
    if (isIP(address) !== 6) return 'invalid';
    const match = V6.find((r) => r.list.check(address, 'ipv6'));
    if (match) return match.kind;
    return GLOBAL_UNICAST.check(address, 'ipv6') ? 'public' : 'reserved';
  }
  return 'invalid';
}

/** True when a fetch may connect to `ip`. */
export function isPublicUnicast(ip: string): boolean {
  return classifyAddress(ip) === 'public';
}
