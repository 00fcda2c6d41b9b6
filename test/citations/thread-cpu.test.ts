/**
 * The CPU clock of a thread, and the parsing pool's rule for a step past its
 * bound: a thread that waited for a CPU is given the CPU time it has left;
 * one that used it, or has had CLOCK_FACTOR times the bound on the clock, is
 * ended.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { CLOCK_FACTOR, stepTime } from '../../src/citations/parse-pool.js';
import { threadCpuMs, threadId } from '../../src/citations/thread-cpu.js';

describe('stepTime', () => {
  it('ends a step that used its CPU time, or whose CPU time is unknown', () => {
    expect(stepTime({ timeoutMs: 1000, onClockMs: 1000, cpuMs: 1000 })).toEqual({
      kind: 'end',
      detail: 'took longer than 1000 ms of CPU time',
    });
    expect(stepTime({ timeoutMs: 1000, onClockMs: 1000, cpuMs: undefined })).toEqual({
      kind: 'end',
      detail: 'took longer than 1000 ms',
    });
  });

  it('gives a step that waited for a CPU the CPU time it has left, up to the bound on the clock', () => {
    expect(stepTime({ timeoutMs: 1000, onClockMs: 1000, cpuMs: 300 })).toEqual({ kind: 'again', inMs: 700 });
    // Near the bound on the clock: only what is left of that.
    expect(stepTime({ timeoutMs: 1000, onClockMs: CLOCK_FACTOR * 1000 - 100, cpuMs: 300 })).toEqual({
      kind: 'again',
      inMs: 100,
    });
    // Never polled in a loop.
    expect(stepTime({ timeoutMs: 1000, onClockMs: 1000, cpuMs: 999 })).toEqual({ kind: 'again', inMs: 25 });
    const end = stepTime({ timeoutMs: 1000, onClockMs: CLOCK_FACTOR * 1000, cpuMs: 300 });
    expect(end).toEqual({
      kind: 'end',
      detail: `took longer than ${CLOCK_FACTOR * 1000} ms on the clock (300 ms of CPU time: the host is busy)`,
    });
  });
});

describe.skipIf(process.platform !== 'linux')('threadCpuMs', () => {
  it("reads another thread's CPU time, which counts its work and not its sleep", async () => {
    // The thread works until it has used 300 ms of CPU, then sleeps 600 ms, then waits to be ended.
    const source = `
      const { parentPort } = require('node:worker_threads');
      const fs = require('node:fs');
      const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
      const cpu = () => {
        const s = fs.readFileSync('/proc/self/task/' + tid + '/stat', 'latin1');
        const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
        return (Number(f[11]) + Number(f[12])) * 10;
      };
      parentPort.postMessage({ tid });
      let x = 0;
      while (cpu() < 300) for (let i = 0; i < 1e5; i++) x += i;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600);
      parentPort.postMessage({ done: x > 0 });
      // Stays, so that its clock can still be read; terminated below.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000);
    `;
    const worker = new Worker(source, { eval: true });
    try {
      const started = performance.now();
      let tid = 0;
      await new Promise<void>((resolve, reject) => {
        worker.on('error', reject);
        worker.on('message', (m: { tid?: number; done?: boolean }) => {
          if (m.tid !== undefined) tid = m.tid;
          if (m.done !== undefined) resolve();
        });
      });
      const onClock = performance.now() - started;
      const used = threadCpuMs(tid);
      expect(onClock).toBeGreaterThanOrEqual(900);
      expect(used).toBeGreaterThanOrEqual(300);
      // Its sleep is not counted; the read of its clock in the loop may add a little.
      expect(used).toBeLessThan(500);
      // This thread's own id is not the other's, and its clock reads too.
      expect(threadId()).not.toBe(tid);
      expect(threadCpuMs(threadId()!)).toBeGreaterThan(0);
    } finally {
      await worker.terminate();
    }
  });

  it('gives undefined for a thread that is not there', () => {
    expect(threadCpuMs(2 ** 30)).toBeUndefined();
  });
});
