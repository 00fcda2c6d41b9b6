import { describe, expect, it } from 'vitest';
import { eventually, PollTimeout, StopPolling, until } from './poll.js';

describe('until', () => {
  it('resolves without waiting when the condition holds at once', async () => {
    let checks = 0;
    const started = Date.now();
    await until('already true', () => ++checks > 0, { everyMs: 5000 });
    expect(checks).toBe(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('resolves on the first check that holds, not at the deadline', async () => {
    let checks = 0;
    const started = Date.now();
    await until('the third check', async () => ++checks === 3, { timeoutMs: 20_000, everyMs: 10 });
    expect(checks).toBe(3);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('times out naming what it waited for and for how long', async () => {
    const started = Date.now();
    const error = await until('the moon to turn green', () => false, { timeoutMs: 150, everyMs: 20 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PollTimeout);
    expect((error as Error).message).toMatch(/^the moon to turn green: not within 150 ms \(waited \d+ ms\)$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });

  it('checks once more at the deadline, however long the pause', async () => {
    const started = Date.now();
    let checks = 0;
    await until(
      '50 ms passed',
      () => {
        checks++;
        return Date.now() - started >= 50;
      },
      { timeoutMs: 100, everyMs: 60_000 },
    );
    expect(checks).toBe(2);
  });

  it('evaluates a `what` function only on timeout, to show the last state', async () => {
    let seen = 0;
    let calls = 0;
    const what = () => {
      calls++;
      return `seen ${seen}`;
    };
    await until(what, () => ++seen === 2, { everyMs: 1 });
    expect(calls).toBe(0);
    await expect(until(what, () => ++seen < 0, { timeoutMs: 50, everyMs: 10 })).rejects.toThrow(
      /^seen \d+: not within 50 ms/,
    );
    expect(calls).toBe(1);
  });
});

describe('eventually', () => {
  it('returns the first value other than undefined, falsy ones included', async () => {
    let n = 0;
    expect(await eventually('zero', () => (++n < 3 ? undefined : 0), { everyMs: 1 })).toBe(0);
    expect(await eventually('false', () => false)).toBe(false);
  });

  it('retries a probe that throws', async () => {
    let n = 0;
    const value = await eventually(
      'the server',
      async () => {
        if (++n < 3) throw new Error(`connect ECONNREFUSED (${n})`);
        return 'up';
      },
      { everyMs: 1 },
    );
    expect(value).toBe('up');
    expect(n).toBe(3);
  });

  it('puts the last error in the timeout, as its message and its cause', async () => {
    let n = 0;
    const error = await eventually(
      'the server',
      () => {
        throw new Error(`refused ${++n}`);
      },
      { timeoutMs: 80, everyMs: 10 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PollTimeout);
    expect((error as Error).message).toMatch(/^the server: not within 80 ms \(waited \d+ ms\); last error: Error: /);
    expect((error as Error).message).toMatch(new RegExp(`refused ${n}$`));
    expect(((error as Error).cause as Error).message).toBe(`refused ${n}`);
  });

  it('keeps an earlier error in the timeout when later probes only say "not yet"', async () => {
    let n = 0;
    const error = await eventually(
      'the key',
      () => {
        if (++n === 1) throw new Error('NOAUTH');
        return undefined;
      },
      { timeoutMs: 50, everyMs: 10 },
    ).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/; earlier error: Error: NOAUTH$/);
  });

  it('fails at once when the probe throws StopPolling', async () => {
    let n = 0;
    const started = Date.now();
    const stop = new StopPolling('the process exited 1');
    const error = await eventually(
      'the process answers',
      () => {
        n++;
        throw stop;
      },
      { timeoutMs: 20_000 },
    ).catch((e: unknown) => e);
    expect(error).toBe(stop);
    expect(n).toBe(1);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
