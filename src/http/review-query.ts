/**
 * The query string of `GET /review/api/items`: filters, a search (`q`),
 * order, cursor and limit (docs/review.md). A bad parameter is refused by name, as a bad field
 * of a body is; an unknown or repeated one is refused too, so that a typing
 * slip (`sate=blocked`) does not silently answer the whole queue.
 */
import { z } from 'zod';
import { formatIssuesInline } from '../contracts/issues.js';
import { QUEUE_ORDERS, QUEUE_STATES, cursorFits, decodeCursor } from '../safety/review/queue.js';
import type { QueueQuery } from '../review/review-service.js';

export const MAX_LIST_LIMIT = 1000;
export const DEFAULT_LIST_LIMIT = 200;
/** Characters of a search at most: words to find, not a document. */
export const MAX_SEARCH_CHARS = 200;

const ISO = 'a date and time in ISO 8601 with its offset, such as 2026-01-31T12:00:00Z';
const time = z.iso.datetime({ offset: true, error: ISO }).transform((t) => Date.parse(t));

const QuerySchema = z.strictObject({
  limit: z.coerce
    .number({ error: `a whole number from 1 to ${MAX_LIST_LIMIT}` })
    .int({ error: `a whole number from 1 to ${MAX_LIST_LIMIT}` })
    .min(1, { error: `a whole number from 1 to ${MAX_LIST_LIMIT}` })
    .max(MAX_LIST_LIMIT, { error: `a whole number from 1 to ${MAX_LIST_LIMIT}` })
    .default(DEFAULT_LIST_LIMIT),
  order: z.enum(QUEUE_ORDERS, { error: QUEUE_ORDERS.join(' or ') }).optional(),
  state: z.enum(QUEUE_STATES, { error: QUEUE_STATES.join(' or ') }).optional(),
  // Category names are lower-case words joined by `_` (src/safety/classification/categories.ts).
  category: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/, { error: 'a category name, such as dual_use_bio' })
    .optional(),
  degraded: z
    .enum(['true', 'false'], { error: 'true or false' })
    .transform((v) => v === 'true')
    .optional(),
  q: z
    .string()
    .max(MAX_SEARCH_CHARS, { error: `at most ${MAX_SEARCH_CHARS} characters` })
    .optional(),
  heldBefore: time.optional(),
  heldAfter: time.optional(),
  cursor: z
    .string()
    .transform((text, ctx) => {
      const cursor = decodeCursor(text);
      if (!cursor) ctx.addIssue({ code: 'custom', message: 'not the nextCursor of an earlier page' });
      return cursor ?? z.NEVER;
    })
    .optional(),
});

/** Reads the query string; throws an Error whose message names the parameter at fault. */
export function parseQueueQuery(query: string): QueueQuery & { limit: number } {
  const params = new URLSearchParams(query);
  const raw: Record<string, string> = {};
  for (const [name, value] of params) {
    if (Object.hasOwn(raw, name)) throw new Error(`${name}: give it once`);
    raw[name] = value;
  }
  const parsed = QuerySchema.safeParse(raw);
  if (!parsed.success) throw new Error(formatIssuesInline(parsed.error).replace(/: unknown key/g, ': not a parameter'));
  const { limit, order, cursor, q, ...filter } = parsed.data;
  if (cursor && !cursorFits(cursor, order ?? 'oldest'))
    throw new Error('cursor: the nextCursor of a page in another order');
  return { limit, order, cursor, filter: q === undefined ? filter : { ...filter, text: q } };
}
