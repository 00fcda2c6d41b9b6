import { describe, expect, it } from 'vitest';
import { HostLimiter } from '../../src/fetcher/host-limiter.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('HostLimiter', () => {
  it('runs at most the limit per host, in arrival order', async () => {
    const limiter = new HostLimiter(2);
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    const runs = gates.map((gate, i) =>
      limiter.run('Example.org', async () => {
        started.push(i);
        await gate.promise;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(limiter.active('example.org')).toBe(2);
    gates[1]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(limiter.active('example.org')).toBe(0);
  });

  it('does not hold one host back for another', async () => {
    const limiter = new HostLimiter(1);
    const gate = deferred();
    const started: string[] = [];
    const a = limiter.run('a.test', async () => {
      started.push('a');
      await gate.promise;
    });
    const b = limiter.run('b.test', async () => {
      started.push('b');
    });
    await b;
    expect(started).toEqual(['a', 'b']);
    gate.resolve();
    await a;
  });

  it('frees the slot when the call fails', async () => {
    const limiter = new HostLimiter(1);
    await expect(limiter.run('a.test', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(
      limiter.run('a.test', () => {
        throw new Error('sync boom');
      }),
    ).rejects.toThrow('sync boom');
    expect(await limiter.run('a.test', async () => 'next')).toBe('next');
    expect(limiter.active('a.test')).toBe(0);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => new HostLimiter(0)).toThrow(RangeError);
    expect(() => new HostLimiter(1.5)).toThrow(RangeError);
  });
});
