/**
 * The script of a parsing thread (see parse-pool.ts): it extracts the text of
 * one document at a time and posts the result back. The pool bounds it from
 * outside (heap limit, CPU time and clock, memory); nothing here needs to.
 *
 * Messages in: `{ id, body, contentType }` (`body` an ArrayBuffer the pool
 * transferred). Out: `{ type: 'ready', tid }` once the parsers are loaded, then
 * `{ type: 'result', id, result }` per document, and after a result with
 * text, `{ type: 'scanned', id, scan }`: the injection scan of that text
 * (src/safety/citations/injection-scan.ts). The scan is a second step with
 * its own time bound in the pool, so that a slow scan never turns a readable
 * document into `content_too_slow`.
 */
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { preloadPdfJs } from '../safety/citations/pdf-text.js';
import { matchedSources, scanSources, type SourceScan } from '../safety/citations/index.js';
import { extractDocument, mediaType, type DocumentLimits, type Extraction } from './extract.js';
import { threadId } from './thread-cpu.js';

export interface ParseRequest {
  id: number;
  body: ArrayBuffer;
  contentType: string | undefined;
}

export type ParseThreadMessage =
  /** `tid`: the thread's id in the kernel, by which the pool reads its CPU time (thread-cpu.ts). */
  | { type: 'ready'; tid: number | undefined }
  | { type: 'result'; id: number; result: Extraction }
  | { type: 'scanned'; id: number; scan: SourceScan };

const port = parentPort;
if (port === null) throw new Error('parse-thread.ts runs as a worker thread of the parsing pool');
const limits = workerData as DocumentLimits;

// Parsing is background work: when the CPUs are busy, the event loop (health
// checks, lock renewals, every other queue) must get them first, or it waits
// its turn behind the parsers. On Linux the nice value is per thread
// (setpriority(2), NOTES), so this lowers this thread only; elsewhere it
// would lower the whole process, and is left alone.
if (process.platform === 'linux') {
  try {
    setPriority(constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // Not allowed (a seccomp profile): the thread runs at the process's priority.
  }
}

// pdf.js is large: loaded before the thread reports ready, so that its
// loading never counts against the first PDF's time bound.
await preloadPdfJs();

port.on('message', (request: ParseRequest) => {
  void extractDocument(new Uint8Array(request.body), request.contentType, limits).then((result) => {
    // The texts kept for the scan only (markup, UTF-7) stay in the thread.
    const posted: Extraction = result.ok ? { ...result, sources: matchedSources(result.sources) } : result;
    const message: ParseThreadMessage = { type: 'result', id: request.id, result: posted };
    port.postMessage(message);
    if (!result.ok) return;
    const kind = mediaType(request.contentType) === 'application/pdf' ? 'pdf' : 'page';
    const scanned: ParseThreadMessage = { type: 'scanned', id: request.id, scan: scanSources(result.sources, kind) };
    port.postMessage(scanned);
  });
});
port.postMessage({ type: 'ready', tid: threadId() } satisfies ParseThreadMessage);
