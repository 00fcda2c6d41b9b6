/**
 * Reads a response body under two caps: bytes on the wire and bytes after
 * decompression. Decompression is done here, with zlib streams, rather than
 * by undici, so the decoded size is counted as it is produced: a gzip bomb
 * (megabytes of zeros in a few kilobytes) stops at the cap instead of being
 * inflated whole.
 */
import type { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';

export interface BodyLimits {
  /** Bytes of the body as received (after de-chunking, before decompression). */
  maxBytes: number;
  /** Bytes after decompression; for an unencoded body, the same bytes. */
  maxDecodedBytes: number;
}

export type BodyResult =
  | { ok: true; body: Uint8Array; wireBytes: number }
  | { ok: false; reason: 'too_large' | 'unsupported_encoding'; detail: string; wireBytes: number };

type Coding = 'gzip' | 'deflate' | 'br';

/** What a fetch sends as accept-encoding: exactly the codings decoded here. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

const ALIASES: Record<string, Coding> = { gzip: 'gzip', 'x-gzip': 'gzip', deflate: 'deflate', br: 'br' };

/**
 * The coding of a content-encoding header, or an error text. Several stacked
 * codings are refused: no server we need sends them, and each layer would be
 * one more decoder to bound.
 */
export function parseContentEncoding(
  header: string | string[] | undefined,
): { ok: true; coding: Coding | undefined } | { ok: false; detail: string } {
  const raw = Array.isArray(header) ? header.join(',') : (header ?? '');
  const codings = raw
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return { ok: true, coding: undefined };
  if (codings.length > 1) return { ok: false, detail: `stacked content-encoding ${JSON.stringify(raw)}` };
  const coding = ALIASES[codings[0]!];
  if (!coding) return { ok: false, detail: `content-encoding ${JSON.stringify(codings[0]!.slice(0, 40))}` };
  return { ok: true, coding };
}

// Truncated streams decode as far as they go, as browsers do, instead of
// failing the whole page on a missing trailer.
const ZLIB_OPTIONS: zlib.ZlibOptions = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_OPTIONS: zlib.BrotliOptions = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};

/**
 * HTTP "deflate" means a zlib stream (RFC 9110 8.4.1.2), but some servers
 * send raw deflate; the two-byte zlib header tells them apart.
 */
function isZlibHeader(bytes: Buffer): boolean {
  const cmf = bytes[0]!;
  const flg = bytes[1]!;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0;
}

function createDecoder(coding: Coding, head: Buffer): Transform {
  switch (coding) {
    case 'gzip':
      return zlib.createGunzip(ZLIB_OPTIONS);
    case 'deflate':
      return head.length >= 2 && !isZlibHeader(head)
        ? zlib.createInflateRaw(ZLIB_OPTIONS)
        : zlib.createInflate(ZLIB_OPTIONS);
    case 'br':
      return zlib.createBrotliDecompress(BROTLI_OPTIONS);
  }
}

/**
 * Drops a body we will not read to its end. undici's body emits an error when
 * destroyed early; nobody listens for it then, and an unheard 'error' event
 * would crash the process.
 */
export function releaseBody(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** Resolves when the decoder accepts more input, or has stopped. */
function writable(decoder: Transform): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      decoder.off('drain', done);
      decoder.off('close', done);
      resolve();
    };
    if (decoder.destroyed) {
      resolve();
      return;
    }
    decoder.on('drain', done);
    decoder.on('close', done);
  });
}

/** Ends the decoder's input and resolves once it has flushed its output, or stopped. */
function ended(decoder: Transform): Promise<void> {
  return new Promise((resolve) => {
    if (decoder.destroyed) {
      resolve();
      return;
    }
    decoder.once('close', () => resolve());
    decoder.end();
  });
}

/**
 * Reads `body` to the end or to the first cap passed. The body stream is
 * consumed or destroyed on every path, so its socket goes back to the pool
 * or is closed. Network errors (timeouts, resets, aborts) are thrown as the
 * stream raised them; the caller names them.
 */
export async function readBody(body: Readable, coding: Coding | undefined, limits: BodyLimits): Promise<BodyResult> {
  const chunks: Buffer[] = [];
  let wireBytes = 0;
  let decodedBytes = 0;
  let decoder: Transform | undefined;
  let head: Buffer | undefined; // bytes held back until the deflate flavour is known
  let overflow = false;
  let decodeError: Error | undefined;

  const tooLarge = (what: 'wire' | 'decoded'): BodyResult => {
    decoder?.destroy();
    releaseBody(body);
    const detail =
      what === 'wire'
        ? `body exceeds ${limits.maxBytes} bytes on the wire`
        : `body exceeds ${limits.maxDecodedBytes} bytes after decompression (${wireBytes} bytes received)`;
    return { ok: false, reason: 'too_large', detail, wireBytes };
  };
  const invalid = (err: Error): BodyResult => {
    decoder?.destroy();
    releaseBody(body);
    return { ok: false, reason: 'unsupported_encoding', detail: `invalid ${coding} data: ${err.message}`, wireBytes };
  };
  const start = (c: Coding, first: Buffer): Transform => {
    const d = createDecoder(c, first);
    d.on('data', (out: Buffer) => {
      if (overflow) return;
      decodedBytes += out.length;
      if (decodedBytes > limits.maxDecodedBytes) {
        overflow = true;
        // Stops zlib between two output chunks: the rest is never inflated.
        d.destroy();
      } else {
        chunks.push(out);
      }
    });
    d.on('error', (err: Error) => {
      decodeError ??= err;
    });
    return d;
  };
  const feed = async (d: Transform, bytes: Buffer) => {
    // Destroyed on overflow between two chunks: the rest is not decoded.
    if (!d.destroyed && !d.write(bytes)) await writable(d);
  };

  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      wireBytes += chunk.length;
      if (wireBytes > limits.maxBytes) return tooLarge('wire');
      if (coding === undefined) {
        decodedBytes += chunk.length;
        if (decodedBytes > limits.maxDecodedBytes) return tooLarge('decoded');
        chunks.push(chunk);
        continue;
      }
      if (!decoder) {
        head = head ? Buffer.concat([head, chunk]) : chunk;
        if (coding === 'deflate' && head.length < 2) continue;
        decoder = start(coding, head);
        await feed(decoder, head);
        head = undefined;
      } else {
        await feed(decoder, chunk);
      }
      if (overflow) return tooLarge('decoded');
      if (decodeError) return invalid(decodeError);
    }
  } catch (err) {
    decoder?.destroy();
    releaseBody(body);
    throw err;
  }

  if (coding !== undefined && !decoder && head) {
    // A deflate body shorter than its two-byte header.
    decoder = start(coding, head);
    decoder.write(head);
  }
  if (decoder) {
    await ended(decoder);
    if (overflow) return tooLarge('decoded');
    if (decodeError) return invalid(decodeError);
  }
  return { ok: true, body: Buffer.concat(chunks), wireBytes };
}
