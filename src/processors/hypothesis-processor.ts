/**
 * The processor of `hypothesis.saved`: classify the hypothesis (or reuse the
 * verdict its revision already has), keep the verdict, emit its events.
 */
import { createHash } from 'node:crypto';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { Classifier } from '../classifier/classifier.js';
import { HYPOTHESIS_ACTION_EVENTS, type HypothesisEventData } from '../contracts/events.js';
import { HypothesisSavedSchema, type HypothesisSaved } from '../contracts/payloads.js';
import type { EventEmitter } from '../events/emitter.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Verdict } from '../safety/classification/verdict.js';
import { stateOf, type ReviewState } from '../safety/review/decision.js';
import type { DecisionStore } from '../store/decision-store.js';
import type { VerdictStore } from '../store/verdict-store.js';
import { guardClassification, parsePayload, verdictFields, type JobControl } from './classify-job.js';

export interface ProcessorDeps {
  classifier: Classifier;
  store: VerdictStore;
  /** People's decisions; without it, no decision is looked up. */
  decisions?: DecisionStore | undefined;
  emitter: EventEmitter;
  metrics?: Metrics | undefined;
  logger: Logger;
  control: JobControl;
  /** Aborted at shutdown, after the grace period. */
  signal?: AbortSignal | undefined;
}

export interface HypothesisResult {
  hypothesisId: string;
  revision: number;
  verdict: Verdict;
  /** The revision's review state; a person's decision wins over the verdict. */
  state: ReviewState;
}

/** The text the classifier sees: the title, when there is one, then the hypothesis. */
export function hypothesisText(p: HypothesisSaved): string {
  return p.title ? `${p.title}\n\n${p.text}` : p.text;
}

/** Event ids name the event, the subject and its revision: the same for every run of the job. */
export function hypothesisEventId(type: string, hypothesisId: string, revision: number): string {
  return `${type}/${encodeURIComponent(hypothesisId)}/r${revision}`;
}

export function eventDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export function createHypothesisProcessor(deps: ProcessorDeps) {
  return async (job: Job, token?: string): Promise<HypothesisResult> => {
    const p = parsePayload(HypothesisSavedSchema, 'hypothesis.saved', job.data);
    let verdict = await deps.store.getRevision('hypothesis', p.hypothesisId, p.revision);
    // Whether a person may have decided on this revision: not when this run
    // has just written its verdict, since a decision needs one to exist.
    let mayBeDecided = verdict !== undefined;
    if (!verdict) {
      const fresh = await guardClassification(job, token, deps.control, () =>
        deps.classifier.classify(hypothesisText(p), 'hypothesis', { signal: deps.signal, onRateLimit: 'throw' }),
      );
      const recorded = await deps.store.recordRevision('hypothesis', p.hypothesisId, p.revision, fresh, {
        text: p.text,
        title: p.title,
        goalId: p.goalId,
        runId: p.runId,
        agent: p.agent,
      });
      verdict = recorded.verdict;
      mayBeDecided = !recorded.created;
      deps.metrics?.classifications.inc({ target: 'hypothesis', action: verdict.action });
    }

    const data: HypothesisEventData = {
      hypothesisId: p.hypothesisId,
      revision: p.revision,
      ...verdictFields(verdict),
      ...(p.goalId ? { goalId: p.goalId } : {}),
      ...(p.runId ? { runId: p.runId } : {}),
    };
    const id = (type: string) => hypothesisEventId(type, p.hypothesisId, p.revision);
    // A person's decision is final for its revision: a job that runs again
    // after it (a retry, a re-published job) announces no hold over it.
    const decision = deps.decisions && mayBeDecided ? await deps.decisions.get(p.hypothesisId, p.revision) : undefined;
    await deps.emitter.emit('hypothesis_assessed', id('hypothesis_assessed'), data);
    const specific = HYPOTHESIS_ACTION_EVENTS[verdict.action];
    if (specific && !decision) await deps.emitter.emit(specific, id(specific), data);
    if (verdict.degraded && verdict.reason) {
      await deps.emitter.emit('classifier_degraded', id('classifier_degraded'), {
        target: 'hypothesis',
        id: p.hypothesisId,
        revision: p.revision,
        reason: verdict.reason,
        action: verdict.action,
        model: verdict.model,
      });
      deps.logger.warn(
        { hypothesisId: p.hypothesisId, revision: p.revision, reason: verdict.reason, action: verdict.action },
        'degraded verdict: hypothesis was not cleanly classified',
      );
    }
    return { hypothesisId: p.hypothesisId, revision: p.revision, verdict, state: stateOf(verdict, decision) };
  };
}
