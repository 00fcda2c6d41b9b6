/**
 * The scientist's review of held hypotheses: the states of a revision, who
 * may decide what, and the shape of a decision. Pure: no Redis here.
 *
 * A revision is assessed (allow or warn), quarantined or blocked by the
 * classifier; a person then releases a held one or confirms it. A person's
 * decision is final for that revision, and belongs to the content it was
 * made on; a new revision is classified afresh. A revision under which other
 * content was published is in conflict (docs/contract.md#a-revision-is-its-content):
 * held until a person confirms it, withheld after.
 */
import { z } from 'zod';
import { ACTIONS, type Verdict } from '../classification/verdict.js';

export const DECISIONS = ['released', 'confirmed'] as const;
export type DecisionKind = (typeof DECISIONS)[number];

export const REVIEW_STATES = ['assessed', 'quarantined', 'blocked', 'released', 'confirmed', 'conflict'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** A reviewer's name as it goes into the audit trail: letters, digits, and ` ._@-`. */
export const ReviewerSchema = z
  .string()
  .trim()
  .min(1, 'the reviewer is required')
  .max(100)
  .regex(/^[\p{L}\p{N} ._@-]+$/u, 'letters, digits, spaces and . _ @ - only');

/** Why: free text, but no control characters other than line breaks and tabs. */
export const NoteSchema = z
  .string()
  .trim()
  .min(1, 'a note saying why is required')
  .max(2000)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'no control characters');

export const DecisionSchema = z.object({
  decision: z.enum(DECISIONS),
  hypothesisId: z.string(),
  revision: z.number().int().nonnegative(),
  /**
   * The content digest of what was decided on: the revision's, or that of
   * other text published under it. Absent on decisions recorded before
   * digests were kept.
   */
  content: z.string().optional(),
  by: z.string(),
  note: z.string(),
  at: z.iso.datetime(),
  /** The classifier's verdict the person decided on. */
  overridden: z.object({
    action: z.enum(ACTIONS),
    categories: z.array(z.string()),
    confidence: z.number(),
    rationale: z.string(),
  }),
});
export type Decision = z.infer<typeof DecisionSchema>;

/** Other content published under a revision: how many times, and how many wait for a person. */
export interface ConflictCounts {
  total: number;
  open: number;
}

/**
 * The state of a revision, from its verdict, the decision on it, and its
 * conflicts. A conflict wins over both: readers may hold either text under
 * the revision, and only one was judged, so the revision is held while a
 * conflict waits, and withheld once a person has confirmed it.
 */
export function stateOf(verdict: Verdict, decision?: Decision, conflicts?: ConflictCounts): ReviewState {
  if (conflicts && conflicts.open > 0) return 'conflict';
  if (conflicts && conflicts.total > 0) return 'confirmed';
  if (decision) return decision.decision;
  if (verdict.action === 'quarantine') return 'quarantined';
  if (verdict.action === 'block') return 'blocked';
  return 'assessed';
}

/** Held: waiting for a person. Only a held revision can be released or confirmed (a conflict only confirmed). */
export function isHeld(state: ReviewState): boolean {
  return state === 'quarantined' || state === 'blocked' || state === 'conflict';
}

/**
 * The decision if it was made on `content`: a decision belongs to the
 * content it was made on, and says nothing about other content under the
 * same revision. A decision recorded before digests were kept has none, and
 * stands for its revision.
 */
export function decisionOn(decision: Decision | undefined, content: string | undefined): Decision | undefined {
  if (!decision || decision.content === undefined) return decision;
  return decision.content === content ? decision : undefined;
}

/** Withheld from readers: held, or confirmed by a person. Released and assessed ones are shown. */
export function isWithheld(state: ReviewState): boolean {
  return isHeld(state) || state === 'confirmed';
}

/** The decision a person takes on a held revision. */
export function makeDecision(
  kind: DecisionKind,
  hypothesisId: string,
  revision: number,
  verdict: Verdict,
  by: string,
  note: string,
  at: Date,
  content?: string,
): Decision {
  return {
    decision: kind,
    hypothesisId,
    revision,
    ...(content === undefined ? {} : { content }),
    by,
    note,
    at: at.toISOString(),
    overridden: {
      action: verdict.action,
      categories: verdict.categories,
      confidence: verdict.confidence,
      rationale: verdict.rationale,
    },
  };
}
