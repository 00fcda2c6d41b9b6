/**
 * The processor of `hypothesis.saved`: classify the hypothesis (or reuse the
 * verdict its revision already has, for the same content), keep the verdict,
 * emit its events. Other content under a revision that has a verdict is a
 * conflict: held for review, announced, and the job fails
 * (docs/contract.md#a-revision-is-its-content).
 */
import { createHash } from 'node:crypto';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { CacheWrite } from '../classifier/assessment-cache.js';
import type { Classifier, ClassifyCallOptions } from '../classifier/classifier.js';
import { contentDigest, shortDigest } from '../contracts/content.js';
import { HYPOTHESIS_ACTION_EVENTS, type HypothesisEventData } from '../contracts/events.js';
import type { HypothesisSaved } from '../contracts/payloads.js';
import { parsePayload } from '../contracts/queues.js';
import type { HypothesisResult } from '../contracts/results.js';
import { RevisionConflictError } from '../errors.js';
import type { EventEmitter, EventToEmit } from '../events/emitter.js';
import { eventId } from '../events/event-id.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Verdict } from '../safety/classification/verdict.js';
import { decisionOn, stateOf, type ConflictCounts, type Decision } from '../safety/review/decision.js';
import type { DecisionStore } from '../store/decision-store.js';
import { cachedVerdictEntry, type HeldSubject, type VerdictStore } from '../store/verdict-store.js';
import { isWithheld, withheldTextError } from './completed-data.js';
import { verdictFields } from './verdict-fields.js';

export interface ProcessorDeps {
  classifier: Classifier;
  store: VerdictStore;
  /** People's decisions; without it, no decision is looked up. */
  decisions?: DecisionStore | undefined;
  emitter: EventEmitter;
  metrics?: Metrics | undefined;
  logger: Logger;
  /** Aborted at shutdown, after the grace period. */
  signal?: AbortSignal | undefined;
}

/** The text the classifier sees: the title, when there is one, then the hypothesis. */
export function hypothesisText(p: Pick<HypothesisSaved, 'title' | 'text'>): string {
  return p.title ? `${p.title}\n\n${p.text}` : p.text;
}

export function eventDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The hypothesis's part of its events' data: before the verdict's fields, and after them. */
function subjectFields(p: HypothesisSaved) {
  return {
    before: { hypothesisId: p.hypothesisId, revision: p.revision },
    after: { goalId: p.goalId, runId: p.runId },
  };
}

/** Every event a new verdict can announce, for a script that picks them by the verdict it reads. */
const NEW_VERDICT_EVENTS = [
  'hypothesis_assessed',
  ...Object.values(HYPOTHESIS_ACTION_EVENTS).filter((t) => t !== undefined),
] as const;

/** The events of a verdict: always assessed; the hold or flag unless a person has decided; degraded when it was. */
function verdictEvents(p: HypothesisSaved, verdict: Verdict, decided: boolean): EventToEmit[] {
  const { before, after } = subjectFields(p);
  const data: HypothesisEventData = { ...before, ...verdictFields(verdict), ...after };
  const id = (type: string) => eventId(type, p.hypothesisId, p.revision);
  const events: EventToEmit[] = [{ type: 'hypothesis_assessed', eventId: id('hypothesis_assessed'), data }];
  const specific = HYPOTHESIS_ACTION_EVENTS[verdict.action];
  if (specific && !decided) events.push({ type: specific, eventId: id(specific), data });
  if (verdict.degraded && verdict.reason) {
    events.push({
      type: 'classifier_degraded',
      eventId: id('classifier_degraded'),
      data: {
        target: 'hypothesis',
        id: p.hypothesisId,
        revision: p.revision,
        reason: verdict.reason,
        action: verdict.action,
        model: verdict.model,
      },
    });
  }
  return events;
}

export function createHypothesisProcessor(deps: ProcessorDeps) {
  return async (job: Job): Promise<HypothesisResult> => {
    const p = parsePayload('hypothesis.saved', job.data);
    // What the revision is: its verdict and a person's decision are about this content only.
    const content = contentDigest('hypothesis.saved', p, job.data);
    const text = hypothesisText(p);
    const held = { text: p.text, title: p.title, goalId: p.goalId, runId: p.runId, agent: p.agent };
    const cached = deps.classifier.verdictCache(text, 'hypothesis');
    let verdict: Verdict | undefined;
    let prefetched: ClassifyCallOptions['prefetched'];
    const withheld = isWithheld(job.data);
    // A withheld job has no text to hold: only its digest.
    const conflict = (stored?: string | null) => revisionConflict(job, p, content, stored, withheld ? undefined : held);
    if (job.attemptsStarted > 1 || withheld) {
      // A job that has run before (a retry, a stalled or re-run job) reuses
      // the verdict its revision already has, with no model call, when the
      // revision holds its content. A completed job's text is withheld
      // (completed-data.ts): it has no other way.
      const stored = await deps.store.getRevisionRecord('hypothesis', p.hypothesisId, p.revision);
      if (stored && stored.content !== content) return conflict(stored.content ?? null);
      verdict = stored?.verdict;
      if (!verdict && withheld) throw withheldTextError('hypothesis.saved', job.data);
    } else if (cached) {
      // A first run tries the verdict cache: a text seen before under the same
      // settings gets its verdict stored and announced in this one round trip.
      // The write-once record keeps the first verdict of a revision either way.
      const result = await deps.store.recordCached(p.hypothesisId, p.revision, cached, {
        held,
        content,
        announce: deps.emitter.templates(
          NEW_VERDICT_EVENTS.map((type) => ({ type, eventId: eventId(type, p.hypothesisId, p.revision) })),
          subjectFields(p),
        ),
      });
      if (result.kind === 'created') {
        cached.hit();
        deps.metrics?.classifications.inc({ target: 'hypothesis', action: result.verdict.action });
        return finish(p, result.verdict, undefined);
      }
      if (result.kind === 'conflict') return conflict();
      if (result.kind === 'exists') verdict = result.verdict;
      else prefetched = { lookup: cached, values: result.windows };
    } else {
      // No verdict cache to ask (a text past the windows, no model): the
      // revision's record is read first all the same, so that other content
      // under it costs no model call.
      const stored = await deps.store.getRevisionRecord('hypothesis', p.hypothesisId, p.revision);
      if (stored && stored.content !== content) return conflict(stored.content ?? null);
      verdict = stored?.verdict;
    }
    if (!verdict) {
      const cacheWrites: CacheWrite[] = [];
      const fresh = await deps.classifier.classify(text, 'hypothesis', {
        signal: deps.signal,
        cacheWrites,
        prefetched,
      });
      const events = verdictEvents(p, fresh, false);
      // Failures are never cached.
      if (cached && !fresh.degraded)
        cacheWrites.push(
          cachedVerdictEntry(
            cached,
            fresh,
            events.map((e) => e.type),
            verdictFields(fresh),
          ),
        );
      // One script writes the verdict, its events and the cache entries: a
      // verdict just written has no decision yet, so nothing else needs reading.
      const recorded = await deps.store.recordRevision('hypothesis', p.hypothesisId, p.revision, fresh, {
        content,
        held,
        announce: deps.emitter.prepare(events),
        writes: cacheWrites,
      });
      deps.metrics?.classifications.inc({ target: 'hypothesis', action: recorded.verdict.action });
      if (recorded.conflict) return conflict();
      if (recorded.created) return finish(p, fresh, undefined);
      verdict = recorded.verdict;
    }
    // A person's decision is final for its revision: a job that runs again
    // after it (a retry, a re-published job) announces no hold over it.
    const [decided, conflicts] = await Promise.all([
      deps.decisions ? deps.decisions.get(p.hypothesisId, p.revision) : undefined,
      deps.store.conflictCounts(p.hypothesisId, p.revision),
    ]);
    // Only a decision on this content counts; the announcing script says no pass over a newer held revision.
    const decision = decisionOn(decided, content);
    await deps.store.announce(
      p.hypothesisId,
      p.revision,
      verdict.action,
      deps.emitter.prepare(verdictEvents(p, verdict, decision !== undefined)),
    );
    return finish(p, verdict, decision, conflicts);
  };

  /**
   * Other content under a revision that has a verdict: kept for review and
   * announced (revision_conflict, once per content), and the job fails for
   * good. `stored` is the revision's digest (null: none), or undefined when
   * not read yet.
   */
  async function revisionConflict(
    job: Job,
    p: HypothesisSaved,
    content: string,
    stored: string | null | undefined,
    held: HeldSubject | undefined,
  ): Promise<never> {
    const storedContent =
      stored === undefined
        ? (await deps.store.getRevisionRecord('hypothesis', p.hypothesisId, p.revision))?.content
        : (stored ?? undefined);
    const announce = deps.emitter.prepare([
      {
        type: 'revision_conflict',
        eventId: eventId('revision_conflict', p.hypothesisId, p.revision, shortDigest(content)),
        data: {
          target: 'hypothesis',
          id: p.hypothesisId,
          revision: p.revision,
          hypothesisId: p.hypothesisId,
          content,
          ...(storedContent === undefined ? {} : { storedContent }),
          held: held !== undefined,
        },
      },
    ]);
    const outcome = await deps.store.recordConflict(
      p.hypothesisId,
      p.revision,
      { content, storedContent, held },
      announce,
    );
    // The revision changed under this job (its keys removed or rewritten): the next attempt looks again.
    if (outcome !== 'conflict')
      throw new Error(`revision ${p.revision} of ${p.hypothesisId} changed while checking it`);
    deps.logger.warn(
      { hypothesisId: p.hypothesisId, revision: p.revision, jobId: job.id, content, storedContent },
      'revision conflict: other content published under a revision that has a verdict; held for review',
    );
    throw new RevisionConflictError(
      `hypothesis ${p.hypothesisId} revision ${p.revision} was published before with other content; ` +
        `its verdict and any decision are not about this text${held ? ', which is held for review' : ''}: ` +
        'publish it as a new revision',
    );
  }

  function finish(
    p: HypothesisSaved,
    verdict: Verdict,
    decision: Decision | undefined,
    conflicts?: ConflictCounts,
  ): HypothesisResult {
    if (verdict.degraded && verdict.reason) {
      deps.logger.warn(
        { hypothesisId: p.hypothesisId, revision: p.revision, reason: verdict.reason, action: verdict.action },
        'degraded verdict: hypothesis was not cleanly classified',
      );
    }
    return {
      hypothesisId: p.hypothesisId,
      revision: p.revision,
      verdict,
      state: stateOf(verdict, decision, conflicts),
    };
  }
}
