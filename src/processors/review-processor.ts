/**
 * The processor of `review.recorded`: verify every citation (or reuse the
 * result this review revision already has), store the result by review id,
 * emit `citation_unverified` for each entry not ok (with its near miss, when the
 * excerpt is not on the page), `source_injection_suspected`
 * for each entry whose document reads as instructions for an AI reader,
 * `claim_unsupported` for each ok entry whose claim the judge did not find
 * supported (when `citations.claim_support` is on), and one `review_verified`. Citations not fetched by the review's deadline are
 * fetch_failed, `review_deadline`: the review is recorded and announced with
 * them like any other result, never left waiting and never passed as ok.
 */
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { countByStatus, REVIEW_DEADLINE, summarize, type Verifier } from '../citations/verifier.js';
import { contentDigest } from '../contracts/content.js';
import { parsePayload } from '../contracts/queues.js';
import type { EventEmitter } from '../events/emitter.js';
import { eventId } from '../events/event-id.js';
import type { Metrics } from '../metrics/metrics.js';
import type { ReviewVerification } from '../contracts/results.js';
import { isUnsupported } from '../safety/claims/verdict.js';
import type { ReviewStore } from '../store/review-store.js';
import { refuseRevisionConflict } from './revision-conflict.js';

export interface ReviewProcessorDeps {
  verifier: Verifier;
  store: ReviewStore;
  emitter: EventEmitter;
  enabled: boolean;
  metrics?: Metrics | undefined;
  logger: Logger;
  signal?: AbortSignal | undefined;
}

export function createReviewProcessor(deps: ReviewProcessorDeps) {
  return async (job: Job): Promise<ReviewVerification> => {
    const p = parsePayload('review.recorded', job.data);
    // A review revision is its evidence: a stored result of other evidence is not this one's.
    const content = contentDigest('review.recorded', p, job.data);
    const conflict = (storedContent: string | undefined) =>
      refuseRevisionConflict(deps, {
        target: 'review',
        id: p.reviewId,
        revision: p.revision,
        hypothesisId: p.hypothesisId,
        content,
        storedContent,
      });
    const found = await deps.store.getRecord(p.reviewId, p.revision);
    if (found && found.content !== content) return conflict(found.content);
    let result = found?.result;
    if (!result) {
      const verified = deps.enabled
        ? await deps.verifier.verifyWithPages(p.evidence, p.seenUrls, deps.signal)
        : { results: [], pages: undefined };
      // The claim and excerpt go with each result: a person reviewing the
      // hypothesis reads what was cited, not only whether it was found.
      const results = verified.results.map((r) => ({
        ...r,
        claim: p.evidence[r.index]?.claim ?? '',
        excerpt: p.evidence[r.index]?.excerpt ?? '',
      }));
      const recorded = await deps.store.recordRevision(
        {
          reviewId: p.reviewId,
          hypothesisId: p.hypothesisId,
          revision: p.revision,
          skipped: !deps.enabled,
          results,
          summary: summarize(results),
          counts: countByStatus(results),
          verifiedAt: new Date().toISOString(),
          // The pages as they were checked: what a recheck compares with (docs/citations.md#provenance).
          ...(verified.pages !== undefined ? { pages: verified.pages } : {}),
        },
        content,
      );
      // Another job of the revision, with other evidence, recorded first.
      if (recorded.conflict) return conflict((await deps.store.getRecord(p.reviewId, p.revision))?.content);
      result = recorded.result;
      // Counted once, when the result is recorded: a retried job reuses it and counts nothing again.
      for (const r of result.results) {
        deps.metrics?.citations.inc({ status: r.status, reason: r.reason ?? 'none' });
        if (r.injection) deps.metrics?.injectionSuspected.inc({ source: r.injection.source });
        if (r.claimSupport)
          deps.metrics?.claimSupport.inc({ verdict: r.claimSupport.verdict, reason: r.claimSupport.reason ?? 'none' });
      }
      const cut = result.results.filter((r) => r.reason === REVIEW_DEADLINE).length;
      if (cut > 0) {
        deps.metrics?.reviewDeadline.inc();
        deps.logger.warn(
          { reviewId: p.reviewId, revision: p.revision, cut, total: result.results.length },
          'review deadline passed: citations not fetched by then are fetch_failed (review_deadline)',
        );
      }
    }

    for (const r of result.results) {
      if (r.status === 'ok') continue;
      await deps.emitter.emit('citation_unverified', eventId('citation_unverified', p.reviewId, p.revision, r.index), {
        reviewId: p.reviewId,
        hypothesisId: p.hypothesisId,
        revision: p.revision,
        index: r.index,
        url: r.url,
        status: r.status,
        reason: r.reason ?? 'unknown',
        excerptLen: r.excerptLen,
        ...(r.detail === undefined ? {} : { detail: r.detail }),
        ...(r.nearMiss === undefined ? {} : { nearMiss: r.nearMiss }),
      });
    }
    for (const r of result.results) {
      if (!r.injection) continue;
      await deps.emitter.emit(
        'source_injection_suspected',
        eventId('source_injection_suspected', p.reviewId, p.revision, r.index),
        {
          reviewId: p.reviewId,
          hypothesisId: p.hypothesisId,
          revision: p.revision,
          index: r.index,
          url: r.url,
          score: r.injection.score,
          threshold: r.injection.threshold,
          source: r.injection.source,
          signals: r.injection.kinds,
          snippet: r.injection.snippet,
          ...(r.injection.span === undefined ? {} : { span: r.injection.span }),
        },
      );
    }
    for (const r of result.results) {
      const support = r.claimSupport;
      if (!support || !isUnsupported(support.verdict)) continue;
      await deps.emitter.emit('claim_unsupported', eventId('claim_unsupported', p.reviewId, p.revision, r.index), {
        reviewId: p.reviewId,
        hypothesisId: p.hypothesisId,
        revision: p.revision,
        index: r.index,
        url: r.url,
        verdict: support.verdict,
        rationale: support.rationale,
        degraded: support.degraded,
        ...(support.reason === undefined ? {} : { reason: support.reason }),
        sentences: support.sentences.length,
        supportedSentences: support.sentences.filter((s) => s.verdict === 'supported').length,
        model: support.model,
      });
    }
    await deps.emitter.emit('review_verified', eventId('review_verified', p.reviewId, p.revision), {
      reviewId: p.reviewId,
      hypothesisId: p.hypothesisId,
      revision: p.revision,
      skipped: result.skipped,
      counts: result.counts,
      total: result.results.length,
    });
    if (result.skipped)
      deps.logger.info({ reviewId: p.reviewId }, 'citation verification is disabled: review recorded as skipped');
    return result;
  };
}
