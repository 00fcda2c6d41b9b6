/**
 * The processor of `report.finalized`: the classifier's third placement, at
 * final-report time. Each section presenting a hypothesis that is held,
 * confirmed or not yet assessed is redacted (or, in block mode, blocks the
 * report); the redacted report is then classified as a whole. Publication
 * waits on the result, which is the job's return value and is stored.
 */
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { Classifier } from '../classifier/classifier.js';
import { contentDigest } from '../contracts/content.js';
import type { ReportEventData, ReportOutcome } from '../contracts/events.js';
import { parsePayload } from '../contracts/queues.js';
import type { ReportResult } from '../contracts/results.js';
import type { EventEmitter } from '../events/emitter.js';
import { eventId } from '../events/event-id.js';
import type { Metrics } from '../metrics/metrics.js';
import { decisionOn, stateOf } from '../safety/review/decision.js';
import {
  joinSections,
  redactSections,
  reportOutcome,
  withheldReportText,
  type ReportCheckMode,
  type SectionState,
} from '../safety/review/report-check.js';
import type { DecisionStore } from '../store/decision-store.js';
import type { ReportStore } from '../store/report-store.js';
import type { VerdictStore } from '../store/verdict-store.js';
import { isWithheld, withheldTextError } from './completed-data.js';
import { refuseRevisionConflict } from './revision-conflict.js';

export interface ReportProcessorDeps {
  mode: ReportCheckMode;
  classifier: Classifier;
  verdicts: VerdictStore;
  decisions: DecisionStore;
  reports: ReportStore;
  emitter: EventEmitter;
  metrics?: Metrics | undefined;
  logger: Logger;
  signal?: AbortSignal | undefined;
  now?: () => Date;
}

const EVENT_OF: Record<ReportOutcome, 'report_cleared' | 'report_redacted' | 'report_blocked'> = {
  cleared: 'report_cleared',
  redacted: 'report_redacted',
  blocked: 'report_blocked',
};

export function createReportProcessor(deps: ReportProcessorDeps) {
  const now = deps.now ?? (() => new Date());

  /** The current review state of each hypothesis a section presents. */
  async function statesOf(ids: string[]): Promise<Map<string, SectionState>> {
    // Every hypothesis's reads at once (the connection pipelines them): a
    // report can present hundreds.
    const unique = [...new Set(ids)];
    const states = await Promise.all(
      unique.map(async (id): Promise<SectionState> => {
        const latest = await deps.verdicts.getLatest('hypothesis', id);
        if (!latest) return 'unassessed';
        // A decision counts for the content it was made on; other content under the revision holds it.
        const decision = decisionOn(await deps.decisions.get(id, latest.revision), latest.content);
        return stateOf(latest.verdict, decision, latest.conflicts);
      }),
    );
    return new Map(unique.map((id, i) => [id, states[i]!]));
  }

  return async (job: Job): Promise<ReportResult> => {
    const p = parsePayload('report.finalized', job.data);
    // A report revision is its sections: a stored check of other sections is not this one's.
    const content = contentDigest('report.finalized', p, job.data);
    const conflict = (storedContent: string | undefined) =>
      refuseRevisionConflict(deps, { target: 'report', id: p.reportId, revision: p.revision, content, storedContent });
    const found = await deps.reports.getRecord(p.reportId, p.revision);
    if (found && found.content !== content) return conflict(found.content);
    let result = found?.result;
    // A completed job run again has no section text (completed-data.ts): only its stored result.
    if (!result && isWithheld(job.data)) throw withheldTextError('report.finalized', job.data);
    if (!result) {
      const base = { reportId: p.reportId, revision: p.revision, ...(p.runId ? { runId: p.runId } : {}) };
      if (deps.mode === 'off') {
        result = {
          ...base,
          mode: 'off',
          outcome: 'skipped',
          publishable: true,
          text: joinSections(p.sections.map((s) => s.text)),
          redactions: [],
          checkedAt: now().toISOString(),
        };
      } else {
        const mode = deps.mode;
        const ids = p.sections.flatMap((s) => (s.hypothesisId === undefined ? [] : [s.hypothesisId]));
        const { sections, redactions } = redactSections(p.sections, await statesOf(ids));
        const text = joinSections(sections);
        const verdict = await deps.classifier.classify(text, 'final research report', { signal: deps.signal });
        deps.metrics?.classifications.inc({ target: 'report', action: verdict.action });
        const { outcome, blockedBy } = reportOutcome(mode, redactions, verdict.action);
        // Text the classifier holds is kept nowhere: a notice stands in for it (report-check.ts).
        const held = verdict.action === 'quarantine' || verdict.action === 'block';
        result = {
          ...base,
          mode,
          outcome,
          publishable: outcome !== 'blocked',
          ...(blockedBy ? { blockedBy } : {}),
          text: held ? withheldReportText(verdict) : text,
          redactions,
          verdict,
          checkedAt: now().toISOString(),
        };
      }
      const recorded = await deps.reports.recordRevision(result, content);
      // Another job of the revision, with other sections, recorded first.
      if (recorded.conflict) return conflict((await deps.reports.getRecord(p.reportId, p.revision))?.content);
      result = recorded.result;
      deps.metrics?.reports.inc({ outcome: result.outcome });
    }

    if (result.outcome !== 'skipped') {
      const v = result.verdict;
      const data: ReportEventData = {
        reportId: result.reportId,
        revision: result.revision,
        ...(result.runId ? { runId: result.runId } : {}),
        outcome: result.outcome,
        mode: result.mode,
        ...(result.blockedBy ? { blockedBy: result.blockedBy } : {}),
        redacted: result.redactions,
        ...(v
          ? {
              action: v.action,
              categories: v.categories,
              confidence: v.confidence,
              degraded: v.degraded,
              ...(v.reason ? { reason: v.reason } : {}),
            }
          : {}),
      };
      const type = EVENT_OF[result.outcome];
      await deps.emitter.emit(type, eventId(type, result.reportId, result.revision), data);
      if (v?.degraded && v.reason) {
        // As for hypotheses and goals: a report that was not cleanly
        // classified is announced as such, whatever its outcome.
        await deps.emitter.emit(
          'classifier_degraded',
          eventId('classifier_degraded', result.reportId, result.revision),
          {
            target: 'report',
            id: result.reportId,
            revision: result.revision,
            reason: v.reason,
            action: v.action,
            model: v.model,
          },
        );
        deps.logger.warn(
          { reportId: result.reportId, revision: result.revision, reason: v.reason, action: v.action },
          'degraded verdict: report was not cleanly classified',
        );
      }
      if (result.outcome === 'blocked') {
        deps.logger.warn(
          { reportId: result.reportId, revision: result.revision, blockedBy: result.blockedBy },
          'final report blocked from publication',
        );
      }
    }
    return result;
  };
}
