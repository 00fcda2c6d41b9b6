/**
 * The scientist's review of held hypotheses: list the queue, show an item,
 * release or confirm it. The CLI and the HTTP review API both call this, so a
 * change goes through one path: validation, the atomic decision in Redis,
 * the event, the metric.
 */
import { z } from 'zod';
import { formatIssuesInline } from '../contracts/issues.js';
import { IdSchema } from '../contracts/payloads.js';
import type { EventEmitter } from '../events/emitter.js';
import { eventId } from '../events/event-id.js';
import { ReviewError } from '../errors.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Verdict } from '../safety/classification/verdict.js';
import {
  isHeld,
  makeDecision,
  NoteSchema,
  ReviewerSchema,
  stateOf,
  type Decision,
  type DecisionKind,
  type ReviewState,
} from '../safety/review/decision.js';
import type { AuditEntry, DecisionStore } from '../store/decision-store.js';
import type { ReviewVerification } from '../contracts/results.js';
import type { ReviewStore } from '../store/review-store.js';
import type { HeldSubject, VerdictStore } from '../store/verdict-store.js';

/** Hypothesis ids: the payload contract's own rule, so a decision names only ids a job can carry. */
export const HypothesisIdSchema = IdSchema;

const DecideInputSchema = z.object({
  hypothesisId: HypothesisIdSchema,
  by: ReviewerSchema,
  note: NoteSchema,
  /** The revision the person looked at; when given and no longer the latest, the request is refused. */
  revision: z.number().int().nonnegative().optional(),
});
export type DecideInput = z.input<typeof DecideInputSchema>;

export interface ReviewItem {
  hypothesisId: string;
  revision: number;
  state: ReviewState;
  verdict: Verdict;
  updatedAt: string;
  decision?: Decision | undefined;
  subject?: HeldSubject | undefined;
  /** The latest verification of each review of this hypothesis. */
  evidence: ReviewVerification[];
  history: AuditEntry[];
}

export interface ReviewItemSummary {
  hypothesisId: string;
  revision: number;
  state: ReviewState;
  action: Verdict['action'];
  categories: string[];
  confidence: number;
  degraded: boolean;
  updatedAt: string;
  title?: string | undefined;
}

export interface DecideResult {
  decision: Decision;
  auditEntryId: string;
}

export interface ReviewService {
  /** Held hypotheses (quarantined or blocked, latest revision), oldest first. */
  list(limit?: number): Promise<ReviewItemSummary[]>;
  show(hypothesisId: string): Promise<ReviewItem>;
  decide(kind: DecisionKind, input: DecideInput): Promise<DecideResult>;
}

export interface ReviewServiceDeps {
  verdicts: VerdictStore;
  decisions: DecisionStore;
  reviews: ReviewStore;
  emitter: EventEmitter;
  metrics?: Metrics | undefined;
  now?: () => Date;
}

function invalid(error: z.ZodError): ReviewError {
  return new ReviewError('REVIEW_INVALID', formatIssuesInline(error));
}

export function createReviewService(deps: ReviewServiceDeps): ReviewService {
  const now = deps.now ?? (() => new Date());

  async function emitDecision(decision: Decision): Promise<void> {
    const type = decision.decision === 'released' ? 'hypothesis_released' : 'hypothesis_confirmed';
    await deps.emitter.emit(type, eventId(type, decision.hypothesisId, decision.revision), {
      hypothesisId: decision.hypothesisId,
      revision: decision.revision,
      by: decision.by,
      note: decision.note,
      at: decision.at,
      overridden: {
        action: decision.overridden.action,
        categories: decision.overridden.categories,
        confidence: decision.overridden.confidence,
      },
    });
  }

  /** The latest verdict of a hypothesis whose id is already validated. */
  async function latest(hypothesisId: string) {
    const stored = await deps.verdicts.getLatest('hypothesis', hypothesisId);
    if (!stored) throw new ReviewError('REVIEW_NOT_FOUND', `no verdict for hypothesis ${JSON.stringify(hypothesisId)}`);
    return stored;
  }

  return {
    async list(limit = 200) {
      const ids = await deps.decisions.held(limit);
      // Every item's reads at once: the connection pipelines them, instead
      // of three round trips per item one after another.
      const items = await Promise.all(
        ids.map(async (id): Promise<ReviewItemSummary | undefined> => {
          const stored = await deps.verdicts.getLatest('hypothesis', id);
          if (!stored) return undefined;
          const [decision, subject] = await Promise.all([
            deps.decisions.get(id, stored.revision),
            deps.verdicts.getHeldSubject(id, stored.revision),
          ]);
          const v = stored.verdict;
          return {
            hypothesisId: id,
            revision: stored.revision,
            state: stateOf(v, decision),
            action: v.action,
            categories: v.categories,
            confidence: v.confidence,
            degraded: v.degraded,
            updatedAt: stored.updatedAt,
            ...(subject?.title ? { title: subject.title } : {}),
          };
        }),
      );
      return items.filter((item) => item !== undefined);
    },

    async show(hypothesisId) {
      const parsed = HypothesisIdSchema.safeParse(hypothesisId);
      if (!parsed.success) throw invalid(parsed.error);
      const stored = await latest(hypothesisId);
      const [decision, subject, evidence, history] = await Promise.all([
        deps.decisions.get(hypothesisId, stored.revision),
        deps.verdicts.getHeldSubject(hypothesisId, stored.revision),
        deps.reviews.ofHypothesis(hypothesisId),
        deps.decisions.history(hypothesisId),
      ]);
      return {
        hypothesisId,
        revision: stored.revision,
        state: stateOf(stored.verdict, decision),
        verdict: stored.verdict,
        updatedAt: stored.updatedAt,
        decision,
        subject,
        evidence,
        history,
      };
    },

    async decide(kind, input) {
      const parsed = DecideInputSchema.safeParse(input);
      if (!parsed.success) throw invalid(parsed.error);
      const { hypothesisId, by, note } = parsed.data;
      const stored = await latest(hypothesisId);
      if (parsed.data.revision !== undefined && parsed.data.revision !== stored.revision) {
        throw new ReviewError(
          'REVIEW_NOT_HELD',
          `revision ${parsed.data.revision} of ${hypothesisId} is no longer the latest (${stored.revision}); review the latest`,
        );
      }
      const state = stateOf(stored.verdict);
      if (!isHeld(state)) {
        throw new ReviewError('REVIEW_NOT_HELD', `${hypothesisId} revision ${stored.revision} is ${state}, not held`);
      }
      const decision = makeDecision(kind, hypothesisId, stored.revision, stored.verdict, by, note, now());
      const outcome = await deps.decisions.decide(decision);
      if (outcome.outcome === 'decided') {
        // Emitting again is a no-op unless a crash came between the decision and its event.
        await emitDecision(outcome.decision);
        throw new ReviewError(
          'REVIEW_ALREADY_DECIDED',
          `${hypothesisId} revision ${stored.revision} was already ${outcome.decision.decision} by ${outcome.decision.by} at ${outcome.decision.at}; a decision is final for its revision`,
        );
      }
      if (outcome.outcome === 'not_found') {
        throw new ReviewError('REVIEW_NOT_FOUND', `no verdict for ${hypothesisId} revision ${stored.revision}`);
      }
      if (outcome.outcome === 'not_held') {
        throw new ReviewError('REVIEW_NOT_HELD', `${hypothesisId} revision ${stored.revision} is not held`);
      }
      await emitDecision(outcome.decision);
      deps.metrics?.reviewDecisions.inc({ decision: kind });
      return { decision: outcome.decision, auditEntryId: outcome.auditEntryId };
    },
  };
}
