/**
 * Per-host concurrency limit, fair between the reviews of a worker. The
 * citations of one review are checked at once, and a review often cites one
 * site many times: without a limit, a single review would open a burst of
 * connections to that site. One limiter serves every review of a worker, so
 * its slots are shared: a review with 100 slow citations of a host must not
 * make a one-citation review of that host wait behind all of them. The calls
 * waiting for a host are served by turns: each owner (a review) with a call
 * waiting gets the next free slot in turn, its own calls in arrival order. A
 * caller that starts waiting waits for at most one turn of each other owner
 * waiting on that host, however many calls those owners have queued.
 */

interface Waiter {
  start(): void;
}

interface HostSlots {
  active: number;
  /**
   * The owners with calls waiting, in the order of their turns, each with its
   * calls in arrival order. A Map keeps insertion order: an owner served goes
   * to the back by being deleted and set again.
   */
  turns: Map<unknown, Waiter[]>;
}

export interface HostRunOptions {
  /**
   * Whose call it is: calls of one owner share its turns. Compared by
   * identity; a call without one is an owner of its own, so calls without
   * owners are served in arrival order.
   */
  owner?: unknown;
  /**
   * Gives up waiting: the call is taken out of the queue and never runs, and
   * run() rejects with the signal's reason. A call already running is not
   * stopped by the limiter (`fn` takes the signal for that).
   */
  signal?: AbortSignal | undefined;
}

export class HostLimiter {
  readonly #limit: number;
  readonly #hosts = new Map<string, HostSlots>();

  /**
   * @param limitPerHost - calls running at once for one host
   * @see `citations.per_host_concurrency` in the configuration
   */
  constructor(limitPerHost: number) {
    if (!Number.isInteger(limitPerHost) || limitPerHost < 1) {
      throw new RangeError(`limitPerHost must be a positive integer, got ${limitPerHost}`);
    }
    this.#limit = limitPerHost;
  }

  /**
   * Runs `fn` once fewer than the limit of calls for `host` are running and
   * it is the turn of the call's owner. The key is the host as given,
   * lowercased: pass `url.host` (with the port) or `url.hostname`
   * consistently. A redirect to another host still counts against the first
   * one.
   */
  async run<T>(host: string, fn: () => Promise<T>, options: HostRunOptions = {}): Promise<T> {
    const { signal } = options;
    signal?.throwIfAborted();
    const key = host.toLowerCase();
    let slots = this.#hosts.get(key);
    if (!slots) {
      slots = { active: 0, turns: new Map() };
      this.#hosts.set(key, slots);
    }
    if (slots.active < this.#limit) {
      slots.active++;
    } else {
      // release() hands its slot over, so `active` already counts this call.
      await this.#wait(slots, 'owner' in options ? options.owner : Symbol('call'), signal);
    }
    try {
      return await fn();
    } finally {
      this.#release(key, slots);
    }
  }

  /** Calls running for `host` now (for metrics and tests). */
  active(host: string): number {
    return this.#hosts.get(host.toLowerCase())?.active ?? 0;
  }

  /** Calls waiting for a slot of `host` now (for metrics and tests). */
  waiting(host: string): number {
    let n = 0;
    for (const queue of this.#hosts.get(host.toLowerCase())?.turns.values() ?? []) n += queue.length;
    return n;
  }

  #wait(slots: HostSlots, owner: unknown, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const queue = slots.turns.get(owner);
        const at = queue?.indexOf(waiter) ?? -1;
        if (queue && at >= 0) {
          queue.splice(at, 1);
          if (queue.length === 0) slots.turns.delete(owner);
        }
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        start() {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const queue = slots.turns.get(owner);
      if (queue) queue.push(waiter);
      else slots.turns.set(owner, [waiter]);
    });
  }

  #release(key: string, slots: HostSlots): void {
    // The owner whose turn it is: the first of the Map.
    const turn = slots.turns.entries().next();
    if (!turn.done) {
      const [owner, queue] = turn.value;
      const next = queue.shift()!;
      slots.turns.delete(owner);
      if (queue.length > 0) slots.turns.set(owner, queue);
      next.start();
      return;
    }
    slots.active--;
    if (slots.active === 0) this.#hosts.delete(key);
  }
}
