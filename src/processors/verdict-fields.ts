/** The verdict's part of hypothesis and goal events. */
import type { Verdict } from '../safety/classification/verdict.js';

/** The verdict fields that every hypothesis and goal event carries. */
export function verdictFields(verdict: Verdict) {
  return {
    action: verdict.action,
    categories: verdict.categories,
    confidence: verdict.confidence,
    rationale: verdict.rationale,
    degraded: verdict.degraded,
    ...(verdict.reason ? { reason: verdict.reason } : {}),
    model: verdict.model,
    refusal: verdict.refusal,
    windowed: verdict.windowed,
  };
}
