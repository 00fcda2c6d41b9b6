/**
 * One decision on a selection of held revisions (the page's bulk decide,
 * `POST /review/api/decide`): each goes through the one-item decision, so
 * each gets its own checks, audit entry and event, and one refused (decided
 * by someone else meanwhile, a newer revision, a revision in conflict asked
 * to be released) does not stop the others: the answer says which.
 */
import { z } from 'zod';
import type { ReviewBulkDecideResult, ReviewDecideResult } from '../contracts/review-api.js';
import { formatIssuesInline } from '../contracts/issues.js';
import { IdSchema } from '../contracts/payloads.js';
import { CosciError, ReviewError } from '../errors.js';
import { NoteSchema, ReviewerSchema, type DecisionKind } from '../safety/review/decision.js';

/** Revisions one bulk decision takes at most: what a reviewer can read in its confirmation. */
export const MAX_BULK = 200;

export const BulkDecideInputSchema = z.strictObject({
  // Checked before any item, so that a bad name or note refuses the whole request, not each item.
  by: ReviewerSchema,
  note: NoteSchema,
  /** Decide items another reviewer has claimed, too (docs/review.md#claims). */
  confirm: z.boolean().optional(),
  items: z
    .array(z.strictObject({ hypothesisId: IdSchema, revision: z.number().int().nonnegative() }))
    .min(1, { error: 'at least one item' })
    .max(MAX_BULK, { error: `at most ${MAX_BULK} items` })
    .refine((items) => new Set(items.map((i) => i.hypothesisId)).size === items.length, {
      error: 'each hypothesis once',
    }),
});
export type BulkDecideInput = z.input<typeof BulkDecideInputSchema>;

type DecideOne = (
  kind: DecisionKind,
  input: { hypothesisId: string; revision: number; by: string; note: string; confirm?: boolean | undefined },
) => Promise<ReviewDecideResult>;

export async function decideMany(
  decide: DecideOne,
  kind: DecisionKind,
  input: BulkDecideInput,
): Promise<ReviewBulkDecideResult> {
  const parsed = BulkDecideInputSchema.safeParse(input);
  if (!parsed.success) throw new ReviewError('REVIEW_INVALID', formatIssuesInline(parsed.error));
  const { by, note, confirm, items } = parsed.data;
  const results: ReviewBulkDecideResult['results'] = [];
  // One after another: the checks of each read what the one before wrote, and the audit trail keeps the order chosen.
  for (const item of items) {
    try {
      const r = await decide(kind, { ...item, by, note, ...(confirm === undefined ? {} : { confirm }) });
      results.push({ ...item, outcome: 'decided', decision: r.decision, auditEntryId: r.auditEntryId });
    } catch (err) {
      // A refusal with a code is this item's answer (Redis gone: each one after says so too); anything else is a bug.
      if (!(err instanceof CosciError)) throw err;
      results.push({ ...item, outcome: 'refused', code: err.code, message: err.message });
    }
  }
  return {
    results,
    decided: results.filter((r) => r.outcome === 'decided').length,
    refused: results.filter((r) => r.outcome === 'refused').length,
  };
}
