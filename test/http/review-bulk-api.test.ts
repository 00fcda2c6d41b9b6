/**
 * Decisions on a selection over the review API, against the real worker,
 * Redis and BullMQ: each item decided with its own audit entry and event,
 * the ones refused named with their code and the others decided all the
 * same; and claims: who is on an item, for how long, and a decision by
 * another reviewer that needs `confirm`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewBulkDecideResult } from '../../src/contracts/review-api.js';
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
