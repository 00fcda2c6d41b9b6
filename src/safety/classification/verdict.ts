/**
 * A verdict: the assessment, the action the policy takes on it, and how it
 * was reached. A degraded verdict is never a clean pass: it says so, and why.
 */
import { z } from 'zod';

export const ACTIONS = ['allow', 'warn', 'quarantine', 'block'] as const;
export type Action = (typeof ACTIONS)[number];

/** Why a verdict is degraded. */
export const DEGRADED_REASONS = [
  'classifier_disabled',
  'no_api_key',
  'timeout',
  'connection_error',
  'server_error',
  'overloaded',
  'rate_limited',
  'invalid_response',
  'malformed_output',
  'multiple_assessments',
  'unexpected_stop',
  'bad_request',
  'auth_error',
  'text_too_long',
] as const;
export type DegradedReason = (typeof DEGRADED_REASONS)[number];

export const VerdictSchema = z.object({
  action: z.enum(ACTIONS),
  categories: z.array(z.string()),
  confidence: z.number().min(0).max(1),
  rationale: z.string(),
  degraded: z.boolean(),
  reason: z.enum(DEGRADED_REASONS).optional(),
  /** The model refused to assess the text; counted as a flag. */
  refusal: z.boolean(),
  model: z.string(),
  promptVersion: z.string(),
  /** Windows the text was classified in (1 for text that fits one). */
  windows: z.number().int().nonnegative(),
  windowed: z.boolean(),
  /** Every window's assessment came from the cache. */
  cached: z.boolean(),
});
export type Verdict = z.infer<typeof VerdictSchema>;

const SEVERITY: Record<Action, number> = { allow: 0, warn: 1, quarantine: 2, block: 3 };

/** The more severe of two actions. */
export function mostSevere(a: Action, b: Action): Action {
  return SEVERITY[a] >= SEVERITY[b] ? a : b;
}
