/**
 * Reading a small JSON request body with a bound on its size, so a client
 * cannot make the worker buffer without end. A declared Content-Length over
 * the bound is refused before a byte is read; a chunked body is counted as it
 * arrives and refused as soon as it passes the bound.
 */
import type { IncomingMessage } from 'node:http';

export type BodyProblem = 'too_large' | 'not_utf8' | 'not_json' | 'aborted';

export class BodyError extends Error {
  override name = 'BodyError';
  constructor(
    readonly problem: BodyProblem,
    message: string,
  ) {
    super(message);
  }
}

/** Resolves to the parsed JSON value; rejects with a `BodyError`. */
export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.reject(new BodyError('too_large', `the body is larger than ${maxBytes} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (err: BodyError) => {
      req.off('data', onData);
      req.off('end', onEnd);
      // Buffer no further; the caller answers, then discardBody reads off the rest.
      req.pause();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return stop(new BodyError('too_large', `the body is larger than ${maxBytes} bytes`));
      chunks.push(chunk);
    };
    const onEnd = () => {
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
      } catch {
        return reject(new BodyError('not_utf8', 'the body is not UTF-8'));
      }
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new BodyError('not_json', 'the body is not valid JSON'));
      }
    };
    req.on('data', onData);
    req.on('end', onEnd);
    const gone = () => stop(new BodyError('aborted', 'the client went away'));
    req.once('error', gone);
    req.once('close', () => {
      if (!req.complete) gone();
    });
  });
}

/**
 * After answering a request whose body was not read (refused, or too large),
 * reads and drops up to `maxBytes` more of it, then drops the connection.
 * Closing a socket with unread data makes the kernel send a reset, and the
 * client may lose the answer it was sent (the reason for Apache's
 * "lingering close"); reading it off lets the client see the status, and the
 * bound stops a client from making the worker read without end.
 */
export function discardBody(req: IncomingMessage, maxBytes = 256 * 1024): void {
  if (req.complete || req.destroyed) return;
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > maxBytes) req.socket.destroy();
  });
  req.on('error', () => undefined);
  req.resume();
}
