/**
 * Claim support (docs/citations.md#claim-support): for an `ok` citation, the
 * judge is asked of each sentence of the claim whether the passage around
 * the excerpt supports it. The model call is the classifier's forced tool
 * call (src/classifier/tool-call.ts) with its one retry layer and its answer
 * cache; what is asked and what the answers make is pure
 * (src/safety/claims). Never supported by default: with no key, after the
 * retries, for a malformed answer or a refusal, the claim is `unclear`,
 * degraded, with the reason.
 */
import { hash } from 'node:crypto';
import { z } from 'zod';
import type { AnswerCache } from '../classifier/answer-cache.js';
import { ClassifierCallError } from '../classifier/errors.js';
import { timedAttempt, withRetry, type RetryOptions } from '../classifier/retry.js';
import type { TokenUsage, ToolCaller, ToolOutcome } from '../classifier/tool-call.js';
import {
  buildClaimMessage,
  CLAIM_DEGRADED_REASONS,
  CLAIM_PROMPT_VERSION,
  ClaimJudgementSchema,
  decideClaimSupport,
  evidenceWindow,
  splitSentences,
  unjudged,
  type ClaimDegradedReason,
  type ClaimJudgement,
  type ClaimSupport,
  type SentenceOutcome,
} from '../safety/claims/index.js';
import type { QuotingReport } from '../safety/quoting/index.js';

/** What the judge's answer cache keeps: a judgement or a refusal, never a failure. */
export const CachedJudgementSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('answer'), value: ClaimJudgementSchema }),
  z.object({ kind: z.literal('refusal'), text: z.string() }),
]);
export type CachedJudgement = ToolOutcome<ClaimJudgement>;

/** Where the checker reports what happened; the metrics adapter implements it. */
export interface ClaimSupportObserver {
  request(outcome: string, seconds: number): void;
  cache(result: 'hit' | 'miss'): void;
  retry?(error: ClassifierCallError, attempt: number, delayMs: number): void;
  neutralised?(report: QuotingReport): void;
  tokens?(usage: TokenUsage): void;
}

export interface ClaimSupportOptions {
  /** Undefined when there is no API key: every claim is then `unclear`, `no_api_key`. */
  judge: ToolCaller<ClaimJudgement> | undefined;
  model: string;
  cache?: AnswerCache<CachedJudgement> | undefined;
  retry: Omit<RetryOptions, 'signal' | 'onRetry'>;
  /** @see `citations.claim_support_window_chars` */
  windowChars: number;
  /** @see `citations.claim_support_max_sentences` */
  maxSentences: number;
  observer?: ClaimSupportObserver | undefined;
}

/** One `ok` citation: its claim and excerpt, and where the excerpt is in the page text. */
export interface ClaimQuestionInput {
  claim: string;
  excerpt: string;
  /** The page text the excerpt was found in (the text of the result's source). */
  text: string;
  start: number;
  end: number;
}

export interface ClaimSupportChecker {
  /** Rejects only when `signal` aborts (shutdown: the job goes back to the queue). */
  check(input: ClaimQuestionInput, signal?: AbortSignal): Promise<ClaimSupport>;
}

function claimReason(kind: string): ClaimDegradedReason {
  return (CLAIM_DEGRADED_REASONS as readonly string[]).includes(kind) ? (kind as ClaimDegradedReason) : 'server_error';
}

export function createClaimSupportChecker(options: ClaimSupportOptions): ClaimSupportChecker {
  const { observer } = options;
  const model = options.judge?.model ?? options.model;

  async function ask(
    judge: ToolCaller<ClaimJudgement>,
    question: Parameters<typeof buildClaimMessage>[0],
    signal: AbortSignal | undefined,
  ): Promise<SentenceOutcome> {
    const key = hash(
      'sha256',
      JSON.stringify([
        model,
        CLAIM_PROMPT_VERSION,
        question.sentence,
        question.claim,
        question.excerpt,
        question.passage,
      ]),
      'hex',
    );
    const cached = await options.cache?.get(key);
    if (cached) {
      observer?.cache('hit');
      return cached.kind === 'refusal'
        ? { kind: 'refusal', cached: true }
        : { kind: 'judgement', judgement: cached.value, cached: true };
    }
    if (options.cache) observer?.cache('miss');
    const { content, report } = buildClaimMessage(question);
    if (report.neutralised) observer?.neutralised?.(report);
    const onUsage = observer?.tokens && ((usage: TokenUsage) => observer.tokens?.(usage));
    try {
      const outcome = await withRetry(
        () => timedAttempt(() => judge.call(content, onUsage), observer?.request.bind(observer)),
        { ...options.retry, signal, ...(observer?.retry ? { onRetry: observer.retry } : {}) },
      );
      await options.cache?.set(key, outcome);
      return outcome.kind === 'refusal'
        ? { kind: 'refusal', cached: false }
        : { kind: 'judgement', judgement: outcome.value, cached: false };
    } catch (err) {
      if (!(err instanceof ClassifierCallError) || err.kind === 'aborted') throw err;
      return { kind: 'failed', reason: claimReason(err.kind), message: err.message };
    }
  }

  return {
    async check(input, signal) {
      const window = evidenceWindow(input.text, input.start, input.end, options.windowChars);
      const context = { window: { start: window.start, end: window.end }, model, promptVersion: CLAIM_PROMPT_VERSION };
      const judge = options.judge;
      if (!judge)
        return unjudged('no_api_key', 'no Anthropic API key is configured; the claim was not judged', context);
      const sentences = splitSentences(input.claim);
      const claim = sentences.join(' ');
      const outcomes: SentenceOutcome[] = [];
      // One at a time: a claim has few sentences, and the review's citations are already checked at once.
      for (const sentence of sentences.slice(0, options.maxSentences)) {
        outcomes.push(await ask(judge, { sentence, claim, excerpt: input.excerpt, passage: window.text }, signal));
      }
      return decideClaimSupport(sentences, outcomes, context);
    },
  };
}
