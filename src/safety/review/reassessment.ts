/**
 * A new assessment of a held revision whose verdict was degraded (the key
 * was missing, the model out of reach, ...): the classifier is asked again
 * once it can answer, and the new verdict replaces the degraded one on the
 * same revision. Pure: the review service classifies and the reassessment
 * store writes (src/store/reassessment-store.ts).
 *
 * Only a degraded verdict is assessed again, and only by a clean one: a
 * verdict a model gave is not second-guessed by asking until another comes,
 * and a second degraded verdict would say nothing new. So a revision is
 * reassessed at most once, which is what makes a second run, or a retry,
 * a no-op (and its events' ids, with the suffix REASSESSED, unique).
 */
import { z } from 'zod';
import { ACTIONS, DEGRADED_REASONS, type Verdict } from '../classification/verdict.js';

/** The suffix of a reassessment's event ids: one reassessment per revision at most. */
export const REASSESSED = 'reassessed';

export const ReassessmentSchema = z.object({
  hypothesisId: z.string(),
  revision: z.number().int().nonnegative(),
  by: z.string(),
  note: z.string(),
  at: z.iso.datetime(),
  /** The degraded verdict it replaces. */
  previous: z.object({
    action: z.enum(ACTIONS),
    categories: z.array(z.string()),
    confidence: z.number(),
    reason: z.enum(DEGRADED_REASONS).optional(),
  }),
});
export type Reassessment = z.infer<typeof ReassessmentSchema>;

/** What becomes of one degraded revision asked again. */
export type ReassessOutcome =
  /** The new verdict replaces the degraded one; `leaves`: the new action is not held, so it leaves the queue. */
  | { outcome: 'reassessed'; verdict: Verdict; leaves: boolean }
  /** The classifier still could not answer cleanly: the revision stays as it was. */
  | { outcome: 'still_degraded'; reason: Verdict['reason'] };

/** Whether a verdict is one a reassessment may replace. */
export function isReassessable(verdict: Verdict): boolean {
  return verdict.degraded;
}

/** What the new verdict does to the revision. */
export function reassessOutcome(fresh: Verdict): ReassessOutcome {
  if (fresh.degraded) return { outcome: 'still_degraded', reason: fresh.reason };
  return { outcome: 'reassessed', verdict: fresh, leaves: fresh.action !== 'quarantine' && fresh.action !== 'block' };
}

export function makeReassessment(
  hypothesisId: string,
  revision: number,
  previous: Verdict,
  by: string,
  note: string,
  at: Date,
): Reassessment {
  return {
    hypothesisId,
    revision,
    by,
    note,
    at: at.toISOString(),
    previous: {
      action: previous.action,
      categories: previous.categories,
      confidence: previous.confidence,
      ...(previous.reason ? { reason: previous.reason } : {}),
    },
  };
}
