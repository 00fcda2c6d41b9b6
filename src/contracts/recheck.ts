/**
 * What a recheck of a review's evidence reports (`cosci-safety verify
 * --recheck`, docs/citations.md#rechecking-the-evidence): per citation, what
 * became of it since the review was verified, and the page then and now.
 */
import { z } from 'zod';
import { RECHECK_OUTCOMES } from '../safety/citations/recheck.js';
import { RecheckedCitationFields } from './events.js';
import { IdSchema } from './payloads.js';
import { CitationLocationSchema, PageProvenanceSchema } from './results.js';

export const CitationRecheckSchema = z.object({
  ...RecheckedCitationFields,
  /** Where the excerpt is on the page now, when it is. */
  location: CitationLocationSchema.optional(),
  /** The page as the review was verified against it (absent for a result stored before pages were kept), and now. */
  verified: PageProvenanceSchema.optional(),
  now: PageProvenanceSchema.optional(),
});
export type CitationRecheck = z.infer<typeof CitationRecheckSchema>;

export const ReviewRecheckSchema = z.object({
  reviewId: IdSchema,
  hypothesisId: IdSchema,
  revision: z.number().int().nonnegative(),
  verifiedAt: z.iso.datetime({ offset: true }),
  recheckedAt: z.iso.datetime({ offset: true }),
  counts: z.record(z.enum(RECHECK_OUTCOMES), z.number().int().nonnegative()),
  results: z.array(CitationRecheckSchema),
});
export type ReviewRecheck = z.infer<typeof ReviewRecheckSchema>;
