/**
 * Decisions on a selection over the review API, against the real worker,
 * Redis and BullMQ: each item decided with its own audit entry and event,
 * the ones refused named with their code and the others decided all the
 * same; and claims: who is on an item, for how long, and a decision by
 * another reviewer that needs `confirm`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewBulkDecideResult } from '../../src/contracts/review-api.js';
import { makeClaim } from '../../src/safety/review/claim.js';
import { createClaimStore } from '../../src/store/claim-store.js';
import { eventually } from '../support/poll.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { testConfig } from '../support/config.js';
import { startHarness, type Harness } from '../support/pipeline.js';
import { baseUrl, call, classify, REVIEW_TOKEN } from '../support/review-http.js';

let fake: FakeAnthropic;
let h: Harness;
let base: string;

beforeAll(async () => {
  fake = await startFakeAnthropic(markerHandler);
  h = await startHarness(testConfig(fake.url, { review: { api_token: REVIEW_TOKEN } }));
  base = baseUrl(h);
});
afterAll(async () => {
  await h?.stop();
  await fake?.close();
});

const eventsOf = async (id: string) =>
  (await h.events()).filter((e) => (e.data as { hypothesisId?: string }).hypothesisId === id);
const held = () => h.redis.zrange(`${h.config.redis.key_prefix}:review:held`, 0, '-1');

describe('bulk decide', () => {
  it('decides each item of a selection with its own audit entry and event, and names those refused', async () => {
    for (const id of ['b-1', 'b-2', 'b-3', 'b-4']) await classify(h, id, `Risky ${id} @@dual_use_bio@0.9@@`);
    // b-4 is decided by someone else first; b-3 gets a newer revision before the selection is sent.
    expect(
      (await call(base, 'POST', '/review/api/items/b-4/confirm', { body: { by: 'Dr Lee', note: 'first' } })).status,
    ).toBe(200);
    await classify(h, 'b-3', 'Risky again @@dual_use_bio@0.8@@', undefined, 2);
    const reply = await call(base, 'POST', '/review/api/decide', {
      body: {
        decision: 'release',
        by: 'Dr Rao',
        note: 'controls, all of them',
        items: ['b-1', 'b-2', 'b-3', 'b-4'].map((hypothesisId) => ({ hypothesisId, revision: 1 })),
      },
    });
    expect(reply.status, reply.text).toBe(200);
    const result = reply.json() as unknown as ReviewBulkDecideResult;
    expect(result).toMatchObject({ decided: 2, refused: 2 });
    expect(result.results.map((r) => [r.hypothesisId, r.outcome, r.code])).toEqual([
      ['b-1', 'decided', undefined],
      ['b-2', 'decided', undefined],
      ['b-3', 'refused', 'REVIEW_NOT_HELD'],
      ['b-4', 'refused', 'REVIEW_ALREADY_DECIDED'],
    ]);
    const ids = new Set(result.results.map((r) => r.auditEntryId).filter(Boolean));
    expect(ids.size).toBe(2);
    expect((await eventsOf('b-1')).filter((e) => e.type === 'hypothesis_released')).toHaveLength(1);
    expect((await eventsOf('b-3')).filter((e) => e.type === 'hypothesis_released')).toHaveLength(0);
    const left = await held();
    expect(left).not.toContain('b-1');
    expect(left).toContain('b-3');
  });

  it('refuses a bad selection as a whole, by field, deciding nothing', async () => {
    await classify(h, 'b-bad', 'Risky @@dual_use_bio@0.9@@');
    const cases: Array<[unknown, string]> = [
      [{ decision: 'release', by: 'x<y>', note: 'n', items: [{ hypothesisId: 'b-bad', revision: 1 }] }, 'by'],
      [{ decision: 'release', by: 'A', note: '', items: [{ hypothesisId: 'b-bad', revision: 1 }] }, 'note'],
      [{ decision: 'release', by: 'A', note: 'n', items: [] }, 'items: at least one item'],
      [{ decision: 'free', by: 'A', note: 'n', items: [] }, 'decision: release or confirm'],
      [
        {
          decision: 'confirm',
          by: 'A',
          note: 'n',
          items: [
            { hypothesisId: 'b-bad', revision: 1 },
            { hypothesisId: 'b-bad', revision: 1 },
          ],
        },
        'items: each hypothesis once',
      ],
    ];
    for (const [body, message] of cases) {
      const reply = await call(base, 'POST', '/review/api/decide', { body });
      expect(reply.status, message).toBe(400);
      expect(reply.json().error?.message, JSON.stringify(body)).toContain(message);
    }
    expect(await held()).toContain('b-bad');
  });
});

describe('claims', () => {
  const claim = (id: string, body: unknown) =>
    call(base, 'POST', `/review/api/items/${encodeURIComponent(id)}/claim`, { body });
  const decide = (id: string, body: unknown) =>
    call(base, 'POST', `/review/api/items/${encodeURIComponent(id)}/confirm`, { body });

  it('shows who is on an item, refuses another claim and a decision by another without confirm', async () => {
    await classify(h, 'c-1', 'Risky @@dual_use_bio@0.9@@');
    const taken = await claim('c-1', { by: 'Dr Rao' });
    expect(taken.status, taken.text).toBe(200);
    const mine = taken.json().claim as { by: string; at: string; expiresAt: string };
    expect(mine.by).toBe('Dr Rao');
    // The time to live is the configured one (900 s by default), and Redis holds it.
    expect(Date.parse(mine.expiresAt) - Date.parse(mine.at)).toBe(900_000);
    const pttl = await h.redis.pttl(`${h.config.redis.key_prefix}:claim:hypothesis:c-1`);
    expect(pttl).toBeGreaterThan(890_000);
    expect(pttl).toBeLessThanOrEqual(900_000);

    // Others see it, in the queue and on the item.
    const queue = (await call(base, 'GET', '/review/api/items?q=c-1')).json() as {
      items: Array<{ hypothesisId: string; claim?: { by: string } }>;
    };
    expect(queue.items.find((i) => i.hypothesisId === 'c-1')?.claim?.by).toBe('Dr Rao');
    const item = (await call(base, 'GET', '/review/api/items/c-1')).json() as { item: { claim?: { by: string } } };
    expect(item.item.claim?.by).toBe('Dr Rao');

    // Claiming again oneself (in any case) renews it; another is refused, unless they take it over.
    expect((await claim('c-1', { by: 'dr rao' })).status).toBe(200);
    expect((await claim('c-1', { by: 'Dr Rao' })).status).toBe(200);
    const other = await claim('c-1', { by: 'Dr Lee' });
    expect(other.status).toBe(409);
    expect(other.json().error).toMatchObject({ code: 'REVIEW_CLAIMED' });
    expect(other.json().error?.message).toContain('Dr Rao is on c-1');

    // A decision by another needs confirm; the claimer's own does not.
    const refused = await decide('c-1', { by: 'Dr Lee', note: 'seen it' });
    expect(refused.status).toBe(409);
    expect(refused.json().error?.code).toBe('REVIEW_CLAIMED');
    expect(refused.json().error?.message).toContain('send confirm: true');
    expect((await eventsOf('c-1')).filter((e) => e.type === 'hypothesis_confirmed')).toHaveLength(0);
    const confirmed = await decide('c-1', { by: 'Dr Lee', note: 'seen it', confirm: true });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect((confirmed.json() as { decision: { by: string } }).decision.by).toBe('Dr Lee');

    await classify(h, 'c-2', 'Risky @@dual_use_bio@0.9@@');
    expect((await claim('c-2', { by: 'Dr Rao' })).status).toBe(200);
    expect((await decide('c-2', { by: 'Dr Rao', note: 'mine' })).status).toBe(200);
    // A decided item cannot be claimed.
    expect((await claim('c-2', { by: 'Dr Rao' })).json().error?.code).toBe('REVIEW_NOT_HELD');
  });

  it("takes over, drops only one's own claim, and refuses bad bodies by field", async () => {
    await classify(h, 'c-3', 'Risky @@dual_use_bio@0.9@@');
    expect((await claim('c-3', { by: 'Dr Rao' })).status).toBe(200);
    const over = await claim('c-3', { by: 'Dr Lee', take: true });
    expect((over.json() as { claim: { by: string } }).claim.by).toBe('Dr Lee');
    const unclaim = (by: string) => call(base, 'POST', '/review/api/items/c-3/unclaim', { body: { by } });
    expect((await unclaim('Dr Rao')).json()).toEqual({ dropped: false });
    expect((await unclaim('Dr Lee')).json()).toEqual({ dropped: true });
    expect(((await call(base, 'GET', '/review/api/items/c-3')).json() as { item: object }).item).not.toHaveProperty(
      'claim',
    );
    const bad = await claim('c-3', { by: 'x<y>' });
    expect(bad.status).toBe(400);
    expect(bad.json().error?.message).toContain('by');
    expect((await claim('c-3', { by: 'A', until: 5 })).status).toBe(400);
    expect((await call(base, 'GET', '/review/api/items/c-3/claim')).status).toBe(405);
  });

  it('lapses by itself after its time to live', async () => {
    const store = createClaimStore(h.redis, h.config.redis.key_prefix);
    await store.claim('c-ttl', makeClaim('Dr Rao', new Date(), 300), 300, false);
    expect((await store.get('c-ttl'))?.by).toBe('Dr Rao');
    expect((await store.claim('c-ttl', makeClaim('Dr Lee', new Date(), 300), 300, false)).outcome).toBe('taken');
    await eventually('the claim lapsed', async () => ((await store.get('c-ttl')) === undefined ? true : undefined), {
      timeoutMs: 5000,
      everyMs: 50,
    });
    expect((await store.claim('c-ttl', makeClaim('Dr Lee', new Date(), 300), 300, false)).outcome).toBe('ok');
  });
});
