/**
 * Words and numbers as the page shows them. Pure: no DOM, so the tests run
 * it in Node as well.
 */
import type { ReviewState } from '../../safety/review/decision.js';
import { degradedReasonText } from '../../safety/review/reasons.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "4 min ago", "3 h ago", "2 days ago": how long ago, to the unit a person reads a queue by. */
export function relativeTime(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const age = now - at;
  if (age < MINUTE) return 'just now';
  if (age < HOUR) return `${Math.floor(age / MINUTE)} min ago`;
  if (age < DAY) return `${Math.floor(age / HOUR)} h ago`;
  const days = Math.floor(age / DAY);
  return days === 1 ? '1 day ago' : `${days} days ago`;
}

/** The exact time, in UTC and to the second: "2026-01-31 12:00:05 UTC". */
export function exactTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function confidenceText(confidence: number): string {
  return confidence.toFixed(2);
}

export interface CategoriesView {
  /** The categories, or `unclassified` when the classifier never gave any. */
  label: string;
  unclassified: boolean;
  /** Why the verdict is degraded, in words; empty when it is not. */
  degradedWhy: string;
}

/**
 * A degraded verdict with no categories was never classified: it says
 * "unclassified" and why, never "none", which is the category of no concern.
 */
export function categoriesView(v: {
  categories: readonly string[];
  degraded: boolean;
  reason?: string | undefined;
}): CategoriesView {
  const degradedWhy = v.degraded ? degradedReasonText(v.reason) : '';
  if (v.categories.length === 0)
    return { label: v.degraded ? 'unclassified' : 'none given', unclassified: v.degraded, degradedWhy };
  return { label: v.categories.join(', '), unclassified: false, degradedWhy };
}

const STATE_WORDS: Record<ReviewState, string> = {
  assessed: 'assessed',
  quarantined: 'quarantined',
  blocked: 'blocked',
  released: 'released',
  confirmed: 'confirmed',
  conflict: 'in conflict',
};

export function stateText(state: ReviewState): string {
  return STATE_WORDS[state];
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
