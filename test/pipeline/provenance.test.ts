/**
 * Provenance of a review's evidence, end to end: the worker (real Redis, real
 * BullMQ, undici fetching loopback pages) keeps, for each ok excerpt, where
 * it is in the page text and a text-fragment link to it, and for each page
 * its final URL, HTTP status, content type, fetch time and text digest; then
 * `cosci-safety verify --recheck`, run as a user runs it, fetches the pages
 * again after they changed and reports each citation unchanged, changed but
 * still there, or gone, with its events, once per what it found.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_TEXT_VERSION, type PageText } from '../../src/citations/page-text.js';
import type { ReviewRecheck } from '../../src/contracts/recheck.js';
import { normalizeForMatch, pageTextDigest } from '../../src/safety/citations/index.js';
import { createReviewStore } from '../../src/store/review-store.js';
import { runCli } from '../support/cli.js';
import { testConfig } from '../support/config.js';
import { startPageServer, type PageServer } from '../support/page-server.js';
import { startHarness, type Harness } from '../support/pipeline.js';

const CREB =
  'Protein kinase A phosphorylates the transcription factor CREB at serine 133, which recruits the coactivator CBP.';
const article = (creb: string) => `<!doctype html><html><head><title>Kinases</title></head><body><article>
<h1>Kinase signalling</h1><p>${creb}</p>
<p>In yeast, the TOR pathway integrates nutrient signals; rapamycin inhibits TORC1 within 5 minutes.</p>
</article></body></html>`;
const FINAL = '<html><body><p>We show that Kinase X binds Y in vitro.</p></body></html>';

let pages: PageServer;
let h: Harness;
let env: Record<string, string>;
const u = (path: string) => `${pages.base}${path}`;

const evidence = () => [
  { claim: 'short', url: u('/article'), excerpt: 'rapamycin inhibits TORC1' },
  { claim: 'long', url: u('/article'), excerpt: CREB },
  { claim: 'moved', url: u('/moved#results'), excerpt: 'Kinase X binds Y' },
  { claim: 'wrong', url: u('/article'), excerpt: 'rapamycin activates TORC1' },
  { claim: 'missing', url: u('/missing'), excerpt: 'anything' },
  { claim: 'not fetched by the agent', url: u('/unseen'), excerpt: 'anything' },
];

beforeAll(async () => {
  pages = await startPageServer();
  pages.page('/article', article(CREB));
  pages.route('/moved', (_req, res) => res.writeHead(302, { location: '/final' }).end());
  pages.page('/final', FINAL);
  pages.page('/unseen', FINAL);
  h = await startHarness(
    testConfig(undefined, {
      worker: { queues: ['review.recorded'] },
      citations: { allow_private_hosts: [`localhost:${pages.port}`] },
    }),
  );
  // The command line on the same Redis names, allowed to fetch the loopback pages.
  const file = join(mkdtempSync(join(tmpdir(), 'cosci-recheck-')), 'cosci-safety.toml');
  const { redis } = h.config;
  writeFileSync(
    file,
    `[redis]\nprefix = "${redis.prefix}"\nkey_prefix = "${redis.key_prefix}"\nevents_stream = "${redis.events_stream}"\n` +
      `[citations]\nallow_private_hosts = ["localhost:${pages.port}"]\n[logging]\nlevel = "warn"\nformat = "json"\n`,
  );
  env = { ...(process.env as Record<string, string>), COSCI_SAFETY_CONFIG: file, REDIS_URL: redis.url };
}, 60_000);
afterAll(async () => {
  await h?.stop();
  await pages?.close();
});

/** The page text the worker cached for a URL (the cache is keyed by the URL without its fragment). */
async function cachedPage(url: string): Promise<PageText & { ok: true }> {
  const key = `${h.config.redis.key_prefix}:page:${createHash('sha256').update(url).digest('hex')}`;
  const page = JSON.parse((await h.redis.get(key))!) as PageText;
  if (!page.ok) throw new Error(`${url} is cached as a failure`);
  return page;
}

async function recheck(...args: string[]): Promise<{ code: number | null; report: ReviewRecheck; stderr: string }> {
  const run = await runCli(['verify', '--recheck', 'prov-1', ...args], { env });
  return { code: run.code, report: JSON.parse(run.stdout || 'null') as ReviewRecheck, stderr: run.stderr };
}

const rechecked = async () => (await h.events()).filter((e) => e.type.endsWith('_rechecked'));

describe('provenance of a review', () => {
  it('keeps where each ok excerpt is, a link to it, and each page as fetched', async () => {
    const started = Date.now();
    await h.publisher.publishReviewRecorded({
      reviewId: 'prov-1',
      hypothesisId: 'h-prov',
      revision: 1,
      evidence: evidence(),
      seenUrls: evidence()
        .slice(0, 5)
        .map((e) => e.url),
    });
    await h.waitForJob('review.recorded', 'review.prov-1.r1', 'completed', 15_000);
    const stored = (await createReviewStore(h.redis, h.config.redis.key_prefix).get('prov-1'))!;
    expect(stored.results.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'unverified', 'fetch_failed', 'unverified']);

    // The offsets are into the page text the worker read: the excerpt, normalised, is there.
    const text = (await cachedPage(u('/article'))).text;
    for (const i of [0, 1]) {
      const { start, end } = stored.results[i]!.location!;
      expect(text.slice(start, end)).toBe(normalizeForMatch(evidence()[i]!.excerpt));
    }
    // A short passage whole; a long one by its first and last words; '-', '&' and ',' would be encoded.
    expect(stored.results[0]!.location!.textFragmentUrl).toBe(`${u('/article')}#:~:text=rapamycin%20inhibits%20torc1`);
    expect(stored.results[1]!.location!.textFragmentUrl).toBe(
      `${u('/article')}#:~:text=protein%20kinase%20a,the%20coactivator%20cbp`,
    );
    // After the redirect, with the fragment the citation has.
    expect(stored.results[2]!.location!.textFragmentUrl).toBe(`${u('/final')}#results:~:text=kinase%20x%20binds%20y`);
    expect(stored.results[3]!.location).toBeUndefined();

    const article = stored.pages![u('/article')]!;
    expect(article).toEqual({
      finalUrl: u('/article'),
      status: 200,
      contentType: 'text/html',
      fetchedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
      textSha256: pageTextDigest(text),
      textVersion: PAGE_TEXT_VERSION,
    });
    expect(Date.parse(article.fetchedAt)).toBeGreaterThanOrEqual(started - 1000);
    expect(Date.parse(article.fetchedAt)).toBeLessThanOrEqual(Date.parse(stored.verifiedAt));
    expect(stored.pages![u('/moved#results')]).toMatchObject({ finalUrl: u('/final'), status: 200 });
    expect(stored.pages![u('/missing')]).toEqual({
      status: 404,
      reason: 'http_404',
      fetchedAt: expect.any(String) as string,
    });
    // Never fetched: no page.
    expect(stored.pages![u('/unseen')]).toBeUndefined();
  });

  it('a later review of a cached page keeps when the page was fetched, not when it was cited', async () => {
    await h.publisher.publishReviewRecorded({
      reviewId: 'prov-2',
      hypothesisId: 'h-prov',
      revision: 1,
      evidence: [evidence()[0]!],
    });
    await h.waitForJob('review.recorded', 'review.prov-2.r1', 'completed', 15_000);
    const store = createReviewStore(h.redis, h.config.redis.key_prefix);
    const [first, second] = [(await store.get('prov-1'))!, (await store.get('prov-2'))!];
    expect(pages.hits.get('/article')).toBe(1);
    expect(second.pages![u('/article')]).toEqual(first.pages![u('/article')]);
    expect(Date.parse(second.verifiedAt)).toBeGreaterThan(Date.parse(second.pages![u('/article')]!.fetchedAt));
  });

  it('keeps no page for a URL refused before any request', async () => {
    await h.publisher.publishReviewRecorded({
      reviewId: 'prov-3',
      hypothesisId: 'h-prov',
      revision: 1,
      evidence: [
        { claim: 'a loopback literal', url: `http://127.0.0.1:${pages.port}/article`, excerpt: 'rapamycin' },
        { claim: 'not a URL', url: '__proto__', excerpt: 'rapamycin' },
      ],
    });
    await h.waitForJob('review.recorded', 'review.prov-3.r1', 'completed', 15_000);
    const stored = (await createReviewStore(h.redis, h.config.redis.key_prefix).get('prov-3'))!;
    expect(stored.results.map((r) => r.reason)).toEqual(['blocked_address', 'invalid_url']);
    expect(stored.pages).toEqual({});
  });

  it('a recheck of pages that have not changed finds every citation unchanged', async () => {
    const before = pages.hits.get('/article')!;
    const { code, report } = await recheck();
    expect(code).toBe(0);
    expect(report.results.map((r) => r.outcome)).toEqual(Array(6).fill('unchanged'));
    expect(report.counts).toEqual({ unchanged: 6, changed_present: 0, gone: 0, present: 0 });
    // Fetched again, once for its three citations, not read from the worker's cache; the unseen URL is not fetched.
    expect(pages.hits.get('/article')).toBe(before + 1);
    expect(pages.hits.get('/unseen')).toBeUndefined();
    const events = await rechecked();
    expect(events.map((e) => e.type)).toEqual(['review_rechecked']);
    expect(events[0]!.data).toMatchObject({ reviewId: 'prov-1', total: 6, counts: report.counts });
  });

  it('after the pages changed: changed but still there, gone, and still missing; exit code 4', async () => {
    pages.page('/article', article(CREB.replace('CBP', 'p300')));
    pages.route('/final', (_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('gone'));
    const { code, report } = await recheck();
    expect(code).toBe(4);
    expect(report.results.map((r) => [r.outcome, r.was, r.status, r.reason ?? null])).toEqual([
      ['changed_present', 'ok', 'ok', null],
      ['gone', 'ok', 'unverified', 'excerpt_not_found'],
      ['gone', 'ok', 'fetch_failed', 'http_404'],
      ['gone', 'unverified', 'unverified', 'excerpt_not_found'],
      ['unchanged', 'fetch_failed', 'fetch_failed', 'http_404'],
      ['unchanged', 'unverified', 'unverified', 'url_not_seen'],
    ]);
    expect(report.counts).toEqual({ unchanged: 2, changed_present: 1, gone: 3, present: 0 });
    const first = report.results[0]!;
    expect(first.now!.textSha256).not.toBe(first.verified!.textSha256);
    expect(first.location!.textFragmentUrl).toBe(`${u('/article')}#:~:text=rapamycin%20inhibits%20torc1`);
    expect(report.results[2]!.now).toMatchObject({ status: 404, reason: 'http_404' });

    const events = await rechecked();
    const citations = events.filter((e) => e.type === 'citation_rechecked');
    expect(citations.map((e) => (e.data as { index: number }).index)).toEqual([0, 1, 2, 3]);
    expect(citations[1]!.data).toMatchObject({
      reviewId: 'prov-1',
      hypothesisId: 'h-prov',
      revision: 1,
      url: u('/article'),
      outcome: 'gone',
      was: 'ok',
      status: 'unverified',
      reason: 'excerpt_not_found',
      previousTextSha256: first.verified!.textSha256,
      textSha256: first.now!.textSha256,
      httpStatus: 200,
    });
    expect(citations[1]!.eventId).toMatch(/^citation_rechecked\/prov-1\/r1\/1\/[0-9a-f]{16}$/);
    expect(events.filter((e) => e.type === 'review_rechecked')).toHaveLength(2);

    // The same found again: nothing more is announced.
    const again = await recheck();
    expect(again.code).toBe(4);
    expect(again.report.results.map((r) => r.outcome)).toEqual(report.results.map((r) => r.outcome));
    expect(await rechecked()).toHaveLength(events.length);

    // The stored verification is final: the recheck changed nothing in it.
    const stored = (await createReviewStore(h.redis, h.config.redis.key_prefix).get('prov-1'))!;
    expect(stored.results.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'unverified', 'fetch_failed', 'unverified']);
  });

  it('pages back as they were are unchanged again; an unknown review is refused', async () => {
    pages.page('/article', article(CREB));
    pages.page('/final', FINAL);
    const { code, report } = await recheck('--revision', '1');
    expect(code).toBe(0);
    expect(report.counts.unchanged).toBe(6);
    const unknown = await runCli(['verify', '--recheck', 'no-such-review'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr.trim()).toBe('cosci-safety: REVIEW_NOT_FOUND: no verification of review "no-such-review"');
    const usage = await runCli(['verify', '--recheck', 'prov-1', '--url', u('/article')], { env });
    expect(usage.code).toBe(2);
  });
});
