/**
 * Bytes of a fetched page to text, in the order the WHATWG specifications give:
 * a byte order mark first, then the charset of the HTTP Content-Type header,
 * then (for HTML) a `<meta>` in the first 1024 bytes, then a guess.
 *
 * The BOM wins over the header: the Encoding standard's "decode" algorithm
 * sniffs it before using the encoding it is given, and the HTML encoding
 * sniffing algorithm puts it first for the same reason (a server's header is
 * more often wrong than a BOM the file was saved with).
 * See https://encoding.spec.whatwg.org/#decode and
 * https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm
 *
 * Labels are resolved by Node's TextDecoder, which follows the Encoding standard
 * (`iso-8859-1`, `latin1` and `ascii` mean windows-1252, `gb2312` means gbk, ...).
 * A label it does not know falls through to the next source.
 */
import { Buffer, isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';

export type CharsetSource = 'header' | 'bom' | 'meta' | 'default';

export interface DecodedBody {
  /** The text, without a byte order mark. */
  text: string;
  /** The canonical name of the encoding used (`utf-8`, `windows-1252`, `shift_jis`, ...). */
  charset: string;
  /** Where the encoding came from. */
  source: CharsetSource;
  /**
   * The bytes decoded as UTF-7, when the page declares it (a UTF-7 byte order
   * mark, or the charset of the header or of a `<meta>`). The Encoding
   * standard does not know UTF-7, so `text` is decoded as if it were not
   * declared, as a browser does; this is for the injection scan, since a
   * reader that decodes UTF-7 reads another text (`+AEk-gnore` is `Ignore`).
   */
  utf7?: string;
}

/** The labels of UTF-7. */
const UTF7_LABELS = new Set(['utf-7', 'utf7', 'unicode-1-1-utf-7', 'csunicode11utf7', 'x-unicode-2-0-utf-7']);

function isUtf7Label(label: string | undefined): boolean {
  return label !== undefined && UTF7_LABELS.has(label.trim().toLowerCase());
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) BASE64_VALUE[BASE64.charCodeAt(i)] = i;

/**
 * UTF-7 (RFC 2152) to text: `+` opens a run of modified base64 holding
 * UTF-16 code units, ended by the first character outside base64 (a `-`
 * that ends it is dropped); `+-` is `+`; every other byte is the ASCII
 * character it is. A byte order mark at the start is dropped.
 */
export function decodeUtf7(bytes: Uint8Array): string {
  const out: string[] = [];
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    if (b !== 0x2b) {
      out.push(String.fromCharCode(b));
      i++;
      continue;
    }
    i++;
    if (bytes[i] === 0x2d) {
      out.push('+');
      i++;
      continue;
    }
    let acc = 0;
    let bits = 0;
    while (i < n && bytes[i]! < 128 && BASE64_VALUE[bytes[i]!]! >= 0) {
      acc = ((acc << 6) | BASE64_VALUE[bytes[i]!]!) & 0xffffff;
      bits += 6;
      if (bits >= 16) {
        bits -= 16;
        out.push(String.fromCharCode((acc >> bits) & 0xffff));
      }
      i++;
    }
    if (bytes[i] === 0x2d) i++;
  }
  const text = out.join('');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Whether the bytes start with UTF-7's byte order mark, `+/v` then `8`, `9`, `+` or `/`. */
function hasUtf7Bom(bytes: Uint8Array): boolean {
  return bytes[0] === 0x2b && bytes[1] === 0x2f && bytes[2] === 0x76 && [0x38, 0x39, 0x2b, 0x2f].includes(bytes[3]!);
}

/** How many bytes the HTML prescan reads, as in the HTML standard. */
const PRESCAN_BYTES = 1024;

/** A decoder for a label, or undefined when the label is not one the Encoding standard knows. */
function decoderFor(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label.trim());
  } catch {
    return undefined;
  }
}

/**
 * Bytes 0x80–0x9F of windows-1252 (WHATWG index-windows-1252); every other
 * byte is the code point of the same value.
 */
const WINDOWS_1252_C1 =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';
const C1 = /[\u0080-\u009F]/g;

/**
 * windows-1252, decoded here rather than by TextDecoder: Node 20 sends that
 * label through its latin1 fast path, which turns 0x93 into U+0093 instead of
 * “ (https://github.com/nodejs/node/issues/56542). windows-1252 is also what
 * `iso-8859-1`, `latin1` and `ascii` mean, and the fallback for undeclared
 * pages, so it is the legacy encoding met most often.
 */
function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
    .toString('latin1')
    .replace(C1, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80]!);
}

function decode(decoder: TextDecoder, bytes: Uint8Array, source: CharsetSource): DecodedBody {
  const charset = decoder.encoding;
  // TextDecoder drops a BOM of its own encoding (ignoreBOM defaults to false).
  const text = charset === 'windows-1252' ? decodeWindows1252(bytes) : decoder.decode(bytes);
  return { text, charset, source };
}

/** The encoding named by a byte order mark, if the bytes start with one. */
function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/**
 * The `charset` parameter of a Content-Type value, as the MIME Sniffing
 * standard parses parameters: `;`-separated `name=value`, names compared without
 * case, a value optionally in double quotes, and the first occurrence wins.
 */
export function charsetParameter(contentType: string): string | undefined {
  const params = contentType.split(';').slice(1);
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    let value = param.slice(eq + 1).trim();
    if (value.startsWith('"')) {
      const close = value.indexOf('"', 1);
      value = close < 0 ? value.slice(1) : value.slice(1, close);
    }
    return value === '' ? undefined : value;
  }
  return undefined;
}

/** The media type without parameters, lower-cased. */
function essence(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** Whether the body may carry a `<meta>` charset: HTML, or a type we were not told. */
function isHtml(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const type = essence(contentType);
  return type === '' || type === 'text/html' || type === 'application/xhtml+xml';
}

const COMMENT_END = '-->';
const META_OPEN = /<meta[\s/]/gi;
/** One attribute of a tag: name, then an optional value in "", '' or bare. */
const ATTRIBUTE = /[\s/]*([^\s/>=][^\s/>=]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/y;
/** `charset=` in a `content` value, as in "extracting a character encoding from a meta element". */
const CONTENT_CHARSET = /charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))/i;

/** The attributes of the tag whose name ends at `from`, lower-cased names, first one wins. */
function readAttributes(head: string, from: number): Map<string, string> {
  const attrs = new Map<string, string>();
  let at = from;
  for (;;) {
    ATTRIBUTE.lastIndex = at;
    const m = ATTRIBUTE.exec(head);
    if (m === null || m[0] === '') break;
    const name = m[1]!.toLowerCase();
    if (!attrs.has(name)) attrs.set(name, m[2] ?? m[3] ?? m[4] ?? '');
    at = ATTRIBUTE.lastIndex;
  }
  return attrs;
}

/** The encoding label a `<meta>` tag declares, if any. */
function metaLabel(attrs: Map<string, string>): string | undefined {
  const charset = attrs.get('charset');
  if (charset !== undefined) return charset;
  if (attrs.get('http-equiv')?.trim().toLowerCase() !== 'content-type') return undefined;
  const m = CONTENT_CHARSET.exec(attrs.get('content') ?? '');
  return m === null ? undefined : (m[1] ?? m[2] ?? m[3]);
}

/**
 * A simplified form of the HTML standard's prescan: the first 1024 bytes read
 * as latin1 (one character per byte, so any ASCII-compatible encoding reads
 * right), comments skipped, and the first `<meta>` whose charset names an
 * encoding we know wins. A UTF-16 label here means UTF-8 (a page that the
 * prescan could read as ASCII is not UTF-16), and x-user-defined means
 * windows-1252, as the standard says.
 */
function prescanMeta(bytes: Uint8Array): TextDecoder | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PRESCAN_BYTES)).toString('latin1');
  let at = 0;
  for (;;) {
    META_OPEN.lastIndex = at;
    const meta = META_OPEN.exec(head);
    if (meta === null) return undefined;
    const comment = head.indexOf('<!--', at);
    if (comment >= 0 && comment < meta.index) {
      const end = head.indexOf(COMMENT_END, comment + 4);
      if (end < 0) return undefined;
      at = end + COMMENT_END.length;
      continue;
    }
    at = meta.index + 5;
    const label = metaLabel(readAttributes(head, at));
    if (label === undefined) continue;
    const lower = label.trim().toLowerCase();
    if (lower === 'x-user-defined') return decoderFor('windows-1252');
    const decoder = decoderFor(label);
    if (decoder === undefined) continue;
    return decoder.encoding.startsWith('utf-16') ? decoderFor('utf-8') : decoder;
  }
}

/** Whether the first `<meta>` that declares a charset, in the prescan's bytes, declares UTF-7. */
function metaDeclaresUtf7(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PRESCAN_BYTES)).toString('latin1');
  for (const meta of head.matchAll(META_OPEN)) {
    const label = metaLabel(readAttributes(head, meta.index + 5));
    if (label !== undefined) return isUtf7Label(label);
  }
  return false;
}

/**
 * Decodes the body of an HTTP response. `contentType` is the raw Content-Type
 * header value, if the response had one. A body that declares UTF-7 is also
 * decoded as UTF-7, into `utf7`.
 */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined): DecodedBody {
  const decoded = decodeDeclared(bytes, contentType);
  const label = contentType === undefined ? undefined : charsetParameter(contentType);
  if (
    hasUtf7Bom(bytes) ||
    isUtf7Label(label) ||
    (label === undefined && isHtml(contentType) && metaDeclaresUtf7(bytes))
  ) {
    return { ...decoded, utf7: decodeUtf7(bytes) };
  }
  return decoded;
}

function decodeDeclared(bytes: Uint8Array, contentType: string | undefined): DecodedBody {
  const bom = bomEncoding(bytes);
  if (bom !== undefined) return decode(new TextDecoder(bom), bytes, 'bom');
  const label = contentType === undefined ? undefined : charsetParameter(contentType);
  const fromHeader = label === undefined ? undefined : decoderFor(label);
  if (fromHeader !== undefined) return decode(fromHeader, bytes, 'header');
  if (isHtml(contentType)) {
    const fromMeta = prescanMeta(bytes);
    if (fromMeta !== undefined) return decode(fromMeta, bytes, 'meta');
  }
  // No declaration: UTF-8 if the bytes are valid UTF-8 (ASCII is), else the
  // legacy default of the Web, windows-1252, which decodes every byte.
  return decode(new TextDecoder(isUtf8(bytes) ? 'utf-8' : 'windows-1252'), bytes, 'default');
}
