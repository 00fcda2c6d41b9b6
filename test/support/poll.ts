/**
 * Waiting in tests for something that happens elsewhere (another process, a
 * worker, Redis, a server's sockets): poll a condition until it holds or a
 * deadline passes. A test that sleeps a fixed time and then asserts is either
 * slow or flaky on a loaded machine; one that polls is neither.
 *
 * Both helpers behave alike:
 *
 * - the condition is checked at once, then every `everyMs`, and once more at
 *   the deadline, so a condition that holds in time is never missed;
 * - a check that throws is retried (a server not listening yet, a key not
 *   written yet), and the last error is in the timeout's message and its
 *   `cause`; a check that must fail at once (the process it waits for has
 *   exited) throws {@link StopPolling};
 * - the timeout error ({@link PollTimeout}) says what was awaited and for how
 *   long. `what` may be a function, evaluated only then, to show the state
 *   that was seen last (the log so far, the events so far).
 *
 * A check is awaited before the next one starts; one that never settles (a
 * command to a frozen Redis) holds the poll until the test's own timeout.
 */

export interface PollOptions {
  /**
   * How long to wait before failing, from the first check.
   * @defaultValue 10_000
   */
  timeoutMs?: number;
  /**
   * The pause between the end of one check and the start of the next.
   * @defaultValue 50
   */
  everyMs?: number;
}

/** What is awaited, for the timeout's message; a function is called only on timeout. */
export type What = string | (() => string);

/** Thrown when the condition did not hold within the time; `cause` is the check's last error, if any. */
export class PollTimeout extends Error {
  override name = 'PollTimeout';
}

/** Thrown by a check to fail the poll at once instead of being retried. */
export class StopPolling extends Error {
  override name = 'StopPolling';
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_EVERY_MS = 50;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Resolves to the probe's first value other than `undefined`; the probe
 * answers `undefined` for "not yet".
 *
 * @example
 *   const job = await eventually('job a completed', async () => {
 *     const j = await queue.getJob('a');
 *     return (await j?.getState()) === 'completed' ? j : undefined;
 *   });
 */
export async function eventually<T>(
  what: What,
  probe: () => T | undefined | Promise<T | undefined>,
  options: PollOptions = {},
): Promise<T> {
  const { timeoutMs = DEFAULT_TIMEOUT_MS, everyMs = DEFAULT_EVERY_MS } = options;
  const started = Date.now();
  const deadline = started + timeoutMs;
  let lastError: unknown;
  let failed = false;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
      failed = false;
    } catch (error) {
      if (error instanceof StopPolling) throw error;
      lastError = error;
      failed = true;
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      const label = typeof what === 'function' ? what() : what;
      // An error from an earlier check is still worth showing: it may be why
      // the state never came, even when the last check merely said "not yet".
      const error = lastError === undefined ? '' : `; ${failed ? 'last' : 'earlier'} error: ${describe(lastError)}`;
      throw new PollTimeout(`${label}: not within ${timeoutMs} ms (waited ${Date.now() - started} ms)${error}`, {
        cause: lastError,
      });
    }
    await sleep(Math.min(everyMs, left));
  }
}

/**
 * Resolves once the check holds.
 *
 * @example
 *   await until('the worker is ready', async () => (await fetch(`${base}/readyz`)).ok, { timeoutMs: 30_000 });
 */
export async function until(
  what: What,
  check: () => boolean | Promise<boolean>,
  options: PollOptions = {},
): Promise<void> {
  await eventually(what, async () => ((await check()) ? true : undefined), options);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
