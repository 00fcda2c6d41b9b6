import type http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage, type FetchOutcome } from '../../src/fetcher/fetch-page.js';
import { closedPort, startServer, testOptions, type LoopbackServer } from './loopback.js';

let server: LoopbackServer;
const timers = new Set<NodeJS.Timeout>();

function failure(outcome: FetchOutcome): { reason: string; detail: string; elapsedMs: number } {
  if (outcome.ok) throw new Error(`expected a failure, got ${outcome.status}`);
  return outcome;
}

/** Sends one byte every `ms` until the client goes away. */
function drip(ms: number) {
  return (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const timer = setInterval(() => res.write('x'), ms);
    timers.add(timer);
    res.on('close', () => clearInterval(timer));
  };
}

beforeAll(async () => {
  server = await startServer({
    '/drip': drip(250),
    '/silent': () => undefined, // never answers
    '/stall': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('a first chunk, then nothing');
    },
    '/reset': (req) => req.socket.destroy(),
  });
});

afterAll(async () => {
  for (const timer of timers) clearInterval(timer);
  await server.close();
});

describe('fetchPage: time and connection failures', () => {
  it('stops a slow-drip body at the overall deadline', async () => {
    // Each byte arrives well within bodyTimeout; only the deadline stops it.
    const options = testOptions({ bodyTimeoutMs: 5000, totalTimeoutMs: 800 });
    const outcome = failure(await fetchPage(`${server.origin}/drip`, options));
    expect(outcome.reason).toBe('timeout');
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(750);
    expect(outcome.elapsedMs).toBeLessThan(1500);
  });

  // undici runs headers and body timers on a coarse clock (about half a
  // second per tick), so a 300 ms timeout fires within about a second.
  it('times out a server that never sends headers', async () => {
    const options = testOptions({ headersTimeoutMs: 300, totalTimeoutMs: 5000 });
    const outcome = failure(await fetchPage(`${server.origin}/silent`, options));
    expect(outcome.reason).toBe('timeout');
    expect(outcome.detail).toContain('UND_ERR_HEADERS_TIMEOUT');
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(250);
    expect(outcome.elapsedMs).toBeLessThan(2000);
  });

  it('times out a body that stops', async () => {
    const options = testOptions({ bodyTimeoutMs: 300, totalTimeoutMs: 5000 });
    const outcome = failure(await fetchPage(`${server.origin}/stall`, options));
    expect(outcome.reason).toBe('timeout');
    expect(outcome.detail).toContain('UND_ERR_BODY_TIMEOUT');
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(250);
    expect(outcome.elapsedMs).toBeLessThan(2000);
  });

  it('lets the deadline win over longer phase timeouts', async () => {
    const options = testOptions({ headersTimeoutMs: 5000, totalTimeoutMs: 300 });
    const outcome = failure(await fetchPage(`${server.origin}/silent`, options));
    expect(outcome.reason).toBe('timeout');
    expect(outcome.detail).toContain('300 ms');
    expect(outcome.elapsedMs).toBeGreaterThanOrEqual(280);
    expect(outcome.elapsedMs).toBeLessThan(1000);
  });

  it('reports a refused connection on an allowed host as connection_error', async () => {
    const port = await closedPort();
    const outcome = failure(await fetchPage(`http://localhost:${port}/`, testOptions()));
    expect(outcome.reason).toBe('connection_error');
    expect(outcome.detail).toContain('ECONNREFUSED');
  });

  it('reports a server that does not speak HTTP as connection_error', async () => {
    const garbage = net.createServer((socket) => {
      socket.resume(); // read the request, so the client's close is seen
      socket.end('NOT HTTP AT ALL\r\n\r\n');
    });
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    try {
      const port = (garbage.address() as net.AddressInfo).port;
      const outcome = failure(await fetchPage(`http://localhost:${port}/`, testOptions()));
      expect(outcome.reason).toBe('connection_error');
    } finally {
      await new Promise((resolve) => garbage.close(resolve));
    }
  });

  it('reports a connection closed before the answer as connection_error', async () => {
    const outcome = failure(await fetchPage(`${server.origin}/reset`, testOptions()));
    expect(outcome.reason).toBe('connection_error');
  });
});
