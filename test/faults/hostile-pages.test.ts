/**
 * Reliability under faults: reviews cite pages from a loopback server that
 * misbehaves in every way docs/citations.md guards against, many reviews at
 * once through a real worker: a body that never ends, a gzip bomb, one byte a
 * second, a server that never answers, redirect loops and chains, redirects
 * into the private network, every spelling of a private address, bytes that
 * are not in the declared charset, a charset that does not exist, and a
 * 50 MB page.
 *
 * Each citation must get its documented status and reason, each review must
 * finish within the configured time bounds, the server must see no request
 * for what was refused, memory must stay within the byte caps, the worker
 * must stay up, and each event must appear once.
 */
import net, { type AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from 'bullmq';
import type { ReviewVerification } from '../../src/contracts/results.js';
import type { StreamEvent } from '../../src/events/reader.js';
import { startPageServer, type PageServer } from '../support/page-server.js';
import { testConfig } from '../support/config.js';
import { heldMemory, peakRss, resetPeakRss } from '../support/memory.js';
import { startHarness, type Harness } from '../support/pipeline.js';
import { until } from '../support/poll.js';

const MiB = 1024 * 1024;

/**
 * Short bounds, so that every hostile page is cut off within a few seconds,
 * and long enough that a page which fails at once (a redirect loop, a page
 * read to its cap) fails for its own reason, not for the clock, while two
 * loaded cores serve 24 reviews of 30 citations each: 2.5 s was seen to
 * turn a redirect loop into a timeout at a load of 10.
 */
const LIMITS = {
  connect_timeout_ms: 2000,
  headers_timeout_ms: 2000,
  // Longer than the one-byte-a-second drip's gaps: only the overall deadline stops it.
  body_timeout_ms: 2000,
  total_timeout_ms: 5000,
  max_bytes: 1 * MiB,
  max_decoded_bytes: 2 * MiB,
  max_redirects: 5,
};
/**
 * Time a review may need beyond its slowest fetch: a few hundred ms on a
 * quiet two-core machine, many times that on a loaded one. An unbounded
 * page (the endless body, the drip) would hold its review without end.
 */
const SLACK_MS = 10_000;

const ARTICLE = `<!doctype html><html><head><title>Kinases</title></head><body><article>
<p>Protein kinase A phosphorylates the transcription factor CREB at serine 133, which recruits the coactivator CBP.</p>
<p>In yeast, the TOR pathway integrates nutrient signals; rapamycin inhibits TORC1 within 5 minutes.</p>
</article></body></html>`;
const EXCERPT = 'Protein kinase A phosphorylates the transcription factor CREB at serine 133';

// 10 MB of zeros gzip to about 10 KB; ten members in a row (a valid gzip
// stream) inflate to 100 MB from about 100 KB on the wire.
const BOMB = Buffer.concat(Array.from({ length: 10 }, () => zlib.gzipSync(Buffer.alloc(10 * 1024 * 1024))));

let pages: PageServer;
/** Responses the server has not finished or seen closed. */
let open = 0;
const timers = new Set<NodeJS.Timeout>();
const harnesses: Harness[] = [];

/** Counts the response as open until its connection closes. */
function tracked(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  return (req: IncomingMessage, res: ServerResponse) => {
    open++;
    res.on('close', () => open--);
    handler(req, res);
  };
}

function html(body: Buffer | string, contentType = 'text/html; charset=utf-8', extra: Record<string, string> = {}) {
  return tracked((_req, res) => res.writeHead(200, { 'content-type': contentType, ...extra }).end(body));
}

function redirect(to: (req: IncomingMessage) => string) {
  return tracked((req, res) => res.writeHead(302, { location: to(req) }).end());
}

/** The query of the request, so a redirect keeps the review's distinct URL. */
const query = (req: IncomingMessage) => (req.url?.includes('?') ? req.url.slice(req.url.indexOf('?')) : '');

beforeAll(async () => {
  pages = await startPageServer();
  const secret = `http://127.0.0.1:${pages.port}/secret`;
  pages.route('/article', html(ARTICLE));
  // Must never be requested: every URL that points here is refused before a connection.
  pages.route('/secret', html('<p>internal credentials</p>'));
  pages.route(
    '/endless',
    tracked((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    }),
  );
  pages.route('/bomb', html(BOMB, 'text/html', { 'content-encoding': 'gzip' }));
  pages.route(
    '/drip',
    tracked((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('x'), 1000);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    }),
  );
  pages.route(
    '/silent',
    tracked(() => undefined),
  );
  pages.route(
    '/loop-a',
    redirect((req) => `/loop-b${query(req)}`),
  );
  pages.route(
    '/loop-b',
    redirect((req) => `/loop-a${query(req)}`),
  );
  for (let i = 0; i < 10; i++)
    pages.route(
      `/hop/${i}`,
      redirect((req) => `/hop/${i + 1}${query(req)}`),
    );
  pages.route(
    '/to-loopback',
    redirect(() => secret),
  );
  pages.route(
    '/to-metadata',
    redirect(() => 'http://169.254.169.254/latest/meta-data/'),
  );
  pages.route(
    '/to-file',
    redirect(() => 'file:///etc/passwd'),
  );
  // Invalid UTF-8 (a lone continuation byte, an overlong form, 0xFF) between two valid paragraphs.
  pages.route(
    '/bad-utf8',
    html(
      Buffer.concat([
        Buffer.from('<p>The first paragraph is fine.</p><p>broken '),
        Buffer.from([0x80, 0xc0, 0xaf, 0xff, 0xfe]),
        Buffer.from(' bytes</p><p>Rapamycin inhibits TORC1 within 5 minutes in yeast.</p>'),
      ]),
    ),
  );
  // windows-1252 bytes declared as UTF-8: "café" arrives as "caf\uFFFD".
  pages.route('/lying-charset', html(Buffer.from('<p>Served with café au lait in Zürich.</p>', 'latin1')));
  // A charset no decoder knows: the body is read as what it is (not UTF-8, so windows-1252).
  pages.route(
    '/bogus-charset',
    html(
      Buffer.from('<p>Measured by Müller’s group in Zürich.</p>'.replace('’', '\x92'), 'latin1'),
      'text/html; charset=x-no-such-charset-42',
    ),
  );
  // ASCII bytes declared as UTF-16: the page reads as CJK, and the excerpt is not on it.
  pages.route('/utf16-lie', html(Buffer.from('<p>Rapamycin inhibits TORC1.</p>!'), 'text/html; charset=utf-16le'));
  pages.route('/bad-gzip', html(Buffer.from('this is not gzip at all'), 'text/html', { 'content-encoding': 'gzip' }));
  pages.route('/compress', html(Buffer.from('whatever'), 'text/html', { 'content-encoding': 'compress' }));
});
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.stop()));
});
afterAll(async () => {
  for (const timer of timers) clearInterval(timer);
  await pages.close();
});

async function harness(citations: Record<string, unknown> = {}) {
  const h = await startHarness(
    testConfig(undefined, {
      worker: { queues: ['review.recorded'], concurrency: 8 },
      citations: {
        allow_private_hosts: [`localhost:${pages.port}`],
        ...LIMITS,
        // Enough that no fetch waits for another: a review's time is its slowest fetch.
        per_host_concurrency: 512,
        review_concurrency: 64,
        ...citations,
      },
    }),
  );
  harnesses.push(h);
  return h;
}

interface Cited {
  name: string;
  url: (n: number) => string;
  excerpt?: string;
  status: 'ok' | 'unverified' | 'fetch_failed';
  /** The reason, or the reasons the platform may give (a name that does not resolve is refused either way). */
  reason?: string | string[];
}

async function results(h: Harness, reviewId: string): Promise<{ job: Job; result: ReviewVerification }> {
  const job = (await h.publisher.queue('review.recorded').getJob(`review.${reviewId}.r0`))!;
  return { job, result: job.returnvalue as ReviewVerification };
}

/** Each event id once, and exactly those the stored results call for. */
function expectEventsOnce(events: StreamEvent[], reviews: Array<{ reviewId: string; result: ReviewVerification }>) {
  const counts = new Map<string, number>();
  for (const e of events) counts.set(e.eventId, (counts.get(e.eventId) ?? 0) + 1);
  expect([...counts].filter(([, n]) => n !== 1)).toEqual([]);
  const expected = new Set<string>();
  for (const { reviewId, result } of reviews) {
    expected.add(`review_verified/${reviewId}/r0`);
    for (const r of result.results)
      if (r.status !== 'ok') expected.add(`citation_unverified/${reviewId}/r0/${r.index}`);
  }
  expect(new Set(counts.keys())).toEqual(expected);
}

describe('hostile pages under load', () => {
  it('gives every hostile citation its reason, within the time bounds, and keeps working', async () => {
    const h = await harness();
    const p = pages.port;
    const at = (path: string) => (n: number) => `${pages.base}${path}?review=${n}`;
    const secret = (host: string) => (n: number) => `http://${host}:${p}/secret?review=${n}`;
    const cited: Cited[] = [
      { name: 'article', url: at('/article'), excerpt: EXCERPT, status: 'ok' },
      { name: 'endless body', url: at('/endless'), status: 'fetch_failed', reason: 'too_large' },
      { name: 'gzip bomb', url: at('/bomb'), status: 'fetch_failed', reason: 'too_large' },
      { name: 'one byte a second', url: at('/drip'), status: 'fetch_failed', reason: 'timeout' },
      { name: 'no answer', url: at('/silent'), status: 'fetch_failed', reason: 'timeout' },
      { name: 'redirect loop', url: at('/loop-a'), status: 'fetch_failed', reason: 'redirect_loop' },
      { name: 'redirect chain', url: at('/hop/0'), status: 'fetch_failed', reason: 'too_many_redirects' },
      { name: 'redirect to loopback', url: at('/to-loopback'), status: 'fetch_failed', reason: 'blocked_address' },
      { name: 'redirect to metadata', url: at('/to-metadata'), status: 'fetch_failed', reason: 'blocked_address' },
      { name: 'redirect to file:', url: at('/to-file'), status: 'fetch_failed', reason: 'unsupported_scheme' },
      { name: 'loopback literal', url: secret('127.0.0.1'), status: 'fetch_failed', reason: 'blocked_address' },
      { name: 'decimal', url: secret('2130706433'), status: 'fetch_failed', reason: 'blocked_address' },
      { name: 'octal', url: secret('0177.0.0.1'), status: 'fetch_failed', reason: 'blocked_address' },
      { name: 'hex', url: secret('0x7f.0.0.1'), status: 'fetch_failed', reason: 'blocked_address' },
      { name: 'short', url: secret('127.1'), status: 'fetch_failed', reason: 'blocked_address' },
      { name: 'unspecified', url: secret('0.0.0.0'), status: 'fetch_failed', reason: 'blocked_address' },
      { name: 'IPv6 loopback', url: secret('[::1]'), status: 'fetch_failed', reason: 'blocked_address' },
      { name: 'IPv4-mapped', url: secret('[::ffff:127.0.0.1]'), status: 'fetch_failed', reason: 'blocked_address' },
      { name: 'IPv4-mapped hex', url: secret('[::ffff:7f00:1]'), status: 'fetch_failed', reason: 'blocked_address' },
      {
        name: 'metadata',
        url: (n) => `http://169.254.169.254/latest/meta-data/iam/security-credentials/?review=${n}`,
        status: 'fetch_failed',
        reason: 'blocked_address',
      },
      {
        name: 'private',
        url: (n) => `http://10.0.0.1/?review=${n}`,
        status: 'fetch_failed',
        reason: 'blocked_address',
      },
      // Not the allow-listed name: refused when it resolves (or not found at all).
      {
        name: 'trailing dot',
        url: secret('localhost.'),
        status: 'fetch_failed',
        reason: ['blocked_address', 'dns_error'],
      },
      {
        name: 'credentials',
        url: (n) => `http://user:pass@localhost:${p}/secret?review=${n}`,
        status: 'fetch_failed',
        reason: 'invalid_url',
      },
      {
        name: 'gopher',
        url: (n) => `gopher://localhost:${p}/secret?review=${n}`,
        status: 'fetch_failed',
        reason: 'unsupported_scheme',
      },
      // Decoding goes on past bytes that are not in the charset.
      {
        name: 'invalid UTF-8',
        url: at('/bad-utf8'),
        excerpt: 'Rapamycin inhibits TORC1 within 5 minutes in yeast.',
        status: 'ok',
      },
      {
        name: 'windows-1252 declared as UTF-8',
        url: at('/lying-charset'),
        excerpt: 'café au lait',
        status: 'unverified',
        reason: 'excerpt_not_found',
      },
      {
        name: 'unknown charset',
        url: at('/bogus-charset'),
        excerpt: 'Measured by Müller’s group in Zürich.',
        status: 'ok',
      },
      {
        name: 'ASCII declared as UTF-16',
        url: at('/utf16-lie'),
        excerpt: 'Rapamycin inhibits TORC1.',
        status: 'unverified',
        reason: 'excerpt_not_found',
      },
      { name: 'corrupt gzip', url: at('/bad-gzip'), status: 'fetch_failed', reason: 'unsupported_encoding' },
      { name: 'unknown coding', url: at('/compress'), status: 'fetch_failed', reason: 'unsupported_encoding' },
    ];

    const REVIEWS = 24;
    const rssBefore = process.memoryUsage().rss;
    resetPeakRss();
    for (let n = 0; n < REVIEWS; n++) {
      await h.publisher.publishReviewRecorded({
        reviewId: `hostile-${n}`,
        hypothesisId: `h-${n}`,
        evidence: cited.map((c) => ({ claim: c.name, url: c.url(n), excerpt: c.excerpt ?? 'anything at all' })),
      });
    }
    const queue = h.publisher.queue('review.recorded');
    await until(
      `${REVIEWS} reviews completed`,
      async () => (await queue.getJobCounts('completed')).completed === REVIEWS,
      { timeoutMs: 120_000 },
    );
    const peak = peakRss();

    const reviews: Array<{ reviewId: string; result: ReviewVerification }> = [];
    for (let n = 0; n < REVIEWS; n++) {
      const reviewId = `hostile-${n}`;
      const { job, result } = await results(h, reviewId);
      expect(await job.getState()).toBe('completed');
      expect(job.attemptsMade).toBe(1);
      // The whole review within the deadline of one fetch: every hostile
      // page was cut off by a cap or a timeout, none held the review longer.
      const tookMs = job.finishedOn! - job.processedOn!;
      expect(tookMs, reviewId).toBeLessThan(LIMITS.total_timeout_ms + SLACK_MS);
      const got = result.results.map((r) => ({ name: cited[r.index]!.name, status: r.status, reason: r.reason }));
      for (const [i, c] of cited.entries()) {
        const r = got[i]!;
        expect({ name: r.name, status: r.status }, `${reviewId}`).toEqual({ name: c.name, status: c.status });
        if (Array.isArray(c.reason)) expect(c.reason, `${reviewId} ${c.name}`).toContain(r.reason);
        else expect(r.reason, `${reviewId} ${c.name}`).toBe(c.reason);
      }
      expect(result.counts.ok + result.counts.unverified + result.counts.fetch_failed).toBe(cited.length);
      reviews.push({ reviewId, result });
    }

    // Nothing refused ever reached the server; the ones that were fetched, were, once per review.
    expect(pages.hits.get('/secret')).toBeUndefined();
    expect(pages.hits.get('/endless')).toBe(REVIEWS);
    expect(pages.hits.get('/bomb')).toBe(REVIEWS);
    expect(pages.hits.get('/loop-a')).toBe(REVIEWS);
    expect(pages.hits.get('/hop/5')).toBe(REVIEWS);
    expect(pages.hits.get('/hop/6')).toBeUndefined();
    // Each response cut off was closed, not left streaming into a socket nobody reads.
    await until('hostile responses closed', () => open === 0, { timeoutMs: 5000 });

    // The caps bound memory: unbounded, 24 endless bodies at loopback speed
    // for 2.5 s and 24 bombs of 100 MB would be gigabytes. Within the caps, the
    // reviews in flight at once (8) hold at most 8 x (1 MiB + 2 MiB) of bodies,
    // with their copies while read; 256 MiB leaves room for that and the heap's
    // own growth, not for one uncapped body.
    expect(peak - rssBefore).toBeLessThan(256 * MiB);

    expectEventsOnce(await h.events(), reviews);

    // The worker is still up and verifies a normal review.
    expect(h.runtime.workers.get('review.recorded')!.isRunning()).toBe(true);
    await h.publisher.publishReviewRecorded({
      reviewId: 'after',
      hypothesisId: 'h',
      evidence: [{ claim: 'c', url: `${pages.base}/article?after=1`, excerpt: EXCERPT }],
    });
    await h.waitForJob('review.recorded', 'review.after.r0');
    const after = await results(h, 'after');
    expect(after.result.counts).toEqual({ ok: 1, unverified: 0, fetch_failed: 0 });
  }, 180_000);

  it('admits an allow-listed address on its port, no other port of it, and no name that resolves to it', async () => {
    // Another service on the admitted address, as Redis was beside a page
    // server on the list: a redirect there must not even connect.
    let accepted = 0;
    const other = net.createServer((socket) => {
      accepted++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherPort = (other.address() as AddressInfo).port;
    pages.route(
      '/to-other-port',
      redirect(() => `http://127.0.0.1:${otherPort}/`),
    );
    try {
      const h = await harness({ allow_private_hosts: [`127.0.0.1:${pages.port}`] });
      const evidence = [
        { claim: 'literal', url: `http://127.0.0.1:${pages.port}/article?allowed=1`, excerpt: EXCERPT },
        { claim: 'name', url: `http://localhost:${pages.port}/secret?allowed=1`, excerpt: 'x' },
        { claim: 'upper case', url: `http://LOCALHOST:${pages.port}/secret?allowed=1`, excerpt: 'x' },
        { claim: 'other loopback', url: `http://127.0.0.2:${pages.port}/secret?allowed=1`, excerpt: 'x' },
        { claim: 'other port', url: `http://127.0.0.1:${otherPort}/?allowed=1`, excerpt: 'x' },
        { claim: 'redirect to another port', url: `http://127.0.0.1:${pages.port}/to-other-port`, excerpt: 'x' },
      ];
      await h.publisher.publishReviewRecorded({ reviewId: 'names', hypothesisId: 'h', evidence });
      await h.waitForJob('review.recorded', 'review.names.r0');
      const { result } = await results(h, 'names');
      expect(result.results.map((r) => [r.status, r.reason ?? null])).toEqual([
        ['ok', null],
        ['fetch_failed', 'blocked_address'],
        ['fetch_failed', 'blocked_address'],
        ['fetch_failed', 'blocked_address'],
        ['fetch_failed', 'blocked_address'],
        ['fetch_failed', 'blocked_address'],
      ]);
      expect(pages.hits.get('/secret')).toBeUndefined();
      expect(pages.hits.get('/to-other-port')).toBe(1);
      expect(accepted).toBe(0);
      expectEventsOnce(await h.events(), [{ reviewId: 'names', result }]);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});

describe('a 50 MB page', () => {
  const SIZE = 50 * MiB;
  let page: Buffer;
  const LAST = 'The final paragraph reports that kinase 8191 phosphorylates substrate 524287 in strain 131071.';

  beforeAll(() => {
    const parts: string[] = ['<!doctype html><html><body><article>'];
    let size = parts[0]!.length;
    for (let i = 0; size < SIZE - 4096; i++) {
      const p = `<p>Paragraph ${i}: kinase ${i % 97} phosphorylates substrate ${i % 89} in cell line ${i % 13}.</p>\n`;
      parts.push(p);
      size += p.length;
    }
    parts.push(`<p>${LAST}</p></article></body></html>`);
    page = Buffer.from(parts.join(''));
    pages.route('/fifty', html(page, 'text/html; charset=utf-8', { 'content-length': String(page.length) }));
    pages.route(
      '/fifty-chunked',
      tracked((_req, res) => {
        // No Content-Length: only counting the bytes can stop it.
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        let at = 0;
        const pump = () => {
          while (!res.destroyed && at < page.length) {
            const more = res.write(page.subarray(at, at + 256 * 1024));
            at += 256 * 1024;
            if (!more) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        pump();
      }),
    );
  });

  it('is too large under the default cap, whether announced or not', async () => {
    const h = await harness({ max_bytes: 10 * MiB, max_decoded_bytes: 20 * MiB });
    const evidence = [
      { claim: 'announced', url: `${pages.base}/fifty?cap=default`, excerpt: LAST },
      { claim: 'chunked', url: `${pages.base}/fifty-chunked?cap=default`, excerpt: LAST },
    ];
    await h.publisher.publishReviewRecorded({ reviewId: 'fifty-default', hypothesisId: 'h', evidence });
    await h.waitForJob('review.recorded', 'review.fifty-default.r0', 'completed', 15_000);
    const { job, result } = await results(h, 'fifty-default');
    expect(result.results.map((r) => [r.status, r.reason])).toEqual([
      ['fetch_failed', 'too_large'],
      ['fetch_failed', 'too_large'],
    ]);
    // Refused from the Content-Length, and cut at 10 MiB otherwise: no need of the deadline.
    expect(job.finishedOn! - job.processedOn!).toBeLessThan(LIMITS.total_timeout_ms);
    await until('the 50 MB responses closed', () => open === 0, { timeoutMs: 5000 });
    expectEventsOnce(await h.events(), [{ reviewId: 'fifty-default', result }]);
  });

  it('is read within a time bound and bounded memory with the cap raised just above it', async () => {
    const cap = page.length + 64 * 1024;
    const h = await harness({
      max_bytes: cap,
      max_decoded_bytes: cap,
      // Bounds on the clock far above the read's (a second or two on loopback), so that
      // only the CPU time asserted below measures its cost.
      total_timeout_ms: 60_000,
      body_timeout_ms: 30_000,
      review_deadline_ms: 240_000,
      // Its parsed tree needs more heap than the default bounds of a parsing thread allow.
      parse_max_heap_mb: 1024,
      parse_timeout_ms: 20_000,
    });
    // The least of a few samples a moment apart: a reference that is only
    // in flight (a socket's buffer, a last regexp match) is gone by one of
    // them, and one that is kept stays in all of them.
    const held = async () => {
      let least = Infinity;
      for (let i = 0; i < 5; i++) {
        const m = heldMemory();
        least = Math.min(least, m.heap + m.outside);
        await new Promise((r) => setTimeout(r, 100));
      }
      return least;
    };
    const base = await held();
    const rssBefore = process.memoryUsage().rss;
    resetPeakRss();

    /** One review of the page's last paragraph, with four ordinary reviews beside it; the CPU time of this process, in ms. */
    const readPage = async (round: number) => {
      const reviewId = `fifty-raised-${round}`;
      const cpuBefore = process.cpuUsage();
      await h.publisher.publishReviewRecorded({
        reviewId,
        hypothesisId: 'h',
        evidence: [{ claim: 'the last paragraph', url: `${pages.base}/fifty?round=${round}`, excerpt: LAST }],
      });
      for (let n = 0; n < 4; n++) {
        await h.publisher.publishReviewRecorded({
          reviewId: `beside-${round}-${n}`,
          hypothesisId: 'h',
          evidence: [{ claim: 'c', url: `${pages.base}/article?beside=${round}-${n}`, excerpt: EXCERPT }],
        });
      }
      await h.waitForJob('review.recorded', `review.${reviewId}.r0`, 'completed', 120_000);
      const cpu = process.cpuUsage(cpuBefore);
      const { result } = await results(h, reviewId);
      expect(result.results.map((r) => [r.status, r.reason ?? null])).toEqual([['ok', null]]);
      for (let n = 0; n < 4; n++) {
        await h.waitForJob('review.recorded', `review.beside-${round}-${n}.r0`, 'completed', 120_000);
        expect((await results(h, `beside-${round}-${n}`)).result.counts.ok).toBe(1);
      }
      return (cpu.user + cpu.system) / 1000;
    };

    const firstMs = await readPage(1);
    const peak = peakRss();
    const afterFirst = (await held()) - base;
    const secondMs = await readPage(2);
    const afterSecond = (await held()) - base;

    // The CPU time of the whole process (its parsing threads and the page
    // server included), which a busy host does not inflate as it does the
    // clock: about 12 s each on a quiet two-core host (fetch, decode, parse,
    // normalise, scan, cache). The bound is for a cost out of proportion to
    // the size.
    expect(firstMs).toBeLessThan(30_000);
    expect(secondMs).toBeLessThan(30_000);
    // While it is read, a page costs a bounded multiple of its size (the body,
    // its text, the parsed document, the normalised text and its JSON for
    // the cache: about 14 times the page, measured).
    expect(peak - rssBefore).toBeLessThan(30 * page.length);
    // Afterwards, at most one copy's worth stays referenced, and a second
    // page adds nothing to it: memory does not grow with the pages read.
    // (Measured on the heap and the buffers outside it after a full
    // collection: the allocator keeps freed pages resident, so rss after the
    // fact says nothing about what is held.)
    expect(afterFirst).toBeLessThan(1.5 * page.length);
    expect(afterSecond - afterFirst).toBeLessThan(page.length / 4);
  }, 300_000);
});
