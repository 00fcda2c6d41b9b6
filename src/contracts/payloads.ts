/**
 * Job payloads, as zod schemas: the contract with every publisher, in any
 * language (docs/contract.md; JSON Schema files in schemas/). One map from
 * queue name to payload type, so a publisher and a processor cannot disagree.
 */
import { z } from 'zod';

/** Ids are bounded and printable: they appear in keys, job ids and logs. */
export const IdSchema = z
  .string()
  .min(1)
  .max(256)
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this rejects
  .regex(/^[^\s\u0000-\u001f\u007f]+$/, 'must not contain whitespace or control characters')
  // Ids go into job ids, event ids and keys through encodeURIComponent, which throws on a lone surrogate.
  .refine((id) => id.isWellFormed(), 'must be well-formed Unicode (no lone surrogates)');

/** Text is bounded so that a hostile job cannot exhaust memory; windows cover all of it. */
export const MAX_TEXT_CHARS = 1_000_000;

export const HypothesisSavedSchema = z.object({
  hypothesisId: IdSchema,
  text: z.string().max(MAX_TEXT_CHARS),
  title: z.string().max(2000).optional(),
  goalId: IdSchema.optional(),
  runId: IdSchema.optional(),
  agent: z.string().max(256).optional(),
  revision: z.number().int().nonnegative().default(0),
  savedAt: z.iso.datetime({ offset: true }).optional(),
});
export type HypothesisSaved = z.infer<typeof HypothesisSavedSchema>;
export type HypothesisSavedInput = z.input<typeof HypothesisSavedSchema>;

export const GoalSubmittedSchema = z.object({
  goalId: IdSchema,
  text: z.string().max(MAX_TEXT_CHARS),
  runId: IdSchema.optional(),
});
export type GoalSubmitted = z.infer<typeof GoalSubmittedSchema>;
export type GoalSubmittedInput = z.input<typeof GoalSubmittedSchema>;

/** Bounds on a review's evidence, so a hostile job cannot make a worker fetch without end. */
export const MAX_EVIDENCE = 100;
export const MAX_EXCERPT_CHARS = 5000;
export const MAX_URL_CHARS = 2048;

export const EvidenceSchema = z.object({
  claim: z.string().max(MAX_EXCERPT_CHARS),
  url: z.string().min(1).max(MAX_URL_CHARS),
  excerpt: z.string().max(MAX_EXCERPT_CHARS),
});
export type Evidence = z.infer<typeof EvidenceSchema>;

export const ReviewRecordedSchema = z.object({
  reviewId: IdSchema,
  hypothesisId: IdSchema,
  evidence: z.array(EvidenceSchema).max(MAX_EVIDENCE),
  /** The URLs the reviewing agent fetched; evidence citing any other URL is unverified without a fetch. */
  seenUrls: z.array(z.string().max(MAX_URL_CHARS)).max(1000).optional(),
  revision: z.number().int().nonnegative().default(0),
  agent: z.string().max(256).optional(),
  recordedAt: z.iso.datetime({ offset: true }).optional(),
});
export type ReviewRecorded = z.infer<typeof ReviewRecordedSchema>;
export type ReviewRecordedInput = z.input<typeof ReviewRecordedSchema>;

/** Bounds on a final report, so a hostile job cannot make a worker classify without end. */
export const MAX_REPORT_SECTIONS = 1000;

export const ReportSectionSchema = z.object({
  text: z.string().max(MAX_TEXT_CHARS),
  /** The hypothesis this section presents; its review state decides whether the section is shown. */
  hypothesisId: IdSchema.optional(),
});

export const ReportFinalizedSchema = z.object({
  reportId: IdSchema,
  sections: z.array(ReportSectionSchema).min(1).max(MAX_REPORT_SECTIONS),
  runId: IdSchema.optional(),
  /** A report finalized again after a change gets a new revision. */
  revision: z.number().int().nonnegative().default(0),
});
export type ReportFinalized = z.infer<typeof ReportFinalizedSchema>;
export type ReportFinalizedInput = z.input<typeof ReportFinalizedSchema>;

export const PAYLOAD_SCHEMAS = {
  'hypothesis.saved': HypothesisSavedSchema,
  'goal.submitted': GoalSubmittedSchema,
  'review.recorded': ReviewRecordedSchema,
  'report.finalized': ReportFinalizedSchema,
} as const;

/**
 * Deterministic job ids, so publishing the same hypothesis revision (or goal)
 * twice makes one job. BullMQ forbids `:` in custom ids; percent-encoding the
 * id keeps them readable and unambiguous.
 */
export function hypothesisJobId(hypothesisId: string, revision: number): string {
  return `hypothesis.${encodeURIComponent(hypothesisId)}.r${revision}`;
}

export function reviewJobId(reviewId: string, revision: number): string {
  return `review.${encodeURIComponent(reviewId)}.r${revision}`;
}

export function reportJobId(reportId: string, revision: number): string {
  return `report.${encodeURIComponent(reportId)}.r${revision}`;
}

export function goalJobId(goalId: string): string {
  return `goal.${encodeURIComponent(goalId)}`;
}
