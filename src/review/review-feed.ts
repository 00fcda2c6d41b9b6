/**
 * Changes to the review queue as they happen, read from the event stream,
 * for the review page's live queue (`GET /review/api/feed`, docs/review.md):
 * a revision held, or decided by a person (or let out by a new assessment
 * of its degraded verdict), wherever that happened (another
 * reviewer's page, the CLI, a script on the API). Without it two reviewers
 * could work the same item, each unaware that the other had decided it.
 *
 * One reader serves every open page: it reads the stream only while some
 * page listens, on a connection of its own, since a blocking read holds the
 * connection it runs on. It starts after the newest entry, so a page hears
 * what happens after it connected; a page that reconnects reloads the queue
 * rather than replaying what it missed.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ReviewFeedChange } from '../contracts/review-api.js';
import { waitForEvents, type StreamEvent } from '../events/reader.js';

export type FeedListener = (change: ReviewFeedChange, entryId: string) => void;

export interface ReviewFeed {
  /** Calls `listener` with each change from now on; returns the unsubscribe function. */
  subscribe(listener: FeedListener): () => void;
  /** Stops reading and drops the connection at once (a blocking read is not waited out). */
  close(): void;
}

export interface ReviewFeedOptions {
  /** A connection for this feed alone. */
  redis: Redis;
  stream: string;
  logger?: Logger | undefined;
  /** How long one blocking read waits; a feed with no listeners stops within it. */
  blockMs?: number;
  /** The pause after a failed read before the next. */
  retryMs?: number;
}

/** The change an event makes to the queue, if it makes one. */
export function changeOf(event: StreamEvent): ReviewFeedChange | undefined {
  const data = event.data as { hypothesisId?: unknown; revision?: unknown; by?: unknown; at?: unknown } | null;
  if (!data || typeof data.hypothesisId !== 'string' || typeof data.revision !== 'number') return undefined;
  const base = { hypothesisId: data.hypothesisId, revision: data.revision };
  switch (event.type) {
    case 'hypothesis_quarantined':
      return { kind: 'held', ...base, state: 'quarantined' };
    case 'hypothesis_blocked':
      return { kind: 'held', ...base, state: 'blocked' };
    case 'revision_conflict':
      // A review's or a report's conflict names its hypothesis but holds nothing in the queue.
      return (data as { target?: unknown }).target === 'hypothesis'
        ? { kind: 'held', ...base, state: 'conflict' }
        : undefined;
    case 'hypothesis_assessed': {
      // A new assessment of a degraded verdict that lets the revision out of the queue: decided, by the one who asked.
      const r = (data as { reassessment?: { by?: unknown; at?: unknown }; action?: unknown }).reassessment;
      const action = (data as { action?: unknown }).action;
      if (!r || action === 'quarantine' || action === 'block') return undefined;
      return {
        kind: 'decided',
        ...base,
        state: 'assessed',
        ...(typeof r.by === 'string' ? { by: r.by } : {}),
        ...(typeof r.at === 'string' ? { at: r.at } : {}),
      };
    }
    case 'hypothesis_released':
    case 'hypothesis_confirmed':
      return {
        kind: 'decided',
        ...base,
        state: event.type === 'hypothesis_released' ? 'released' : 'confirmed',
        ...(typeof data.by === 'string' ? { by: data.by } : {}),
        ...(typeof data.at === 'string' ? { at: data.at } : {}),
      };
    default:
      return undefined;
  }
}

export function createReviewFeed(options: ReviewFeedOptions): ReviewFeed {
  const { redis, stream, logger } = options;
  const blockMs = options.blockMs ?? 5000;
  const retryMs = options.retryMs ?? 1000;
  const listeners = new Set<FeedListener>();
  let running = false;
  let closed = false;

  async function newestEntry(): Promise<string> {
    const last = (await redis.xrevrange(stream, '+', '-', 'COUNT', 1)) as Array<[string, string[]]>;
    return last[0]?.[0] ?? '0-0';
  }

  async function run(): Promise<void> {
    let after: string | undefined;
    while (listeners.size > 0 && !closed) {
      try {
        after ??= await newestEntry();
        const events = await waitForEvents(redis, stream, after, blockMs);
        for (const event of events) {
          after = event.id;
          const change = changeOf(event);
          if (change) for (const listener of listeners) listener(change, event.id);
        }
      } catch (err) {
        if (closed) break;
        logger?.warn({ err: (err as Error).message }, 'review feed: reading the event stream failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    }
    running = false;
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (!running && !closed) {
        running = true;
        void run();
      }
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      listeners.clear();
      redis.disconnect();
    },
  };
}
