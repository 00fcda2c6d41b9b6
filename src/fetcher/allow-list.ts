/**
 * The allow-list of private destinations (`citations.allow_private_hosts`).
 * An entry admits a host on given ports, never the whole host: a page server
 * admitted on 127.0.0.1 once redirected a fetch to Redis on another port of
 * the same address. Entries:
 *
 * - `host` admits the default ports 80 and 443 only;
 * - `host:8080` admits that port; `[::1]:8080` for an IPv6 literal;
 * - `host:*` admits every port, for tests and hosts that serve nothing else.
 *
 * An IPv6 literal without brackets (`::1`) takes no port: `::1:8080` is an
 * address of its own.
 */
import { isIP } from 'node:net';

/** The ports an entry without a port admits. */
export const DEFAULT_PORTS: readonly number[] = [80, 443];

export interface AllowEntry {
  /** In the form of URL.hostname, brackets removed (see {@link normalizeHost}). */
  host: string;
  ports: 'any' | readonly number[];
}

export type ParsedEntry = { ok: true; entry: AllowEntry } | { ok: false; detail: string };

/** The form of an entry, for error messages. */
export const ENTRY_FORM = '`host`, `host:port`, `host:*`, `[ipv6]:port` or `[ipv6]:*`';

/** `[::1]` -> `::1`: URL.hostname keeps the brackets of an IPv6 literal. */
export function bare(hostname: string): string {
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

function parsePorts(text: string | undefined): AllowEntry['ports'] | undefined {
  if (text === undefined) return DEFAULT_PORTS;
  if (text === '*') return 'any';
  if (!/^[0-9]{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? [port] : undefined;
}

/** Reads one entry; a malformed one is refused with the reason, never guessed at. */
export function parseAllowEntry(raw: string): ParsedEntry {
  const invalid = (why: string): ParsedEntry => ({
    ok: false,
    detail: `${JSON.stringify(raw)} ${why}; expected ${ENTRY_FORM}`,
  });
  if (typeof raw !== 'string') return { ok: false, detail: `${String(raw)} is not a string` };
  const text = raw.trim().toLowerCase();
  let host: string;
  let portText: string | undefined;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return invalid('has no closing bracket');
    host = text.slice(1, close);
    const rest = text.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) return invalid('has text after the bracket that is not a port');
      portText = rest.slice(1);
    }
    if (isIP(host) !== 6) return invalid('holds something other than an IPv6 address in brackets');
  } else {
    const colons = text.split(':').length - 1;
    if (colons === 1) {
      [host, portText] = text.split(':') as [string, string];
    } else {
      host = text;
      if (colons > 1 && isIP(host) !== 6) return invalid('is neither a host with a port nor an IPv6 address');
    }
  }
  if (host === '') return invalid('names no host');
  const ports = parsePorts(portText);
  if (ports === undefined) return invalid('has a port that is not 1-65535 or *');
  return { ok: true, entry: { host: normalizeHost(host), ports } };
}

/**
 * True when an entry of `entries` admits `hostname` (from a URL or a lookup
 * call) on `port`. Malformed entries admit nothing; the configuration
 * refuses them at start-up and fetchPage refuses them as bad options.
 */
export function admits(entries: readonly string[], hostname: string, port: number): boolean {
  const host = normalizeHost(hostname);
  return entries.some((raw) => {
    const parsed = parseAllowEntry(raw);
    if (!parsed.ok || parsed.entry.host !== host) return false;
    return parsed.entry.ports === 'any' || parsed.entry.ports.includes(port);
  });
}

/** True when some entry names `hostname`, whatever its ports: to explain a refusal. */
export function listsHost(entries: readonly string[], hostname: string): boolean {
  const host = normalizeHost(hostname);
  return entries.some((raw) => {
    const parsed = parseAllowEntry(raw);
    return parsed.ok && parsed.entry.host === host;
  });
}

/** The port a URL connects to: the one written, or its scheme's default. */
export function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** `host:port`, with brackets around an IPv6 literal. */
export function hostPort(hostname: string, port: number): string {
  const host = bare(hostname);
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/** A canonical text of the list, so that two lists that admit the same destinations compare equal. */
export function allowListKey(entries: readonly string[]): string {
  const keys = entries.map((raw) => {
    const parsed = parseAllowEntry(raw);
    if (!parsed.ok) return `invalid ${raw}`;
    const ports = parsed.entry.ports === 'any' ? '*' : parsed.entry.ports.join(',');
    return `${parsed.entry.host} ${ports}`;
  });
  return [...new Set(keys)].sort().join('\n');
}
