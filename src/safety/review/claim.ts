/**
 * A reviewer's claim on a held item: "I am on it". Others see who, and
 * until when; it lapses by itself (a reviewer who leaves holds nothing for
 * long), and it binds no one: another reviewer may still decide, once they
 * confirm that they mean to decide over the claim. Pure: the claim store
 * keeps claims in Redis with the time to live (src/store/claim-store.ts).
 */
import { z } from 'zod';

export const ClaimSchema = z.object({
  by: z.string(),
  /** When it was taken, and when it lapses (ISO 8601). */
  at: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type Claim = z.infer<typeof ClaimSchema>;

export function makeClaim(by: string, at: Date, ttlMs: number): Claim {
  return { by, at: at.toISOString(), expiresAt: new Date(at.getTime() + ttlMs).toISOString() };
}

/** Whether a claim is someone else's and still holds at `now`: a decision by `by` then needs confirming. */
export function claimedByOther(claim: Claim | undefined, by: string, now: Date): claim is Claim {
  if (!claim || Date.parse(claim.expiresAt) <= now.getTime()) return false;
  // Names compared as the audit trail writes them: trimmed, in any case.
  return claim.by.trim().toLowerCase() !== by.trim().toLowerCase();
}
