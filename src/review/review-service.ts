/**
 * The scientist's review of held hypotheses: list the queue, show an item,
 * release or confirm it. The CLI and the HTTP review API both call this, so a
 * change goes through one path: validation, the atomic decision in Redis,
 * the event, the metric.
 */
import { z } from 'zod';
import { shortDigest } from '../contracts/content.js';
import { formatIssuesInline } from '../contracts/issues.js';
import { IdSchema } from '../contracts/payloads.js';
import type { EventEmitter } from '../events/emitter.js';
import { eventId } from '../events/event-id.js';
import { ReviewError } from '../errors.js';
import type { Metrics } from '../metrics/metrics.js';
import {
  decisionOn,
  isHeld,
  makeDecision,
  NoteSchema,
  ReviewerSchema,
  stateOf,
  type ConflictCounts,
  type Decision,
  type DecisionKind,
} from '../safety/review/decision.js';
import {
  byConfidence,
  pageQueue,
  searchKey,
  searchWords,
  type QueueCursor,
  type QueueEntry,
  type QueueFilter,
  type QueueOrder,
} from '../safety/review/queue.js';
import type {
  ReviewConflict,
  ReviewDecideResult as DecideResult,
  ReviewItem,
  ReviewQueueItem,
  ReviewQueuePage,
  ReviewRevision,
} from '../contracts/review-api.js';
import type { Classifier } from '../classifier/classifier.js';
import type { ReviewBulkDecideResult, ReviewReclassifyResult } from '../contracts/review-api.js';
import type { DecisionStore } from '../store/decision-store.js';
import type { ClaimStore } from '../store/claim-store.js';
import { claimedByOther, makeClaim, type Claim } from '../safety/review/claim.js';
import type { ReassessmentStore } from '../store/reassessment-store.js';
import { createReclassifier, type ReclassifyInput } from './reclassify.js';
import { decideMany, type BulkDecideInput } from './bulk-decide.js';
import type { ReviewStore } from '../store/review-store.js';
import type { StoredVerdict, VerdictStore } from '../store/verdict-store.js';

/** Hypothesis ids: the payload contract's own rule, so a decision names only ids a job can carry. */
export const HypothesisIdSchema = IdSchema;

const DecideInputSchema = z.object({
  hypothesisId: HypothesisIdSchema,
  by: ReviewerSchema,
  note: NoteSchema,
  /** The revision the person looked at; when given and no longer the latest, the request is refused. */
  revision: z.number().int().nonnegative().optional(),
  /** Decide over another reviewer's claim (without it, REVIEW_CLAIMED). */
  confirm: z.boolean().optional(),
});

const ClaimInputSchema = z.strictObject({
  by: ReviewerSchema,
  /** Take the claim from another reviewer who holds it. */
  take: z.boolean().optional(),
});
export type ClaimInput = z.input<typeof ClaimInputSchema>;
export type DecideInput = z.input<typeof DecideInputSchema>;

export type {
  ReviewConflict,
  ReviewItem,
  ReviewQueueItem,
  ReviewQueuePage,
  ReviewRevision,
  ReviewDecideResult as DecideResult,
} from '../contracts/review-api.js';
/** A queue entry as `list` gives it (the CLI's `quarantine list`). */
export type ReviewItemSummary = ReviewQueueItem;

/** What `queue` is asked for: filters, order, where the last page ended, and how many. */
export interface QueueQuery {
  filter?: QueueFilter | undefined;
  order?: QueueOrder | undefined;
  cursor?: QueueCursor | undefined;
  limit?: number | undefined;
}

/** Queue entries read per request at most: filters, counts and pages cover these (ReviewQueuePage.truncated). */
export const MAX_SCANNED = 10_000;
/** Queue entries whose verdicts are read in one go (see `queue`). */
const READ_BATCH = 500;
/** Earlier revisions an item shows at most. */
export const MAX_EARLIER_REVISIONS = 50;
/** Characters of the text and of the rationale in a queue entry's previews. */
export const PREVIEW_CHARS = 240;

export interface ReviewService {
  /** Held hypotheses (quarantined or blocked, latest revision), oldest first. */
  list(limit?: number): Promise<ReviewQueueItem[]>;
  /** One page of the held queue, filtered and ordered, with the counts beside each filter. */
  queue(query?: QueueQuery): Promise<ReviewQueuePage>;
  show(hypothesisId: string): Promise<ReviewItem>;
  decide(kind: DecisionKind, input: DecideInput): Promise<DecideResult>;
  /** Claims the item for a reviewer: others see who is on it, until the claim lapses. */
  claim(hypothesisId: string, input: ClaimInput): Promise<{ claim: Claim }>;
  /** Drops the reviewer's own claim; false when they held none. */
  unclaim(hypothesisId: string, input: { by: string }): Promise<{ dropped: boolean }>;
  /** One decision on a selection (src/review/bulk-decide.ts). */
  decideMany(kind: DecisionKind, input: BulkDecideInput): Promise<ReviewBulkDecideResult>;
  /** The degraded held revisions classified again (src/review/reclassify.ts). */
  reclassify(input: ReclassifyInput): Promise<ReviewReclassifyResult>;
}

export interface ReviewServiceDeps {
  verdicts: VerdictStore;
  decisions: DecisionStore;
  reviews: ReviewStore;
  emitter: EventEmitter;
  metrics?: Metrics | undefined;
  now?: () => Date;
  claims: ClaimStore;
  /** How long a claim holds (`review.claim_ttl_seconds`). */
  claimTtlMs: number;
  /** The classifier with the configured key, for `reclassify`. */
  classifier: Classifier;
  reassessments: ReassessmentStore;
}

/** The start of a text for a one-line preview: white space runs made one space, cut at a character boundary. */
export function preview(text: string, chars = PREVIEW_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= chars) return flat;
  // Not inside a surrogate pair: a lone half would show as a replacement character.
  const cut = /[\uD800-\uDBFF]/.test(flat[chars - 1]!) ? chars - 1 : chars;
  return `${flat.slice(0, cut)}…`;
}

function invalid(error: z.ZodError): ReviewError {
  return new ReviewError('REVIEW_INVALID', formatIssuesInline(error));
}

export function createReviewService(deps: ReviewServiceDeps): ReviewService {
  const now = deps.now ?? (() => new Date());

  /** The decision's event: one per revision, and one per other text published under it (a conflict). */
  async function emitDecision(decision: Decision, conflict = false): Promise<void> {
    const type = decision.decision === 'released' ? 'hypothesis_released' : 'hypothesis_confirmed';
    const suffix = conflict && decision.content !== undefined ? shortDigest(decision.content) : undefined;
    await deps.emitter.emit(type, eventId(type, decision.hypothesisId, decision.revision, suffix), {
      hypothesisId: decision.hypothesisId,
      revision: decision.revision,
      ...(decision.content === undefined ? {} : { content: decision.content }),
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

  async function queue(query: QueueQuery = {}): Promise<ReviewQueuePage> {
    const order = query.order ?? 'oldest';
    const limit = query.limit ?? 200;
    // The order asked decides which end of a queue too long to read whole is
    // read; by confidence, the oldest, as a reviewer would work through it.
    const [held, total] = await Promise.all([
      deps.decisions.heldEntries(MAX_SCANNED, byConfidence(order) ? 'oldest' : order),
      deps.decisions.heldCount(),
    ]);
    // The verdicts in batches, each batch's reads at once (the connection
    // pipelines them). Not all at once: each read would wait behind every
    // read sent before it, and on a long queue the last would pass the review
    // connection's bound on a command (REVIEW_COMMAND_TIMEOUT_MS).
    const verdicts: Array<StoredVerdict | undefined> = [];
    for (let i = 0; i < held.length; i += READ_BATCH) {
      const batch = held.slice(i, i + READ_BATCH);
      verdicts.push(
        ...(await Promise.all(batch.map(({ hypothesisId }) => deps.verdicts.getLatest('hypothesis', hypothesisId)))),
      );
    }
    // A search reads the held texts too, in the same batches; only then.
    const searching = searchWords(query.filter?.text).length > 0;
    const texts: Array<string | undefined> = [];
    for (let i = 0; searching && i < held.length; i += READ_BATCH) {
      const batch = held.slice(i, i + READ_BATCH);
      texts.push(
        ...(await Promise.all(
          batch.map(async ({ hypothesisId }, j) => {
            const revision = verdicts[i + j]?.revision;
            if (revision === undefined) return undefined;
            const subject = await deps.verdicts.getHeldSubject(hypothesisId, revision);
            return subject && searchKey(`${subject.title ?? ''} ${subject.text}`);
          }),
        )),
      );
    }
    const entries: Array<QueueEntry & { stored: StoredVerdict }> = [];
    held.forEach(({ hypothesisId, heldAt }, i) => {
      const stored = verdicts[i];
      if (!stored) return;
      const state = stateOf(stored.verdict, undefined, stored.conflicts);
      // Decided or re-assessed between the two reads: not held any more.
      if (state !== 'quarantined' && state !== 'blocked' && state !== 'conflict') return;
      const v = stored.verdict;
      entries.push({
        hypothesisId,
        heldAt,
        state,
        categories: v.categories,
        degraded: v.degraded,
        confidence: v.confidence,
        searchText: texts[i],
        stored,
      });
    });
    const page = pageQueue(entries, {
      filter: query.filter ?? {},
      order,
      cursor: query.cursor,
      limit,
      now: now().getTime(),
    });
    const truncated = total > held.length;
    // The text only for the page shown: a held text may be long. A
    // revision in conflict shows the text that waits: the one published again.
    const subjects = await Promise.all(
      page.entries.map(async (e) => {
        if (e.state !== 'conflict') return deps.verdicts.getHeldSubject(e.hypothesisId, e.stored.revision);
        const waiting = (await deps.verdicts.conflicts(e.hypothesisId)).filter(
          (c) => c.revision === e.stored.revision && c.open,
        );
        return waiting.find((c) => c.subject)?.subject;
      }),
    );
    const claims = await Promise.all(page.entries.map((e) => deps.claims.get(e.hypothesisId)));
    const items = page.entries.map((e, i): ReviewQueueItem => {
      const v = e.stored.verdict;
      const subject = subjects[i];
      const claim = claims[i];
      return {
        hypothesisId: e.hypothesisId,
        revision: e.stored.revision,
        state: e.state,
        action: v.action,
        categories: v.categories,
        confidence: v.confidence,
        degraded: v.degraded,
        ...(v.reason ? { reason: v.reason } : {}),
        refusal: v.refusal,
        updatedAt: e.stored.updatedAt,
        heldAt: new Date(e.heldAt).toISOString(),
        ...(subject?.title ? { title: subject.title } : {}),
        preview: preview(subject?.text ?? ''),
        rationale: preview(v.rationale),
        ...(claim ? { claim } : {}),
      };
    });
    return {
      items,
      order,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      counts: truncated ? { ...page.counts, all: total } : page.counts,
      truncated,
      scanned: held.length,
    };
  }

  /** Earlier revisions of a hypothesis, newest first, with their decisions. */
  async function revisionsBefore(
    hypothesisId: string,
    latestRevision: number,
    conflicts: readonly ReviewConflict[],
  ): Promise<ReviewRevision[]> {
    const numbers: number[] = [];
    for (let r = latestRevision - 1; r >= 0 && numbers.length < MAX_EARLIER_REVISIONS; r--) numbers.push(r);
    const found = await Promise.all(
      numbers.map(async (revision): Promise<ReviewRevision | undefined> => {
        const [record, decision] = await Promise.all([
          deps.verdicts.getRevisionRecord('hypothesis', hypothesisId, revision),
          deps.decisions.get(hypothesisId, revision),
        ]);
        if (!record) return undefined;
        const verdict = record.verdict;
        return {
          revision,
          state: stateOf(verdict, decisionOn(decision, record.content), countsOf(conflicts, revision)),
          action: verdict.action,
          categories: verdict.categories,
          confidence: verdict.confidence,
          degraded: verdict.degraded,
          ...(verdict.reason ? { reason: verdict.reason } : {}),
          ...(decision ? { decision } : {}),
        };
      }),
    );
    return found.filter((r) => r !== undefined);
  }

  const reclassify = createReclassifier({
    classifier: deps.classifier,
    verdicts: deps.verdicts,
    reassessments: deps.reassessments,
    emitter: deps.emitter,
    metrics: deps.metrics,
    now,
    queue,
  });

  const service: ReviewService = {
    reclassify,

    decideMany: (kind, input) => decideMany((k, one) => service.decide(k, one), kind, input),

    async list(limit = 200) {
      return (await queue({ limit })).items;
    },

    queue,

    async show(hypothesisId) {
      const parsed = HypothesisIdSchema.safeParse(hypothesisId);
      if (!parsed.success) throw invalid(parsed.error);
      const stored = await latest(hypothesisId);
      const conflicts = await deps.verdicts.conflicts(hypothesisId);
      const [decided, subject, evidence, history, revisions, claim] = await Promise.all([
        deps.decisions.get(hypothesisId, stored.revision),
        deps.verdicts.getHeldSubject(hypothesisId, stored.revision),
        deps.reviews.ofHypothesis(hypothesisId),
        deps.decisions.history(hypothesisId),
        revisionsBefore(hypothesisId, stored.revision, conflicts),
        deps.claims.get(hypothesisId),
      ]);
      const decision = decisionOn(decided, stored.content);
      return {
        hypothesisId,
        revision: stored.revision,
        state: stateOf(stored.verdict, decision, stored.conflicts),
        verdict: stored.verdict,
        updatedAt: stored.updatedAt,
        decision,
        subject,
        evidence,
        history,
        revisions,
        conflicts,
        ...(claim ? { claim } : {}),
      };
    },

    async claim(hypothesisId, input) {
      const id = HypothesisIdSchema.safeParse(hypothesisId);
      if (!id.success) throw invalid(id.error);
      const parsed = ClaimInputSchema.safeParse(input);
      if (!parsed.success) throw invalid(parsed.error);
      const { by, take } = parsed.data;
      const stored = await latest(hypothesisId);
      const decided = await deps.decisions.get(hypothesisId, stored.revision);
      const state = stateOf(stored.verdict, decisionOn(decided, stored.content), stored.conflicts);
      if (!isHeld(state) && state !== 'conflict') {
        throw new ReviewError('REVIEW_NOT_HELD', `${hypothesisId} revision ${stored.revision} is ${state}, not held`);
      }
      const outcome = await deps.claims.claim(
        hypothesisId,
        makeClaim(by, now(), deps.claimTtlMs),
        deps.claimTtlMs,
        take === true,
      );
      if (outcome.outcome === 'taken') {
        throw new ReviewError(
          'REVIEW_CLAIMED',
          `${outcome.claim.by} is on ${hypothesisId} until ${outcome.claim.expiresAt}; send take: true to take the claim over`,
        );
      }
      return { claim: outcome.claim };
    },

    async unclaim(hypothesisId, input) {
      const id = HypothesisIdSchema.safeParse(hypothesisId);
      if (!id.success) throw invalid(id.error);
      const by = ReviewerSchema.safeParse(input.by);
      if (!by.success) throw invalid(by.error);
      return { dropped: await deps.claims.unclaim(hypothesisId, by.data) };
    },

    async decide(kind, input) {
      const parsed = DecideInputSchema.safeParse(input);
      if (!parsed.success) throw invalid(parsed.error);
      const { hypothesisId, by, note } = parsed.data;
      const stored = await latest(hypothesisId);
      // Another reviewer is on it: deciding over them is a choice made knowingly.
      const claim = parsed.data.confirm === true ? undefined : await deps.claims.get(hypothesisId);
      if (claimedByOther(claim, by, now())) {
        throw new ReviewError(
          'REVIEW_CLAIMED',
          `${claim.by} is on ${hypothesisId} until ${claim.expiresAt}; send confirm: true to decide anyway`,
        );
      }
      if (parsed.data.revision !== undefined && parsed.data.revision !== stored.revision) {
        throw new ReviewError(
          'REVIEW_NOT_HELD',
          `revision ${parsed.data.revision} of ${hypothesisId} is no longer the latest (${stored.revision}); review the latest`,
        );
      }
      const state = stateOf(stored.verdict, undefined, stored.conflicts);
      if (state === 'conflict') return decideConflicts(kind, hypothesisId, stored, by, note);
      if (!isHeld(state)) {
        throw new ReviewError('REVIEW_NOT_HELD', `${hypothesisId} revision ${stored.revision} is ${state}, not held`);
      }
      const decision = makeDecision(
        kind,
        hypothesisId,
        stored.revision,
        stored.verdict,
        by,
        note,
        now(),
        stored.content,
      );
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
      if (outcome.outcome === 'conflict') {
        throw new ReviewError(
          'REVISION_CONFLICT',
          `other text was published under ${hypothesisId} revision ${stored.revision} meanwhile; review it again`,
        );
      }
      await emitDecision(outcome.decision);
      deps.metrics?.reviewDecisions.inc({ decision: kind });
      return { decision: outcome.decision, auditEntryId: outcome.auditEntryId };
    },
  };
  return service;

  /**
   * A revision in conflict: each text that waits is confirmed, one decision
   * each; none can be released, since none was classified: the way to have
   * one shown is to publish it as a new revision.
   */
  async function decideConflicts(
    kind: DecisionKind,
    hypothesisId: string,
    stored: StoredVerdict,
    by: string,
    note: string,
  ): Promise<DecideResult> {
    const { revision, verdict } = stored;
    if (kind === 'released') {
      throw new ReviewError(
        'REVISION_CONFLICT',
        `${hypothesisId} revision ${revision} is in conflict: other text was published under it and never classified, ` +
          'so it cannot be released; confirm it, or have the text published as a new revision',
      );
    }
    const waiting = (await deps.verdicts.conflicts(hypothesisId)).filter((c) => c.revision === revision && c.open);
    const at = now();
    const closed = await deps.decisions.confirmConflicts(
      waiting.map((c) => makeDecision('confirmed', hypothesisId, revision, verdict, by, note, at, c.content)),
    );
    const [first] = closed;
    if (!first) {
      throw new ReviewError(
        'REVIEW_ALREADY_DECIDED',
        `the texts in conflict under ${hypothesisId} revision ${revision} were confirmed meanwhile; a decision is final`,
      );
    }
    for (const { decision } of closed) {
      await emitDecision(decision, true);
      deps.metrics?.reviewDecisions.inc({ decision: 'confirmed' });
    }
    return { decision: first.decision, auditEntryId: first.auditEntryId, conflicts: closed };
  }
}

/** A revision's conflicts, counted from the list of a hypothesis's conflicts. */
function countsOf(conflicts: readonly ReviewConflict[], revision: number): ConflictCounts {
  const mine = conflicts.filter((c) => c.revision === revision);
  return { total: mine.length, open: mine.filter((c) => c.open).length };
}
