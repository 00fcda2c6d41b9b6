/**
 * Claim support: whether the passage an `ok` excerpt sits in supports the
 * claim it is cited for (docs/citations.md#claim-support). The judge's answer
 * is read through a schema before anything acts on it; a judgement that
 * could not be had is `unclear`, degraded, with its reason, and never
 * `supported`.
 */
import { z } from 'zod';
import { DEGRADED_REASONS } from '../classification/verdict.js';

/** What the judge may answer of one claim sentence against the passage. */
export const SUPPORT_LEVELS = ['supported', 'partially_supported', 'not_supported', 'contradicted'] as const;
export type SupportLevel = (typeof SUPPORT_LEVELS)[number];

/** A claim's verdict: a judge's level, or `unclear` when no trustworthy judgement was had. */
export const CLAIM_VERDICTS = [...SUPPORT_LEVELS, 'unclear'] as const;
export type ClaimVerdict = (typeof CLAIM_VERDICTS)[number];

/**
 * Why a claim's verdict is degraded: the model call's failures as the
 * classifier names them (timeout, malformed_output, ...), a refusal, or a
 * claim of more sentences than `citations.claim_support_max_sentences`.
 */
export const CLAIM_DEGRADED_REASONS = [
  ...DEGRADED_REASONS.filter((r) => r !== 'classifier_disabled' && r !== 'text_too_long'),
  'refusal',
  'claim_too_long',
  'empty_claim',
] as const;
export type ClaimDegradedReason = (typeof CLAIM_DEGRADED_REASONS)[number];

/** The input of the forced tool call `record_claim_support`. */
export const ClaimJudgementSchema = z.strictObject({
  verdict: z.enum(SUPPORT_LEVELS),
  rationale: z.string().max(2000),
});
export type ClaimJudgement = z.infer<typeof ClaimJudgementSchema>;

/** One sentence of the claim and what was found of it. */
export const SentenceSupportSchema = z.object({
  text: z.string(),
  verdict: z.enum(CLAIM_VERDICTS),
  rationale: z.string(),
  reason: z.enum(CLAIM_DEGRADED_REASONS).optional(),
});
export type SentenceSupport = z.infer<typeof SentenceSupportSchema>;

/** The claim support of one `ok` citation, kept with its result. */
export const ClaimSupportSchema = z.object({
  verdict: z.enum(CLAIM_VERDICTS),
  /** The judge's reasons, sentence by sentence, or why there is no judgement. */
  rationale: z.string(),
  /** True when the verdict is not a judgement of every sentence (it is then `unclear`, or `contradicted`). */
  degraded: z.boolean(),
  reason: z.enum(CLAIM_DEGRADED_REASONS).optional(),
  /** The claim's sentences as judged, in order. */
  sentences: z.array(SentenceSupportSchema),
  /** The passage of the page text judged, as offsets into the text of the result's `source`. */
  window: z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative() }),
  model: z.string(),
  promptVersion: z.string(),
  /** Every sentence's judgement came from the cache. */
  cached: z.boolean(),
});
export type ClaimSupport = z.infer<typeof ClaimSupportSchema>;

/**
 * The claim's verdict from its sentences'. A contradiction anywhere is what
 * a reader of the evidence most needs to know, so it wins even over a
 * sentence that could not be judged; otherwise one sentence not judged makes
 * the whole `unclear` (fail closed: a claim is never supported by the
 * sentences that happened to be judged). Every sentence supported is
 * `supported`, none is `not_supported`, anything between is
 * `partially_supported`.
 */
export function mergeSentenceVerdicts(verdicts: readonly ClaimVerdict[]): ClaimVerdict {
  if (verdicts.length === 0) return 'unclear';
  if (verdicts.includes('contradicted')) return 'contradicted';
  if (verdicts.includes('unclear')) return 'unclear';
  if (verdicts.every((v) => v === 'supported')) return 'supported';
  if (verdicts.every((v) => v === 'not_supported')) return 'not_supported';
  return 'partially_supported';
}

/** Verdicts that a person checking the evidence is told of (`claim_unsupported`): all but `supported`. */
export const UNSUPPORTED_VERDICTS = ['partially_supported', 'not_supported', 'contradicted', 'unclear'] as const;
export type UnsupportedVerdict = (typeof UNSUPPORTED_VERDICTS)[number];

export function isUnsupported(verdict: ClaimVerdict): verdict is UnsupportedVerdict {
  return verdict !== 'supported';
}
