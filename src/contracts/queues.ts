/**
 * The four queues, and for each the payload a publisher sends and the result
 * its job returns: one map, so a publisher, a processor and a store cannot
 * disagree on a shape. Adding a queue starts here (docs/architecture.md).
 */
import type { z } from 'zod';
import { PayloadError } from '../errors.js';
import { formatIssuesInline } from './issues.js';
import { PAYLOAD_SCHEMAS } from './payloads.js';
import { RESULT_SCHEMAS } from './results.js';

export const QUEUE_NAMES = ['hypothesis.saved', 'goal.submitted', 'review.recorded', 'report.finalized'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export const QUEUES = {
  'hypothesis.saved': { payload: PAYLOAD_SCHEMAS['hypothesis.saved'], result: RESULT_SCHEMAS['hypothesis.saved'] },
  'goal.submitted': { payload: PAYLOAD_SCHEMAS['goal.submitted'], result: RESULT_SCHEMAS['goal.submitted'] },
  'review.recorded': { payload: PAYLOAD_SCHEMAS['review.recorded'], result: RESULT_SCHEMAS['review.recorded'] },
  'report.finalized': { payload: PAYLOAD_SCHEMAS['report.finalized'], result: RESULT_SCHEMAS['report.finalized'] },
} as const satisfies Record<QueueName, { payload: z.ZodType; result: z.ZodType }>;

/** The payload a publisher sends to a queue, as its processor reads it (defaults applied). */
export type PayloadOf<Q extends QueueName> = z.infer<(typeof QUEUES)[Q]['payload']>;
/** The payload as a publisher may write it (defaults not yet applied). */
export type PayloadInputOf<Q extends QueueName> = z.input<(typeof QUEUES)[Q]['payload']>;
/** What a job of the queue returns, and what publishers waiting on it read back. */
export type ResultOf<Q extends QueueName> = z.infer<(typeof QUEUES)[Q]['result']>;

/**
 * A queue's payload, validated with its defaults applied; a bad one raises
 * PayloadError naming each field. The publisher checks before it sends and the
 * processor again when it runs, as a job may come from any client.
 */
export function parsePayload<Q extends QueueName>(queue: Q, data: unknown): PayloadOf<Q> {
  const parsed = QUEUES[queue].payload.safeParse(data);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join('.') || '(payload)');
    throw new PayloadError(`invalid ${queue} payload: ${formatIssuesInline(parsed.error)}`, fields);
  }
  return parsed.data as PayloadOf<Q>;
}
