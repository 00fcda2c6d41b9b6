import { describe, expect, it } from 'vitest';
import {
  countQueue,
  cursorFits,
  decodeCursor,
  encodeCursor,
  pageQueue,
  searchKey,
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
  confidence: 0.5,
  ...more,
});

const queue: QueueEntry[] = [
  entry('a', 200, { state: 'blocked', categories: ['weapons'], confidence: 0.9 }),
  entry('b', 30, { confidence: 0.7 }),
  entry('c', 2, { categories: [], degraded: true, confidence: 0 }),
  entry('d', 0.5, { categories: ['dual_use_bio', 'cbrn'], state: 'blocked', confidence: 0.9 }),
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

  it('orders by confidence either way, oldest first within one confidence, and pages by a cursor that carries it', () => {
    expect(ids(page({}, { order: 'most_confident' }))).toEqual(['a', 'd', 'b', 'e', 'c']);
    expect(ids(page({}, { order: 'least_confident' }))).toEqual(['c', 'e', 'b', 'a', 'd']);
    const first = page({}, { order: 'most_confident', limit: 2 });
    const cursor = decodeCursor(first.nextCursor!)!;
    expect(cursor).toMatchObject({ hypothesisId: 'd', confidence: 0.9 });
    expect(cursorFits(cursor, 'most_confident')).toBe(true);
    expect(cursorFits(cursor, 'oldest')).toBe(false);
    // b is re-assessed to a higher confidence meanwhile: it left the part already read, and is not given again.
    const moved = queue.map((e) => (e.hypothesisId === 'b' ? { ...e, confidence: 0.95 } : e));
    const second = pageQueue(moved, { filter: {}, order: 'most_confident', limit: 10, now: NOW, cursor });
    expect(ids(second)).toEqual(['e', 'c']);
    const low = page({}, { order: 'least_confident', limit: 3 });
    expect(ids(page({}, { order: 'least_confident', cursor: decodeCursor(low.nextCursor!) }))).toEqual(['a', 'd']);
  });

  it('searches the id, title and text for every word, in any case and spacing, with the counts', () => {
    const texts: Record<string, string> = {
      a: 'Aerosol stability of spores',
      b: 'Serial passage in ferrets',
      c: 'Ferret transmission, aerosol route',
      d: 'Toxin expression',
    };
    const searchable = queue.map((e) => ({ ...e, searchText: searchKey(texts[e.hypothesisId] ?? '') }));
    const find = (text: string, filter: QueueFilter = {}) =>
      pageQueue(searchable, { filter: { ...filter, text }, order: 'oldest', limit: 10, now: NOW });
    expect(ids(find('AEROSOL'))).toEqual(['a', 'c']);
    expect(ids(find('  ferret   aerosol '))).toEqual(['c']);
    expect(ids(find('ferret'))).toEqual(['b', 'c']);
    // The id is searched, the text need not be there.
    expect(ids(pageQueue(queue, { filter: { text: 'e' }, order: 'oldest', limit: 10, now: NOW }))).toEqual(['e']);
    expect(ids(find('aerosol', { state: 'blocked' }))).toEqual(['a']);
    expect(ids(find('   '))).toEqual(['a', 'b', 'e', 'c', 'd']);
    expect(ids(find('ｆｅｒｒｅｔ'))).toEqual(['b', 'c']);
    const counts = find('aerosol').counts;
    expect(counts).toMatchObject({
      all: 5,
      matching: 2,
      state: { blocked: 1, quarantined: 1 },
      degraded: { yes: 1, no: 1 },
    });
  });

  it('reads back a confidence cursor and refuses one out of range', () => {
    const cursor = { heldAt: 1_700_000_000_123, hypothesisId: 'x~1', confidence: 0.37 };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor(encodeCursor({ ...cursor, confidence: 0 }))).toEqual({ ...cursor, confidence: 0 });
    for (const bad of ['c2~1~a', 'c-1~1~a', 'c~1~a', 'cNaN~1~a']) expect(decodeCursor(bad), bad).toBeUndefined();
  });
});
