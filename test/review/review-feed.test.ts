/**
 * The review feed against real Redis: the changes a page hears (held and
 * decided, nothing else), from the moment it subscribes; one reader that
 * stops when no page listens; and a close that does not wait out a blocking
 * read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ReviewFeedChange } from '../../src/contracts/review-api.js';
import { createEventEmitter } from '../../src/events/emitter.js';
import { changeOf, createReviewFeed, type ReviewFeed } from '../../src/review/review-feed.js';
import { until } from '../support/poll.js';
import { deleteKeys, testRedis, uniqueName } from '../support/redis.js';

const redis = testRedis();
const opened: Array<{ feed: ReviewFeed; stream: string }> = [];

afterEach(async () => {
  for (const { feed, stream } of opened.splice(0)) {
    feed.close();
    await deleteKeys(redis, stream);
  }
});

function setUp(blockMs = 200) {
  const stream = `${uniqueName('feed')}:events`;
  const name = uniqueName('feed-conn');
  const connection = testRedis();
  void connection.client('SETNAME', name);
  const feed = createReviewFeed({ redis: connection, stream, blockMs, retryMs: 50 });
  opened.push({ feed, stream });
  const emitter = createEventEmitter({ redis, stream, dedupeTtlSeconds: 60, maxLen: 0 });
  const verdict = {
    action: 'quarantine' as const,
    categories: ['dual_use_bio'],
    confidence: 0.9,
    rationale: 'r',
    degraded: false,
    model: 'm',
    refusal: false,
    windowed: false,
  };
  const decision = {
    by: 'Ada',
    note: 'n',
    at: '2026-01-01T00:00:00.000Z',
    overridden: { action: 'quarantine' as const, categories: [], confidence: 0.9 },
  };
  return {
    feed,
    connection,
    name,
    held: (id: string, revision = 1) =>
      emitter.emit('hypothesis_quarantined', `q/${id}/${revision}`, { hypothesisId: id, revision, ...verdict }),
    assessed: (id: string) =>
      emitter.emit('hypothesis_assessed', `a/${id}`, { hypothesisId: id, revision: 1, ...verdict }),
    released: (id: string) =>
      emitter.emit('hypothesis_released', `r/${id}`, { hypothesisId: id, revision: 1, ...decision }),
  };
}

/** What the feed's connection is doing, from CLIENT LIST: blocked in a read, idle, or gone. */
async function state(name: string): Promise<'blocked' | 'idle' | 'gone'> {
  const list = (await redis.client('LIST')) as string;
  const line = list.split('\n').find((l) => l.includes(` name=${name} `));
  if (line === undefined) return 'gone';
  return /\bflags=\S*b/.test(line) ? 'blocked' : 'idle';
}

describe('the review feed', () => {
  it('tells every listener of holds and decisions made after it subscribed, and of nothing else', async () => {
    const f = setUp();
    await f.held('before');
    const a: Array<[ReviewFeedChange, string]> = [];
    const b: ReviewFeedChange[] = [];
    f.feed.subscribe((change, id) => a.push([change, id]));
    f.feed.subscribe((change) => b.push(change));
    // The reader starts after the newest entry: wait until it is blocked on the stream.
    await until('the feed reading', async () => (await state(f.name)) === 'blocked');
    await f.assessed('h1');
    await f.held('h1');
    await f.released('h1');
    await until('two changes heard', () => a.length === 2 && b.length === 2);
    expect(b).toEqual([
      { kind: 'held', hypothesisId: 'h1', revision: 1, state: 'quarantined' },
      {
        kind: 'decided',
        hypothesisId: 'h1',
        revision: 1,
        state: 'released',
        by: 'Ada',
        at: '2026-01-01T00:00:00.000Z',
      },
    ]);
    expect(a.map(([change]) => change)).toEqual(b);
    expect(a[0]![1]).toMatch(/^\d+-\d+$/);
  });

  it('stops reading when nobody listens, and starts again for the next listener', async () => {
    const f = setUp(100);
    const heard: ReviewFeedChange[] = [];
    const unsubscribe = f.feed.subscribe((change) => heard.push(change));
    await until('the feed reading', async () => (await state(f.name)) === 'blocked');
    unsubscribe();
    // Within one blocking read's time the reader is idle.
    await until('the feed idle', async () => (await state(f.name)) === 'idle', { timeoutMs: 2000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await state(f.name)).toBe('idle');
    await f.held('missed');
    f.feed.subscribe((change) => heard.push(change));
    await until('the feed reading again', async () => (await state(f.name)) === 'blocked');
    await f.held('heard');
    await until('one change heard', () => heard.length === 1);
    expect(heard[0]!.hypothesisId).toBe('heard');
  });

  it('closes at once, in the middle of a blocking read', async () => {
    const f = setUp(60_000);
    f.feed.subscribe(() => undefined);
    await until('the feed reading', async () => (await state(f.name)) === 'blocked');
    const started = Date.now();
    f.feed.close();
    await until('the connection gone', async () => (await state(f.name)) === 'gone', { timeoutMs: 2000 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(f.connection.status).toBe('end');
  });

  it('reads a new assessment that lets a degraded revision out as decided, and one that holds it as nothing new', () => {
    const event = (action: string, reassessment?: object) => ({
      id: '1-0',
      type: 'hypothesis_assessed',
      eventId: 'hypothesis_assessed/h/r1/reassessed',
      data: { hypothesisId: 'h', revision: 1, action, ...(reassessment ? { reassessment } : {}) },
    });
    const by = { by: 'Dr Rao', at: '2026-01-01T00:00:00.000Z', previous: { action: 'quarantine' } };
    expect(changeOf(event('allow', by) as never)).toEqual({
      kind: 'decided',
      hypothesisId: 'h',
      revision: 1,
      state: 'assessed',
      by: 'Dr Rao',
      at: '2026-01-01T00:00:00.000Z',
    });
    expect(changeOf(event('warn', by) as never)?.kind).toBe('decided');
    // Still held: its hold event says so; the assessment itself changes nothing in the queue.
    expect(changeOf(event('quarantine', by) as never)).toBeUndefined();
    // A first assessment is not a change to the queue either.
    expect(changeOf(event('allow') as never)).toBeUndefined();
  });
});
