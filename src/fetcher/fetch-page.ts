/**
 * Fetches one cited page for the citation verifier. The URL comes from text
 * an agent wrote from untrusted web content, so every hop is checked: the
 * URL by url-policy.ts before the request, the resolved addresses by
 * resolver.ts inside the connection. Redirects are followed here, by hand,
 * so each target passes the same checks; sizes and time are bounded, and a
 * network failure is an outcome with a reason, never an exception.
 */
import { Agent, Pool, request, type Dispatcher } from 'undici';
import { allowListKey, parseAllowEntry, portOf } from './allow-list.js';
import { FetcherError, networkFailure } from './errors.js';
import { ACCEPT_ENCODING, parseContentEncoding, readBody, releaseBody } from './read-body.js';
import { createGuardedLookup, type DnsLookup } from './resolver.js';
import { checkUrl, type FetchPolicy } from './url-policy.js';
import { failedAs, inSpan, SpanKind, type Attributes } from '../telemetry/spans.js';

export { HostLimiter } from './host-limiter.js';

/**
 * Why a page could not be had. `http_<status>` is a final answer outside
 * 2xx, or a 3xx without a Location header.
 */
export type FetchFailure =
  | 'invalid_url'
  | 'unsupported_scheme'
  | 'blocked_address'
  | 'dns_error'
  | 'connection_error'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'redirect_loop'
  | 'unsupported_encoding'
  | `http_${number}`;

export type FetchOutcome =
  | {
      ok: true;
      /** The URL of the page returned, after redirects; a fragment of the cited URL is kept. */
      finalUrl: string;
      status: number;
      contentType: string | undefined;
      /** The decoded body. */
      body: Uint8Array;
      /** Body bytes as received, before decompression. */
      wireBytes: number;
      /** Each redirect target in the order followed; empty without redirects. */
      redirects: string[];
      elapsedMs: number;
    }
  | { ok: false; reason: FetchFailure; detail: string; status?: number; elapsedMs: number };

/** What the verifier asks for: pages and PDFs first, anything else last. */
export const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,text/plain,application/pdf;q=0.9,*/*;q=0.1';

export interface FetchOptions {
  policy: FetchPolicy;
  /** @see `citations.connect_timeout_ms` */
  connectTimeoutMs: number;
  /** Time from the request to the complete response headers. @see `citations.headers_timeout_ms` */
  headersTimeoutMs: number;
  /** Longest silence between two body chunks. @see `citations.body_timeout_ms` */
  bodyTimeoutMs: number;
  /** Bound on the whole fetch, redirects and body included. @see `citations.total_timeout_ms` */
  totalTimeoutMs: number;
  /** Body bytes on the wire (compressed) at most; a larger Content-Length is refused unread. */
  maxBytes: number;
  /** Body bytes after decompression at most. */
  maxDecodedBytes: number;
  /** @defaultValue 5 in the configuration (`citations.max_redirects`) */
  maxRedirects: number;
  userAgent: string;
  /** @defaultValue {@link DEFAULT_ACCEPT} */
  accept?: string | undefined;
  /**
   * An agent from {@link createFetchAgent}, to reuse connections across
   * calls; without it each call makes an agent and destroys it after.
   * Any other dispatcher is refused: it would connect without the DNS guard.
   */
  dispatcher?: Dispatcher | undefined;
  /** The resolver under the DNS guard; `dns.lookup` when absent. Tests inject a fake one. */
  lookup?: DnsLookup | undefined;
  /** Cancels the fetch; fetchPage then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

export type FetchAgentOptions = Pick<
  FetchOptions,
  'policy' | 'connectTimeoutMs' | 'headersTimeoutMs' | 'bodyTimeoutMs' | 'lookup'
>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

// Bodies of redirects and errors are read up to this much so the connection
// can be reused; a larger one is dropped with its socket.
const DISCARD_LIMIT = 16 * 1024;

interface AgentGuard {
  policyKey: string;
  lookup: DnsLookup | undefined;
}

// Agents built by createFetchAgent, with what their DNS guard enforces.
const guardedAgents = new WeakMap<Dispatcher, AgentGuard>();

function policyKey(policy: FetchPolicy): string {
  return allowListKey(policy.allowPrivateHosts);
}

function positiveInt(name: string, value: unknown, min = 1): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new FetcherError('CITATION_BAD_OPTIONS', `${name} must be an integer >= ${min}, got ${String(value)}`);
  }
}

function validateAgentOptions(options: FetchAgentOptions): void {
  if (!Array.isArray(options.policy?.allowPrivateHosts)) {
    throw new FetcherError('CITATION_BAD_OPTIONS', 'policy.allowPrivateHosts must be an array of host names');
  }
  for (const entry of options.policy.allowPrivateHosts) {
    const parsed = parseAllowEntry(entry);
    if (!parsed.ok) throw new FetcherError('CITATION_BAD_OPTIONS', `policy.allowPrivateHosts: ${parsed.detail}`);
  }
  positiveInt('connectTimeoutMs', options.connectTimeoutMs);
  positiveInt('headersTimeoutMs', options.headersTimeoutMs);
  positiveInt('bodyTimeoutMs', options.bodyTimeoutMs);
}

function validateOptions(options: FetchOptions): void {
  validateAgentOptions(options);
  positiveInt('totalTimeoutMs', options.totalTimeoutMs);
  positiveInt('maxBytes', options.maxBytes);
  positiveInt('maxDecodedBytes', options.maxDecodedBytes);
  positiveInt('maxRedirects', options.maxRedirects, 0);
  if (typeof options.userAgent !== 'string' || (options.accept !== undefined && typeof options.accept !== 'string')) {
    throw new FetcherError('CITATION_BAD_OPTIONS', 'userAgent and accept must be strings');
  }
  if (options.dispatcher) {
    const guard = guardedAgents.get(options.dispatcher);
    if (!guard) {
      throw new FetcherError('CITATION_BAD_OPTIONS', 'dispatcher must come from createFetchAgent');
    }
    // The agent's lookup applies to connections, the options' policy to URLs:
    // they must agree, or a host would be checked by one rule and not the other.
    if (guard.policyKey !== policyKey(options.policy)) {
      throw new FetcherError('CITATION_BAD_OPTIONS', 'dispatcher was created with a different allow-list');
    }
    if (options.lookup && options.lookup !== guard.lookup) {
      throw new FetcherError('CITATION_BAD_OPTIONS', 'dispatcher was created with a different lookup');
    }
  }
}

/**
 * An undici Agent whose connections pass the DNS guard. No redirect
 * interceptor: fetchPage follows redirects itself, checking each target.
 */
export function createFetchAgent(options: FetchAgentOptions): Agent {
  validateAgentOptions(options);
  const agent = new Agent({
    // One pool per origin, as undici's own factory makes, each with a guard
    // for the origin's port: net.connect gives a lookup the host name alone,
    // and an allow-list entry admits a name on its ports only.
    factory: (origin, opts) =>
      new Pool(origin, {
        ...opts,
        connect: {
          lookup: createGuardedLookup(options.policy, portOf(new URL(origin)), options.lookup),
          timeout: options.connectTimeoutMs,
        },
      }),
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
  });
  guardedAgents.set(agent, { policyKey: policyKey(options.policy), lookup: options.lookup });
  return agent;
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A redirect that drops the fragment keeps the one of the URL it came from (RFC 9110 10.2.2). */
function withFragment(next: URL, from: URL): URL {
  if (next.hash === '' && from.hash !== '') next.hash = from.hash;
  return next;
}

/** A URL for a detail text: no credentials, and short, since it is untrusted and goes to the logs. */
function shown(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href.length > 200 ? `${copy.href.slice(0, 200)}...` : copy.href;
}

function withoutFragment(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

async function discard(body: Dispatcher.ResponseData['body'], signal: AbortSignal): Promise<void> {
  try {
    await body.dump({ limit: DISCARD_LIMIT, signal });
  } catch {
    // dump destroys the body when it fails: the socket is released either way.
  }
  await connectionFreed();
}

/**
 * undici's pool takes a connection back a turn after its body ends (on the
 * client's 'drain'); a request made before that, like the next redirect hop
 * or the next citation of the same host, would open a second connection.
 */
function connectionFreed(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

type Failed = Extract<FetchOutcome, { ok: false }>;
type Attempt = Extract<FetchOutcome, { ok: true }> | Omit<Failed, 'elapsedMs'>;

async function follow(
  cited: string,
  options: FetchOptions,
  dispatcher: Dispatcher,
  signal: AbortSignal,
  started: number,
): Promise<Attempt> {
  const redirects: string[] = [];
  const seen = new Set<string>();
  let current = cited;
  for (;;) {
    const check = checkUrl(current, options.policy);
    if (!check.ok) return { ok: false, reason: check.reason, detail: check.detail };
    const target = check.url;
    seen.add(withoutFragment(target));

    const { statusCode, headers, body } = await request(target, {
      method: 'GET',
      dispatcher,
      signal,
      headers: {
        'user-agent': options.userAgent,
        accept: options.accept ?? DEFAULT_ACCEPT,
        'accept-encoding': ACCEPT_ENCODING,
      },
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
    });

    if (REDIRECTS.has(statusCode)) {
      await discard(body, signal);
      const location = header(headers, 'location');
      if (location === undefined) {
        return {
          ok: false,
          reason: `http_${statusCode}`,
          detail: 'redirect without a Location header',
          status: statusCode,
        };
      }
      let next: URL;
      try {
        next = withFragment(new URL(location, target), target);
      } catch {
        return { ok: false, reason: 'invalid_url', detail: 'unparsable Location header', status: statusCode };
      }
      if (seen.has(withoutFragment(next))) {
        return { ok: false, reason: 'redirect_loop', detail: `redirect back to ${shown(next)}`, status: statusCode };
      }
      if (redirects.length >= options.maxRedirects) {
        const detail = `more than ${options.maxRedirects} redirects`;
        return { ok: false, reason: 'too_many_redirects', detail, status: statusCode };
      }
      redirects.push(next.href);
      current = next.href;
      continue;
    }

    if (statusCode < 200 || statusCode > 299) {
      await discard(body, signal);
      return { ok: false, reason: `http_${statusCode}`, detail: `HTTP ${statusCode}`, status: statusCode };
    }

    const declared = Number(header(headers, 'content-length'));
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      releaseBody(body);
      const detail = `Content-Length ${declared} exceeds ${options.maxBytes} bytes`;
      return { ok: false, reason: 'too_large', detail, status: statusCode };
    }
    const encoding = parseContentEncoding(headers['content-encoding']);
    if (!encoding.ok) {
      releaseBody(body);
      return { ok: false, reason: 'unsupported_encoding', detail: encoding.detail, status: statusCode };
    }
    const read = await readBody(body, encoding.coding, {
      maxBytes: options.maxBytes,
      maxDecodedBytes: options.maxDecodedBytes,
    });
    if (!read.ok) return { ok: false, reason: read.reason, detail: read.detail, status: statusCode };
    await connectionFreed();
    return {
      ok: true,
      finalUrl: target.href,
      status: statusCode,
      contentType: header(headers, 'content-type'),
      body: read.body,
      wireBytes: read.wireBytes,
      redirects,
      elapsedMs: Math.round(performance.now() - started),
    };
  }
}

/**
 * Fetches `url` with GET. Resolves with the page or with the reason it could
 * not be had; rejects only on a programming error (bad options, a foreign
 * dispatcher) or when `options.signal` aborts, with the signal's reason.
 */
export async function fetchPage(url: string, options: FetchOptions): Promise<FetchOutcome> {
  return inSpan('GET', { kind: SpanKind.CLIENT, attributes: urlAttributes(url) }, async (span) => {
    const outcome = await fetchOnce(url, options);
    if (outcome.ok) {
      span.setAttributes({
        'http.response.status_code': outcome.status,
        'http.response.body.size': outcome.wireBytes,
        'cosci.fetch.redirects': outcome.redirects.length,
      });
    } else {
      if (outcome.status !== undefined) span.setAttribute('http.response.status_code', outcome.status);
      failedAs(span, outcome.reason);
    }
    return outcome;
  });
}

/**
 * What an HTTP client span records of the cited URL: its scheme, host, port
 * and path. Never its credentials, its query or its fragment: a trace
 * backend is no place for a token a URL carries.
 */
function urlAttributes(url: string): Attributes {
  try {
    const u = new URL(url);
    const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
    return {
      'http.request.method': 'GET',
      'url.scheme': u.protocol.replace(/:$/, ''),
      'server.address': u.hostname.replace(/^\[(.*)\]$/, '$1'),
      'server.port': port,
      'url.full': `${u.protocol}//${u.host}${u.pathname}`,
    };
  } catch {
    return { 'http.request.method': 'GET' };
  }
}

async function fetchOnce(url: string, options: FetchOptions): Promise<FetchOutcome> {
  validateOptions(options);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const caller = options.signal;
  caller?.throwIfAborted();

  // One signal for every hop and the body: the caller's abort or the deadline.
  const controller = new AbortController();
  const deadline = `no complete response within ${options.totalTimeoutMs} ms`;
  let deadlinePassed = false;
  const timer = setTimeout(() => {
    deadlinePassed = true;
    controller.abort(new Error(deadline));
  }, options.totalTimeoutMs);
  const onCallerAbort = () => controller.abort(caller?.reason);
  caller?.addEventListener('abort', onCallerAbort, { once: true });

  const ownAgent = options.dispatcher ? undefined : createFetchAgent(options);
  const dispatcher = options.dispatcher ?? ownAgent!;
  try {
    const attempt = await follow(url, options, dispatcher, controller.signal, started);
    return attempt.ok ? attempt : { ...attempt, elapsedMs: elapsed() };
  } catch (err) {
    if (caller?.aborted) throw caller.reason;
    if (deadlinePassed) {
      return { ok: false, reason: 'timeout', detail: deadline, elapsedMs: elapsed() };
    }
    const failure = networkFailure(err);
    if (!failure) throw err;
    return { ok: false, ...failure, elapsedMs: elapsed() };
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener('abort', onCallerAbort);
    // Every body has been read or destroyed by now; this closes idle sockets.
    if (ownAgent) await ownAgent.destroy().catch(() => undefined);
  }
}
