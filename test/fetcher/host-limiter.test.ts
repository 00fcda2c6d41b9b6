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

  it('serves the owners waiting for a host by turns: a new owner waits for one turn, not for the queue', async () => {
    const limiter = new HostLimiter(1);
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    const call = (owner: string, name: string) =>
      limiter.run(
        'host.test',
        async () => {
          started.push(name);
          const gate = deferred();
          gates.set(name, gate);
          await gate.promise;
        },
        { owner },
      );
    const a = Array.from({ length: 100 }, (_, i) => call('A', `a${i}`));
    await tick();
    expect(started).toEqual(['a0']);
    expect(limiter.waiting('host.test')).toBe(99);
    const b = call('B', 'b0');
    // A had the turn when B came: a1 takes the slot a0 frees, and B the next, before A's 98 others.
    gates.get('a0')!.resolve();
    await tick();
    gates.get('a1')!.resolve();
    await tick();
    expect(started).toEqual(['a0', 'a1', 'b0']);
    gates.get('b0')!.resolve();
    await b;
    for (let i = 2; i < 100; i++) {
      await tick();
      gates.get(`a${i}`)!.resolve();
    }
    await Promise.all(a);
    expect(started).toHaveLength(101);
    expect(limiter.active('host.test')).toBe(0);
  });

  it('takes turns between every owner waiting, each owner in its own arrival order', async () => {
    const limiter = new HostLimiter(2);
    const started: string[] = [];
    const hold = deferred();
    // Two calls of another host's owner hold both slots while the queue fills.
    const holders = [1, 2].map(() => limiter.run('h.test', () => hold.promise, { owner: 'H' }));
    const runs = [
      ...['a1', 'a2', 'a3', 'a4'].map((n) => ({ owner: 'A', n })),
      ...['b1', 'b2'].map((n) => ({ owner: 'B', n })),
      { owner: 'C', n: 'c1' },
      { owner: 'A', n: 'a5' },
    ].map(({ owner, n }) =>
      limiter.run(
        'h.test',
        async () => {
          started.push(n);
        },
        { owner },
      ),
    );
    hold.resolve();
    await Promise.all([...holders, ...runs]);
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4', 'a5']);
  });

  it('drops a waiting call whose signal aborts: it never runs and its turn passes', async () => {
    const limiter = new HostLimiter(1);
    const gate = deferred();
    const started: string[] = [];
    const first = limiter.run('a.test', () => gate.promise);
    const controller = new AbortController();
    const dropped = limiter.run('a.test', async () => started.push('dropped'), {
      owner: 'A',
      signal: controller.signal,
    });
    const next = limiter.run('a.test', async () => started.push('next'), { owner: 'A' });
    await tick();
    expect(limiter.waiting('a.test')).toBe(2);
    controller.abort(new Error('deadline'));
    await expect(dropped).rejects.toThrow('deadline');
    expect(limiter.waiting('a.test')).toBe(1);
    gate.resolve();
    await first;
    await next;
    expect(started).toEqual(['next']);
    // An aborted signal is refused before it takes a slot.
    await expect(
      limiter.run('a.test', async () => started.push('late'), { signal: controller.signal }),
    ).rejects.toThrow('deadline');
    expect(started).toEqual(['next']);
    expect(limiter.active('a.test')).toBe(0);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => new HostLimiter(0)).toThrow(RangeError);
    expect(() => new HostLimiter(1.5)).toThrow(RangeError);
  });
});
