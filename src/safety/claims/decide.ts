/**
 * From the judge's answers to a claim's verdict: what each sentence got (a
 * judgement, a refusal, or a failure after the retries), and the sentences
 * past the bound that were never asked, make one ClaimSupport. Fail closed:
 * whatever is not a judgement of the sentence is `unclear` for it, and the
 * claim is never `supported` unless every sentence of it is.
 */
import {
  mergeSentenceVerdicts,
  type ClaimDegradedReason,
  type ClaimJudgement,
  type ClaimSupport,
  type SentenceSupport,
} from './verdict.js';

export type SentenceOutcome =
  | { kind: 'judgement'; judgement: ClaimJudgement; cached: boolean }
  | { kind: 'refusal'; cached: boolean }
  | { kind: 'failed'; reason: ClaimDegradedReason; message: string };

export interface ClaimContext {
  window: { start: number; end: number };
  model: string;
  promptVersion: string;
}

/**
 * `outcomes[i]` is the outcome of `sentences[i]`; sentences past the end of
 * `outcomes` were not asked (the bound on sentences), and are `unclear`,
 * `claim_too_long`.
 */
export function decideClaimSupport(
  sentences: readonly string[],
  outcomes: readonly SentenceOutcome[],
  context: ClaimContext,
): ClaimSupport {
  if (sentences.length === 0) return unjudged('empty_claim', 'the claim has no sentence to judge', context);
  const judged: SentenceSupport[] = sentences.map((text, i) => {
    const outcome = outcomes[i];
    if (outcome === undefined) {
      return {
        text,
        verdict: 'unclear',
        rationale: 'not judged: past the bound on sentences',
        reason: 'claim_too_long',
      };
    }
    if (outcome.kind === 'judgement') {
      return { text, verdict: outcome.judgement.verdict, rationale: outcome.judgement.rationale };
    }
    if (outcome.kind === 'refusal') {
      return { text, verdict: 'unclear', rationale: 'the judge refused to answer', reason: 'refusal' };
    }
    return { text, verdict: 'unclear', rationale: outcome.message, reason: outcome.reason };
  });
  const reason = judged.find((s) => s.reason !== undefined)?.reason;
  const many = judged.length > 1;
  return {
    verdict: mergeSentenceVerdicts(judged.map((s) => s.verdict)),
    rationale: judged
      .map((s, i) => (many ? `[sentence ${i + 1}: ${s.verdict}] ${s.rationale}` : s.rationale))
      .join('\n'),
    degraded: reason !== undefined,
    ...(reason !== undefined ? { reason } : {}),
    sentences: judged,
    window: context.window,
    model: context.model,
    promptVersion: context.promptVersion,
    cached: outcomes.length > 0 && outcomes.every((o) => o.kind !== 'failed' && o.cached),
  };
}

/** A claim not judged at all (no API key, an empty claim): `unclear`, degraded, with the reason. */
export function unjudged(reason: ClaimDegradedReason, message: string, context: ClaimContext): ClaimSupport {
  return {
    verdict: 'unclear',
    rationale: message,
    degraded: true,
    reason,
    sentences: [],
    window: context.window,
    model: context.model,
    promptVersion: context.promptVersion,
    cached: false,
  };
}
