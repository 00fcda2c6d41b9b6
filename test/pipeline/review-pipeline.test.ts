/**
 * The citation pipeline end to end: real Redis, real BullMQ workers, real
 * undici fetching pages from a loopback server reached through the
 * allow-listed name `localhost`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createReviewStore } from '../../src/store/review-store.js';
import { startPageServer, type PageServer } from '../support/page-server.js';
import { testConfig } from '../support/config.js';
import { startHarness, type Harness } from '../support/pipeline.js';
import { until } from '../support/poll.js';

const ARTICLE = `<!doctype html><html><head><title>Kinases</title><script>var x = "not text";</script></head>
<body><nav>Home</nav><article><h1>Kinase signalling</h1>
<p>Protein kinase A phosphorylates the transcription factor CREB at serine 133, which recruits the coactivator CBP.</p>
<p>In yeast, the TOR pathway integrates nutrient signals; rapamycin inhibits TORC1 within 5 minutes.<sup class="reference">[4]</sup></p>
</article></body></html>`;

let pages: PageServer;
const harnesses: Harness[] = [];

beforeAll(async () => {
  pages = await startPageServer();
  pages.page('/article', ARTICLE);
  pages.page('/shared', ARTICLE);
  pages.page('/image', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png');
  pages.route('/big', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<p>' + 'x'.repeat(300_000) + '</p>');
  });
  pages.route('/slow', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<p>start');
    // Never ends: the body timeout must stop it.
  });
});
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.stop()));
});
afterAll(async () => {
  await pages.close();
});

async function harness(overrides: Parameters<typeof testConfig>[1] = {}) {
  const h = await startHarness(
    testConfig(undefined, {
      ...overrides,
      worker: { queues: ['review.recorded'], ...overrides.worker },
      citations: {
        allow_private_hosts: [`localhost:${pages.port}`],
        max_bytes: 100_000,
        body_timeout_ms: 500,
        total_timeout_ms: 2000,
        ...overrides.citations,
      },
    }),
  );
  harnesses.push(h);
  return h;
}

const excerpt = 'Protein kinase A phosphorylates the transcription factor CREB at serine 133';

describe('review pipeline', () => {
  it('verifies each citation, stores the result, and emits citation_unverified and review_verified', async () => {
    const h = await harness();
    const u = (path: string) => `${pages.base}${path}`;
    const evidence = [
      { claim: 'PKA acts on CREB', url: u('/article'), excerpt },
      { claim: 'fabricated tail', url: u('/article'), excerpt: `${excerpt}, which doubles its half-life in neurons` },
      {
        claim: 'ellipsis',
        url: u('/article'),
        excerpt: 'Protein kinase A phosphorylates … rapamycin inhibits TORC1 within 5 minutes.',
      },
      { claim: 'number changed', url: u('/article'), excerpt: 'rapamycin inhibits TORC1 within 6 minutes' },
      { claim: 'missing page', url: u('/missing'), excerpt: 'anything' },
      { claim: 'loopback literal', url: `http://127.0.0.1:${pages.port}/article`, excerpt },
      { claim: 'not a page', url: u('/image'), excerpt: 'png' },
      { claim: 'too large', url: u('/big'), excerpt: 'xxxx' },
      { claim: 'slow', url: u('/slow'), excerpt: 'start' },
      { claim: 'not fetched by the agent', url: u('/article?unseen=1'), excerpt },
    ];
    const seenUrls = evidence.filter((_, i) => i !== 9).map((e) => e.url);
    await h.publisher.publishReviewRecorded({
      reviewId: 'rev-1',
      hypothesisId: 'h-1',
      evidence,
      seenUrls,
      revision: 1,
    });
    await h.waitForJob('review.recorded', 'review.rev-1.r1', 'completed', 15_000);

    const stored = await createReviewStore(h.redis, h.config.redis.key_prefix).get('rev-1');
    const byIndex = stored!.results.map((r) => [r.status, r.reason ?? null]);
    expect(byIndex).toEqual([
      ['ok', null],
      ['unverified', 'excerpt_not_found'],
      ['ok', null],
      ['unverified', 'excerpt_not_found'],
      ['fetch_failed', 'http_404'],
      ['fetch_failed', 'blocked_address'],
      ['fetch_failed', 'unsupported_content_type'],
      ['fetch_failed', 'too_large'],
      ['fetch_failed', 'timeout'],
      ['unverified', 'url_not_seen'],
    ]);
    expect(stored!.results.every((r) => r.citation_unverified === (r.status !== 'ok'))).toBe(true);
    // What was cited is kept with each result, for the person reviewing the hypothesis.
    expect(stored!.results.map((r) => [r.claim, r.excerpt])).toEqual(evidence.map((e) => [e.claim, e.excerpt]));
    expect(stored!.counts).toEqual({ ok: 2, unverified: 3, fetch_failed: 5 });
    expect(stored!.summary[u('/missing')]).toEqual({ status: 'fetch_failed', excerpt_len: 8 });
    expect(stored!.summary[u('/article')]!.status).toBe('unverified');
    // The unseen URL was never fetched, nor was the loopback literal.
    expect(pages.hits.get('/article')).toBe(1);

    const events = await h.events();
    const unverified = events.filter((e) => e.type === 'citation_unverified');
    expect(unverified.map((e) => (e.data as { index: number }).index)).toEqual([1, 3, 4, 5, 6, 7, 8, 9]);
    expect(unverified[0]!.data).toMatchObject({
      reviewId: 'rev-1',
      hypothesisId: 'h-1',
      status: 'unverified',
      reason: 'excerpt_not_found',
    });
    expect(unverified[0]!.eventId).toBe('citation_unverified/rev-1/r1/1');
    const summary = events.filter((e) => e.type === 'review_verified');
    expect(summary).toHaveLength(1);
    expect(summary[0]!.data).toMatchObject({
      skipped: false,
      total: 10,
      counts: { ok: 2, unverified: 3, fetch_failed: 5 },
    });

    // A job that runs again reuses the stored result and emits nothing twice.
    const queue = h.publisher.queue('review.recorded');
    await (await queue.getJob('review.rev-1.r1'))!.remove();
    await h.publisher.publishReviewRecorded({
      reviewId: 'rev-1',
      hypothesisId: 'h-1',
      evidence,
      seenUrls,
      revision: 1,
    });
    await h.waitForJob('review.recorded', 'review.rev-1.r1');
    expect(await h.events()).toHaveLength(events.length);
    expect(pages.hits.get('/article')).toBe(1);
  });

  it('fetches a URL cited by many reviews at once only once, across workers', async () => {
    const a = await harness({ worker: { concurrency: 8 } });
    // A second worker process on the same queues and keys.
    const b = await startHarness({ ...a.config, metrics: { ...a.config.metrics, port: 0 } });
    harnesses.push(b);
    pages.hits.delete('/shared');
    pages.route('/shared', (_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE), 200);
    });
    for (let i = 0; i < 12; i++) {
      await a.publisher.publishReviewRecorded({
        reviewId: `many-${i}`,
        hypothesisId: 'h',
        evidence: [{ claim: 'c', url: `${pages.base}/shared`, excerpt }],
      });
    }
    for (let i = 0; i < 12; i++) await a.waitForJob('review.recorded', `review.many-${i}.r0`, 'completed', 15_000);
    expect(pages.hits.get('/shared')).toBe(1);
    const events = await a.events();
    expect(events.filter((e) => e.type === 'review_verified')).toHaveLength(12);
    expect(events.filter((e) => e.type === 'citation_unverified')).toHaveLength(0);
    const metrics = await (await fetch(`http://127.0.0.1:${a.runtime.http!.port}/metrics`)).text();
    expect(metrics).toMatch(/cosci_safety_citations_total\{status="ok",reason="none"\} \d+/);
  });

  it("gives a one-citation review of a host a slot turn, not a place behind another review's queue", async () => {
    // Both reviews in one worker process, sharing its two slots for the host.
    const h = await harness({ citations: { per_host_concurrency: 2, review_concurrency: 100 } });
    pages.route('/many', (_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE), 150);
    });
    pages.page('/lone', ARTICLE);
    const many = 100;
    await h.publisher.publishReviewRecorded({
      reviewId: 'many',
      hypothesisId: 'h',
      evidence: Array.from({ length: many }, (_, i) => ({ claim: 'c', url: `${pages.base}/many?i=${i}`, excerpt })),
    });
    // Review A holds both slots and has its other 98 fetches queued for them.
    await until('the first review in flight', () => (pages.hits.get('/many') ?? 0) >= 2, { everyMs: 5 });
    await h.publisher.publishReviewRecorded({
      reviewId: 'lone',
      hypothesisId: 'h',
      evidence: [{ claim: 'c', url: `${pages.base}/lone`, excerpt }],
    });
    await h.waitForJob('review.recorded', 'review.lone.r0', 'completed', 30_000);
    // Served in turns, B waits for a slot to free and A's one turn: its fetch
    // comes among A's first few. In arrival order it came after A's 98 others.
    // Half of A's is a bound that holds with seconds of delay in taking B's job.
    const order = pages.arrivals.filter((u) => u.startsWith('/many') || u === '/lone');
    const position = order.indexOf('/lone');
    expect(position).toBeGreaterThanOrEqual(2);
    expect(position).toBeLessThan(many / 2);

    await h.waitForJob('review.recorded', 'review.many.r0', 'completed', 60_000);
    const store = createReviewStore(h.redis, h.config.redis.key_prefix);
    expect((await store.get('many'))!.counts).toEqual({ ok: many, unverified: 0, fetch_failed: 0 });
    expect((await store.get('lone'))!.counts).toEqual({ ok: 1, unverified: 0, fetch_failed: 0 });
  }, 90_000);

  it('ends a review at its deadline: citations not fetched by then are fetch_failed, review_deadline, announced once', async () => {
    const h = await harness({
      citations: {
        // One slot for the host: one of its pages in flight, the others waiting.
        allow_private_hosts: [`localhost:${pages.port}`, `127.0.0.1:${pages.port}`],
        per_host_concurrency: 1,
        review_concurrency: 3,
        // Time enough for the page of the other host to be fetched and parsed
        // (the first document starts a parsing thread) on a busy machine.
        review_deadline_ms: 3000,
        // The deadline comes first: a fetch started after the review would time out later.
        total_timeout_ms: 10_000,
      },
    });
    const ended: string[] = [];
    pages.route('/stalled', (req, res) => {
      // No answer until the request is given up.
      res.on('close', () => ended.push(req.url!));
    });
    const evidence = [
      // Another host (its own slots), fetched at once.
      { claim: 'fast', url: `http://127.0.0.1:${pages.port}/article`, excerpt },
      ...Array.from({ length: 5 }, (_, i) => ({ claim: 'stalled', url: `${pages.base}/stalled?i=${i}`, excerpt })),
      { claim: 'not fetched by the agent', url: `${pages.base}/article?unseen=1`, excerpt },
    ];
    const seenUrls = evidence.slice(0, 6).map((e) => e.url);
    const publish = () =>
      h.publisher.publishReviewRecorded({ reviewId: 'late', hypothesisId: 'h', evidence, seenUrls, revision: 1 });
    await publish();
    await h.waitForJob('review.recorded', 'review.late.r1', 'completed', 15_000);

    const stored = await createReviewStore(h.redis, h.config.redis.key_prefix).get('late');
    expect(stored!.results.map((r) => [r.status, r.reason ?? null])).toEqual([
      ['ok', null],
      ...Array.from({ length: 5 }, () => ['fetch_failed', 'review_deadline']),
      ['unverified', 'url_not_seen'],
    ]);
    expect(stored!.counts).toEqual({ ok: 1, unverified: 1, fetch_failed: 5 });
    // One stalled page reached the host, the others waited for its slot and
    // were never requested; the one in flight was ended, not left to its timeout.
    expect(pages.hits.get('/stalled')).toBe(1);
    await until('the stalled request ended', () => ended.length === 1, { everyMs: 10, timeoutMs: 3000 });

    const events = await h.events();
    const unverified = events.filter((e) => e.type === 'citation_unverified');
    expect(unverified.map((e) => [(e.data as { index: number }).index, (e.data as { reason: string }).reason])).toEqual(
      [...Array.from({ length: 5 }, (_, i) => [i + 1, 'review_deadline']), [6, 'url_not_seen']],
    );
    const summary = events.filter((e) => e.type === 'review_verified');
    expect(summary).toHaveLength(1);
    expect(summary[0]!.data).toMatchObject({ total: 7, counts: { ok: 1, unverified: 1, fetch_failed: 5 } });
    const metrics = await (await fetch(`http://127.0.0.1:${h.runtime.http!.port}/metrics`)).text();
    expect(metrics).toMatch(/^cosci_safety_review_deadline_exceeded_total 1$/m);
    expect(metrics).toMatch(/^cosci_safety_citations_total\{status="fetch_failed",reason="review_deadline"\} 5$/m);

    // The job run again reuses the result: no event twice, nothing counted twice, nothing fetched.
    await (await h.publisher.queue('review.recorded').getJob('review.late.r1'))!.remove();
    await publish();
    await h.waitForJob('review.recorded', 'review.late.r1');
    expect(await h.events()).toHaveLength(events.length);
    expect(pages.hits.get('/stalled')).toBe(1);
    const again = await (await fetch(`http://127.0.0.1:${h.runtime.http!.port}/metrics`)).text();
    expect(again).toMatch(/^cosci_safety_review_deadline_exceeded_total 1$/m);

    // The deadline is the review's, not the page's: nothing of it was cached,
    // and another review citing the page fetches it.
    pages.page('/stalled', ARTICLE);
    await h.publisher.publishReviewRecorded({
      reviewId: 'after',
      hypothesisId: 'h',
      evidence: [{ claim: 'c', url: `${pages.base}/stalled?i=2`, excerpt }],
    });
    await h.waitForJob('review.recorded', 'review.after.r0', 'completed', 15_000);
    const after = await createReviewStore(h.redis, h.config.redis.key_prefix).get('after');
    expect(after!.results.map((r) => r.status)).toEqual(['ok']);
    expect(pages.hits.get('/stalled')).toBe(2);
  });

  it('records a skipped review and emits no per-citation events when the verifier is disabled', async () => {
    const h = await harness({ safety: { enable_citation_verifier: false } });
    await h.publisher.publishReviewRecorded({
      reviewId: 'off',
      hypothesisId: 'h',
      evidence: [{ claim: 'c', url: `${pages.base}/missing-too`, excerpt: 'x' }],
    });
    await h.waitForJob('review.recorded', 'review.off.r0');
    const events = await h.events();
    expect(events.map((e) => e.type)).toEqual(['review_verified']);
    expect(events[0]!.data).toMatchObject({ skipped: true, total: 0 });
    expect(pages.hits.get('/missing-too')).toBeUndefined();
  });
});
