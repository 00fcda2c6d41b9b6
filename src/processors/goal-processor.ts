/**
 * The processor of `goal.submitted`: a blocking check at goal-parse time. The
 * publisher may wait for the verdict (the job's return value).
 */
import type { Job } from 'bullmq';
import type { GoalEventData } from '../contracts/events.js';
import { parsePayload } from '../contracts/queues.js';
import type { GoalResult } from '../contracts/results.js';
import { eventId } from '../events/event-id.js';
import { isWithheld, withheldDigest, withheldTextError } from './completed-data.js';
import { verdictFields } from './verdict-fields.js';
import { eventDigest, type ProcessorDeps } from './hypothesis-processor.js';

export function createGoalProcessor(deps: ProcessorDeps) {
  return async (job: Job): Promise<GoalResult> => {
    const p = parsePayload('goal.submitted', job.data);
    // A goal has no revision: the digest of its text stands for one. A
    // completed job run again has only the digest (completed-data.ts).
    const digest = withheldDigest(job.data);
    const version = digest ? digest.slice(0, 16) : eventDigest(p.text);
    let verdict = await deps.store.getRevision('goal', p.goalId, version);
    if (!verdict && isWithheld(job.data)) throw withheldTextError('goal.submitted', job.data);
    if (!verdict) {
      const fresh = await deps.classifier.classify(p.text, 'research goal', { signal: deps.signal });
      verdict = await deps.store.record('goal', p.goalId, version, fresh);
      deps.metrics?.classifications.inc({ target: 'goal', action: verdict.action });
    }
    const data: GoalEventData = {
      goalId: p.goalId,
      ...verdictFields(verdict),
      ...(p.runId ? { runId: p.runId } : {}),
    };
    const id = (type: string) => eventId(type, p.goalId, { digest: version });
    await deps.emitter.emit('goal_assessed', id('goal_assessed'), data);
    if (verdict.action === 'block') await deps.emitter.emit('goal_blocked', id('goal_blocked'), data);
    if (verdict.degraded && verdict.reason) {
      await deps.emitter.emit('classifier_degraded', id('classifier_degraded'), {
        target: 'goal',
        id: p.goalId,
        reason: verdict.reason,
        action: verdict.action,
        model: verdict.model,
      });
      deps.logger.warn(
        { goalId: p.goalId, reason: verdict.reason, action: verdict.action },
        'degraded verdict: goal was not cleanly classified',
      );
    }
    return { goalId: p.goalId, verdict };
  };
}
