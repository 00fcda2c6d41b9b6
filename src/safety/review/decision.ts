/**
 * The scientist's review of held hypotheses: the states of a revision, who
 * may decide what, and the shape of a decision. Pure: no Redis here.
 *
 * A revision is assessed (allow or warn), quarantined or blocked by the
 * classifier; a person then releases a held one or confirms it. A person's
 * decision is final for that revision; a new revision is classified afresh.
 */
import { z } from 'zod';
import { ACTIONS, type Verdict } from '../classification/verdict.js';

export const DECISIONS = ['released', 'confirmed'] as const;
export type DecisionKind = (typeof DECISIONS)[number];

export const REVIEW_STATES = ['assessed', 'quarantined', 'blocked', 'released', 'confirmed'] as const;
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

/** The state of a revision, from its verdict and the decision on it, if any. */
export function stateOf(verdict: Verdict, decision?: Decision): ReviewState {
  if (decision) return decision.decision;
  if (verdict.action === 'quarantine') return 'quarantined';
  if (verdict.action === 'block') return 'blocked';
  return 'assessed';
}

/** Held: waiting for a person. Only a held revision can be released or confirmed. */
export function isHeld(state: ReviewState): boolean {
  return state === 'quarantined' || state === 'blocked';
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
): Decision {
  return {
    decision: kind,
    hypothesisId,
    revision,
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
