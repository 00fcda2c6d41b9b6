/**
 * Rechecking a review's evidence (`cosci-safety verify --recheck`,
 * docs/citations.md#rechecking-the-evidence): the pages a review was verified
 * against are fetched again, as they are now, and each citation is compared
 * with what its verification found (src/safety/citations/recheck.ts). Link
 * rot and silent edits are how evidence rots; a verified result is final for
 * its review revision and is not changed by this: the recheck is reported,
 * and announced as events.
 *
 * Events, each once per what it announces (an event id names the citation
 * and the state found), so that a recheck that finds the same again appends
 * nothing: `citation_rechecked` for each citation found other than it was
 * verified, and one `review_rechecked` with the counts.
 */
import { hash } from 'node:crypto';
import { shortDigest } from '../contracts/content.js';
import type { CitationRecheck, ReviewRecheck } from '../contracts/recheck.js';
import type { PageProvenance, ReviewVerification } from '../contracts/results.js';
import { ReviewError } from '../errors.js';
import type { EventEmitter, EventToEmit } from '../events/emitter.js';
import { eventId } from '../events/event-id.js';
import { RECHECK_OUTCOMES, recheckOutcome, type RecheckOutcome } from '../safety/citations/index.js';
import type { ReviewStore } from '../store/review-store.js';
import type { Verifier } from './verifier.js';

export interface RecheckerDeps {
  reviews: ReviewStore;
  /** A verifier that reads the pages as they are now: without the worker's page cache. */
  verifier: Verifier;
  emitter: EventEmitter;
  /** @defaultValue the clock */
  now?: () => Date;
}

export interface Rechecker {
  /**
   * Rechecks the citations of a review revision (the latest verified, without
   * `revision`). REVIEW_NOT_FOUND when there is no verification of it;
   * REVIEW_INVALID when it was stored before excerpts were kept, so there is
   * nothing to look for.
   */
  recheck(reviewId: string, revision?: number, signal?: AbortSignal): Promise<ReviewRecheck>;
}

/** Why a citation was never fetched: its page is not evidence the agent read, and is not fetched now either. */
const NOT_SEEN = 'url_not_seen';

const digestOf = (value: unknown): string => shortDigest(hash('sha256', JSON.stringify(value), 'hex'));

/** What a citation's event id carries of what was found: another state is another event. */
function stateOf(r: CitationRecheck): unknown[] {
  return [r.outcome, r.status, r.reason ?? null, r.now?.textSha256 ?? null];
}

function stored(reviewId: string, revision: number | undefined, found: ReviewVerification | undefined) {
  if (found === undefined) {
    const which = revision === undefined ? '' : ` revision ${revision}`;
    throw new ReviewError('REVIEW_NOT_FOUND', `no verification of review ${JSON.stringify(reviewId)}${which}`);
  }
  if (found.results.some((r) => r.excerpt === undefined)) {
    throw new ReviewError(
      'REVIEW_INVALID',
      `review ${JSON.stringify(reviewId)} revision ${found.revision} was verified before excerpts were kept: there is nothing to look for`,
    );
  }
  return found;
}

export function createRechecker(deps: RecheckerDeps): Rechecker {
  const now = deps.now ?? (() => new Date());
  return {
    async recheck(reviewId, revision, signal) {
      const verified = stored(reviewId, revision, await deps.reviews.get(reviewId, revision));
      const evidence = verified.results.map((r) => ({ claim: r.claim ?? '', url: r.url, excerpt: r.excerpt! }));
      // The citations never fetched stay unfetched; the others are fetched again.
      const unseen = verified.results.some((r) => r.reason === NOT_SEEN);
      const seenUrls = unseen ? verified.results.filter((r) => r.reason !== NOT_SEEN).map((r) => r.url) : undefined;
      const again = await deps.verifier.verifyWithPages(evidence, seenUrls, signal);
      const recheckedAt = now().toISOString();

      const results = verified.results.map((before, i): CitationRecheck => {
        const after = again.results[i]!;
        const then: PageProvenance | undefined = verified.pages?.[before.url];
        const current: PageProvenance | undefined = again.pages[after.url];
        const outcome = recheckOutcome(
          {
            status: before.status,
            reason: before.reason,
            textSha256: then?.textSha256,
            textVersion: then?.textVersion,
          },
          {
            status: after.status,
            reason: after.reason,
            textSha256: current?.textSha256,
            textVersion: current?.textVersion,
          },
        );
        return {
          index: before.index,
          url: before.url,
          outcome,
          was: before.status,
          status: after.status,
          ...(after.reason !== undefined ? { reason: after.reason } : {}),
          ...(after.location !== undefined ? { location: after.location } : {}),
          ...(then !== undefined ? { verified: then } : {}),
          ...(current !== undefined ? { now: current } : {}),
        };
      });
      const counts = Object.fromEntries(RECHECK_OUTCOMES.map((o) => [o, 0])) as Record<RecheckOutcome, number>;
      for (const r of results) counts[r.outcome]++;
      const report: ReviewRecheck = {
        reviewId: verified.reviewId,
        hypothesisId: verified.hypothesisId,
        revision: verified.revision,
        verifiedAt: verified.verifiedAt,
        recheckedAt,
        counts,
        results,
      };

      const subject = { reviewId: report.reviewId, hypothesisId: report.hypothesisId, revision: report.revision };
      const times = { verifiedAt: report.verifiedAt, recheckedAt };
      const events: EventToEmit[] = results
        .filter((r) => r.outcome !== 'unchanged')
        .map((r) => ({
          type: 'citation_rechecked',
          eventId: eventId(
            'citation_rechecked',
            report.reviewId,
            report.revision,
            `${r.index}/${digestOf(stateOf(r))}`,
          ),
          data: {
            ...subject,
            index: r.index,
            url: r.url,
            outcome: r.outcome,
            was: r.was,
            status: r.status,
            ...(r.reason !== undefined ? { reason: r.reason } : {}),
            ...(r.verified?.textSha256 !== undefined ? { previousTextSha256: r.verified.textSha256 } : {}),
            ...(r.now?.textSha256 !== undefined ? { textSha256: r.now.textSha256 } : {}),
            ...(r.now?.finalUrl !== undefined ? { finalUrl: r.now.finalUrl } : {}),
            ...(r.now?.status !== undefined ? { httpStatus: r.now.status } : {}),
            ...times,
          },
        }));
      events.push({
        type: 'review_rechecked',
        eventId: eventId('review_rechecked', report.reviewId, report.revision, digestOf(results.map(stateOf))),
        data: { ...subject, counts, total: results.length, ...times },
      });
      await deps.emitter.emitAll(events);
      return report;
    },
  };
}
