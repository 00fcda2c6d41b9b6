/**
 * Events, as zod schemas, and one map from event type to its data. Each entry
 * of the stream has the fields `type`, `eventId` and `data` (JSON), and,
 * when the service traces, `traceparent` and `tracestate` (EventEntrySchema).
 */
import { z } from 'zod';
import { INJECTION_SOURCES } from '../safety/citations/injection-sources.js';
import { RECHECK_OUTCOMES } from '../safety/citations/recheck.js';
import { CLAIM_DEGRADED_REASONS, UNSUPPORTED_VERDICTS } from '../safety/claims/verdict.js';
import { ACTIONS, DEGRADED_REASONS } from '../safety/classification/verdict.js';
import { NearMissDetailSchema, NearMissSchema } from './near-miss.js';

/** What every verdict event carries. */
const VerdictEventFields = {
  action: z.enum(ACTIONS),
  categories: z.array(z.string()),
  confidence: z.number(),
  rationale: z.string(),
  degraded: z.boolean(),
  reason: z.enum(DEGRADED_REASONS).optional(),
  model: z.string(),
  refusal: z.boolean(),
  windowed: z.boolean(),
};

export const HypothesisEventDataSchema = z.object({
  hypothesisId: z.string(),
  revision: z.number().int().nonnegative(),
  ...VerdictEventFields,
  goalId: z.string().optional(),
  runId: z.string().optional(),
  /**
   * Present when the verdict is a new assessment of a revision whose verdict
   * was degraded (`quarantine reclassify`, docs/review.md#reclassifying):
   * who asked, when, and the verdict it replaces.
   */
  reassessment: z
    .object({
      by: z.string(),
      at: z.string(),
      previous: z.object({
        action: z.enum(ACTIONS),
        reason: z.enum(DEGRADED_REASONS).optional(),
      }),
    })
    .optional(),
});
export type HypothesisEventData = z.infer<typeof HypothesisEventDataSchema>;

export const GoalEventDataSchema = z.object({
  goalId: z.string(),
  ...VerdictEventFields,
  runId: z.string().optional(),
});
export type GoalEventData = z.infer<typeof GoalEventDataSchema>;

export const ClassifierDegradedDataSchema = z.object({
  target: z.enum(['hypothesis', 'goal', 'report']),
  id: z.string(),
  revision: z.number().int().nonnegative().optional(),
  reason: z.enum(DEGRADED_REASONS),
  action: z.enum(ACTIONS),
  model: z.string(),
});
export type ClassifierDegradedData = z.infer<typeof ClassifierDegradedDataSchema>;

export const CITATION_STATUSES = ['ok', 'unverified', 'fetch_failed'] as const;
export type CitationStatus = (typeof CITATION_STATUSES)[number];

export const CitationUnverifiedDataSchema = z.object({
  reviewId: z.string(),
  hypothesisId: z.string(),
  revision: z.number().int().nonnegative(),
  index: z.number().int().nonnegative(),
  url: z.string(),
  status: z.enum(['unverified', 'fetch_failed']),
  reason: z.string(),
  excerptLen: z.number().int().nonnegative(),
  /** As in the result: `altered` or `absent` for an excerpt not on the page; absent otherwise and in older events. */
  detail: NearMissDetailSchema.optional(),
  /** As in the result: the closest passage and the diff, when `detail` is `altered`. */
  nearMiss: NearMissSchema.optional(),
});
export type CitationUnverifiedData = z.infer<typeof CitationUnverifiedDataSchema>;

/**
 * The passage of an `ok` citation does not support its claim, as far as the
 * judge could tell (docs/citations.md#claim-support): partially supported,
 * not supported, contradicted, or unclear (no judgement could be had: the
 * claim is never passed as supported by default). Once per citation of a
 * review revision, when `citations.claim_support` is on.
 */
export const ClaimUnsupportedDataSchema = z.object({
  reviewId: z.string(),
  hypothesisId: z.string(),
  revision: z.number().int().nonnegative(),
  /** The citation's position in the review's evidence. */
  index: z.number().int().nonnegative(),
  url: z.string(),
  verdict: z.enum(UNSUPPORTED_VERDICTS),
  /** The judge's reasons, sentence by sentence, or why there is no judgement. */
  rationale: z.string(),
  /** True when not every sentence was judged; `reason` says why. */
  degraded: z.boolean(),
  reason: z.enum(CLAIM_DEGRADED_REASONS).optional(),
  /** Sentences of the claim, and how many of them the passage supports. */
  sentences: z.number().int().nonnegative(),
  supportedSentences: z.number().int().nonnegative(),
  model: z.string(),
});
export type ClaimUnsupportedData = z.infer<typeof ClaimUnsupportedDataSchema>;

/**
 * Where in a cited document the injection score came from, and its text
 * (docs/citations.md#where-the-attack-is): the attack a reviewer is shown,
 * rather than the whole page.
 */
export const InjectionSpanSchema = z.object({
  /** What gave the score: `instruction_text` (the model's window of words) or a near-certain signal's kind. */
  kind: z.string(),
  /**
   * Offsets, in UTF-16 code units, into the text of `source` as the service
   * extracted it and normalised it for matching (not into the document's
   * bytes): the page's visible text, its JSON-LD text, the PDF's text, the
   * JSON text of its scripts, or its markup texts, each from its own start.
   * That text is not published; `sourceLength` and the excerpt say where.
   */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  /** The length of that text. */
  sourceLength: z.number().int().nonnegative(),
  /**
   * The span's text, at most 400 characters (then cut, ending ` …`), and up
   * to 60 characters of context before and after (`… ` and ` …` where the
   * text goes on), white space made single spaces, each neutralised by the
   * quoting layer on its own.
   */
  before: z.string(),
  text: z.string(),
  after: z.string(),
  /** The text is the document read as UTF-7, as it declares (browsers do not). */
  utf7: z.literal(true).optional(),
});
export type InjectionSpan = z.infer<typeof InjectionSpanSchema>;

/**
 * A cited document reads as carrying instructions for an AI reader: once per
 * citation of a review revision, whatever the citation's status.
 */
export const SourceInjectionSuspectedDataSchema = z.object({
  reviewId: z.string(),
  hypothesisId: z.string(),
  revision: z.number().int().nonnegative(),
  /** The citation's position in the review's evidence. */
  index: z.number().int().nonnegative(),
  url: z.string(),
  /** The detector's score, 0 to 1, and the threshold it reached. */
  score: z.number(),
  threshold: z.number(),
  /** Which text of the document: page, json_ld, pdf, script_json or markup. */
  source: z.enum(INJECTION_SOURCES),
  /** The kinds of the detector's signals, each once. */
  signals: z.array(z.string()),
  /**
   * A short excerpt: the span's text with its context, as one string
   * neutralised whole by the quoting layer. (Before the span, results
   * stored by older versions: around the strongest signal.)
   */
  snippet: z.string(),
  /** Where the score came from, and its text; absent for a result stored before spans were kept. */
  span: InjectionSpanSchema.optional(),
});
export type SourceInjectionSuspectedData = z.infer<typeof SourceInjectionSuspectedDataSchema>;

export const ReviewVerifiedDataSchema = z.object({
  reviewId: z.string(),
  hypothesisId: z.string(),
  revision: z.number().int().nonnegative(),
  /** True when verification is disabled (safety.enable_citation_verifier = false). */
  skipped: z.boolean(),
  counts: z.object({ ok: z.number().int(), unverified: z.number().int(), fetch_failed: z.number().int() }),
  total: z.number().int().nonnegative(),
});
export type ReviewVerifiedData = z.infer<typeof ReviewVerifiedDataSchema>;

/** What a recheck says of one citation: in its event and in the recheck's report (recheck.ts). */
export const RecheckedCitationFields = {
  /** The citation's position in the review's evidence. */
  index: z.number().int().nonnegative(),
  url: z.string(),
  outcome: z.enum(RECHECK_OUTCOMES),
  /** The citation's status when the review was verified, and now. */
  was: z.enum(CITATION_STATUSES),
  status: z.enum(CITATION_STATUSES),
  /** Why it is not ok now. */
  reason: z.string().optional(),
};

/**
 * A recheck found a citation other than it was verified
 * (docs/citations.md#rechecking-the-evidence): its page changed, or its
 * excerpt is gone. Once per citation and what was found (the outcome, the
 * status and the page's text digest now): a recheck that finds the same
 * again appends nothing.
 */
export const CitationRecheckedDataSchema = z.object({
  reviewId: z.string(),
  hypothesisId: z.string(),
  revision: z.number().int().nonnegative(),
  ...RecheckedCitationFields,
  /** The page's text digest when verified, and now (absent where no text was read). */
  previousTextSha256: z.string().optional(),
  textSha256: z.string().optional(),
  /** The page now: its URL after redirects and the HTTP status of its answer. */
  finalUrl: z.string().optional(),
  httpStatus: z.number().int().optional(),
  verifiedAt: z.string(),
  recheckedAt: z.string(),
});
export type CitationRecheckedData = z.infer<typeof CitationRecheckedDataSchema>;

/** One recheck of a review revision's citations, counted by outcome; once per what it found. */
export const ReviewRecheckedDataSchema = z.object({
  reviewId: z.string(),
  hypothesisId: z.string(),
  revision: z.number().int().nonnegative(),
  counts: z.record(z.enum(RECHECK_OUTCOMES), z.number().int().nonnegative()),
  total: z.number().int().nonnegative(),
  verifiedAt: z.string(),
  recheckedAt: z.string(),
});
export type ReviewRecheckedData = z.infer<typeof ReviewRecheckedDataSchema>;

/** A person's decision on a held hypothesis revision. */
export const HypothesisDecisionDataSchema = z.object({
  hypothesisId: z.string(),
  revision: z.number().int().nonnegative(),
  /**
   * The content digest of what was decided on (docs/contract.md#a-revision-is-its-content):
   * the revision's, or that of other text published under it (a conflict).
   */
  content: z.string().optional(),
  by: z.string(),
  note: z.string(),
  at: z.string(),
  overridden: z.object({
    action: z.enum(ACTIONS),
    categories: z.array(z.string()),
    confidence: z.number(),
  }),
});
export type HypothesisDecisionData = z.infer<typeof HypothesisDecisionDataSchema>;

export const CONFLICT_TARGETS = ['hypothesis', 'review', 'report'] as const;

/**
 * Content published under an id and revision that already name other
 * content: refused, never judged by what the revision holds
 * (docs/contract.md#a-revision-is-its-content). Once per content.
 */
export const RevisionConflictDataSchema = z.object({
  target: z.enum(CONFLICT_TARGETS),
  /** The hypothesis, review or report id. */
  id: z.string(),
  revision: z.number().int().nonnegative(),
  /** The hypothesis: the subject itself, or the one a review is of. */
  hypothesisId: z.string().optional(),
  /** The content digest of what was published now. */
  content: z.string(),
  /** The content digest the revision holds; absent when none was recorded with it. */
  storedContent: z.string().optional(),
  /** True when the new text is kept for the person who reviews the hypothesis (docs/review.md). */
  held: z.boolean(),
});
export type RevisionConflictData = z.infer<typeof RevisionConflictDataSchema>;

export const REPORT_OUTCOMES = ['cleared', 'redacted', 'blocked'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

/** The final-report check of one report revision. */
export const ReportEventDataSchema = z.object({
  reportId: z.string(),
  revision: z.number().int().nonnegative(),
  runId: z.string().optional(),
  outcome: z.enum(REPORT_OUTCOMES),
  /** `redact`, `block`, or `off` (the report was not checked). */
  mode: z.enum(['redact', 'block', 'off']),
  /** Why a blocked report is blocked: held hypotheses (block mode), or the report's own verdict. */
  blockedBy: z.enum(['held_hypotheses', 'report_verdict']).optional(),
  redacted: z.array(z.object({ index: z.number().int(), hypothesisId: z.string(), state: z.string() })),
  /** The verdict on the (redacted) report as a whole; absent when the check is off. */
  action: z.enum(ACTIONS).optional(),
  categories: z.array(z.string()).optional(),
  confidence: z.number().optional(),
  degraded: z.boolean().optional(),
  reason: z.enum(DEGRADED_REASONS).optional(),
});
export type ReportEventData = z.infer<typeof ReportEventDataSchema>;

export const EVENT_SCHEMAS = {
  hypothesis_assessed: HypothesisEventDataSchema,
  hypothesis_flagged: HypothesisEventDataSchema,
  hypothesis_quarantined: HypothesisEventDataSchema,
  hypothesis_blocked: HypothesisEventDataSchema,
  goal_assessed: GoalEventDataSchema,
  goal_blocked: GoalEventDataSchema,
  classifier_degraded: ClassifierDegradedDataSchema,
  citation_unverified: CitationUnverifiedDataSchema,
  source_injection_suspected: SourceInjectionSuspectedDataSchema,
  claim_unsupported: ClaimUnsupportedDataSchema,
  review_verified: ReviewVerifiedDataSchema,
  citation_rechecked: CitationRecheckedDataSchema,
  review_rechecked: ReviewRecheckedDataSchema,
  hypothesis_released: HypothesisDecisionDataSchema,
  hypothesis_confirmed: HypothesisDecisionDataSchema,
  revision_conflict: RevisionConflictDataSchema,
  report_cleared: ReportEventDataSchema,
  report_redacted: ReportEventDataSchema,
  report_blocked: ReportEventDataSchema,
} as const;

export type EventType = keyof typeof EVENT_SCHEMAS;
export type EventDataOf<T extends EventType> = z.infer<(typeof EVENT_SCHEMAS)[T]>;
export const EVENT_TYPES = Object.keys(EVENT_SCHEMAS) as EventType[];

/**
 * A W3C Trace Context `traceparent` (https://www.w3.org/TR/trace-context/#traceparent-header)
 * of version 00: version, trace id, parent id and flags, in lower-case hex.
 */
export const TRACEPARENT_PATTERN = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/**
 * The fields of a stream entry. `traceparent` and `tracestate` are there
 * only when the service traces (docs/tracing.md): the W3C trace context of
 * the span that appended the event, as the CloudEvents distributed tracing
 * extension carries it beside an event rather than in its data. Entries
 * appended before, or without tracing, have neither; a consumer that does
 * not trace ignores them, as it ignores any field it does not know: a later
 * version may add fields, and types (a consumer skips the types it does not
 * handle).
 */
export const EventEntrySchema = z.looseObject({
  /** One of EVENT_TYPES in this version. */
  type: z.string().min(1),
  eventId: z.string().min(1),
  /** The event's data as JSON text, of the schema of its type (event.<type>.json). */
  data: z.string(),
  traceparent: z.string().regex(TRACEPARENT_PATTERN).optional(),
  /** Vendor trace state (W3C `tracestate`), only beside a `traceparent`. */
  tracestate: z.string().optional(),
});
export type EventEntry = z.infer<typeof EventEntrySchema>;

/** The action-specific hypothesis event, besides hypothesis_assessed. */
export const HYPOTHESIS_ACTION_EVENTS = {
  allow: undefined,
  warn: 'hypothesis_flagged',
  quarantine: 'hypothesis_quarantined',
  block: 'hypothesis_blocked',
} as const satisfies Record<(typeof ACTIONS)[number], EventType | undefined>;
