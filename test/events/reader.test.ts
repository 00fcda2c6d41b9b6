/** Reading the stream with a type filter, page by page, against real Redis. */
import { afterAll, describe, expect, it } from 'vitest';
import { readEvents, readLastEvents } from '../../src/events/reader.js';
import { deleteKeys, testRedis, uniqueName } from '../support/redis.js';

const redis = testRedis();
const stream = uniqueName('reader-events');

afterAll(async () => {
  await deleteKeys(redis, stream);
  redis.disconnect();
});

describe('reading events of some types', () => {
  it('pages through entries of other types to find `count` of the wanted ones', async () => {
    // 25 entries: a wanted one every fifth, the rest noise.
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) {
      const type = i % 5 === 0 ? 'review_verified' : 'hypothesis_assessed';
      ids.push((await redis.xadd(stream, '*', 'type', type, 'eventId', `e/${i}`, 'data', JSON.stringify({ i })))!);
    }
    const wanted = new Set(['review_verified']);
    // A page of 3 makes each read cross several pages.
    const last = await readLastEvents(redis, stream, 3, wanted, 3);
    expect(last.map((e) => e.eventId)).toEqual(['e/10', 'e/15', 'e/20']);
    const all = await readLastEvents(redis, stream, 100, wanted, 3);
    expect(all.map((e) => e.eventId)).toEqual(['e/0', 'e/5', 'e/10', 'e/15', 'e/20']);
    const from = await readEvents(redis, stream, ids[6], 2, wanted, 3);
    expect(from.map((e) => e.eventId)).toEqual(['e/10', 'e/15']);
    expect((await readEvents(redis, stream, ids[21], 5, wanted, 3)).map((e) => e.eventId)).toEqual([]);
    // Without a filter: exactly the last or next `count` entries.
    expect((await readLastEvents(redis, stream, 2)).map((e) => e.eventId)).toEqual(['e/23', 'e/24']);
    expect((await readEvents(redis, stream, ids[3], 2)).map((e) => e.eventId)).toEqual(['e/3', 'e/4']);
    expect((await readEvents(redis, stream, ids[3], 2))[0]!.data).toEqual({ i: 3 });
  });
});
