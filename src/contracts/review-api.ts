/**
 * What the review API (src/http/review-api.ts) answers, as types: the review
 * service builds these values and the review page's script
 * (src/http/review-page/) reads them, so the two cannot disagree. Types only,
 * so that the page's script, which imports this module, gets no code from it.
 * See docs/review.md.
 */
import type { Verdict } from '../safety/classification/verdict.js';
import type { Claim } from '../safety/review/claim.js';
import type { Decision, ReviewState } from '../safety/review/decision.js';
import type { QueueCounts, QueueOrder } from '../safety/review/queue.js';
import type { ReviewVerification } from './results.js';

/** One held revision in the queue. */
export interface ReviewQueueItem {
  hypothesisId: string;
  revision: number;
  state: ReviewState;
  action: Verdict['action'];
  categories: string[];
  confidence: number;
  degraded: boolean;
  /** Why the verdict is degraded (DEGRADED_REASONS). */
  reason?: Verdict['reason'];
  refusal: boolean;
  /** When the verdict was recorded. */
  updatedAt: string;
  /** When the revision was held: the queue's order. */
  heldAt: string;
  title?: string | undefined;
  /** The start of the text, white space runs made one space. */
  preview: string;
  /** The start of the classifier's rationale, likewise. */
  rationale: string;
  /** A reviewer on it, until `expiresAt` (docs/review.md#claims). */
  claim?: Claim | undefined;
}

/** `GET /review/api/items`: one page of the held queue. */
export interface ReviewQueuePage {
  items: ReviewQueueItem[];
  order: QueueOrder;
  /** Pass as `cursor` for the next page; absent on the last page. */
  nextCursor?: string | undefined;
  counts: QueueCounts;
  /**
   * The queue is longer than the service reads at once: filters, counts and
   * pages then cover the `scanned` oldest (or newest) entries, and `counts.all`
   * is the whole queue.
   */
  truncated: boolean;
  scanned: number;
}

/** What a person reviewing a held revision reads besides the verdict. */
export interface ReviewSubject {
  title?: string | undefined;
  text: string;
  goalId?: string | undefined;
  runId?: string | undefined;
  agent?: string | undefined;
}

/**
 * Other text published under a revision of the hypothesis: a revision
 * conflict (docs/review.md#revision-conflicts). Never classified; held until
 * a person confirms it.
 */
export interface ReviewConflict {
  revision: number;
  /** The content digest of the text published under the revision again. */
  content: string;
  /** The content digest the revision holds; absent for a revision recorded before digests were kept. */
  storedContent?: string | undefined;
  /** When it was published. */
  at: string;
  /** The text, exactly as published; absent when the job that brought it no longer had it. */
  subject?: ReviewSubject | undefined;
  /** It waits for a person. */
  open: boolean;
  /** The person's decision, once confirmed. */
  decision?: Decision | undefined;
}

/** One entry of the audit trail (docs/review.md, "The audit trail"). */
export interface ReviewAuditEntry {
  entryId: string;
  /** A person's decision, or a new assessment of a degraded verdict (`hypothesis_reassessed`). */
  type: 'hypothesis_released' | 'hypothesis_confirmed' | 'hypothesis_reassessed';
  hypothesisId: string;
  revision: number;
  /** The content digest of what was decided on; absent on entries written before digests were kept. */
  content?: string | undefined;
  by: string;
  at: string;
  note: string;
  overriddenAction: string;
  overriddenCategories: string[];
  overriddenConfidence: number;
  /** Why the verdict replaced was degraded (a reassessment). */
  overriddenReason?: string | undefined;
  /** The new verdict's action, categories and confidence (a reassessment). */
  action?: string | undefined;
  categories?: string[] | undefined;
  confidence?: number | undefined;
}

/** An earlier revision of the hypothesis, and what became of it. */
export interface ReviewRevision {
  revision: number;
  state: ReviewState;
  action: Verdict['action'];
  categories: string[];
  confidence: number;
  degraded: boolean;
  reason?: Verdict['reason'];
  decision?: Decision | undefined;
}

/** `GET /review/api/items/:id`: one hypothesis. */
export interface ReviewItem {
  hypothesisId: string;
  revision: number;
  state: ReviewState;
  verdict: Verdict;
  updatedAt: string;
  decision?: Decision | undefined;
  subject?: ReviewSubject | undefined;
  /** The latest verification of each review of this hypothesis. */
  evidence: ReviewVerification[];
  history: ReviewAuditEntry[];
  /** Earlier revisions, newest first (at most MAX_EARLIER_REVISIONS). */
  revisions: ReviewRevision[];
  /** Other text published under a revision already used, oldest revision first. */
  conflicts: ReviewConflict[];
  /** A reviewer on it, until `expiresAt`. */
  claim?: Claim | undefined;
}

/**
 * A decision: `POST /review/api/items/:id/release` and `/confirm`. Confirming
 * a revision in conflict confirms each text that waits, one decision each:
 * `decision` and `auditEntryId` are the first's, `conflicts` all of them.
 */
export interface ReviewDecideResult {
  decision: Decision;
  auditEntryId: string;
  conflicts?: Array<{ decision: Decision; auditEntryId: string }> | undefined;
}

/**
 * A change to the queue, as `GET /review/api/feed` streams it: a revision
 * held (`held`), or decided by a person (`decided`).
 */
export interface ReviewFeedChange {
  kind: 'held' | 'decided';
  hypothesisId: string;
  revision: number;
  state: ReviewState;
  /** Who decided, for `decided`. */
  by?: string | undefined;
  at?: string | undefined;
}

/** One degraded revision asked again, and what became of it. */
export interface ReviewReclassified {
  hypothesisId: string;
  revision: number;
  /**
   * `reassessed`: the new verdict replaced the degraded one (`state` is the
   * revision's now: `assessed` when it left the queue); `still_degraded`:
   * the classifier still could not answer cleanly (`reason`), the revision
   * is as it was; `skipped`: decided, in conflict, reassessed or replaced by
   * a newer revision meanwhile, or no text kept to classify (`why`).
   */
  outcome: 'reassessed' | 'still_degraded' | 'skipped';
  state?: ReviewState | undefined;
  action?: Verdict['action'] | undefined;
  categories?: string[] | undefined;
  confidence?: number | undefined;
  auditEntryId?: string | undefined;
  reason?: Verdict['reason'] | undefined;
  why?: string | undefined;
}

/** `POST /review/api/reclassify`: the degraded held revisions asked again, up to the limit. */
export interface ReviewReclassifyResult {
  items: ReviewReclassified[];
  reassessed: number;
  /** Of those, how many the new verdict let out of the queue. */
  released: number;
  stillDegraded: number;
  skipped: number;
  /** Degraded held revisions past the limit, not asked this time. */
  remaining: number;
}

/** `POST /review/api/decide`: one decision on a selection, each item's outcome in the order given. */
export interface ReviewBulkDecideResult {
  results: Array<{
    hypothesisId: string;
    revision: number;
    outcome: 'decided' | 'refused';
    decision?: Decision | undefined;
    auditEntryId?: string | undefined;
    /** Why it was refused: the one-item decision's error code and message. */
    code?: string | undefined;
    message?: string | undefined;
  }>;
  decided: number;
  refused: number;
}
