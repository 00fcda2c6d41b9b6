/**
 * Events, as zod schemas, and one map from event type to its data. Each entry
 * of the stream has the fields `type`, `eventId` and `data` (JSON).
 */
import { z } from 'zod';
import { ACTIONS, DEGRADED_REASONS } from '../safety/classification/verdict.js';

export const HypothesisEventDataSchema = z.object({
  hypothesisId: z.string(),
  revision: z.number().int().nonnegative(),
  action: z.enum(ACTIONS),
  categories: z.array(z.string()),
  confidence: z.number(),
  rationale: z.string(),
  degraded: z.boolean(),
  reason: z.enum(DEGRADED_REASONS).optional(),
  model: z.string(),
  refusal: z.boolean(),
  windowed: z.boolean(),
  goalId: z.string().optional(),
  runId: z.string().optional(),
});
export type HypothesisEventData = z.infer<typeof HypothesisEventDataSchema>;

export const GoalEventDataSchema = z.object({
  goalId: z.string(),
  action: z.enum(ACTIONS),
  categories: z.array(z.string()),
  confidence: z.number(),
  rationale: z.string(),
  degraded: z.boolean(),
  reason: z.enum(DEGRADED_REASONS).optional(),
  model: z.string(),
  refusal: z.boolean(),
  windowed: z.boolean(),
  runId: z.string().optional(),
});
export type GoalEventData = z.infer<typeof GoalEventDataSchema>;

export const ClassifierDegradedDataSchema = z.object({
  target: z.enum(['hypothesis', 'goal']),
  id: z.string(),
  revision: z.number().int().nonnegative().optional(),
  reason: z.enum(DEGRADED_REASONS),
  action: z.enum(ACTIONS),
  model: z.string(),
});
export type ClassifierDegradedData = z.infer<typeof ClassifierDegradedDataSchema>;

export const EVENT_SCHEMAS = {
  hypothesis_assessed: HypothesisEventDataSchema,
  hypothesis_flagged: HypothesisEventDataSchema,
  hypothesis_quarantined: HypothesisEventDataSchema,
  hypothesis_blocked: HypothesisEventDataSchema,
  goal_assessed: GoalEventDataSchema,
  goal_blocked: GoalEventDataSchema,
  classifier_degraded: ClassifierDegradedDataSchema,
} as const;

export type EventType = keyof typeof EVENT_SCHEMAS;
export type EventDataOf<T extends EventType> = z.infer<(typeof EVENT_SCHEMAS)[T]>;
export const EVENT_TYPES = Object.keys(EVENT_SCHEMAS) as EventType[];

/** The action-specific hypothesis event, besides hypothesis_assessed. */
export const HYPOTHESIS_ACTION_EVENTS = {
  allow: undefined,
  warn: 'hypothesis_flagged',
  quarantine: 'hypothesis_quarantined',
  block: 'hypothesis_blocked',
} as const satisfies Record<(typeof ACTIONS)[number], EventType | undefined>;
