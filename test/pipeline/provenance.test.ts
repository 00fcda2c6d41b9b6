/**
 * Provenance of a review's evidence, end to end: the worker (real Redis, real
 * BullMQ, undici fetching loopback pages) keeps, for each ok excerpt, where
 * it is in the page text and a text-fragment link to it, and for each page
 * its final URL, HTTP status, content type, fetch time and text digest.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_TEXT_VERSION, type PageText } from '../../src/citations/page-text.js';
import { normalizeForMatch, pageTextDigest } from '../../src/safety/citations/index.js';
import { createReviewStore } from '../../src/store/review-store.js';
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
});
