/**
 * Degraded held revisions classified again, once the classifier can answer
 * (a key set, the model back): `quarantine reclassify --degraded` and
 * `POST /review/api/reclassify`, through the review service. Each is a new
 * assessment of the same revision, with its audit entry and its events
 * (src/safety/review/reassessment.ts says which verdicts qualify and why a
 * run twice does nothing the second time); one the new verdict allows
 * leaves the queue.
 */
import { z } from 'zod';
import type { Classifier } from '../classifier/classifier.js';
import { formatIssuesInline } from '../contracts/issues.js';
import { HYPOTHESIS_ACTION_EVENTS } from '../contracts/events.js';
import type { ReviewQueueItem, ReviewReclassified, ReviewReclassifyResult } from '../contracts/review-api.js';
import type { EventEmitter, EventToEmit } from '../events/emitter.js';
import { eventId } from '../events/event-id.js';
import { ReviewError } from '../errors.js';
import type { Metrics } from '../metrics/metrics.js';
import { hypothesisText } from '../processors/hypothesis-processor.js';
import { verdictFields } from '../processors/verdict-fields.js';
import type { Verdict } from '../safety/classification/verdict.js';
import { NoteSchema, ReviewerSchema, stateOf } from '../safety/review/decision.js';
import {
  isReassessable,
  makeReassessment,
  REASSESSED,
  reassessOutcome,
  type Reassessment,
} from '../safety/review/reassessment.js';
import type { QueueFilter, QueueOrder } from '../safety/review/queue.js';
import type { ReassessmentStore } from '../store/reassessment-store.js';
import type { VerdictStore } from '../store/verdict-store.js';
import type { ReviewQueuePage } from '../contracts/review-api.js';

/** Revisions asked again per call at most: a call is one request, and each is a model call. */
export const MAX_RECLASSIFY = 200;
export const DEFAULT_RECLASSIFY = 50;
/** Model calls at once: a few, so a run of 30 is quick without crowding the worker's own calls. */
const CONCURRENCY = 4;
const DEFAULT_NOTE = 'classified again: the verdict was degraded';

export const ReclassifyInputSchema = z.strictObject({
  by: ReviewerSchema,
  note: NoteSchema.default(DEFAULT_NOTE),
  limit: z
    .number({ error: `a whole number from 1 to ${MAX_RECLASSIFY}` })
    .int({ error: `a whole number from 1 to ${MAX_RECLASSIFY}` })
    .min(1, { error: `a whole number from 1 to ${MAX_RECLASSIFY}` })
    .max(MAX_RECLASSIFY, { error: `a whole number from 1 to ${MAX_RECLASSIFY}` })
    .default(DEFAULT_RECLASSIFY),
});
export type ReclassifyInput = z.input<typeof ReclassifyInputSchema>;

export interface ReclassifierDeps {
  classifier: Classifier;
  verdicts: VerdictStore;
  reassessments: ReassessmentStore;
  emitter: EventEmitter;
  metrics?: Metrics | undefined;
  now: () => Date;
  /** The held queue, as the service reads it. */
  queue(query: { filter: QueueFilter; order: QueueOrder; limit: number }): Promise<ReviewQueuePage>;
}

/** The events of a new verdict on a revision: assessed, and its hold or flag, each with its own id. */
function reassessmentEvents(
  r: Reassessment,
  verdict: Verdict,
  subject: { goalId?: string | undefined; runId?: string | undefined },
): EventToEmit[] {
  const data = {
    hypothesisId: r.hypothesisId,
    revision: r.revision,
    ...verdictFields(verdict),
    goalId: subject.goalId,
    runId: subject.runId,
    reassessment: { by: r.by, at: r.at, previous: { action: r.previous.action, reason: r.previous.reason } },
  };
  const id = (type: string) => eventId(type, r.hypothesisId, r.revision, REASSESSED);
  const events: EventToEmit[] = [{ type: 'hypothesis_assessed', eventId: id('hypothesis_assessed'), data }];
  const specific = HYPOTHESIS_ACTION_EVENTS[verdict.action];
  if (specific) events.push({ type: specific, eventId: id(specific), data });
  return events;
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return out;
}

export function createReclassifier(deps: ReclassifierDeps) {
  async function one(item: ReviewQueueItem, by: string, note: string): Promise<ReviewReclassified> {
    const { hypothesisId, revision } = item;
    const base = { hypothesisId, revision };
    const [record, subject] = await Promise.all([
      deps.verdicts.getRevisionRecord('hypothesis', hypothesisId, revision),
      deps.verdicts.getHeldSubject(hypothesisId, revision),
    ]);
    if (!record || !isReassessable(record.verdict)) return { ...base, outcome: 'skipped', why: 'not degraded' };
    if (!subject) return { ...base, outcome: 'skipped', why: 'no text kept to classify' };
    const fresh = await deps.classifier.classify(hypothesisText(subject), 'hypothesis', { source: 'review' });
    const outcome = reassessOutcome(fresh);
    if (outcome.outcome === 'still_degraded') {
      return { ...base, outcome: 'still_degraded', ...(outcome.reason ? { reason: outcome.reason } : {}) };
    }
    const r = makeReassessment(hypothesisId, revision, record.verdict, by, note, deps.now());
    const written = await deps.reassessments.reassess(
      r,
      fresh,
      deps.emitter.prepare(reassessmentEvents(r, fresh, subject)),
    );
    if (written.outcome !== 'ok') return { ...base, outcome: 'skipped', why: written.outcome.replace('_', ' ') };
    deps.metrics?.classifications.inc({ target: 'hypothesis', action: fresh.action });
    return {
      ...base,
      outcome: 'reassessed',
      state: stateOf(fresh),
      action: fresh.action,
      categories: fresh.categories,
      confidence: fresh.confidence,
      auditEntryId: written.auditEntryId,
    };
  }

  return async function reclassify(input: ReclassifyInput): Promise<ReviewReclassifyResult> {
    const parsed = ReclassifyInputSchema.safeParse(input);
    if (!parsed.success) throw new ReviewError('REVIEW_INVALID', formatIssuesInline(parsed.error));
    const { by, note, limit } = parsed.data;
    const page = await deps.queue({ filter: { degraded: true }, order: 'oldest', limit });
    // Other text waits under a revision in conflict: a person confirms it; classifying the first text again settles nothing.
    const candidates = page.items.filter((i) => i.state !== 'conflict');
    const items = await mapLimit(candidates, CONCURRENCY, (item) => one(item, by, note));
    const count = (o: ReviewReclassified['outcome']) => items.filter((i) => i.outcome === o).length;
    return {
      items,
      reassessed: count('reassessed'),
      released: items.filter((i) => i.outcome === 'reassessed' && i.state === 'assessed').length,
      stillDegraded: count('still_degraded'),
      skipped: count('skipped'),
      remaining: Math.max(0, page.counts.matching - page.items.length),
    };
  };
}
