/**
 * A page cache for one run of the verifier outside the worker (a recheck):
 * each URL is fetched once, however many citations cite it, and every
 * citation is checked against that one reading. Nothing is kept after the
 * run, nor shared: a recheck reads the pages as they are now, never the
 * worker's cached text (page-cache.ts).
 */
import type { PageCache } from './page-cache.js';
import type { PageText } from './page-text.js';
import { untilAborted } from './until-aborted.js';

export function createRunPageCache(): PageCache {
  const loads = new Map<string, Promise<PageText>>();
  return {
    get(url, fetch, signal) {
      let load = loads.get(url);
      if (load === undefined) {
        // The run's signal stops the fetch: every citation of the run waits on that same signal.
        load = fetch(signal ?? new AbortController().signal);
        loads.set(url, load);
        // A fetch stopped is not the page's answer: the next caller tries again.
        load.catch(() => loads.delete(url));
      }
      return signal ? untilAborted(load, signal) : load;
    },
  };
}
