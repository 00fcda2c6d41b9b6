/**
 * The DNS half of the address check, run by net.connect itself (undici passes
 * `connect.lookup` through to it). The guard resolves once, checks every
 * address, and hands the same addresses to the socket: the connection goes to
 * an address that was checked, with no second resolution an attacker's DNS
 * server could answer differently (DNS rebinding).
 *
 * net.connect never calls `lookup` for an IP-literal host, which is why
 * url-policy.ts refuses those before a request is made. Nor does it tell the
 * lookup the port: a guard is made for one port (fetch-page.ts makes one per
 * origin), since an allow-list entry admits a name on its ports only.
 */
import dns, { type LookupAddress, type LookupAllOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { classifyAddress, type AddressClass } from './address.js';
import { BlockedAddressError } from './errors.js';
import { isAllowedHost, otherPortsNote, type FetchPolicy } from './url-policy.js';

/** The resolver the guard asks: `dns.lookup` in production, a fake in tests. */
export type DnsLookup = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

function notFound(hostname: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  err.code = 'ENOTFOUND';
  err.syscall = 'getaddrinfo';
  return err;
}

/**
 * Returns a `lookup` for `net.connect` / undici's `connect.lookup`. It asks
 * for all addresses and refuses the name (error code
 * 'CITATION_BLOCKED_ADDRESS') when any one is not public unicast: with a
 * mixed answer the socket could pick the private one, so a single bad
 * address is enough. A name the allow-list admits on `port`, the port the
 * connection goes to, is answered as resolved.
 *
 * It answers in the shape the caller asked for: an array when
 * `options.all` is set (what net.connect asks when it races address
 * families), the first address otherwise.
 */
export function createGuardedLookup(policy: FetchPolicy, port: number, lookup: DnsLookup = dns.lookup): LookupFunction {
  return (hostname, options, callback) => {
    const allowed = isAllowedHost(hostname, port, policy);
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) {
        callback(err, '');
        return;
      }
      if (!Array.isArray(addresses) || addresses.length === 0) {
        callback(notFound(hostname), '');
        return;
      }
      if (!allowed) {
        const refused: { address: string; kind: Exclude<AddressClass, 'public'> }[] = [];
        for (const { address } of addresses) {
          const kind = classifyAddress(address);
          if (kind !== 'public') refused.push({ address, kind });
        }
        if (refused.length > 0) {
          const note = otherPortsNote(hostname, policy);
          callback(new BlockedAddressError(hostname, refused, { port, note }), '');
          return;
        }
      }
      if (options.all) {
        callback(null, addresses);
      } else {
        const first = addresses[0]!;
        callback(null, first.address, first.family);
      }
    });
  };
}
