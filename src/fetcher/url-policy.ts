/**
 * The check every URL passes before a connection, the cited one and each
 * redirect target alike. It refuses what can be refused from the URL alone:
 * other schemes, credentials, and IP-literal hosts that are not public. Host
 * names are checked when they are resolved (resolver.ts): an IP literal is
 * never resolved, so net.connect would not consult a lookup guard for it.
 */
import { isIP } from 'node:net';
import { classifyAddress } from './address.js';

export interface FetchPolicy {
  /**
   * Host names (exact, case-insensitive: `localhost` does not admit
   * `localhost.` or `a.localhost`) and IP literals allowed to be private,
   * for tests and on-premise deployments. A name on the list may resolve to
   * any address; it admits that name only, never other names that resolve
   * to the same private addresses.
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

/** `[::1]` -> `::1`: URL.hostname keeps the brackets of an IPv6 literal. */
function bare(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * The form a host takes in URL.hostname (brackets removed), so that an
 * allow-list entry written `::1`, `[::1]` or `0:0::1` matches `http://[::1]/`.
 * Entries that do not parse are kept lowercased and never match anything odd.
 */
export function normalizeHost(host: string): string {
  const trimmed = bare(host.trim().toLowerCase());
  try {
    if (isIP(trimmed) === 6) return bare(new URL(`http://[${trimmed}]/`).hostname);
    if (isIP(trimmed) === 4) return new URL(`http://${trimmed}/`).hostname;
  } catch {
    // Not reachable for a valid isIP result; keep the entry as written.
  }
  return trimmed;
}

/** True when `hostname` (from a URL or a lookup call) is on the allow-list. */
export function isAllowedHost(hostname: string, policy: FetchPolicy): boolean {
  const host = normalizeHost(hostname);
  return policy.allowPrivateHosts.some((entry) => normalizeHost(entry) === host);
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
  if (isIP(host) !== 0 && !isAllowedHost(host, policy)) {
    const kind = classifyAddress(host);
    if (kind !== 'public') {
      return { ok: false, reason: 'blocked_address', detail: `${host} is a ${kind} address` };
    }
  }
  return { ok: true, url };
}
