/**
 * The check every URL passes before a connection, the cited one and each
 * redirect target alike. It refuses what can be refused from the URL alone:
 * other schemes, credentials, and IP-literal hosts that are not public. Host
 * names are checked when they are resolved (resolver.ts): an IP literal is
 * never resolved, so net.connect would not consult a lookup guard for it.
 * Both check the port too: an allow-list entry admits a host on its ports.
 */
import { isIP } from 'node:net';
import { classifyAddress } from './address.js';
import { admits, bare, hostPort, listsHost, portOf } from './allow-list.js';

export interface FetchPolicy {
  /**
   * Destinations allowed to be private, for tests and on-premise
   * deployments: a host name (exact, case-insensitive: `localhost` does not
   * admit `localhost.` or `a.localhost`) or IP literal, with the ports it is
   * admitted on (`host:8080`, `[::1]:8080`, `host:*`; without a port, 80 and
   * 443 only). See allow-list.ts. A name on the list may resolve to any
   * address; it admits that name only, never other names that resolve to the
   * same private addresses.
   * @defaultValue `[]` in the configuration (`citations.allow_private_hosts`)
   */
  allowPrivateHosts: readonly string[];
}

export type UrlRefusal = 'invalid_url' | 'unsupported_scheme' | 'blocked_address';

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: UrlRefusal; detail: string };

const SCHEMES = new Set(['http:', 'https:']);

// Untrusted text goes into `detail`, which ends up in logs: keep it short.
const MAX_ECHO = 200;

function echo(raw: string): string {
  return JSON.stringify(raw.length > MAX_ECHO ? `${raw.slice(0, MAX_ECHO)}...` : raw);
}

/** True when the allow-list admits `hostname` (from a URL or a lookup call) on `port`. */
export function isAllowedHost(hostname: string, port: number, policy: FetchPolicy): boolean {
  return admits(policy.allowPrivateHosts, hostname, port);
}

/**
 * Said after a refusal of a host the list names for other ports, since that
 * is the mistake an operator is most likely to be looking for; '' otherwise.
 */
export function otherPortsNote(hostname: string, policy: FetchPolicy): string {
  return listsHost(policy.allowPrivateHosts, hostname)
    ? ` (the allow-list admits ${bare(hostname)} on other ports only)`
    : '';
}

export function checkUrl(raw: string, policy: FetchPolicy): UrlCheck {
  if (typeof raw !== 'string' || raw.length === 0) {
    return { ok: false, reason: 'invalid_url', detail: 'empty URL' };
  }
  // The WHATWG parser is what undici uses too, so both read the same host;
  // it also rewrites decimal, hex, octal and short IPv4 forms into dotted
  // quads, so `http://2130706433/` is checked as 127.0.0.1.
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'invalid_url', detail: `not an absolute URL: ${echo(raw)}` };
  }
  if (!SCHEMES.has(url.protocol)) {
    return { ok: false, reason: 'unsupported_scheme', detail: `scheme ${echo(url.protocol)} is not http or https` };
  }
  // Never echo this URL: the credentials would land in the logs.
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'invalid_url', detail: 'the URL carries credentials' };
  }
  const host = bare(url.hostname);
  if (host === '') return { ok: false, reason: 'invalid_url', detail: `no host in ${echo(raw)}` };
  if (isIP(host) !== 0 && !isAllowedHost(host, portOf(url), policy)) {
    const kind = classifyAddress(host);
    if (kind !== 'public') {
      const detail = `${hostPort(host, portOf(url))} is a ${kind} address${otherPortsNote(host, policy)}`;
      return { ok: false, reason: 'blocked_address', detail };
    }
  }
  return { ok: true, url };
}
