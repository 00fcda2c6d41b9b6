/** A review queue of many held hypotheses, built through the real pipeline: publisher, BullMQ workers, classifier, verdict store. */
import { until } from './poll.js';
import { apiError, markerHandler, type Handler } from './fake-anthropic.js';
import type { Harness } from './pipeline.js';

/** Text with this marker gets a 400 from the model server: a degraded verdict, held unclassified. */
export const UNCLASSIFIABLE = '@@unclassifiable@@';

/** The marker handler, and a refused request (not retried: `bad_request`) for {@link UNCLASSIFIABLE}. */
export const queueHandler: Handler = (req, index) =>
  req.text.includes(UNCLASSIFIABLE) ? apiError(400, 'invalid_request_error') : markerHandler(req, index);

export interface HeldSpec {
  id: string;
  text: string;
  title?: string;
  /** What the queue should say of it. */
  state: 'quarantined' | 'blocked';
  categories: string[];
  degraded: boolean;
}

/**
 * `n` held hypotheses of every kind a reviewer meets: most quarantined as
 * dual-use at varied confidence, every fifth blocked as weapons, every
 * seventh unclassified (the model refused the request), every eleventh both
 * dual-use and CBRN (blocked).
 */
export function heldSpecs(n: number, prefix: string): HeldSpec[] {
  return Array.from({ length: n }, (_, i): HeldSpec => {
    const id = `${prefix}-${String(i).padStart(3, '0')}`;
    const title = i % 3 === 0 ? undefined : `Hypothesis ${i}: ${TOPICS[i % TOPICS.length]}`;
    const body = `${TOPICS[(i * 7) % TOPICS.length]}. Revision notes ${i}.`;
    const base = { id, ...(title ? { title } : {}) };
    if (i % 7 === 3)
      return { ...base, text: `${body} ${UNCLASSIFIABLE}`, state: 'quarantined', categories: [], degraded: true };
    if (i % 11 === 5) {
      return {
        ...base,
        text: `${body} @@dual_use_bio@0.8@@ @@cbrn@0.7@@`,
        state: 'blocked',
        categories: ['dual_use_bio', 'cbrn'],
        degraded: false,
      };
    }
    if (i % 5 === 2)
      return { ...base, text: `${body} @@weapons@0.85@@`, state: 'blocked', categories: ['weapons'], degraded: false };
    const confidence = (0.6 + ((i * 37) % 40) / 100).toFixed(2);
    return {
      ...base,
      text: `${body} @@dual_use_bio@${confidence}@@`,
      state: 'quarantined',
      categories: ['dual_use_bio'],
      degraded: false,
    };
  });
}

const TOPICS = [
  'Serial passage of an avian influenza isolate in ferrets to study airborne transmission',
  'Gain-of-function screen of coronavirus spike variants for receptor binding in human cells',
  'Aerosol stability of a Bacillus spore preparation under varied humidity',
  'CRISPR knock-out library to find host factors of poxvirus replication',
  'Synthesis route for an organophosphate analogue of a pesticide',
  'Toxin gene expression in a non-pathogenic Clostridium chassis',
  'Enhanced immune evasion of a measles vaccine strain by glycoprotein shuffling',
  'Stabilising a recombinant botulinum light chain for storage at room temperature',
];

/** Publishes every spec and waits until the queue holds them all. */
export async function holdAll(h: Harness, specs: HeldSpec[], timeoutMs = 60_000): Promise<void> {
  const queueKey = `${h.config.redis.key_prefix}:review:held`;
  const before = await h.redis.zcard(queueKey);
  for (let i = 0; i < specs.length; i += 50) {
    await Promise.all(
      specs.slice(i, i + 50).map((s) =>
        h.publisher.publishHypothesisSaved({
          hypothesisId: s.id,
          text: s.text,
          revision: 1,
          ...(s.title ? { title: s.title } : {}),
        }),
      ),
    );
  }
  let held = before;
  await until(
    () => `${specs.length} hypotheses held (the queue holds ${held - before} of them)`,
    async () => (held = await h.redis.zcard(queueKey)) >= before + specs.length,
    { timeoutMs, everyMs: 100 },
  );
}
