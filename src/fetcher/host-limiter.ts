/**
 * Per-host concurrency limit. The citations of one review are checked at
 * once, and a review often cites one site many times: without this, a single
 * review would open a burst of connections to that site.
 */

interface HostSlots {
  active: number;
  waiting: Array<() => void>;
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
   * Runs `fn` once fewer than the limit of calls for `host` are running;
   * callers wait in arrival order. The key is the host as given, lowercased:
   * pass `url.host` (with the port) or `url.hostname` consistently. A
   * redirect to another host still counts against the first one.
   */
  async run<T>(host: string, fn: () => Promise<T>): Promise<T> {
    const key = host.toLowerCase();
    let slots = this.#hosts.get(key);
    if (!slots) {
      slots = { active: 0, waiting: [] };
      this.#hosts.set(key, slots);
    }
    if (slots.active < this.#limit) {
      slots.active++;
    } else {
      // release() hands its slot over, so `active` already counts this call.
      await new Promise<void>((resolve) => slots.waiting.push(resolve));
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

  #release(key: string, slots: HostSlots): void {
    const next = slots.waiting.shift();
    if (next) {
      next();
      return;
    }
    slots.active--;
    if (slots.active === 0) this.#hosts.delete(key);
  }
}
