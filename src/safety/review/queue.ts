/**
 * The review queue as a person works it: filters, the order, the counts
 * beside each filter, and pages that follow a cursor. Pure: the service
 * reads the held revisions from Redis and hands them here.
 *
 * Why a keyset cursor (the held time and the id of the last entry given)
 * rather than an offset: between two pages, other reviewers decide items and
 * new ones are held. An offset counts positions, so each decision before it
 * would make the next page skip an item; a keyset cursor names where the last
 * page ended, and an entry removed before it moves nothing after it. Every
 * entry held when the first page was read, and not decided meanwhile, comes
 * exactly once.
 */

/** What filtering, ordering and counting need of one held revision. */
export interface QueueEntry {
  hypothesisId: string;
  /** When the revision was held, in ms since the epoch: the queue's order. */
  heldAt: number;
  /** Held by the classifier's verdict, or by other content published under the revision. */
  state: 'quarantined' | 'blocked' | 'conflict';
  categories: readonly string[];
  degraded: boolean;
  /** The verdict's confidence, 0 to 1: an order of its own. */
  confidence: number;
  /**
   * The title and text as `searchKey` gives them, for a search
   * (`QueueFilter.text`); the id is searched always. Absent when no search
   * was asked: the text is read only then.
   */
  searchText?: string | undefined;
}

export const QUEUE_STATES = ['quarantined', 'blocked', 'conflict'] as const;
export const QUEUE_ORDERS = ['oldest', 'newest', 'most_confident', 'least_confident'] as const;
export type QueueOrder = (typeof QUEUE_ORDERS)[number];

export interface QueueFilter {
  state?: QueueEntry['state'] | undefined;
  category?: string | undefined;
  degraded?: boolean | undefined;
  /** Held at or before this time (ms): older than an age. */
  heldBefore?: number | undefined;
  /** Held at or after this time (ms): younger than an age. */
  heldAfter?: number | undefined;
  /**
   * Words that must each appear in the id, the title or the text (in any
   * case, white space runs as one space): a search.
   */
  text?: string | undefined;
}

/** Where a page ended: the last entry given, and its confidence in the orders by confidence. */
export interface QueueCursor {
  heldAt: number;
  hypothesisId: string;
  confidence?: number | undefined;
}

/** Whether an order sorts by confidence first: its cursors carry the confidence. */
export function byConfidence(order: QueueOrder): order is 'most_confident' | 'least_confident' {
  return order === 'most_confident' || order === 'least_confident';
}

/** Text as a search compares it: compatibility forms folded, lower case, white space runs one space. */
export function searchKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The words of a search; none for a search of only white space. */
export function searchWords(text: string | undefined): string[] {
  return text === undefined ? [] : searchKey(text).split(' ').filter(Boolean);
}

function found(entry: QueueEntry, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const haystack = `${searchKey(entry.hypothesisId)} ${entry.searchText ?? ''}`;
  return words.every((w) => haystack.includes(w));
}

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** Age bands the counts are given in, youngest first, with their upper bound in ms. */
export const AGE_BANDS = [
  ['under_1h', HOUR],
  ['1h_to_1d', DAY],
  ['1d_to_7d', 7 * DAY],
  ['over_7d', Infinity],
] as const;
export type AgeBand = (typeof AGE_BANDS)[number][0];

export interface QueueCounts {
  /** Every held revision, whatever the filters. */
  all: number;
  /** Those the filters keep. */
  matching: number;
  /**
   * Per value of each filter, what the queue would hold with that value and
   * the other filters as they are: the number beside each choice is what
   * choosing it would show.
   */
  state: Record<QueueEntry['state'], number>;
  category: Record<string, number>;
  degraded: { yes: number; no: number };
  age: Record<AgeBand, number>;
}

export interface QueuePage<T extends QueueEntry> {
  entries: T[];
  /** The cursor of the next page; absent on the last one. */
  nextCursor?: string | undefined;
  counts: QueueCounts;
}

type FilterKey = keyof QueueFilter;

/** The filters, the search read into its words once for the whole queue. */
type Filtering = QueueFilter & { words: readonly string[] };

function filtering(filter: QueueFilter): Filtering {
  return { ...filter, words: searchWords(filter.text) };
}

function keeps(entry: QueueEntry, filter: Filtering, ignore?: FilterKey | 'age'): boolean {
  if (!found(entry, filter.words)) return false;
  if (ignore !== 'state' && filter.state !== undefined && entry.state !== filter.state) return false;
  if (ignore !== 'category' && filter.category !== undefined && !entry.categories.includes(filter.category)) {
    return false;
  }
  if (ignore !== 'degraded' && filter.degraded !== undefined && entry.degraded !== filter.degraded) return false;
  if (ignore !== 'age') {
    if (filter.heldBefore !== undefined && entry.heldAt > filter.heldBefore) return false;
    if (filter.heldAfter !== undefined && entry.heldAt < filter.heldAfter) return false;
  }
  return true;
}

export function ageBand(heldAt: number, now: number): AgeBand {
  const age = now - heldAt;
  for (const [band, upTo] of AGE_BANDS) if (age < upTo) return band;
  return 'over_7d';
}

/** The counts beside each filter (see QueueCounts). */
export function countQueue(entries: readonly QueueEntry[], queueFilter: QueueFilter, now: number): QueueCounts {
  const filter = filtering(queueFilter);
  const counts: QueueCounts = {
    all: entries.length,
    matching: 0,
    state: { quarantined: 0, blocked: 0, conflict: 0 },
    category: {},
    degraded: { yes: 0, no: 0 },
    age: { under_1h: 0, '1h_to_1d': 0, '1d_to_7d': 0, over_7d: 0 },
  };
  for (const e of entries) {
    if (keeps(e, filter)) counts.matching++;
    if (keeps(e, filter, 'state')) counts.state[e.state]++;
    if (keeps(e, filter, 'category')) {
      for (const c of new Set(e.categories)) counts.category[c] = (counts.category[c] ?? 0) + 1;
    }
    if (keeps(e, filter, 'degraded')) counts.degraded[e.degraded ? 'yes' : 'no']++;
    if (keeps(e, filter, 'age')) counts.age[ageBand(e.heldAt, now)]++;
  }
  return counts;
}

/** By held time, then by id, so two entries held in the same millisecond keep one order. */
function compareHeld(a: QueueCursor, b: QueueCursor): number {
  if (a.heldAt !== b.heldAt) return a.heldAt - b.heldAt;
  return a.hypothesisId < b.hypothesisId ? -1 : a.hypothesisId > b.hypothesisId ? 1 : 0;
}

/**
 * The queue's order, as a comparison of two entries (or an entry and a
 * cursor): a total order, so that a keyset cursor is exact. By confidence,
 * entries of equal confidence go oldest first whichever way confidence goes.
 */
function comparer(order: QueueOrder): (a: QueueCursor, b: QueueCursor) => number {
  if (order === 'oldest') return compareHeld;
  if (order === 'newest') return (a, b) => compareHeld(b, a);
  const sign = order === 'least_confident' ? 1 : -1;
  return (a, b) => {
    const ca = a.confidence ?? 0;
    const cb = b.confidence ?? 0;
    return ca !== cb ? sign * (ca - cb) : compareHeld(a, b);
  };
}

/**
 * A cursor as text: the held time, a `~`, and the id percent-encoded, so it
 * is safe in a query string as it is; in an order by confidence, `c`, the
 * confidence and a `~` before them. Clients treat it as opaque.
 */
export function encodeCursor(cursor: QueueCursor): string {
  const held = `${cursor.heldAt}~${encodeURIComponent(cursor.hypothesisId)}`;
  return cursor.confidence === undefined ? held : `c${cursor.confidence}~${held}`;
}

/** Undefined when `text` is not a cursor this module wrote. */
export function decodeCursor(text: string): QueueCursor | undefined {
  const m = /^(?:c([0-9.e-]{1,24})~)?(\d{1,16})~(.+)$/.exec(text);
  if (!m) return undefined;
  const confidence = m[1] === undefined ? undefined : Number(m[1]);
  if (confidence !== undefined && !(confidence >= 0 && confidence <= 1)) return undefined;
  try {
    const cursor = { heldAt: Number(m[2]), hypothesisId: decodeURIComponent(m[3]!) };
    return confidence === undefined ? cursor : { ...cursor, confidence };
  } catch {
    return undefined;
  }
}

/** Whether a cursor was written for an order: one by confidence carries the confidence, one by time does not. */
export function cursorFits(cursor: QueueCursor, order: QueueOrder): boolean {
  return (cursor.confidence !== undefined) === byConfidence(order);
}

/**
 * One page of the filtered queue in `order`, after `cursor` (the last entry
 * of the page before), and the counts of the whole queue.
 */
export function pageQueue<T extends QueueEntry>(
  entries: readonly T[],
  options: { filter: QueueFilter; order: QueueOrder; cursor?: QueueCursor | undefined; limit: number; now: number },
): QueuePage<T> {
  const { filter, order, cursor, limit, now } = options;
  const compare = comparer(order);
  const chosen = filtering(filter);
  const kept = entries
    .filter((e) => keeps(e, chosen) && (cursor === undefined || compare(e, cursor) > 0))
    .sort(compare);
  const page = kept.slice(0, limit);
  const last = page.at(-1);
  const lastCursor = last && {
    heldAt: last.heldAt,
    hypothesisId: last.hypothesisId,
    ...(byConfidence(order) ? { confidence: last.confidence } : {}),
  };
  return {
    entries: page,
    ...(kept.length > limit && lastCursor ? { nextCursor: encodeCursor(lastCursor) } : {}),
    counts: countQueue(entries, filter, now),
  };
}
