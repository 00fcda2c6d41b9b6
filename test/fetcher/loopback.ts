/**
 * Real HTTP servers on 127.0.0.1 for the fetcher tests, with a record of what
 * they saw: the requests, the connections, and the responses still open.
 */
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DnsLookup } from '../../src/fetcher/resolver.js';
import type { FetchOptions } from '../../src/fetcher/fetch-page.js';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface LoopbackServer {
  port: number;
  /** Through the allow-listed name: `http://localhost:PORT`. */
  origin: string;
  /** The same server by IP literal, which the policy refuses. */
  literal: string;
  /** Request paths in arrival order. */
  requests: string[];
  /** Distinct TCP connections accepted. */
  connections: number;
  /** Requests whose response has not closed yet. */
  open(): number;
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

export async function startServer(routes: Record<string, Handler> = {}): Promise<LoopbackServer> {
  const table = new Map(Object.entries(routes));
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    state.requests.push(req.url ?? '');
    inFlight++;
    res.on('close', () => {
      inFlight--;
    });
    const handler = table.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (handler) {
      handler(req, res);
    } else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  server.on('connection', () => {
    state.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const state: LoopbackServer = {
    port,
    origin: `http://localhost:${port}`,
    literal: `http://127.0.0.1:${port}`,
    requests: [],
    connections: 0,
    open: () => inFlight,
    route: (path, handler) => table.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}

/**
 * One request on a connection of its own, answered. The server accepts
 * connections in the order they arrive and counts each as it accepts it, so
 * once this answer is in, every connection made before it is counted: a test
 * counting connections waits for this rather than for a guessed pause.
 */
export function countedSoFar(server: LoopbackServer): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get(`${server.literal}/counted-so-far`, { agent: false }, (res) => res.resume().on('end', resolve))
      .on('error', reject);
  });
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A resolver answering from a table, as a DNS server under an attacker's control could. */
export function fakeLookup(table: Record<string, string[]>): DnsLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = (
    hostname: string,
    _options: unknown,
    callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
  ) => {
    calls.push(hostname);
    const answers = table[hostname];
    setImmediate(() => {
      if (!answers) {
        const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        err.code = 'ENOTFOUND';
        callback(err, []);
        return;
      }
      callback(
        null,
        answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    });
  };
  return Object.assign(lookup, { calls });
}

/**
 * Small limits, so every failure shows within a second or two. The servers
 * here listen on ports the system picks, one or more a test, so the name is
 * admitted on every port; the tests of the allow-list give their own.
 */
export function testOptions(overrides: Partial<FetchOptions> = {}): FetchOptions {
  return {
    policy: { allowPrivateHosts: ['localhost:*'] },
    connectTimeoutMs: 1000,
    headersTimeoutMs: 2000,
    bodyTimeoutMs: 2000,
    totalTimeoutMs: 4000,
    maxBytes: 1024 * 1024,
    maxDecodedBytes: 2 * 1024 * 1024,
    maxRedirects: 5,
    userAgent: 'cosci-safety-test',
    ...overrides,
  };
}

/** The decoded body as text. */
export function text(body: Uint8Array): string {
  return Buffer.from(body).toString('utf8');
}
