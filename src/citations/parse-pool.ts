/**
 * Untrusted documents are parsed outside the worker's event loop, in a small
 * pool of worker threads, each task under hard bounds.
 *
 * A cited page is chosen by whoever wrote the text an agent read, so its
 * parsing cost is chosen by them too: HTML that makes the parser quadratic, a
 * PDF whose streams inflate to gigabytes, a PDF of 20,000 pages. On the event
 * loop such a document froze the whole worker (health checks, lock renewals,
 * every other queue) for minutes and drove it to gigabytes of memory. Here a
 * document is parsed in a thread (node:worker_threads), and:
 *
 * - each thread has a V8 heap limit (`resourceLimits.maxOldGenerationSizeMb`);
 *   a document that reaches it ends the thread (ERR_WORKER_OUT_OF_MEMORY);
 * - each task has a time limit, counted in the CPU time of its thread
 *   (thread-cpu.ts) where the system tells it, and on the clock at
 *   CLOCK_FACTOR times that in any case; past either the thread is terminated;
 * - memory outside the heap (the ArrayBuffers pdf.js inflates streams into,
 *   which the heap limit does not count) is watched from here: while tasks
 *   run, the process's resident memory is sampled, and a task during which
 *   it grew by more than twice the heap limit has its thread terminated;
 * - a thread that ends in any of these ways is replaced at once, and its task
 *   gets a result, `content_too_slow` or `content_too_large`, never an
 *   exception.
 *
 * After a document's text, its thread scans it for instructions addressed to
 * an AI reader (src/safety/citations/injection-scan.ts), under a time
 * limit of its own (the same `timeoutMs`, counted afresh): a thread ended
 * during the scan gives the text without a scan (`scanFailed`), never a
 * failure of the document.
 *
 * The body is moved to the thread (transfer list), not copied. Tasks wait in
 * a first-in, first-out queue for a free thread; threads start on demand, up
 * to `threads`, and stay. `close()` ends them all.
 */
import { Worker } from 'node:worker_threads';
import type { DocumentLimits, ExtractFailure, Extraction } from './extract.js';
import type { ParseRequest, ParseThreadMessage } from './parse-thread.js';
import { parseThreadScript } from './thread-script.js';
import { threadCpuMs } from './thread-cpu.js';
import { CosciError } from '../errors.js';
import { failedAs, inSpan } from '../telemetry/spans.js';

/** How a task ended, for metrics: its result, or why its thread was ended. */
export type ParseOutcome = 'ok' | 'unreadable' | 'too_slow' | 'too_large' | 'crashed';
/** Why a thread was ended under a task. */
export type KillReason = 'too_slow' | 'too_large' | 'crashed';

export const KILL_REASONS: readonly KillReason[] = ['too_slow', 'too_large', 'crashed'];
export const PARSE_OUTCOMES: readonly ParseOutcome[] = ['ok', 'unreadable', 'too_slow', 'too_large', 'crashed'];

export interface ParsePoolObserver {
  /** A task finished (run time, from the thread taking it to its result). */
  task?(outcome: ParseOutcome, seconds: number): void;
  /** A task was taken by a thread after waiting this long in the queue. */
  waited?(seconds: number): void;
  /** A thread was ended under its task. */
  killed?(reason: KillReason): void;
  /** The threads now running a task, and those started and idle. */
  threads?(busy: number, idle: number): void;
}

export interface ParsePoolOptions {
  /** Threads at most. @see `citations.parse_threads` */
  threads: number;
  /**
   * Bound of one document in its thread, in the thread's CPU time where the
   * system tells it; on the clock, CLOCK_FACTOR times this in any case.
   * @see `citations.parse_timeout_ms`
   */
  timeoutMs: number;
  /** V8 heap limit of each thread, in MiB. @see `citations.parse_max_heap_mb` */
  maxHeapMb: number;
  /** Bounds each thread applies to a document itself. */
  limits: DocumentLimits;
  /**
   * Growth of the process's resident memory, in bytes, above which a running
   * task's thread is ended (`content_too_large`); 0 turns the watch off.
   * @defaultValue twice `maxHeapMb`: the heap, and as much again outside it
   */
  maxGrowthBytes?: number;
  /** How often resident memory is sampled while a task runs. @defaultValue 50 */
  memorySampleMs?: number;
  observer?: ParsePoolObserver;
}

/** The pool was closed; the document was not parsed. Not a property of the document: never cached. */
export class ParsePoolClosedError extends CosciError {
  override readonly name = 'ParsePoolClosedError';
  constructor() {
    super('PARSE_POOL_CLOSED', 'the document parsing pool is closed');
  }
}

interface Task {
  id: number;
  body: Uint8Array;
  contentType: string | undefined;
  queuedAt: number;
  resolve(result: Extraction): void;
  reject(err: Error): void;
}

interface Running {
  task: Task;
  startedAt: number;
  rssAtStart: number;
  timer: NodeJS.Timeout | undefined;
  /** What the thread does now, for the message when it takes too long. */
  step: string;
  /** When the step began, on the clock (performance.now()). */
  stepAt: number;
  /** The thread's CPU time, in ms, when the step began; undefined where it cannot be read. */
  cpuAt: number | undefined;
  /** The document's text, once extracted, while its scan runs. */
  extracted?: Extraction & { ok: true };
}

interface Slot {
  /** Undefined while the script is still being located. */
  worker: Worker | undefined;
  ready: boolean;
  /** The thread's id in the kernel, which its CPU time is read by; undefined where it is not known. */
  tid: number | undefined;
  running: Running | undefined;
  /** Set once the thread is ended or gone: its events are ignored from then on. */
  dead: boolean;
}

const MiB = 1024 * 1024;

/**
 * A step may take this many times `timeoutMs` on the clock, however little
 * CPU time it used: a host so loaded that a thread gets a quarter of a CPU
 * still gets an answer in bounded time.
 */
export const CLOCK_FACTOR = 4;
/** The shortest wait before the CPU time is read again, so a step near its bound is not polled in a loop. */
const MIN_RECHECK_MS = 25;

/** The body's own buffer when it can be moved to the thread as it is; otherwise a copy to move. */
function transferable(body: Uint8Array): ArrayBuffer {
  const buffer = body.buffer;
  if (buffer instanceof ArrayBuffer && body.byteOffset === 0 && body.byteLength === buffer.byteLength) return buffer;
  // A view on part of a buffer (Node's small Buffers share one pool): moving
  // the buffer would take the rest of it from its other owners.
  return new Uint8Array(body).buffer;
}

export class ParsePool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Task[] = [];
  private readonly maxGrowthBytes: number;
  private readonly sampleMs: number;
  private sampler: NodeJS.Timeout | undefined;
  private nextId = 1;
  private closed = false;
  private readonly ending = new Set<Promise<number>>();

  constructor(private readonly options: ParsePoolOptions) {
    for (const key of ['threads', 'timeoutMs', 'maxHeapMb'] as const) {
      const value = options[key];
      if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${key} must be a positive integer`);
    }
    this.maxGrowthBytes = options.maxGrowthBytes ?? 2 * options.maxHeapMb * MiB;
    this.sampleMs = options.memorySampleMs ?? 50;
    this.report();
  }

  /**
   * The text of a document, normalised, or why there is none. Takes the
   * body: its buffer is moved to the thread, and the caller's view is empty
   * afterwards. Rejects only with {@link ParsePoolClosedError}.
   */
  extract(body: Uint8Array, contentType: string | undefined): Promise<Extraction> {
    if (this.closed) return Promise.reject(new ParsePoolClosedError());
    // The span covers the wait for a thread too: a document that waited long shows as such.
    const attributes = {
      // The media type alone, bounded: the header is the page's to write.
      'cosci.document.media_type': (contentType ?? '').split(';')[0]!.trim().toLowerCase().slice(0, 100),
      'cosci.document.bytes': body.byteLength,
    };
    return inSpan('parse document', { attributes }, async (span) => {
      const extraction = await new Promise<Extraction>((resolve, reject) => {
        this.queue.push({ id: this.nextId++, body, contentType, queuedAt: performance.now(), resolve, reject });
        this.dispatch();
      });
      if (!extraction.ok) failedAs(span, extraction.reason);
      else if (extraction.truncated) span.setAttribute('cosci.document.truncated', true);
      return extraction;
    });
  }

  /** Threads started and not ended. */
  get size(): number {
    return this.slots.size;
  }

  /**
   * Ends every thread. Tasks still queued or running are rejected with
   * {@link ParsePoolClosedError} (at shutdown the jobs that asked for them
   * have finished or been given up); resolves once the threads are gone.
   */
  async close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      for (const task of this.queue.splice(0)) task.reject(new ParsePoolClosedError());
      for (const slot of this.slots) {
        const running = slot.running;
        this.end(slot);
        if (running) running.task.reject(new ParsePoolClosedError());
      }
      this.report();
    }
    await Promise.all(this.ending);
  }

  /** Gives queued tasks to idle threads, and starts threads for the rest, up to the limit. */
  private dispatch(): void {
    if (this.closed) return;
    let starting = 0;
    for (const slot of this.slots) {
      if (!slot.ready) starting++;
      else if (slot.running === undefined && this.queue.length > 0) this.run(slot, this.queue.shift()!);
    }
    // Each thread starting will take one of the tasks left.
    for (; this.queue.length > starting && this.slots.size < this.options.threads; starting++) this.start();
    for (const slot of this.slots) holdOpen(slot);
    this.report();
  }

  private start(): void {
    const slot: Slot = { worker: undefined, ready: false, tid: undefined, running: undefined, dead: false };
    this.slots.add(slot);
    parseThreadScript().then(
      (script) => {
        if (!slot.dead) this.attach(slot, script);
      },
      (err: unknown) => {
        // No script, no threads: the documents waiting fail rather than hang.
        this.end(slot);
        this.failWaiting(`the parsing thread could not start: ${(err as Error).message}`);
        this.report();
      },
    );
  }

  private attach(slot: Slot, script: URL): void {
    const worker = new Worker(script, {
      workerData: this.options.limits,
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
      // The thread needs none of the process's Node options; an inspector or
      // a heap flag meant for the process must not apply to it.
      execArgv: [],
    });
    slot.worker = worker;
    worker.on('message', (message: ParseThreadMessage) => {
      if (slot.dead) return;
      if (message.type === 'ready') {
        slot.ready = true;
        slot.tid = message.tid;
        this.dispatch();
      } else if (slot.running !== undefined && slot.running.task.id === message.id) {
        if (message.type === 'result') {
          const { result } = message;
          if (result.ok) this.scanning(slot, result);
          else this.finish(slot, result, outcomeOf(result.reason));
        } else if (slot.running.extracted !== undefined) {
          this.finish(slot, { ...slot.running.extracted, scan: message.scan }, 'ok');
        }
      }
    });
    worker.on('error', (err: Error & { code?: string }) => {
      if (slot.dead) return;
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        this.kill(slot, 'too_large', `text extraction needed more than ${this.options.maxHeapMb} MiB of heap`);
      } else {
        this.kill(slot, 'crashed', `the parsing thread failed: ${err.message}`);
      }
    });
    worker.on('exit', (code) => {
      if (!slot.dead) this.kill(slot, 'crashed', `the parsing thread exited with code ${code}`);
    });
  }

  private run(slot: Slot, task: Task): void {
    const now = performance.now();
    this.options.observer?.waited?.((now - task.queuedAt) / 1000);
    slot.running = {
      task,
      startedAt: now,
      rssAtStart: process.memoryUsage.rss(),
      timer: undefined,
      step: 'text extraction',
      stepAt: now,
      cpuAt: undefined,
    };
    this.startStep(slot, 'text extraction');
    const request: ParseRequest = { id: task.id, body: transferable(task.body), contentType: task.contentType };
    try {
      slot.worker!.postMessage(request, [request.body]);
    } catch {
      // A buffer Node will not let go of (marked untransferable): a copy goes instead.
      const copy = new Uint8Array(new Uint8Array(request.body)).buffer;
      slot.worker!.postMessage({ ...request, body: copy }, [copy]);
    }
    this.watchMemory();
  }

  /** The text is extracted; the thread scans it next, under a time bound of its own. */
  private scanning(slot: Slot, extracted: Extraction & { ok: true }): void {
    slot.running!.extracted = extracted;
    this.startStep(slot, 'the injection scan');
  }

  /** Starts the time bound of the running task's next step. */
  private startStep(slot: Slot, step: string): void {
    const running = slot.running!;
    clearTimeout(running.timer);
    running.step = step;
    running.stepAt = performance.now();
    running.cpuAt = slot.tid === undefined ? undefined : threadCpuMs(slot.tid);
    running.timer = setTimeout(() => this.checkTime(slot), this.options.timeoutMs);
  }

  /** The step's bound came on the clock: ended, or looked at again (stepTime). */
  private checkTime(slot: Slot): void {
    const running = slot.running;
    if (running === undefined || slot.dead) return;
    const now = running.cpuAt === undefined ? undefined : threadCpuMs(slot.tid!);
    const verdict = stepTime({
      timeoutMs: this.options.timeoutMs,
      onClockMs: performance.now() - running.stepAt,
      cpuMs: now === undefined ? undefined : now - running.cpuAt!,
    });
    if (verdict.kind === 'again') running.timer = setTimeout(() => this.checkTime(slot), verdict.inMs);
    else this.kill(slot, 'too_slow', `${running.step} ${verdict.detail}`);
  }

  /** Resolves the slot's task with `result`, and gives the slot (if it lives) the next one. */
  private finish(slot: Slot, result: Extraction, outcome: ParseOutcome): void {
    const running = slot.running!;
    clearTimeout(running.timer);
    slot.running = undefined;
    this.options.observer?.task?.(outcome, (performance.now() - running.startedAt) / 1000);
    running.task.resolve(result);
    this.dispatch();
  }

  /**
   * Ends the slot's thread; its task, if any, gets the failure. A thread that
   * had started is replaced at once, so the next document finds one ready; one
   * that failed before it could take a document is not, and the documents
   * waiting fail too, rather than start thread after thread.
   */
  private kill(slot: Slot, reason: KillReason, detail: string): void {
    const started = slot.ready;
    this.end(slot);
    if (slot.running !== undefined) {
      this.options.observer?.killed?.(reason);
      const extracted = slot.running.extracted;
      // Ended during the scan: the text stands, without a scan.
      if (extracted !== undefined) this.finish(slot, { ...extracted, scanFailed: reason }, 'ok');
      else this.finish(slot, { ok: false, reason: FAILURE_OF_KILL[reason], detail }, reason);
    } else if (!started) {
      this.failWaiting(`the parsing thread could not start: ${detail}`);
    }
    if (started && !this.closed && this.slots.size < this.options.threads) this.start();
    this.dispatch();
  }

  /** Every queued document gets `unreadable_content`. */
  private failWaiting(detail: string): void {
    for (const task of this.queue.splice(0)) {
      this.options.observer?.task?.('crashed', 0);
      task.resolve({ ok: false, reason: 'unreadable_content', detail });
    }
  }

  /** Takes the slot out of the pool and terminates its thread. */
  private end(slot: Slot): void {
    if (slot.dead) return;
    slot.dead = true;
    this.slots.delete(slot);
    if (slot.running) clearTimeout(slot.running.timer);
    if (slot.worker !== undefined) {
      const ending = slot.worker.terminate().catch(() => 0);
      this.ending.add(ending);
      void ending.finally(() => this.ending.delete(ending));
    }
  }

  /** Samples resident memory while any task runs. */
  private watchMemory(): void {
    if (this.sampler !== undefined || this.maxGrowthBytes <= 0) return;
    this.sampler = setInterval(() => {
      const running = [...this.slots].filter((s) => s.running !== undefined);
      if (running.length === 0) {
        clearInterval(this.sampler);
        this.sampler = undefined;
        return;
      }
      const rss = process.memoryUsage.rss();
      for (const slot of running) {
        const grown = rss - slot.running!.rssAtStart;
        if (grown > this.maxGrowthBytes) {
          this.kill(
            slot,
            'too_large',
            `resident memory grew by ${Math.round(grown / MiB)} MiB while the document was read (limit ${Math.round(this.maxGrowthBytes / MiB)} MiB)`,
          );
        }
      }
    }, this.sampleMs);
    this.sampler.unref();
  }

  private report(): void {
    let busy = 0;
    let idle = 0;
    for (const slot of this.slots) {
      if (slot.running !== undefined) busy++;
      else if (slot.ready) idle++;
    }
    this.options.observer?.threads?.(busy, idle);
  }
}

/**
 * Whether a step past its bound on the clock is ended: when it used
 * `timeoutMs` of CPU time (or its CPU time cannot be read), or has had
 * CLOCK_FACTOR times that on the clock. Otherwise it waited for a CPU, and is
 * looked at again once it could have used the CPU time it has left.
 */
export function stepTime(at: {
  timeoutMs: number;
  onClockMs: number;
  cpuMs: number | undefined;
}): { kind: 'again'; inMs: number } | { kind: 'end'; detail: string } {
  const { timeoutMs, onClockMs, cpuMs } = at;
  if (cpuMs === undefined) return { kind: 'end', detail: `took longer than ${timeoutMs} ms` };
  if (cpuMs >= timeoutMs) return { kind: 'end', detail: `took longer than ${timeoutMs} ms of CPU time` };
  const clockLeft = CLOCK_FACTOR * timeoutMs - onClockMs;
  if (clockLeft <= 0) {
    return {
      kind: 'end',
      detail: `took longer than ${CLOCK_FACTOR * timeoutMs} ms on the clock (${Math.round(cpuMs)} ms of CPU time: the host is busy)`,
    };
  }
  return { kind: 'again', inMs: Math.max(MIN_RECHECK_MS, Math.min(timeoutMs - cpuMs, clockLeft)) };
}

const FAILURE_OF_KILL: Record<KillReason, ExtractFailure> = {
  too_slow: 'content_too_slow',
  too_large: 'content_too_large',
  crashed: 'unreadable_content',
};

function outcomeOf(reason: ExtractFailure): ParseOutcome {
  if (reason === 'content_too_slow') return 'too_slow';
  if (reason === 'content_too_large') return 'too_large';
  return 'unreadable';
}

/** A thread keeps the process alive while it starts or works, not while it waits for work. */
function holdOpen(slot: Slot): void {
  if (slot.dead || slot.worker === undefined) return;
  if (slot.ready && slot.running === undefined) slot.worker.unref();
  else slot.worker.ref();
}
