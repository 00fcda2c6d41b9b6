/**
 * Job results, as zod schemas: what a processor returns, what the stores keep
 * in Redis, and what publishers in any language read back (a goal's verdict
 * with `--wait`, a final report's redacted text). The types are inferred from
 * the schemas, and the stores validate what they read against them, so a
 * value written by an older or foreign writer fails loudly instead of being
 * trusted by a cast. JSON Schema files in schemas/ (result.*.json).
 */
import { z } from 'zod';
import { INJECTION_SOURCES } from '../safety/citations/injection-sources.js';
import { TEXT_SOURCES } from '../safety/citations/page-sources.js';
import { ClaimSupportSchema } from '../safety/claims/verdict.js';
import { VerdictSchema } from '../safety/classification/verdict.js';
import { REVIEW_STATES } from '../safety/review/decision.js';
import { REPORT_CHECK_MODES, SECTION_STATES } from '../safety/review/report-check.js';
import { CITATION_STATUSES, InjectionSpanSchema, REPORT_OUTCOMES } from './events.js';
import { NearMissDetailSchema, NearMissSchema } from './near-miss.js';
import { IdSchema } from './payloads.js';

/** The return value of a `goal.submitted` job. */
export const GoalResultSchema = z.object({
  goalId: IdSchema,
  verdict: VerdictSchema,
});
export type GoalResult = z.infer<typeof GoalResultSchema>;

/** The return value of a `hypothesis.saved` job. */
export const HypothesisResultSchema = z.object({
  hypothesisId: IdSchema,
  revision: z.number().int().nonnegative(),
  verdict: VerdictSchema,
  /** The revision's review state; a person's decision wins over the verdict. */
  state: z.enum(REVIEW_STATES),
});
export type HypothesisResult = z.infer<typeof HypothesisResultSchema>;

/**
 * The cited document carries text that reads as instructions to an AI reader:
 * its injection score is at or above `safety.injection_threshold`
 * (docs/citations.md#injection-in-cited-sources). Reported beside the
 * citation's status, which it does not change.
 */
export const SourceInjectionSchema = z.object({
  /** The detector's score of the document's text that scored highest, 0 to 1. */
  score: z.number().min(0).max(1),
  /** The threshold it was compared with. */
  threshold: z.number().min(0).max(1),
  /** Which text of the document: page, json_ld, pdf, script_json or markup. */
  source: z.enum(INJECTION_SOURCES),
  /** The kinds of the detector's signals (override, role_label, ...), each once. */
  kinds: z.array(z.string()),
  /** The span's text with its context, one string neutralised whole (around the strongest signal in older results). */
  snippet: z.string(),
  /** Where in the document the score came from, and its text; absent in results stored before spans were kept. */
  span: InjectionSpanSchema.optional(),
});
export type SourceInjection = z.infer<typeof SourceInjectionSchema>;

/**
 * Where an `ok` excerpt is on its page (docs/citations.md#provenance): offsets
 * in UTF-16 code units into the text of the result's `source` as the service
 * extracted and normalised it (the visible text with its JSON-LD text, or
 * the JSON text of the scripts), from the start of its first part to the end
 * of its last; and a link that opens the page scrolled to the passage.
 */
export const CitationLocationSchema = z.object({
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  /**
   * The page's URL after redirects with a text directive (`#:~:text=...`) built
   * from the page's text there; absent when the passage is in the JSON-LD text,
   * which the page does not show, or holds no word.
   */
  textFragmentUrl: z.string().optional(),
});
export type CitationLocation = z.infer<typeof CitationLocationSchema>;

/**
 * A page fetched to check a review's citations, as it was then
 * (docs/citations.md#provenance): what a recheck compares with.
 */
export const PageProvenanceSchema = z.object({
  /** The URL of the page read, after redirects, without a fragment. */
  finalUrl: z.string().optional(),
  /** The HTTP status of the final answer; absent when none came (a DNS or connection failure, a timeout). */
  status: z.number().int().optional(),
  /** The media type of the answer read. */
  contentType: z.string().optional(),
  /** When the page was fetched: a page read from the page cache was fetched before the review was verified. */
  fetchedAt: z.iso.datetime({ offset: true }),
  /** The SHA-256 of the page's text as matched, 64 hex digits; absent when no text was read. */
  textSha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** The version of the text's extraction the digest is of: digests of two versions do not compare. */
  textVersion: z.number().int().positive().optional(),
  /** Why no text was read (a citation's fetch_failed reason: http_404, timeout, ...). */
  reason: z.string().optional(),
});
export type PageProvenance = z.infer<typeof PageProvenanceSchema>;

/** The check of one cited evidence entry. */
export const CitationResultSchema = z.object({
  /** The entry's position in the review's evidence. */
  index: z.number().int().nonnegative(),
  url: z.string(),
  status: z.enum(CITATION_STATUSES),
  /** Characters in the quoted excerpt. */
  excerptLen: z.number().int().nonnegative(),
  /**
   * Why it is not ok: excerpt_not_found, excerpt_not_in_pages_read, url_not_seen, timeout, http_404,
   * blocked_address, content_too_slow, review_deadline (not fetched before the review's deadline,
   * `citations.review_deadline_ms`), ... (docs/citations.md).
   */
  reason: z.string().optional(),
  /**
   * When ok, where the excerpt was found: the page's visible text, its JSON-LD article text, or the JSON
   * in its scripts (the article of a client-rendered page) (docs/citations.md).
   */
  source: z.enum(TEXT_SOURCES).optional(),
  citation_unverified: z.boolean(),
  /**
   * The claim and the excerpt as cited, kept for the person who reviews the
   * hypothesis. Optional: results stored before they were kept lack them.
   */
  claim: z.string().optional(),
  excerpt: z.string().optional(),
  /** Present when the cited document is suspected of carrying instructions for an AI reader. */
  injection: SourceInjectionSchema.optional(),
  /** When ok, where the excerpt is on the page; absent in results stored before locations were kept. */
  location: CitationLocationSchema.optional(),
  /**
   * For an excerpt not on the page (excerpt_not_found, excerpt_not_in_pages_read): `altered` when the
   * page holds a passage close to it, `absent` when not (docs/citations.md#near-misses). Absent in
   * results stored before near misses were diagnosed, and for every other status and reason.
   */
  detail: NearMissDetailSchema.optional(),
  /** When `detail` is `altered`: the closest passage and how the excerpt differs from it, word by word. */
  nearMiss: NearMissSchema.optional(),
  /**
   * When ok and `citations.claim_support` is on: whether the passage around the excerpt supports the
   * claim, sentence by sentence (docs/citations.md#claim-support). Absent when it is off, for every other
   * status, and in results stored before claims were judged.
   */
  claimSupport: ClaimSupportSchema.optional(),
});
export type CitationResult = z.infer<typeof CitationResultSchema>;

/** The research system's summary of one URL: the worst result of the citations of it. */
export const UrlSummarySchema = z.object({
  status: z.enum(CITATION_STATUSES),
  excerpt_len: z.number().int().nonnegative(),
});
export type UrlSummary = z.infer<typeof UrlSummarySchema>;

/** The return value of a `review.recorded` job, kept per review revision. */
export const ReviewVerificationSchema = z.object({
  reviewId: IdSchema,
  hypothesisId: IdSchema,
  revision: z.number().int().nonnegative(),
  /** Verification disabled in the configuration. */
  skipped: z.boolean(),
  results: z.array(CitationResultSchema),
  /** The research system's shape: `{url: {status, excerpt_len}}`. */
  summary: z.record(z.string(), UrlSummarySchema),
  counts: z.record(z.enum(CITATION_STATUSES), z.number().int().nonnegative()),
  verifiedAt: z.iso.datetime({ offset: true }),
  /**
   * Each page fetched for the citations, by the URL as cited (as `summary`):
   * final URL, HTTP status, content type, fetch time and text digest. Absent
   * in results stored before pages were kept, and when verification is off.
   */
  pages: z.record(z.string(), PageProvenanceSchema).optional(),
});
export type ReviewVerification = z.infer<typeof ReviewVerificationSchema>;

export const RedactionSchema = z.object({
  /** The section's position in the report. */
  index: z.number().int().nonnegative(),
  hypothesisId: IdSchema,
  state: z.enum(SECTION_STATES),
});

/** The return value of a `report.finalized` job, kept per report revision. */
export const ReportResultSchema = z.object({
  reportId: IdSchema,
  revision: z.number().int().nonnegative(),
  runId: IdSchema.optional(),
  mode: z.enum(REPORT_CHECK_MODES),
  /** `skipped` when the check is off. */
  outcome: z.enum([...REPORT_OUTCOMES, 'skipped']),
  /** True when the report may be published as `text`. */
  publishable: z.boolean(),
  blockedBy: z.enum(['held_hypotheses', 'report_verdict']).optional(),
  /**
   * The report with every withheld section replaced by a notice; when the
   * report's own verdict holds it (quarantine or block), a notice instead.
   */
  text: z.string(),
  redactions: z.array(RedactionSchema),
  /** The verdict on the redacted report as a whole; absent when the check is off. */
  verdict: VerdictSchema.optional(),
  checkedAt: z.iso.datetime({ offset: true }),
});
export type ReportResult = z.infer<typeof ReportResultSchema>;

export const RESULT_SCHEMAS = {
  'hypothesis.saved': HypothesisResultSchema,
  'goal.submitted': GoalResultSchema,
  'review.recorded': ReviewVerificationSchema,
  'report.finalized': ReportResultSchema,
} as const;
