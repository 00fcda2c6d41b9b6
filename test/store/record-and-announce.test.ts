/**
 * A verdict and the events that announce it, written by one script: the
 * events are appended when (and only when) the verdict is written, each
 * event id at most once, and only appended events are counted.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventType } from '../../src/contracts/events.js';
import { createEventEmitter } from '../../src/events/emitter.js';
import type { Verdict } from '../../src/safety/classification/verdict.js';
import { cachedVerdictEntry, createVerdictStore } from '../../src/store/verdict-store.js';
import { deleteKeys, testRedis, uniqueName } from '../support/redis.js';

const redis = testRedis();
const prefixes: string[] = [];
afterAll(async () => {
  await deleteKeys(redis, ...prefixes);
  redis.disconnect();
});

function verdict(action: Verdict['action'], rationale = 'r'): Verdict {
  return {
    action,
    categories: action === 'allow' ? ['none'] : ['dual_use_bio'],
    confidence: 0.9,
    rationale,
    degraded: false,
    refusal: false,
    model: 'claude-haiku-4-5',
    promptVersion: 'p1',
    windows: 1,
    windowed: false,
    cached: false,
  };
}

function setup() {
  const prefix = uniqueName('announce');
  prefixes.push(prefix);
  const counted: EventType[] = [];
  const stream = `${prefix}:events`;
  const emitter = createEventEmitter({
    redis,
    stream,
    dedupeTtlSeconds: 60,
    maxLen: 0,
    onEmitted: (type) => counted.push(type),
  });
  return { prefix, stream, counted, emitter, store: createVerdictStore(redis, prefix) };
}

function data(id: string, v: Verdict) {
  return {
    hypothesisId: id,
    revision: 1,
    action: v.action,
    categories: v.categories,
    confidence: v.confidence,
    rationale: v.rationale,
    degraded: v.degraded,
    model: v.model,
    refusal: v.refusal,
    windowed: v.windowed,
  };
}

const entries = async (stream: string) =>
  ((await redis.xrange(stream, '-', '+')) as Array<[string, string[]]>).map(([, f]) => ({
    type: f[1],
    eventId: f[3],
    data: JSON.parse(f[5]!) as { action: string },
  }));

describe('recordRevision with events to announce', () => {
  it('writes the verdict, the held text, the review queue entry and the events together', async () => {
    const { prefix, stream, counted, emitter, store } = setup();
    const v = verdict('quarantine');
    const batch = emitter.prepare([
      { type: 'hypothesis_assessed', eventId: 'hypothesis_assessed/h1/r1', data: data('h1', v) },
      { type: 'hypothesis_quarantined', eventId: 'hypothesis_quarantined/h1/r1', data: data('h1', v) },
    ]);
    const recorded = await store.recordRevision('hypothesis', 'h1', 1, v, {
      held: { text: 'held text' },
      announce: batch,
    });
    expect(recorded).toEqual({ verdict: v, created: true, conflict: false });
    expect(await store.getRevision('hypothesis', 'h1', 1)).toEqual(v);
    expect((await store.getLatest('hypothesis', 'h1'))?.revision).toBe(1);
    expect(await store.getHeldSubject('h1', 1)).toEqual({ text: 'held text' });
    expect(await redis.zscore(`${prefix}:review:held`, 'h1')).not.toBeNull();
    expect((await entries(stream)).map((e) => e.type)).toEqual(['hypothesis_assessed', 'hypothesis_quarantined']);
    expect(counted).toEqual(['hypothesis_assessed', 'hypothesis_quarantined']);
  });

  it('appends nothing when the revision already has a verdict, and returns that one', async () => {
    const { prefix, stream, counted, emitter, store } = setup();
    const first = verdict('quarantine', 'first');
    await store.recordRevision('hypothesis', 'h2', 1, first);
    const second = verdict('allow', 'second');
    const batch = emitter.prepare([
      { type: 'hypothesis_assessed', eventId: 'hypothesis_assessed/h2/r1', data: data('h2', second) },
    ]);
    // The classifier's cache entries are written whatever the script finds.
    const writes = [{ key: `${prefix}:assessment:x`, value: '{"kind":"refusal","text":""}', ttlSeconds: 120 }];
    const recorded = await store.recordRevision('hypothesis', 'h2', 1, second, { announce: batch, writes });
    expect(recorded).toEqual({ verdict: first, created: false, conflict: false });
    expect(await redis.get(`${prefix}:assessment:x`)).toBe(writes[0]!.value);
    expect(await redis.ttl(`${prefix}:assessment:x`)).toBeGreaterThan(100);
    expect(await redis.exists(stream)).toBe(0);
    expect(counted).toEqual([]);
  });

  it('skips an event whose id was appended before, and counts only what it appended', async () => {
    const { stream, counted, emitter, store } = setup();
    const v = verdict('warn');
    await emitter.emit('hypothesis_assessed', 'hypothesis_assessed/h3/r1', data('h3', v));
    const batch = emitter.prepare([
      { type: 'hypothesis_assessed', eventId: 'hypothesis_assessed/h3/r1', data: data('h3', v) },
      { type: 'hypothesis_flagged', eventId: 'hypothesis_flagged/h3/r1', data: data('h3', v) },
    ]);
    expect((await store.recordRevision('hypothesis', 'h3', 1, v, { announce: batch })).created).toBe(true);
    expect((await entries(stream)).map((e) => e.eventId)).toEqual([
      'hypothesis_assessed/h3/r1',
      'hypothesis_flagged/h3/r1',
    ]);
    expect(counted).toEqual(['hypothesis_assessed', 'hypothesis_flagged']);
  });

  it('refuses an event that breaks its schema before writing anything', async () => {
    const { stream, emitter, store } = setup();
    const v = verdict('allow');
    expect(() =>
      emitter.prepare([
        {
          type: 'hypothesis_assessed',
          eventId: 'hypothesis_assessed/h4/r1',
          data: { ...data('h4', v), revision: -1 },
        },
      ]),
    ).toThrow(/revision/);
    expect(await store.getRevision('hypothesis', 'h4', 1)).toBeUndefined();
    expect(await redis.exists(stream)).toBe(0);
  });
});

describe('a verdict from the verdict cache', () => {
  const lookup = (prefix: string) => ({
    key: `${prefix}:verdict-cache:t`,
    windowKeys: [`${prefix}:assessment:w0`, `${prefix}:assessment:w1`],
    ttlSeconds: 60,
  });
  const announce = (emitter: ReturnType<typeof setup>['emitter'], id: string) =>
    emitter.templates(
      (['hypothesis_assessed', 'hypothesis_quarantined'] as const).map((type) => ({ type, eventId: `${type}/${id}` })),
      { before: { hypothesisId: id, revision: 1 }, after: {} },
    );

  it('is written and announced from the cached value', async () => {
    const { prefix, stream, counted, emitter, store } = setup();
    const v = verdict('quarantine');
    const { action, categories, confidence, rationale, degraded, model, refusal, windowed } = v;
    const entry = cachedVerdictEntry(lookup(prefix), v, ['hypothesis_assessed', 'hypothesis_quarantined'], {
      action,
      categories,
      confidence,
      rationale,
      degraded,
      model,
      refusal,
      windowed,
    });
    await redis.set(entry.key, entry.value, 'EX', entry.ttlSeconds);
    const result = await store.recordCached('h1', 1, lookup(prefix), {
      held: { text: 'held text' },
      announce: announce(emitter, 'h1'),
    });
    expect(result).toEqual({ kind: 'created', verdict: { ...v, cached: true } });
    expect(await store.getRevision('hypothesis', 'h1', 1)).toEqual({ ...v, cached: true });
    const entries = await redis.xrange(stream, '-', '+');
    expect(entries.map(([, f]) => f[1])).toEqual(['hypothesis_assessed', 'hypothesis_quarantined']);
    expect(JSON.parse(entries[0]![1][5]!)).toEqual(data('h1', v));
    expect(counted).toEqual(['hypothesis_assessed', 'hypothesis_quarantined']);
    expect(await store.getHeldSubject('h1', 1)).toEqual({ text: 'held text' });

    // The same revision again: the stored verdict, nothing appended.
    const again = await store.recordCached('h1', 1, lookup(prefix), {
      held: { text: 'held text' },
      announce: announce(emitter, 'h1'),
    });
    expect(again).toEqual({ kind: 'exists', verdict: { ...v, cached: true } });
    expect(await redis.xlen(stream)).toBe(2);
  });

  it('passes the verdict and its fields on byte for byte: an empty list stays a list, a number keeps its digits', async () => {
    const { prefix, stream, emitter, store } = setup();
    const v = { ...verdict('quarantine'), categories: [], confidence: 0.12345678901234568 };
    const { action, categories, confidence, rationale, degraded, model, refusal, windowed } = v;
    const fields = { action, categories, confidence, rationale, degraded, model, refusal, windowed };
    const entry = cachedVerdictEntry(lookup(prefix), v, ['hypothesis_assessed'], fields);
    await redis.set(entry.key, entry.value, 'EX', entry.ttlSeconds);
    const result = await store.recordCached('e1', 1, lookup(prefix), {
      held: { text: 't' },
      announce: emitter.templates([{ type: 'hypothesis_assessed', eventId: 'hypothesis_assessed/e1' }], {
        before: { hypothesisId: 'e1', revision: 1 },
        after: { goalId: 'g "1"', runId: undefined },
      }),
    });
    expect(result).toEqual({ kind: 'created', verdict: { ...v, cached: true } });
    const [, f] = ((await redis.xrange(stream, '-', '+')) as Array<[string, string[]]>)[0]!;
    expect(f![5]).toBe(JSON.stringify({ hypothesisId: 'e1', revision: 1, ...fields, goalId: 'g "1"' }));
  });

  it('misses, writing nothing, when the value is absent, malformed or names an event it was not given', async () => {
    const { prefix, stream, counted, emitter, store } = setup();
    await redis.set(`${prefix}:assessment:w1`, 'assessment of window 2');
    const v = verdict('quarantine');
    const usable = JSON.parse(
      cachedVerdictEntry(lookup(prefix), v, ['hypothesis_assessed'], { action: 'quarantine' }).value,
    ) as Record<string, unknown>;
    const values = [
      undefined,
      'not JSON at all',
      // The newline-separated value of an earlier release.
      ['quarantine', 'hypothesis_assessed', JSON.stringify(v), '"action":"quarantine"'].join('\n'),
      JSON.stringify({ ...usable, format: 0 }),
      JSON.stringify({ ...usable, verdict: { ...v } }),
      JSON.stringify({ ...usable, events: ['hypothesis_blocked'] }),
    ];
    for (const [i, value] of values.entries()) {
      if (value === undefined) await redis.del(lookup(prefix).key);
      else await redis.set(lookup(prefix).key, value);
      const result = await store.recordCached(`m${i}`, 1, lookup(prefix), {
        held: { text: 't' },
        announce: announce(emitter, `m${i}`),
      });
      expect(result).toEqual({ kind: 'miss', windows: [null, 'assessment of window 2'] });
      expect(await store.getRevision('hypothesis', `m${i}`, 1)).toBeUndefined();
    }
    expect(await redis.xlen(stream)).toBe(0);
    expect(counted).toEqual([]);
  });

  it('goes through the lookup connection when the store is given one, and writes through its own', async () => {
    const { prefix, emitter } = setup();
    // A connection that never connects and queues nothing: whatever is sent on it fails at once.
    const unused = new Redis({ lazyConnect: true, enableOfflineQueue: false });
    try {
      const store = createVerdictStore(unused, prefix, { lookup: redis });
      const result = await store.recordCached('l1', 1, lookup(prefix), {
        held: { text: 't' },
        announce: announce(emitter, 'l1'),
      });
      expect(result).toEqual({ kind: 'miss', windows: [null, null] });
      await expect(store.recordRevision('hypothesis', 'l1', 1, verdict('allow'))).rejects.toThrow();
    } finally {
      unused.disconnect();
    }
  });
});

describe('a revision is its content', () => {
  const A = 'a'.repeat(64);
  const B = 'b'.repeat(64);
  const lookup = (prefix: string) => ({ key: `${prefix}:verdict-cache:c`, windowKeys: [], ttlSeconds: 60 });
  const assessed = (emitter: ReturnType<typeof setup>['emitter'], id: string, revision: number, v: Verdict) =>
    emitter.prepare([
      {
        type: 'hypothesis_assessed',
        eventId: `hypothesis_assessed/${id}/r${revision}`,
        data: { ...data(id, v), revision },
      },
    ]);

  it('keeps the digest with the verdict, and tells other content, or none recorded, from the same', async () => {
    const { prefix, emitter, store } = setup();
    const v = verdict('allow');
    expect(await store.recordRevision('hypothesis', 'c1', 1, v, { content: A })).toMatchObject({ created: true });
    expect(await store.getRevisionRecord('hypothesis', 'c1', 1)).toEqual({ verdict: v, content: A });
    expect(await store.getLatest('hypothesis', 'c1')).toMatchObject({ content: A, conflicts: { total: 0, open: 0 } });
    const same = await store.recordRevision('hypothesis', 'c1', 1, verdict('block'), {
      content: A,
      announce: assessed(emitter, 'c1', 1, v),
    });
    expect(same).toEqual({ verdict: v, created: false, conflict: false });
    const other = await store.recordRevision('hypothesis', 'c1', 1, verdict('block'), {
      content: B,
      announce: assessed(emitter, 'c1', 1, v),
    });
    expect(other).toEqual({ verdict: v, created: false, conflict: true });
    // The cached path finds the revision before the cache: no model call, and the same answer.
    expect(
      await store.recordCached('c1', 1, lookup(prefix), {
        held: { text: 't' },
        content: B,
        announce: emitter.templates([], { before: {}, after: {} }),
      }),
    ).toEqual({ kind: 'conflict', verdict: v });
    // A revision recorded with no digest (before digests were kept) matches no content.
    await store.recordRevision('hypothesis', 'c2', 1, v);
    expect(
      (await store.recordRevision('hypothesis', 'c2', 1, v, { content: A, announce: assessed(emitter, 'c2', 1, v) }))
        .conflict,
    ).toBe(true);
  });

  it('records a conflict once per content: held in the queue when it is the latest revision, its event once', async () => {
    const { prefix, stream, emitter, store } = setup();
    await store.recordRevision('hypothesis', 'c3', 1, verdict('allow'), { content: A });
    const conflictEvent = () =>
      emitter.prepare([
        {
          type: 'revision_conflict',
          eventId: `revision_conflict/c3/r1/${B.slice(0, 16)}`,
          data: {
            target: 'hypothesis',
            id: 'c3',
            revision: 1,
            hypothesisId: 'c3',
            content: B,
            storedContent: A,
            held: true,
          },
        },
      ]);
    const conflict = { content: B, storedContent: A, held: { text: 'other text' } };
    expect(await store.recordConflict('c3', 1, conflict, conflictEvent())).toBe('conflict');
    expect(await store.recordConflict('c3', 1, conflict, conflictEvent())).toBe('conflict');
    expect(await redis.xlen(stream)).toBe(1);
    expect(await store.conflictCounts('c3', 1)).toEqual({ total: 1, open: 1 });
    expect((await store.getLatest('hypothesis', 'c3'))?.conflicts).toEqual({ total: 1, open: 1 });
    expect(await redis.zscore(`${prefix}:review:held`, 'c3')).not.toBeNull();
    expect(await store.conflicts('c3')).toEqual([
      expect.objectContaining({
        revision: 1,
        content: B,
        storedContent: A,
        open: true,
        subject: { text: 'other text' },
      }),
    ]);
    // The revision's own content is no conflict; a revision with no verdict has none to conflict with.
    expect(await store.recordConflict('c3', 1, { content: A }, conflictEvent())).toBe('same');
    expect(await store.recordConflict('c3', 2, conflict, conflictEvent())).toBe('absent');
    // A newer revision starts with no conflict of its own, and takes the hypothesis off the queue.
    await store.recordRevision('hypothesis', 'c3', 2, verdict('allow'), { content: B });
    expect((await store.getLatest('hypothesis', 'c3'))?.conflicts).toEqual({ total: 0, open: 0 });
    expect(await redis.zscore(`${prefix}:review:held`, 'c3')).toBeNull();
  });

  it('announces no pass of an older revision recorded while the newer one is withheld, by any path', async () => {
    const { prefix, stream, emitter, store } = setup();
    await store.recordRevision('hypothesis', 'c4', 2, verdict('quarantine'), { content: A });
    // Classified, cached, or run again: nothing appended for revision 1's allow.
    const allow = verdict('allow');
    const fresh = await store.recordRevision('hypothesis', 'c4', 1, allow, {
      content: B,
      announce: assessed(emitter, 'c4', 1, allow),
    });
    expect(fresh.created).toBe(true);
    const { action, categories, confidence, rationale, degraded, model, refusal, windowed } = allow;
    const entry = cachedVerdictEntry(lookup(prefix), allow, ['hypothesis_assessed'], {
      action,
      categories,
      confidence,
      rationale,
      degraded,
      model,
      refusal,
      windowed,
    });
    await redis.set(entry.key, entry.value, 'EX', entry.ttlSeconds);
    const cached = await store.recordCached('c4', 0, lookup(prefix), {
      held: { text: 't' },
      content: B,
      announce: emitter.templates([{ type: 'hypothesis_assessed', eventId: 'hypothesis_assessed/c4/r0' }], {
        before: { hypothesisId: 'c4', revision: 0 },
        after: {},
      }),
    });
    expect(cached.kind).toBe('created');
    expect(await store.announce('c4', 1, 'allow', assessed(emitter, 'c4', 1, allow))).toBe(false);
    expect(await redis.xlen(stream)).toBe(0);
    // A hold of an older revision is announced as always.
    const held = verdict('block');
    expect(await store.announce('c4', 1, 'block', assessed(emitter, 'c4', 1, held))).toBe(true);
    expect(await redis.xlen(stream)).toBe(1);
  });
});
