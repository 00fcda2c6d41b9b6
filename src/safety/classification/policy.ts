/**
 * The action rule, exactly as the research system specifies it:
 * benign -> allow; any flagged category in the block list -> block; in the
 * warn list with confidence >= threshold -> quarantine; in the warn list ->
 * warn; otherwise allow.
 */
import type { Category } from './categories.js';
import { flaggedCategories, type Assessment } from './assessment.js';
import type { Action } from './verdict.js';

export interface ClassifierPolicy {
  blockCategories: readonly Category[];
  warnCategories: readonly Category[];
  quarantineThreshold: number;
  /** The action of a degraded verdict. */
  onError: 'quarantine' | 'allow';
}

export function decideAction(
  assessment: Pick<Assessment, 'categories' | 'confidence'>,
  policy: ClassifierPolicy,
): Action {
  const flagged = flaggedCategories(assessment);
  if (flagged.length === 0) return 'allow';
  if (flagged.some((c) => policy.blockCategories.includes(c as Category))) return 'block';
  if (flagged.some((c) => policy.warnCategories.includes(c as Category))) {
    return assessment.confidence >= policy.quarantineThreshold ? 'quarantine' : 'warn';
  }
  return 'allow';
}
