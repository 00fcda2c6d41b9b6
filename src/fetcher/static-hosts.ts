/**
 * Fixed addresses for host names (`citations.hosts`), as /etc/hosts gives
 * them, for the citation fetcher only: a mirror of a site on a private
 * network, or a name the worker's resolver answers differently from the one
 * the agents saw. The URL, the Host header and the TLS server name stay the
 * cited ones, so an https page must still present a certificate for its
 * name. The address answered here passes the same guard as a resolved one:
 * a private address needs its host in `citations.allow_private_hosts`.
 */
import dns from 'node:dns';
import { isIP } from 'node:net';
import { normalizeHost } from './allow-list.js';
import type { DnsLookup } from './resolver.js';

/** A lookup that answers the listed names from `hosts` and asks `fallback` for every other name. */
export function staticHostsLookup(
  hosts: Readonly<Record<string, string>>,
  fallback: DnsLookup = dns.lookup,
): DnsLookup {
  const table = new Map(Object.entries(hosts).map(([name, address]) => [normalizeHost(name), address]));
  return (hostname, options, callback) => {
    const address = table.get(normalizeHost(hostname));
    if (address === undefined) {
      fallback(hostname, options, callback);
      return;
    }
    process.nextTick(callback, null, [{ address, family: isIP(address) }]);
  };
}
