/**
 * The queue over the review API with a real queue of held hypotheses built
 * through the pipeline: cursor paging that gives every held item exactly
 * once while other reviewers decide items between pages, the filters and
 * their counts, the previews, and the refusal of each bad parameter by name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewItem, ReviewQueueItem, ReviewQueuePage } from '../../src/contracts/review-api.js';
import { buildReviewService } from '../../src/runtime/builders.js';
import type { ReviewService } from '../../src/review/review-service.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { testConfig } from '../support/config.js';
import { startHarness, type Harness } from '../support/pipeline.js';
import { baseUrl, call, classify, REVIEW_TOKEN } from '../support/review-http.js';
import { heldSpecs, holdAll, queueHandler, type HeldSpec } from '../support/review-queue.js';

let fake: FakeAnthropic;
let h: Harness;
let base: string;
let review: ReviewService;
let specs: HeldSpec[];

beforeAll(async () => {
  fake = await startFakeAnthropic(queueHandler);
  h = await startHarness(testConfig(fake.url, { review: { api_token: REVIEW_TOKEN } }));
  base = baseUrl(h);
  review = buildReviewService(h.config, h.redis);
  specs = heldSpecs(60, 'q');
  await holdAll(h, specs);
}, 90_000);
afterAll(async () => {
  await h?.stop();
  await fake?.close();
});

async function page(query: string): Promise<ReviewQueuePage> {
  const reply = await call(base, 'GET', `/review/api/items${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply.json() as unknown as ReviewQueuePage;
}

const ids = (items: ReviewQueueItem[]) => items.map((i) => i.hypothesisId);
const decide = (id: string, kind: 'release' | 'confirm' = 'confirm') =>
  call(base, 'POST', `/review/api/items/${encodeURIComponent(id)}/${kind}`, {
    body: { by: 'Other Reviewer', note: 'decided elsewhere' },
  });

describe('the queue', () => {
  it('gives each entry its state, categories, previews and held time, oldest first', async () => {
    const all = await page('?limit=1000');
    expect(all.items).toHaveLength(60);
    expect(all.nextCursor).toBeUndefined();
    expect(all.order).toBe('oldest');
    expect(all.truncated).toBe(false);
    const heldTimes = all.items.map((i) => Date.parse(i.heldAt));
    expect(heldTimes).toEqual([...heldTimes].sort((a, b) => a - b));
    const byId = new Map(all.items.map((i) => [i.hypothesisId, i]));
    for (const s of specs) {
      const item = byId.get(s.id)!;
      expect(item, s.id).toMatchObject({ state: s.state, categories: s.categories, degraded: s.degraded });
      expect(item.title).toBe(s.title);
      expect(item.preview).toBe(s.text);
    }
    const degraded = byId.get('q-003')!;
    expect(degraded).toMatchObject({ reason: 'bad_request', categories: [], action: 'quarantine' });
    expect(byId.get('q-000')!.rationale).toBe('marked in the text');
    expect(all.counts).toMatchObject({
      all: 60,
      matching: 60,
      state: {
        quarantined: specs.filter((s) => s.state === 'quarantined').length,
        blocked: specs.filter((s) => s.state === 'blocked').length,
      },
      degraded: { yes: specs.filter((s) => s.degraded).length, no: specs.filter((s) => !s.degraded).length },
      age: { under_1h: 60, '1h_to_1d': 0, '1d_to_7d': 0, over_7d: 0 },
    });
    expect(all.counts.category.cbrn).toBe(specs.filter((s) => s.categories.includes('cbrn')).length);
  });

  it('filters by state, category, degraded and held time, newest first on request, with counts', async () => {
    const blocked = await page('?state=blocked');
    expect(ids(blocked.items).sort()).toEqual(specs.filter((s) => s.state === 'blocked').map((s) => s.id));
    expect(blocked.counts.matching).toBe(blocked.items.length);
    // The state counts ignore the state filter; the category counts keep it.
    expect(blocked.counts.state.quarantined).toBe(60 - blocked.items.length);
    expect(blocked.counts.category.dual_use_bio).toBe(
      specs.filter((s) => s.state === 'blocked' && s.categories.includes('dual_use_bio')).length,
    );

    const unclassified = await page('?degraded=true&category=dual_use_bio');
    expect(unclassified.items).toEqual([]);
    expect((await page('?degraded=true')).items.every((i) => i.categories.length === 0 && i.degraded)).toBe(true);
    expect(ids((await page('?category=cbrn&state=blocked')).items).sort()).toEqual(
      specs.filter((s) => s.categories.includes('cbrn')).map((s) => s.id),
    );

    const oldest = await page('?limit=1000');
    const middle = oldest.items[29]!;
    const before = await page(`?heldBefore=${encodeURIComponent(middle.heldAt)}&limit=1000`);
    const after = await page(`?heldAfter=${encodeURIComponent(middle.heldAt)}&limit=1000`);
    expect(before.items.every((i) => i.heldAt <= middle.heldAt)).toBe(true);
    expect(after.items.every((i) => i.heldAt >= middle.heldAt)).toBe(true);
    expect(ids(before.items)).toContain(middle.hypothesisId);
    expect(new Set([...ids(before.items), ...ids(after.items)]).size).toBe(60);

    const newest = await page('?order=newest&limit=1000');
    expect(newest.order).toBe('newest');
    expect(ids(newest.items)).toEqual(ids(oldest.items).reverse());
  });

  it('searches the id, title and text, and orders by confidence, paging by cursor in that order', async () => {
    const all = (await page('?limit=1000')).items;
    // A topic word: each spec whose title or text holds it, in any case.
    const word = 'Ferrets';
    const expected = specs
      .filter((s) => `${s.title ?? ''} ${s.text}`.toLowerCase().includes(word.toLowerCase()))
      .map((s) => s.id);
    expect(expected.length).toBeGreaterThan(3);
    const found = await page(`?q=${encodeURIComponent(word.toUpperCase())}&limit=1000`);
    expect(ids(found.items).sort()).toEqual(expected.sort());
    expect(found.counts.matching).toBe(expected.length);
    expect(found.counts.all).toBe(60);
    // Two words, each somewhere; an id; a search with a filter.
    const two = await page(`?q=${encodeURIComponent('ferrets notes 1.')}&limit=1000`);
    expect(ids(two.items).sort()).toEqual(
      specs.filter((s) => expected.includes(s.id) && s.text.includes('notes 1.')).map((s) => s.id),
    );
    expect(ids((await page('?q=q-017')).items)).toEqual(['q-017']);
    const blocked = await page(`?q=${encodeURIComponent(word)}&state=blocked&limit=1000`);
    expect(blocked.items.every((i) => i.state === 'blocked' && expected.includes(i.hypothesisId))).toBe(true);

    for (const order of ['most_confident', 'least_confident'] as const) {
      const whole = await page(`?order=${order}&limit=1000`);
      expect(whole.order).toBe(order);
      const confidences = whole.items.map((i) => i.confidence);
      const sorted = [...confidences].sort((a, b) => (order === 'most_confident' ? b - a : a - b));
      expect(confidences).toEqual(sorted);
      expect(new Set(ids(whole.items))).toEqual(new Set(ids(all)));
      // Pages of 9 by cursor give the same entries in the same order.
      const paged: string[] = [];
      let cursor: string | undefined;
      do {
        const next = await page(`?order=${order}&limit=9${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        paged.push(...ids(next.items));
        cursor = next.nextCursor;
      } while (cursor !== undefined);
      expect(paged).toEqual(ids(whole.items));
    }
  });

  it('pages by cursor, giving every held item exactly once while others decide between pages', async () => {
    const start = await page('?limit=1000');
    const initially = ids(start.items);
    const seen: string[] = [];
    const decidedAhead = new Set<string>();
    const decided = new Set<string>();
    let cursor: string | undefined;
    let round = 0;
    // A new revision held during the paging comes at the end, once.
    const late = 'q-late';
    do {
      const next = await page(`?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(next.items.length).toBeLessThanOrEqual(7);
      seen.push(...ids(next.items));
      cursor = next.nextCursor;
      // Between pages another reviewer decides one item already seen and one not yet reached.
      const shown = ids(next.items)[0];
      if (shown) {
        expect((await decide(shown)).status).toBe(200);
        decided.add(shown);
      }
      const ahead = initially.find((id) => !seen.includes(id) && !decidedAhead.has(id));
      if (ahead && round % 2 === 0) {
        expect((await decide(ahead, 'release')).status).toBe(200);
        decidedAhead.add(ahead);
        decided.add(ahead);
      }
      if (round === 2) await classify(h, late, 'Late arrival @@dual_use_bio@0.95@@', 'Held while paging');
      round++;
    } while (cursor !== undefined);

    expect(seen.length).toBe(new Set(seen).size);
    expect(seen.filter((id) => id !== late)).toEqual(initially.filter((id) => !decidedAhead.has(id)));
    expect(seen.at(-1)).toBe(late);
    expect(decidedAhead.size).toBeGreaterThan(3);
    // Each decision took its item off the queue, and only that.
    const left = await review.queue({ limit: 1000 });
    expect(ids(left.items)).toEqual([...initially, late].filter((id) => !decided.has(id)));
    expect(left.counts.all).toBe(61 - decided.size);
  });

  it('refuses each bad parameter with 400, naming it', async () => {
    const cases: Array<[string, string]> = [
      ['limit=0', 'limit: a whole number from 1 to 1000'],
      ['limit=1001', 'limit: a whole number from 1 to 1000'],
      ['limit=ten', 'limit: a whole number from 1 to 1000'],
      ['order=sideways', 'order: oldest or newest'],
      ['state=assessed', 'state: quarantined or blocked'],
      ['category=Dual%20use', 'category: a category name'],
      ['degraded=maybe', 'degraded: true or false'],
      ['heldBefore=yesterday', 'heldBefore: a date and time in ISO 8601'],
      ['heldAfter=2026-01-31', 'heldAfter: a date and time in ISO 8601'],
      ['cursor=garbage', 'cursor: not the nextCursor of an earlier page'],
      ['cursor=123~a&order=most_confident', 'cursor: the nextCursor of a page in another order'],
      ['cursor=c0.5~123~a', 'cursor: the nextCursor of a page in another order'],
      [`q=${'x'.repeat(201)}`, 'q: at most 200 characters'],
      ['sate=blocked', 'sate: not a parameter'],
      ['state=blocked&state=quarantined', 'state: give it once'],
    ];
    for (const [query, message] of cases) {
      const reply = await call(base, 'GET', `/review/api/items?${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.json().error?.code, query).toBe('REVIEW_INVALID');
      expect(reply.json().error?.message, query).toContain(message);
    }
    // The token is checked before any of it.
    expect((await call(base, 'GET', '/review/api/items?limit=0', { token: null })).status).toBe(401);
  });

  it('shows an item with its earlier revisions and their decisions, and what each citation cited', async () => {
    await classify(h, 'rev-h', 'First draft @@dual_use_bio@0.9@@', 'Revised hypothesis', 1);
    expect((await decide('rev-h', 'release')).status).toBe(200);
    await classify(h, 'rev-h', 'Second draft @@weapons@0.9@@', 'Revised hypothesis', 2);
    await h.publisher.publishReviewRecorded({
      reviewId: 'rev-h-review',
      hypothesisId: 'rev-h',
      revision: 2,
      evidence: [{ claim: 'The strain spreads between ferrets', url: 'https://example.org/x', excerpt: 'airborne' }],
      seenUrls: [],
    });
    await h.waitForJob('review.recorded', 'review.rev-h-review.r2');
    const reply = await call(base, 'GET', '/review/api/items/rev-h');
    const item = reply.json().item as unknown as ReviewItem;
    expect(item).toMatchObject({ revision: 2, state: 'blocked' });
    expect(item.revisions).toEqual([
      expect.objectContaining({
        revision: 1,
        state: 'released',
        action: 'quarantine',
        categories: ['dual_use_bio'],
        decision: expect.objectContaining({ decision: 'released', by: 'Other Reviewer' }),
      }),
    ]);
    expect(item.evidence[0]!.results[0]).toMatchObject({
      claim: 'The strain spreads between ferrets',
      excerpt: 'airborne',
      url: 'https://example.org/x',
      status: 'unverified',
      reason: 'url_not_seen',
    });
  });

  it('streams the changes to the queue to a page that listens, as they happen', async () => {
    expect((await call(base, 'GET', '/review/api/feed', { token: null })).status).toBe(401);
    expect((await call(base, 'POST', '/review/api/feed', { body: {} })).status).toBe(405);

    const abort = new AbortController();
    const res = await fetch(`${base}/review/api/feed`, {
      headers: { authorization: `Bearer ${REVIEW_TOKEN}` },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    const frames = () =>
      received
        .split('\n\n')
        .filter((f) => f.includes('event: change'))
        .map((f) => JSON.parse(/^data: (.*)$/m.exec(f)![1]!) as Record<string, unknown>);
    const readUntil = async (count: number) => {
      while (frames().length < count) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the feed ended after ${received}`);
        received += value;
      }
      return frames();
    };
    // The first frame says the feed is open; what comes after is live.
    while (!received.includes('event: ready')) received += (await reader.read()).value ?? '';

    await classify(h, 'feed-1', 'Held live @@weapons@0.9@@');
    expect((await decide('feed-1', 'release')).status).toBe(200);
    const changes = await readUntil(2);
    expect(changes).toEqual([
      { kind: 'held', hypothesisId: 'feed-1', revision: 1, state: 'blocked' },
      expect.objectContaining({
        kind: 'decided',
        hypothesisId: 'feed-1',
        revision: 1,
        state: 'released',
        by: 'Other Reviewer',
      }),
    ]);
    // Nothing but held and decided changes: the hypothesis_assessed events are not sent.
    expect(received.match(/event: change/g)).toHaveLength(2);
    expect(received).toMatch(/^id: \d+-\d+$/m);
    abort.abort();
  });
});
