/**
 * How far the compressed streams of a PDF inflate, measured before pdf.js
 * reads the file.
 *
 * A FlateDecode stream of a few megabytes can inflate to gigabytes (a
 * "decompression bomb"), and pdf.js has no bound of its own: it inflates a
 * content stream whole, into a buffer it doubles as it grows, which lives
 * outside the JavaScript heap and so outside a worker thread's heap limit.
 * This scan finds every stream, inflates the ones that start with a zlib
 * header (and any zlib stream found inside, for filters applied twice) with
 * Node's zlib, and stops counting as soon as the total passes the limit: the
 * work and memory it spends are bounded by the limit, not by the bomb.
 *
 * Image XObjects are not counted: text extraction never decodes them, and
 * real papers hold figures that inflate to hundreds of megabytes. A stream
 * that only pretends to be an image, encrypted streams, and other filters
 * (LZW, run-length, a hex or ASCII85 layer around Flate) are not seen here;
 * the memory watchdog of the parsing pool is the bound for those.
 */
import { constants, inflateSync } from 'node:zlib';

/** How far back from `stream` to look for the start of its dictionary. */
const DICT_WINDOW = 64 * 1024;
const IMAGE = /\/Subtype\s*\/Image(?![A-Za-z0-9])/;

/** A zlib stream header (RFC 1950): deflate, a window of at most 32 KiB, a valid check, no preset dictionary. */
function isZlibHeader(bytes: Uint8Array, at: number): boolean {
  if (at + 1 >= bytes.length) return false;
  const cmf = bytes[at]!;
  const flg = bytes[at + 1]!;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0 && (flg & 0x20) === 0;
}

/** The text of the dictionary that ends just before `at` (the `stream` keyword), or undefined. */
function dictionaryBefore(pdf: Buffer, at: number): string | undefined {
  let end = at - 1;
  while (end >= 0 && (pdf[end] === 0x20 || pdf[end] === 0x0a || pdf[end] === 0x0d || pdf[end] === 0x09)) end--;
  if (end < 1 || pdf[end] !== 0x3e || pdf[end - 1] !== 0x3e) return undefined;
  const floor = Math.max(0, end - DICT_WINDOW);
  // Match `>>` with its `<<`, through nested dictionaries (/DecodeParms << ... >>).
  let depth = 0;
  for (let i = end; i > floor; i--) {
    if (pdf[i] === 0x3e && pdf[i - 1] === 0x3e) {
      depth++;
      i--;
    } else if (pdf[i] === 0x3c && pdf[i - 1] === 0x3c) {
      depth--;
      i--;
      if (depth === 0) return pdf.toString('latin1', i, end + 1);
    }
  }
  return undefined;
}

/**
 * The bytes `data` inflates to, layer after layer while the output is itself
 * a zlib stream; past `budget`, a number above it. Data that is not a zlib
 * stream, or that is damaged, counts what could not be told (0): pdf.js
 * stops at the same damage.
 */
function inflatedSize(data: Uint8Array, budget: number): number {
  let total = 0;
  let layer = data;
  while (isZlibHeader(layer, 0)) {
    let out: Buffer;
    try {
      // Truncated data inflates as far as it goes, as pdf.js reads it.
      out = inflateSync(layer, { maxOutputLength: budget - total + 1, finishFlush: constants.Z_SYNC_FLUSH });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return budget + 1;
      return total;
    }
    total += out.length;
    if (total > budget) return total;
    layer = out;
  }
  return total;
}

/**
 * The bytes the compressed streams of `pdf` inflate to, images left out; once
 * the total passes `limit` the scan stops and returns a number above it.
 */
export function inflatedStreamBytes(pdf: Uint8Array, limit: number): number {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  let total = 0;
  let at = bytes.indexOf('stream', 0, 'latin1');
  while (at >= 0 && total <= limit) {
    const next = at + 6;
    // `endstream` is the end of the previous one.
    if (at >= 3 && bytes.toString('latin1', at - 3, at) === 'end') {
      at = bytes.indexOf('stream', next, 'latin1');
      continue;
    }
    // The data starts after the end of line that follows the keyword.
    let start = next;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] === 0x0a) start++;
    const end = bytes.indexOf('endstream', start, 'latin1');
    const stop = end < 0 ? bytes.length : end;
    if (isZlibHeader(bytes, start)) {
      const dict = dictionaryBefore(bytes, at);
      if (dict === undefined || !IMAGE.test(dict)) {
        total += inflatedSize(bytes.subarray(start, stop), limit - total);
      }
    }
    if (end < 0) break;
    at = bytes.indexOf('stream', end + 9, 'latin1');
  }
  return total;
}
