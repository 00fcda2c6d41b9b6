/**
 * Measuring memory in tests that bound it: what stays referenced after a
 * full collection, and the peak resident set size over a stretch of work.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A full collection, so that what is measured after it is what is still referenced. */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * What is still referenced after a full collection: the JavaScript heap
 * (where strings and objects live) and memory outside it (buffers). The rss
 * after the fact says little: the allocator keeps freed pages resident.
 */
export function heldMemory(): { heap: number; outside: number } {
  collectGarbage();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, outside: m.external };
}

/** Starts a new peak for {@link peakRss} (Linux); elsewhere a no-op. */
export function resetPeakRss(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux, or not allowed: peakRss() falls back to the maximum so far.
  }
}

/**
 * The peak resident set size since {@link resetPeakRss}: the kernel's
 * high-water mark (VmHWM), which also sees peaks inside synchronous work
 * that a sampling timer would miss. Where there is none, the process's
 * maximum so far, which can only overstate the peak.
 */
export function peakRss(): number {
  try {
    const m = /VmHWM:\s*(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // Not Linux.
  }
  return process.resourceUsage().maxRSS * 1024;
}
