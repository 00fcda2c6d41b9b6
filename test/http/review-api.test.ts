/**
 * The review API over loopback HTTP, against the real worker runtime, real
 * Redis and real BullMQ workers: the token, the queue and one item, release
 * and confirm with their events and audit entries, and every refusal with its
 * status and stable code.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReviewService } from '../../src/runtime/builders.js';
import type { ReviewService } from '../../src/review/review-service.js';
import { createDecisionStore } from '../../src/store/decision-store.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { testConfig } from '../support/config.js';
import { startHarness, type Harness } from '../support/pipeline.js';
import { apiRequests, baseUrl, call, classify, counter, snapshot, REVIEW_TOKEN } from '../support/review-http.js';

let fake: FakeAnthropic;
let h: Harness;
let base: string;
let review: ReviewService;

beforeAll(async () => {
  fake = await startFakeAnthropic(markerHandler);
  // This worker never exports the queue depth, so reading /metrics (for the
  // counters) writes nothing to Redis and a snapshot shows only what requests did.
  h = await startHarness(
    testConfig(fake.url, { review: { api_token: REVIEW_TOKEN }, metrics: { queue_depth: false } }),
  );
  base = baseUrl(h);
  review = buildReviewService(h.config, h.redis);
});
afterAll(async () => {
  await h?.stop();
  await fake?.close();
});

const RISKY = 'Risky @@dual_use_bio@0.9@@';
const WEAPON = 'Weapon @@weapons@0.8@@';

const eventsOf = async (id: string) =>
  (await h.events()).filter((e) => (e.data as { hypothesisId?: string }).hypothesisId === id);

const auditLength = () => h.redis.xlen(`${h.config.redis.key_prefix}:audit`);

describe('the token', () => {
  it('refuses requests without the right bearer token, changes nothing, and only counts them', async () => {
    await classify(h, 'auth-1', RISKY, 'Title auth-1');
    const before = await snapshot(h.redis, h.config.redis.key_prefix);
    const unauthorizedBefore = await counter(base, apiRequests('unauthorized'));
    const decision = { by: 'mallory', note: 'let it out' };

    const attempts = [
      await call(base, 'POST', '/review/api/items/auth-1/release', { token: null, body: decision }),
      await call(base, 'POST', '/review/api/items/auth-1/release', { token: 'wrong-token', body: decision }),
      await call(base, 'POST', '/review/api/items/auth-1/confirm', { token: `${REVIEW_TOKEN}x`, body: decision }),
      await call(base, 'POST', '/review/api/items/auth-1/release', {
        token: null,
        headers: { authorization: `Basic ${Buffer.from(`u:${REVIEW_TOKEN}`).toString('base64')}` },
        body: decision,
      }),
      await call(base, 'GET', '/review/api/items', { token: null }),
      await call(base, 'GET', '/review/api/items/auth-1', { token: REVIEW_TOKEN.slice(0, -1) }),
      // The route is unknown, but a caller without the token is not told so.
      await call(base, 'GET', '/review/api/nothing-here', { token: null }),
    ];
    for (const reply of attempts) {
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer realm="cosci-safety review"/);
      expect(reply.json().error?.code).toBe('REVIEW_UNAUTHORIZED');
      expect(reply.text).not.toContain('auth-1');
      expect(reply.text).not.toContain('Risky');
    }
    expect(attempts[0]!.headers.get('www-authenticate')).not.toContain('invalid_token');
    expect(attempts[1]!.headers.get('www-authenticate')).toContain('error="invalid_token"');

    expect(await counter(base, apiRequests('unauthorized'))).toBe(unauthorizedBefore + attempts.length);
    // Not a key written, a value changed or an event emitted under the service's prefix.
    expect(await snapshot(h.redis, h.config.redis.key_prefix)).toEqual(before);
    const shown = await review.show('auth-1');
    expect(shown.state).toBe('quarantined');
    expect(shown.history).toEqual([]);
    expect((await eventsOf('auth-1')).map((e) => e.type)).toEqual(['hypothesis_assessed', 'hypothesis_quarantined']);
  });

  it('accepts the scheme name in any case', async () => {
    const reply = await call(base, 'GET', '/review/api/items', {
      token: null,
      headers: { authorization: `bearer ${REVIEW_TOKEN}` },
    });
    expect(reply.status).toBe(200);
  });
});

describe('reading the queue', () => {
  it('lists the held hypotheses and shows one with its text, verdict, evidence and history', async () => {
    await classify(h, 'list-q', RISKY, 'Quarantined one');
    await classify(h, 'list-b', WEAPON, 'Blocked one');
    await classify(h, 'list-a', 'Kinase signalling in yeast.', 'Assessed one');
    await h.publisher.publishReviewRecorded({
      reviewId: 'list-q-review',
      hypothesisId: 'list-q',
      revision: 1,
      evidence: [{ claim: 'c', url: 'https://example.org/paper', excerpt: 'an excerpt' }],
      // The URL was never fetched by the reviewing agent: unverified, and no fetch is made.
      seenUrls: [],
    });
    await h.waitForJob('review.recorded', 'review.list-q-review.r1');
    const okBefore = await counter(base, apiRequests('ok'));

    const list = await call(base, 'GET', '/review/api/items');
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(list.headers.get('cache-control')).toBe('no-store');
    expect(list.headers.get('x-content-type-options')).toBe('nosniff');
    const items = (list.json().items as Array<Record<string, unknown>>).filter((i) =>
      String(i.hypothesisId).startsWith('list-'),
    );
    expect(items.map((i) => [i.hypothesisId, i.state, i.title, i.categories])).toEqual([
      ['list-q', 'quarantined', 'Quarantined one', ['dual_use_bio']],
      ['list-b', 'blocked', 'Blocked one', ['weapons']],
    ]);
    expect(items[0]).toMatchObject({ revision: 1, action: 'quarantine', confidence: 0.9, degraded: false });

    const limited = await call(base, 'GET', '/review/api/items?limit=1');
    expect(limited.json().items).toHaveLength(1);

    const shown = await call(base, 'GET', '/review/api/items/list-q');
    expect(shown.status).toBe(200);
    expect(shown.json().item).toMatchObject({
      hypothesisId: 'list-q',
      revision: 1,
      state: 'quarantined',
      verdict: { action: 'quarantine', categories: ['dual_use_bio'], confidence: 0.9, degraded: false },
      subject: { title: 'Quarantined one', text: RISKY },
      evidence: [
        {
          reviewId: 'list-q-review',
          results: [{ url: 'https://example.org/paper', status: 'unverified', reason: 'url_not_seen' }],
        },
      ],
      history: [],
    });
    expect(await counter(base, apiRequests('ok'))).toBe(okBefore + 3);
  });

  it('decodes percent-encoded ids from the path, and refuses malformed encoding', async () => {
    const id = 'lab/7?#%é';
    await classify(h, id, RISKY);
    const shown = await call(base, 'GET', `/review/api/items/${encodeURIComponent(id)}`);
    expect(shown.status).toBe(200);
    expect(shown.json().item).toMatchObject({ hypothesisId: id, state: 'quarantined' });

    for (const bad of ['%E0%A4%A', '%ZZ', '%ED%A0%80']) {
      const reply = await call(base, 'GET', `/review/api/items/${bad}`);
      expect(reply.status, bad).toBe(400);
      expect(reply.json().error).toMatchObject({ code: 'REVIEW_INVALID' });
      expect(reply.json().error?.message).toContain('hypothesisId');
    }
    // A control character is no id: the service's rule, over HTTP.
    const control = await call(base, 'GET', '/review/api/items/a%00b');
    expect(control.status).toBe(400);
    expect(control.json().error?.message).toContain('hypothesisId');
  });
});

describe('deciding', () => {
  it('releases over HTTP: the event, the audit entry, the metrics, and off the queue', async () => {
    await classify(h, 'rel-1', RISKY);
    const auditBefore = await auditLength();
    const releasedBefore = await counter(base, 'cosci_safety_review_decisions_total{decision="released"}');

    const reply = await call(base, 'POST', '/review/api/items/rel-1/release', {
      body: { by: 'Dr Ada Lovelace', note: 'benign assay', revision: 1 },
    });
    expect(reply.status).toBe(200);
    const body = reply.json() as { decision: Record<string, unknown>; auditEntryId: string };
    expect(body.decision).toMatchObject({
      decision: 'released',
      hypothesisId: 'rel-1',
      revision: 1,
      by: 'Dr Ada Lovelace',
      note: 'benign assay',
      overridden: { action: 'quarantine', categories: ['dual_use_bio'], confidence: 0.9 },
    });

    const released = (await eventsOf('rel-1')).filter((e) => e.type === 'hypothesis_released');
    expect(released).toHaveLength(1);
    expect(released[0]!.data).toMatchObject({ hypothesisId: 'rel-1', revision: 1, by: 'Dr Ada Lovelace' });

    expect(await auditLength()).toBe(auditBefore + 1);
    const audit = await createDecisionStore(h.redis, h.config.redis.key_prefix).audit();
    expect(audit.find((e) => e.entryId === body.auditEntryId)).toMatchObject({
      type: 'hypothesis_released',
      hypothesisId: 'rel-1',
      by: 'Dr Ada Lovelace',
      note: 'benign assay',
    });

    const shown = (await call(base, 'GET', '/review/api/items/rel-1')).json().item as Record<string, unknown>;
    expect(shown.state).toBe('released');
    expect(shown.history).toEqual([
      expect.objectContaining({ entryId: body.auditEntryId, by: 'Dr Ada Lovelace', note: 'benign assay' }),
    ]);
    const ids = ((await call(base, 'GET', '/review/api/items')).json().items as Array<{ hypothesisId: string }>).map(
      (i) => i.hypothesisId,
    );
    expect(ids).not.toContain('rel-1');
    expect(await counter(base, 'cosci_safety_review_decisions_total{decision="released"}')).toBe(releasedBefore + 1);
  });

  it('confirms a blocked hypothesis', async () => {
    await classify(h, 'conf-1', WEAPON);
    const reply = await call(base, 'POST', '/review/api/items/conf-1/confirm', {
      body: { by: 'carol', note: 'it is what it says' },
    });
    expect(reply.status).toBe(200);
    expect((await review.show('conf-1')).state).toBe('confirmed');
    expect((await eventsOf('conf-1')).at(-1)?.type).toBe('hypothesis_confirmed');
  });

  it('answers 409 to a second decision and to a hypothesis that is not held', async () => {
    await classify(h, 'twice-1', RISKY);
    await classify(h, 'plain-1', 'Plain biology.');
    const conflictBefore = await counter(base, apiRequests('conflict'));
    const first = await call(base, 'POST', '/review/api/items/twice-1/release', { body: { by: 'first', note: 'ok' } });
    expect(first.status).toBe(200);

    const second = await call(base, 'POST', '/review/api/items/twice-1/confirm', {
      body: { by: 'second', note: 'no' },
    });
    expect(second.status).toBe(409);
    expect(second.json().error?.code).toBe('REVIEW_ALREADY_DECIDED');
    expect(second.json().error?.message).toContain('first');

    const notHeld = await call(base, 'POST', '/review/api/items/plain-1/release', { body: { by: 'a', note: 'b' } });
    expect(notHeld.status).toBe(409);
    expect(notHeld.json().error?.code).toBe('REVIEW_NOT_HELD');

    expect(await counter(base, apiRequests('conflict'))).toBe(conflictBefore + 2);
    expect((await review.show('twice-1')).history).toHaveLength(1);
    expect((await review.show('twice-1')).history[0]?.by).toBe('first');
  });

  it('refuses a stale revision with 409', async () => {
    await classify(h, 'stale-1', RISKY, undefined, 1);
    await classify(h, 'stale-1', 'Still risky @@dual_use_bio@0.8@@', undefined, 2);
    const reply = await call(base, 'POST', '/review/api/items/stale-1/release', {
      body: { by: 'dana', note: 'looked at r1', revision: 1 },
    });
    expect(reply.status).toBe(409);
    expect(reply.json().error).toMatchObject({ code: 'REVIEW_NOT_HELD' });
    expect(reply.json().error?.message).toContain('no longer the latest');
  });
});

describe('refusals', () => {
  it('answers 400 to bad input, naming the field, and changes nothing', async () => {
    await classify(h, 'bad-1', RISKY);
    const before = await snapshot(h.redis, h.config.redis.key_prefix);
    const invalidBefore = await counter(base, apiRequests('invalid'));
    const cases: Array<[unknown, string]> = [
      [{ by: '', note: 'x' }, 'by'],
      [{ by: '<script>', note: 'x' }, 'by'],
      [{ note: 'x' }, 'by'],
      [{ by: 'ok' }, 'note'],
      [{ by: 'ok', note: '   ' }, 'note'],
      [{ by: 'ok', note: 'x'.repeat(2001) }, 'note'],
      [{ by: 'ok', note: 'x', revision: '1' }, 'revision'],
      [{ by: 'ok', note: 'x', revision: -1 }, 'revision'],
      [{ by: 'ok', note: 'x', hypothesisId: 'other' }, 'hypothesisId'],
      [[], '(top level)'],
      ['null', '(top level)'],
      ['{"by": "ok", "note": ', 'JSON'],
    ];
    for (const [body, field] of cases) {
      const reply = await call(base, 'POST', '/review/api/items/bad-1/release', { body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.json().error?.code).toBe('REVIEW_INVALID');
      expect(reply.json().error?.message, JSON.stringify(body)).toContain(field);
    }
    const badLimit = await call(base, 'GET', '/review/api/items?limit=0');
    expect(badLimit.status).toBe(400);
    expect(badLimit.json().error?.message).toContain('limit');

    const notJson = await call(base, 'POST', '/review/api/items/bad-1/release', {
      body: { by: 'ok', note: 'x' },
      headers: { 'content-type': 'text/plain' },
    });
    expect(notJson.status).toBe(415);
    expect(notJson.json().error?.code).toBe('REVIEW_UNSUPPORTED_MEDIA_TYPE');

    const wrongMethod = await call(base, 'GET', '/review/api/items/bad-1/release');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');

    expect(await counter(base, apiRequests('invalid'))).toBe(invalidBefore + cases.length + 3);
    expect(await snapshot(h.redis, h.config.redis.key_prefix)).toEqual(before);
  });

  it('answers 404 to an unknown hypothesis or route', async () => {
    const notFoundBefore = await counter(base, apiRequests('not_found'));
    const shown = await call(base, 'GET', '/review/api/items/no-such-hypothesis');
    expect(shown.status).toBe(404);
    expect(shown.json().error?.code).toBe('REVIEW_NOT_FOUND');
    const decided = await call(base, 'POST', '/review/api/items/no-such-hypothesis/release', {
      body: { by: 'a', note: 'b' },
    });
    expect(decided.status).toBe(404);
    expect(decided.json().error?.code).toBe('REVIEW_NOT_FOUND');
    for (const path of ['/review/api/items/x/delete', '/review/api/other', '/review/api/items/x/release/more']) {
      const reply = await call(base, 'POST', path, { body: { by: 'a', note: 'b' } });
      expect(reply.status, path).toBe(404);
      expect(reply.json().error?.code).toBe('REVIEW_NO_ROUTE');
    }
    expect(await counter(base, apiRequests('not_found'))).toBe(notFoundBefore + 5);
  });

  it('answers 413 to a body over 16 kB, declared or chunked, and serves the next request', async () => {
    await classify(h, 'big-1', RISKY);
    const big = { by: 'ok', note: 'x'.repeat(17 * 1024) };
    const declared = await call(base, 'POST', '/review/api/items/big-1/release', { body: big });
    expect(declared.status).toBe(413);
    expect(declared.json().error?.code).toBe('REVIEW_BODY_TOO_LARGE');

    // Chunked: no Content-Length, so the bound is found while reading.
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${base}/review/api/items/big-1/release`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${REVIEW_TOKEN}`, 'content-type': 'application/json' },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      const text = JSON.stringify(big);
      for (let i = 0; i < text.length; i += 1024) req.write(text.slice(i, i + 1024));
      req.end();
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ error: { code: 'REVIEW_BODY_TOO_LARGE' } });

    expect((await review.show('big-1')).state).toBe('quarantined');
    const after = await call(base, 'POST', '/review/api/items/big-1/release', { body: { by: 'ok', note: 'fine' } });
    expect(after.status).toBe(200);
  });
});

describe('the page', () => {
  it('is a static shell with a fresh nonce and the security headers, and no token in it', async () => {
    const redirect = await call(base, 'GET', '/review', { token: null, redirect: 'manual' });
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('review/');

    const first = await call(base, 'GET', '/review/', { token: null });
    const second = await call(base, 'GET', '/review/', { token: REVIEW_TOKEN });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('referrer-policy')).toBe('no-referrer');
    expect(first.headers.get('cache-control')).toBe('no-store');
    const csp = first.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'none'",
      "connect-src 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toContain(`style-src 'nonce-${nonce}'`);
    expect(first.text).toContain(`<script nonce="${nonce}">`);
    expect(second.headers.get('content-security-policy')).not.toContain(nonce);
    expect(second.text).not.toContain(REVIEW_TOKEN);
    expect(first.text).toContain('<meta name="viewport"');
    // One script, bundled from src/http/review-page/, that parses no HTML and evaluates no string.
    const scripts = [...first.text.matchAll(/<script nonce="[^"]+">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.length).toBeGreaterThan(10_000);
    expect(scripts[0]).toContain('textContent');
    for (const sink of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'eval(', 'new Function']) {
      expect(scripts[0], sink).not.toContain(sink);
    }
  });
});

describe('with no token configured', () => {
  it('serves no review route at all', async () => {
    const off = await startHarness(testConfig(fake.url, { worker: { queues: ['goal.submitted'] } }));
    try {
      const offBase = baseUrl(off);
      for (const [method, path] of [
        ['GET', '/review'],
        ['GET', '/review/'],
        ['GET', '/review/api/items'],
        ['GET', '/review/api/items/x'],
        ['POST', '/review/api/items/x/release'],
      ] as const) {
        const reply = await call(offBase, method, path, method === 'POST' ? { body: { by: 'a', note: 'b' } } : {});
        expect(reply.status, `${method} ${path}`).toBe(404);
      }
      expect((await call(offBase, 'GET', '/healthz')).status).toBe(200);
      expect(await counter(offBase, apiRequests('not_found'))).toBe(0);
    } finally {
      await off.stop();
    }
  });
});
