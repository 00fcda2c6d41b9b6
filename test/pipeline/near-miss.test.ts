/**
 * Near misses end to end: real Redis, a real BullMQ worker, pages fetched
 * with undici from a loopback server. An excerpt not on its page is stored
 * and announced with what the page holds closest to it, `altered` with the
 * passage and a diff naming the change, or `absent`; the event validates
 * against the published JSON Schema, as does an event of before near misses.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CitationUnverifiedData } from '../../src/contracts/events.js';
import { createReviewStore } from '../../src/store/review-store.js';
import { testConfig } from '../support/config.js';
import { startPageServer, type PageServer } from '../support/page-server.js';
import { startHarness, type Harness } from '../support/pipeline.js';

const METHODS = `<!doctype html><html><head><title>Methods</title></head><body><article>
<h1>Ferret transmission study</h1>
<p>Of the 24 ferrets exposed, 45% shed virus by day three, and none of the <a href="#c">contact animals</a> seroconverted.</p>
<p>The isolate was <em>not</em> transmissible by respiratory droplets under the conditions tested.</p>
<p>Each animal was housed alone, and the cages were cleaned twice a day.</p>
</article></body></html>`;

const SCHEMA = JSON.parse(
  readFileSync(new URL('../../schemas/event.citation_unverified.json', import.meta.url), 'utf8'),
) as object;
const validate = new Ajv2020({ strict: false }).compile(SCHEMA);

let pages: PageServer;
const harnesses: Harness[] = [];

beforeAll(async () => {
  pages = await startPageServer();
  pages.page('/methods', METHODS);
});
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.stop()));
});
afterAll(async () => {
  await pages.close();
});

describe('near misses through the worker', () => {
  it('stores and announces the closest passage and the named change of each excerpt not on its page', async () => {
    const h = await startHarness(
      testConfig(undefined, {
        worker: { queues: ['review.recorded'] },
        citations: { allow_private_hosts: [`localhost:${pages.port}`] },
      }),
    );
    harnesses.push(h);
    const url = `${pages.base}/methods`;
    const evidence = [
      { claim: 'about half shed virus', url, excerpt: 'Of the 24 ferrets exposed, 54% shed virus by day three' },
      { claim: 'transmissible', url, excerpt: 'The isolate was transmissible by respiratory droplets' },
      { claim: 'grouped', url, excerpt: 'Each animal was housed alone, and the large cages were cleaned twice a day.' },
      { claim: 'another paper', url, excerpt: 'Mice given the compound gained weight over six weeks of follow-up.' },
      { claim: 'found', url, excerpt: 'none of the contact animals seroconverted' },
      { claim: 'not fetched by the agent', url: `${url}?unseen=1`, excerpt: 'Of the 24 ferrets exposed, 54%' },
    ];
    await h.publisher.publishReviewRecorded({
      reviewId: 'near',
      hypothesisId: 'h-near',
      revision: 1,
      evidence,
      seenUrls: evidence.slice(0, 5).map((e) => e.url),
    });
    await h.waitForJob('review.recorded', 'review.near.r1', 'completed', 15_000);

    const stored = (await createReviewStore(h.redis, h.config.redis.key_prefix).get('near'))!;
    const [number, negation, inserted, foreign, ok, unseen] = stored.results;
    // The status is the matcher's alone: unverified, excerpt_not_found.
    for (const r of [number, negation, inserted, foreign]) {
      expect(r).toMatchObject({ status: 'unverified', reason: 'excerpt_not_found', citation_unverified: true });
    }
    expect(number!.detail).toBe('altered');
    expect(number!.nearMiss).toMatchObject({
      source: 'text',
      passage: 'of the 24 ferrets exposed, 45% shed virus by day three',
      diff: [
        { kind: 'same', text: 'of the 24 ferrets exposed,' },
        { kind: 'number_changed', excerpt: '54%', page: '45%' },
        { kind: 'same', text: 'shed virus by day three' },
      ],
    });
    expect(number!.nearMiss!.similarity).toBeGreaterThan(0.8);
    expect(negation!.nearMiss!.diff.filter((d) => d.kind !== 'same')).toEqual([
      { kind: 'negation', excerpt: '', page: 'not' },
    ]);
    expect(inserted!.nearMiss!.diff.filter((d) => d.kind !== 'same')).toEqual([
      { kind: 'word_inserted', excerpt: 'large', page: '' },
    ]);
    expect(foreign!.detail).toBe('absent');
    expect(foreign!.nearMiss).toBeUndefined();
    // Nothing to diagnose for an excerpt found, nor for one never checked.
    expect(ok).toMatchObject({ status: 'ok' });
    expect(ok!.detail).toBeUndefined();
    expect(unseen).toMatchObject({ status: 'unverified', reason: 'url_not_seen' });
    expect(unseen!.detail).toBeUndefined();

    const events = (await h.events()).filter((e) => e.type === 'citation_unverified');
    const data = events.map((e) => e.data as CitationUnverifiedData);
    expect(data.map((d) => [d.index, d.detail ?? null])).toEqual([
      [0, 'altered'],
      [1, 'altered'],
      [2, 'altered'],
      [3, 'absent'],
      [5, null],
    ]);
    // The event carries what the result does.
    expect(data[0]!.nearMiss).toEqual(number!.nearMiss);
    expect(data[3]!.nearMiss).toBeUndefined();
    for (const d of data) expect(validate(d), JSON.stringify(validate.errors)).toBe(true);
    // An event written before near misses were diagnosed still validates: the fields are optional.
    const { detail: _detail, nearMiss: _nearMiss, ...older } = data[0]!;
    expect(validate(older)).toBe(true);
    expect(validate({ ...data[0]!, detail: 'nearly' })).toBe(false);

    // A job that runs again reuses the result: nothing is announced twice, nothing fetched again.
    const before = (await h.events()).length;
    await (await h.publisher.queue('review.recorded').getJob('review.near.r1'))!.remove();
    await h.publisher.publishReviewRecorded({
      reviewId: 'near',
      hypothesisId: 'h-near',
      revision: 1,
      evidence,
      seenUrls: evidence.slice(0, 5).map((e) => e.url),
    });
    await h.waitForJob('review.recorded', 'review.near.r1');
    expect(await h.events()).toHaveLength(before);
    expect(pages.hits.get('/methods')).toBe(1);
  });
});
