/**
 * The CPU time of one thread of this process, so that a parsing thread's
 * time bound counts the work it did, not the time it waited for a CPU.
 *
 * Why: parsing threads run at a lower priority than the event loop
 * (parse-thread.ts), so on a loaded host they are the first to wait. A
 * bound on the clock then ended readable documents as `content_too_slow`
 * exactly when the host was busy, and a document's outcome depended on what
 * else ran beside it. The CPU time a document costs does not.
 *
 * Linux only (proc(5): /proc/thread-self, /proc/self/task/TID/stat); where
 * the files are missing, `threadId()` gives undefined and the pool bounds
 * the clock alone. Node has no per-thread CPU clock of its own before 23.
 */
import { readFileSync, readlinkSync } from 'node:fs';

/**
 * The kernel reports times in clock ticks of USER_HZ, which is 100 on every
 * architecture Node runs on (sysconf(_SC_CLK_TCK); proc(5) calls it USER_HZ).
 */
const TICK_MS = 10;

/** The kernel's id of the calling thread (its TID), or undefined where /proc does not tell. */
export function threadId(): number | undefined {
  try {
    // "PID/task/TID", the link of the calling thread's own directory.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isSafeInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * User and system CPU time of thread `tid` of this process, in ms (10 ms
 * steps), or undefined when it cannot be read (the thread is gone, no /proc).
 */
export function threadCpuMs(tid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // The second field, the command name, is in parentheses and may hold spaces
  // or parentheses itself: the fields are counted from its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of the file (utime, stime); fields[0] is field 3.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
  return (utime + stime) * TICK_MS;
}
