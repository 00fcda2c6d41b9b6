import { describe, expect, it } from 'vitest';
import {
  countQueue,
  decodeCursor,
  encodeCursor,
  pageQueue,
  type QueueEntry,
  type QueueFilter,
} from '../../../src/safety/review/queue.js';

const NOW = Date.UTC(2026, 0, 10);
const H = 3600_000;

const entry = (id: string, hoursAgo: number, more: Partial<QueueEntry> = {}): QueueEntry => ({
  hypothesisId: id,
  heldAt: NOW - hoursAgo * H,
  state: 'quarantined',
  categories: ['dual_use_bio'],
  degraded: false,
  ...more,
});

const queue: QueueEntry[] = [
  entry('a', 200, { state: 'blocked', categories: ['weapons'] }),
  entry('b', 30),
  entry('c', 2, { categories: [], degraded: true }),
  entry('d', 0.5, { categories: ['dual_use_bio', 'cbrn'], state: 'blocked' }),
  entry('e', 30), // held in the same millisecond as b: the id orders them
];

const ids = (page: { entries: QueueEntry[] }) => page.entries.map((e) => e.hypothesisId);
const page = (filter: QueueFilter = {}, more: Partial<Parameters<typeof pageQueue>[1]> = {}) =>
  pageQueue(queue, { filter, order: 'oldest', limit: 10, now: NOW, ...more });

describe('the review queue', () => {
  it('orders oldest first, by id within one millisecond, and newest first on request', () => {
    expect(ids(page())).toEqual(['a', 'b', 'e', 'c', 'd']);
    expect(ids(page({}, { order: 'newest' }))).toEqual(['d', 'c', 'e', 'b', 'a']);
  });

  it('filters by state, category, degraded and held time', () => {
    expect(ids(page({ state: 'blocked' }))).toEqual(['a', 'd']);
    expect(ids(page({ category: 'dual_use_bio' }))).toEqual(['b', 'e', 'd']);
    expect(ids(page({ category: 'cbrn', state: 'quarantined' }))).toEqual([]);
    expect(ids(page({ degraded: true }))).toEqual(['c']);
    expect(ids(page({ degraded: false, heldBefore: NOW - 24 * H }))).toEqual(['a', 'b', 'e']);
    expect(ids(page({ heldAfter: NOW - 2 * H }))).toEqual(['c', 'd']);
  });

  it('counts each filter value with the other filters applied', () => {
    const counts = countQueue(queue, { state: 'quarantined' }, NOW);
    expect(counts.all).toBe(5);
    expect(counts.matching).toBe(3);
    // The state counts ignore the state filter: they say what choosing each would show.
    expect(counts.state).toEqual({ quarantined: 3, blocked: 2, conflict: 0 });
    // A revision in conflict (other text published under it) is a state of its own.
    const withConflict = [...queue, entry('f', 1, { state: 'conflict', categories: ['none'] })];
    expect(countQueue(withConflict, { state: 'conflict' }, NOW)).toMatchObject({
      matching: 1,
      state: { quarantined: 3, blocked: 2, conflict: 1 },
    });
    expect(
      pageQueue(withConflict, { filter: { state: 'conflict' }, order: 'oldest', limit: 10, now: NOW }).entries,
    ).toEqual([withConflict[5]]);
    expect(counts.category).toEqual({ dual_use_bio: 2 });
    expect(counts.degraded).toEqual({ yes: 1, no: 2 });
    expect(counts.age).toEqual({ under_1h: 0, '1h_to_1d': 1, '1d_to_7d': 2, over_7d: 0 });
    expect(countQueue(queue, {}, NOW).age).toEqual({ under_1h: 1, '1h_to_1d': 1, '1d_to_7d': 2, over_7d: 1 });
  });

  it('pages by a cursor that survives entries removed before it', () => {
    const first = page({}, { limit: 2 });
    expect(ids(first)).toEqual(['a', 'b']);
    expect(first.nextCursor).toBeDefined();
    // a and e are decided meanwhile: the next page starts after b, skipping nothing.
    const rest = queue.filter((e) => e.hypothesisId !== 'a' && e.hypothesisId !== 'e');
    const second = pageQueue(rest, {
      filter: {},
      order: 'oldest',
      limit: 2,
      now: NOW,
      cursor: decodeCursor(first.nextCursor!),
    });
    expect(ids(second)).toEqual(['c', 'd']);
    expect(second.nextCursor).toBeUndefined();
    // Newest first, the cursor goes the other way.
    const newest = page({}, { order: 'newest', limit: 2 });
    expect(ids(newest)).toEqual(['d', 'c']);
    expect(ids(page({}, { order: 'newest', cursor: decodeCursor(newest.nextCursor!) }))).toEqual(['e', 'b', 'a']);
  });

  it('writes cursors that are safe in a query and reads back only its own', () => {
    const cursor = { heldAt: 1_700_000_000_123, hypothesisId: 'lab/7 ~é&x' };
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[0-9A-Za-z~%._!*'()-]+$/);
    expect(decodeCursor(text)).toEqual(cursor);
    for (const bad of ['', 'abc', '12', '~x', 'x~y', '1~%E0%A4%A', `${'9'.repeat(17)}~a`]) {
      expect(decodeCursor(bad), bad).toBeUndefined();
    }
  });
});
