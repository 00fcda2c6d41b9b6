/**
 * The live queue: reads GET api/feed, the server-sent events of changes to
 * the queue (src/review/review-feed.ts). EventSource cannot send the
 * Authorization header, so the stream is read with fetch. A dropped stream
 * is opened again after a growing pause; since the feed does not replay,
 * the page reads the queue again each time it reconnects.
 */
import type { ReviewFeedChange } from '../../contracts/review-api.js';
import { authHeaders, SignedOut } from './api.js';

export type FeedState = 'connecting' | 'live' | 'reconnecting';

export interface FeedHandlers {
  change(change: ReviewFeedChange): void;
  state(state: FeedState): void;
  /** The stream is open again after a break: changes may have been missed. */
  reconnected(): void;
}

/** Pauses before reconnecting, in ms; the last repeats. */
const BACKOFF = [1000, 2000, 5000, 10_000, 30_000];
/** The server writes at least every 15 s; silence for longer means the connection is gone. */
const SILENCE_MS = 40_000;

export function startFeed(handlers: FeedHandlers): { stop(): void } {
  let stopped = false;
  let controller: AbortController | undefined;

  async function readOnce(first: boolean): Promise<boolean> {
    controller = new AbortController();
    const abort = controller;
    let watchdog = setTimeout(() => abort.abort(), SILENCE_MS);
    const response = await fetch('api/feed', {
      headers: { ...authHeaders(), accept: 'text/event-stream' },
      cache: 'no-store',
      credentials: 'omit',
      signal: abort.signal,
    });
    if (response.status === 401) throw new SignedOut('The token was refused. Sign in again.');
    if (!response.ok || !response.body) return false;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let opened = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return opened;
      clearTimeout(watchdog);
      watchdog = setTimeout(() => abort.abort(), SILENCE_MS);
      buffer += value.replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (event === 'ready') {
          opened = true;
          handlers.state('live');
          if (!first) handlers.reconnected();
        } else if (event === 'change' && data !== undefined) {
          handlers.change(JSON.parse(data) as ReviewFeedChange);
        }
      }
    }
  }

  void (async () => {
    let failures = 0;
    let first = true;
    handlers.state('connecting');
    while (!stopped) {
      let opened = false;
      try {
        opened = await readOnce(first);
      } catch (err) {
        if (err instanceof SignedOut) return;
      }
      if (stopped) return;
      // Any later opening may have missed changes, the first attempt's failure included.
      first = false;
      if (opened) failures = 0;
      handlers.state('reconnecting');
      const pause = BACKOFF[Math.min(failures, BACKOFF.length - 1)]!;
      failures++;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  })();

  return {
    stop() {
      stopped = true;
      controller?.abort();
    },
  };
}
