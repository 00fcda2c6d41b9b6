import type http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchAgent, fetchPage, type FetchOutcome } from '../../src/fetcher/fetch-page.js';
import { until } from '../support/poll.js';
import { startServer, testOptions, text, type LoopbackServer } from './loopback.js';

/** A cut response's connection closes within moments; the server hears of it on its next turn. */
const CLOSE_SOON = { timeoutMs: 2000, everyMs: 10 };

// Numbered lines, so the page does not shrink to a few bytes when compressed.
const PAGE = `<html><body>${Array.from({ length: 400 }, (_, i) => `<p>line ${i}: ${(i * 7919) % 10007}</p>`).join('')}</body></html>`;

// 10 MB of zeros gzip to about 10 KB; a hundred such members, concatenated
// (a valid gzip stream), are 1 GB once inflated from about 1 MB on the wire.
const BOMB_MEMBER = zlib.gzipSync(Buffer.alloc(10 * 1024 * 1024));
const BOMB = Buffer.concat(Array.from({ length: 100 }, () => BOMB_MEMBER));

let server: LoopbackServer;

function encoded(encoding: string, body: Buffer) {
  return (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': encoding, 'content-length': body.length });
    res.end(body);
  };
}

function failure(outcome: FetchOutcome): { reason: string; detail: string } {
  if (outcome.ok) throw new Error(`expected a failure, got ${outcome.status}`);
  return outcome;
}

beforeAll(async () => {
  server = await startServer({
    '/gzip': encoded('gzip', zlib.gzipSync(PAGE)),
    '/x-gzip': encoded('x-gzip', zlib.gzipSync(PAGE)),
    '/deflate': encoded('deflate', zlib.deflateSync(PAGE)),
    '/deflate-raw': encoded('deflate', zlib.deflateRawSync(PAGE)),
    '/br': encoded('br', zlib.brotliCompressSync(PAGE)),
    '/identity': encoded('identity', Buffer.from(PAGE)),
    '/truncated-gzip': encoded('gzip', zlib.gzipSync(PAGE).subarray(0, 200)),
    '/corrupt-gzip': encoded('gzip', Buffer.from('this is not gzip at all')),
    '/zstd': encoded('zstd', Buffer.from('whatever')),
    '/stacked': encoded('gzip, br', zlib.brotliCompressSync(zlib.gzipSync(PAGE))),
    '/bomb': encoded('gzip', BOMB),
    '/gzip-chunked': (_req, res) => {
      const body = zlib.gzipSync(PAGE);
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      res.write(body.subarray(0, 100));
      setTimeout(() => res.end(body.subarray(100)), 20);
    },
    '/big-declared': (_req, res) => {
      // Announces 50 MB, sends a little, then waits: the refusal must not wait.
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 50 * 1024 * 1024 });
      res.write('x'.repeat(100));
    },
    '/endless': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'a');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    },
  });
});

afterAll(async () => {
  await server.close();
});

describe('fetchPage: content encodings', () => {
  it.each(['/gzip', '/x-gzip', '/deflate', '/deflate-raw', '/br', '/identity'])('decodes %s', async (path) => {
    const outcome = await fetchPage(`${server.origin}${path}`, testOptions());
    if (!outcome.ok) throw new Error(`${outcome.reason}: ${outcome.detail}`);
    expect(text(outcome.body)).toBe(PAGE);
    if (path !== '/identity') expect(outcome.wireBytes).toBeLessThan(PAGE.length);
  });

  it('keeps what a truncated gzip stream holds', async () => {
    const outcome = await fetchPage(`${server.origin}/truncated-gzip`, testOptions());
    if (!outcome.ok) throw new Error(outcome.detail);
    expect(PAGE.startsWith(text(outcome.body))).toBe(true);
  });

  it('refuses unknown, stacked and corrupt encodings', async () => {
    for (const path of ['/zstd', '/stacked', '/corrupt-gzip']) {
      const outcome = failure(await fetchPage(`${server.origin}${path}`, testOptions()));
      expect(outcome.reason, path).toBe('unsupported_encoding');
    }
  });
});

describe('fetchPage: size limits', () => {
  it('refuses a gzip bomb without inflating it', async () => {
    const started = performance.now();
    const outcome = failure(
      await fetchPage(
        `${server.origin}/bomb`,
        testOptions({ maxBytes: 4 * 1024 * 1024, maxDecodedBytes: 1024 * 1024 }),
      ),
    );
    expect(outcome.reason).toBe('too_large');
    expect(outcome.detail).toContain('after decompression');
    // Inflating the whole gigabyte takes seconds; stopping at the cap, milliseconds.
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('counts the decoded size of an unencoded body too', async () => {
    const outcome = failure(await fetchPage(`${server.origin}/identity`, testOptions({ maxDecodedBytes: 1000 })));
    expect(outcome.reason).toBe('too_large');
  });

  it('refuses a Content-Length above maxBytes before reading the body', async () => {
    const started = performance.now();
    const outcome = failure(await fetchPage(`${server.origin}/big-declared`, testOptions({ maxBytes: 1024 * 1024 })));
    expect(outcome.reason).toBe('too_large');
    expect(outcome.detail).toContain('Content-Length');
    expect(performance.now() - started).toBeLessThan(1000);
    await until('the responses closed', () => server.open() === 0, CLOSE_SOON);
  });

  it('stops an endless chunked body at maxBytes and closes its connection', async () => {
    const started = performance.now();
    const outcome = failure(await fetchPage(`${server.origin}/endless`, testOptions({ maxBytes: 256 * 1024 })));
    expect(outcome.reason).toBe('too_large');
    expect(outcome.detail).toContain('on the wire');
    expect(performance.now() - started).toBeLessThan(1000);
    // The server sees its response cut: the connection was closed, not left streaming.
    await until('the responses closed', () => server.open() === 0, CLOSE_SOON);
  });

  it('counts compressed bytes on the wire when no length is declared', async () => {
    const ok = await fetchPage(`${server.origin}/gzip-chunked`, testOptions());
    expect(ok.ok && text(ok.body)).toBe(PAGE);
    const outcome = failure(await fetchPage(`${server.origin}/gzip-chunked`, testOptions({ maxBytes: 1000 })));
    expect(outcome.reason).toBe('too_large');
    expect(outcome.detail).toContain('on the wire');
  });
});

describe('fetchPage: connections', () => {
  it('releases the connection on every path, so a long run does not leak', async () => {
    server.route('/stall', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('a first chunk, then nothing');
    });
    server.route('/redirect-self', (_req, res) => {
      res.writeHead(302, { location: '/redirect-self' });
      res.end();
    });
    const options = testOptions({ maxBytes: 4 * 1024 * 1024, maxDecodedBytes: 1024 * 1024, bodyTimeoutMs: 300 });
    const agent = createFetchAgent(options);
    try {
      const paths = [
        '/gzip',
        '/missing',
        '/redirect-self',
        '/big-declared',
        '/endless',
        '/bomb',
        '/zstd',
        '/corrupt-gzip',
        '/stall',
        '/br',
      ];
      const reasons: string[] = [];
      for (let round = 0; round < 2; round++) {
        for (const path of paths) {
          const outcome = await fetchPage(`${server.origin}${path}`, { ...options, dispatcher: agent });
          reasons.push(outcome.ok ? 'ok' : outcome.reason);
        }
      }
      expect(reasons.slice(0, paths.length)).toEqual([
        'ok',
        'http_404',
        'redirect_loop',
        'too_large',
        'too_large',
        'too_large',
        'unsupported_encoding',
        'unsupported_encoding',
        'timeout',
        'ok',
      ]);
      expect(reasons.slice(paths.length)).toEqual(reasons.slice(0, paths.length));
      await until('the responses closed', () => server.open() === 0, CLOSE_SOON);
      const stats = agent.stats[server.origin] as { running: number; pending: number; connected: number; free: number };
      expect(stats.running).toBe(0);
      expect(stats.pending).toBe(0);
      // Whatever is still connected is idle in the pool, ready for reuse.
      expect(stats.connected).toBe(stats.free);
    } finally {
      await agent.close();
    }
  });
});
