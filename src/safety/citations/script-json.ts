/**
 * The text a client-rendered page keeps in its scripts.
 *
 * Many sites send the article not as HTML but as the state of the
 * application that renders it: `<script id="__NEXT_DATA__"
 * type="application/json">{...}</script>`, `window.__INITIAL_STATE__ = {...};`,
 * `var article = {"bottom": "&lt;p&gt;..."}`, `JSON.parse("{\"body\": ...}")`.
 * A reader with a browser sees the article; a fetcher that runs no script sees
 * an empty page. This reads the string values of that JSON (not its keys), in
 * document order, HTML inside them read as HTML, as a second text of the page
 * that an excerpt is looked up in only when it is not in the visible text.
 *
 * It reads JSON documents whole, and in JavaScript the object and array
 * literals assigned (`= {`, `= [`) or passed to a call (`({`, `([`), and the
 * strings given to `JSON.parse`. The scanner is lenient rather than a parser:
 * unquoted keys, single quotes, trailing commas, functions and other code
 * inside a literal are stepped over, so one odd value does not lose the rest.
 * Every step moves forward, so the whole is linear in the size of the
 * scripts; each value string is read once, and the text is never longer than
 * the scripts it comes from.
 */
import { fragmentText } from './html-text.js';
import { BOUNDARY, wellFormed } from './marked-text.js';
import { tooDeeplyNested } from './nesting.js';

/**
 * Where JSON-like data starts in a script: a literal assigned, passed to a
 * call, returned or listed, or a string passed to JSON.parse.
 */
const DATA_START = /(?:[=(:,]|\breturn)\s*(?=[{[])|JSON\.parse\(\s*(?=["'`])/g;

/** A string of JSON nested inside a string (`JSON.parse("{...}")`, a stringified blob) is read this deep at most. */
const MAX_DEPTH = 3;

/** Reads the JS string literal whose opening quote is at `at`; its value and the index after it. */
function readString(src: string, at: number): { value: string; end: number } {
  const quote = src.charCodeAt(at);
  let i = at + 1;
  let plain = true;
  while (i < src.length) {
    const c = src.charCodeAt(i);
    if (c === quote) break;
    if (c === 0x5c) {
      plain = false;
      i += 2;
    } else {
      // An unescaped line break ends a '...' or "..." string that was not one (a regex, a comment).
      if (c === 0x0a && quote !== 0x60) break;
      i++;
    }
  }
  const end = Math.min(i, src.length);
  const raw = src.slice(at + 1, end);
  return { value: plain ? raw : wellFormed(unescape(raw)), end: end + 1 };
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', 0: '\0' };

/** The value of a JS string literal's body: the escapes of JSON and JavaScript. */
function unescape(raw: string): string {
  return raw.replace(/\\(u\{[0-9a-fA-F]{1,6}\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S]?)/g, (_m, e: string) => {
    if (e.startsWith('u{')) {
      const cp = parseInt(e.slice(2, -1), 16);
      return cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
    }
    if (e.length >= 3 && (e[0] === 'u' || e[0] === 'x')) return String.fromCharCode(parseInt(e.slice(1), 16));
    if (e === '\n' || e === '\r\n' || e === '\r' || e === '\u2028' || e === '\u2029') return '';
    return SIMPLE_ESCAPES[e] ?? e;
  });
}

/**
 * Keys whose values name a type, a style, an identifier or an address, not
 * text (lower case, leading underscores dropped): rich-text formats put them
 * between the pieces of a sentence (Portable Text's `_type`, `style`,
 * `marks`; the `type` and `marks` of Slate, ProseMirror and Contentful;
 * GraphQL's `__typename`), and read as text they would break the sentence.
 */
const NOT_TEXT_KEYS = new Set([
  'type', 'typename', 'nodetype', 'blocktype', 'style', 'styles', 'marks', 'mark', 'id', 'key', 'uuid', 'ref',
  'classname', 'class', 'href', 'url', 'src', 'srcset', 'slug', 'format', 'listitem', 'kind', 'variant',
  'layout', 'component', 'template', 'mimetype', 'contenttype', 'locale', 'lang', 'target', 'rel',
]); // prettier-ignore

const isTextKey = (key: string | undefined): boolean =>
  key === undefined || !NOT_TEXT_KEYS.has(key.replace(/^_+/, '').toLowerCase());

/** An object or array being scanned, and the key its values belong to. */
interface Frame {
  array: boolean;
  /** In an object, the last key read; in an array, the key the array is the value of. */
  key: string | undefined;
}

/**
 * Scans the literal that opens at `at` (`{` or `[`) until it closes, calling
 * `onValue` with each string that is a value (not followed by `:`) of a key
 * that may hold text (an array's strings belong to the array's key). Returns
 * the index after the literal.
 */
function scanLiteral(src: string, at: number, onValue: (value: string) => void): number {
  const frames: Frame[] = [];
  let i = at;
  while (i < src.length) {
    const c = src.charCodeAt(i);
    const frame = frames[frames.length - 1];
    if (c === 0x22 || c === 0x27 || c === 0x60) {
      const { value, end } = readString(src, i);
      i = end;
      let j = i;
      while (j < src.length && isSpace(src.charCodeAt(j))) j++;
      if (src.charCodeAt(j) === 0x3a) {
        if (frame !== undefined && !frame.array) frame.key = value;
      } else if (isTextKey(frame?.key)) {
        onValue(value);
      }
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      frames.push({ array: c === 0x5b, key: frame?.key });
    } else if (c === 0x7d || c === 0x5d) {
      frames.pop();
      if (frames.length === 0) return i + 1;
    } else if (c === 0x2f && src.charCodeAt(i + 1) === 0x2f) {
      // A line comment inside a literal of code: its quotes are no strings.
      const nl = src.indexOf('\n', i);
      i = nl < 0 ? src.length : nl;
      continue;
    } else if (frame !== undefined && !frame.array && isIdentifierStart(c)) {
      // An unquoted key (`{type: "block"}`), or a bare value; a key when a `:` follows.
      let j = i + 1;
      while (j < src.length && isIdentifierPart(src.charCodeAt(j))) j++;
      let k = j;
      while (k < src.length && isSpace(src.charCodeAt(k))) k++;
      if (src.charCodeAt(k) === 0x3a) frame.key = src.slice(i, j);
      i = j;
      continue;
    }
    i++;
  }
  return i;
}

function isIdentifierStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x24;
}

function isIdentifierPart(c: number): boolean {
  return isIdentifierStart(c) || (c >= 0x30 && c <= 0x39);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * A string that is HTML: it closes an element, or has a tag with attributes,
 * or a line break. Text that only mentions a tag (`an <img> tag`, `Google
 * "<noun>.js"`) is not read as HTML, which would drop the mention.
 */
const HTML = /<\/[a-zA-Z][\w:-]*\s*>|<[a-zA-Z][\w:-]*\s+[\w:-]+\s*=|<br\s*\/?>/i;
/** A character reference. */
const REFERENCE = /&(?:[a-zA-Z][a-zA-Z0-9]{1,31}|#\d{1,7}|#[xX][0-9a-fA-F]{1,6});/;
/** The opening of a JSON object or array (`[figure 3: ...]` is text). */
const JSON_OPENING = /^\s*(?:\{\s*["}]|\[\s*(?:[[{"\d\-\]]|true|false|null))/;

/**
 * Whether a string is a JSON document that holds strings (`JSON.parse("{...}")`,
 * a stringified blob inside a value). `[1]` is text: a reference marker.
 */
function isJsonDocument(value: string): boolean {
  if (!JSON_OPENING.test(value) || !value.includes('"')) return false;
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Markup that may hide or swallow what follows it when left open: raw-text
 * elements, comments, hidden and skipped elements. A value that holds it is
 * read on its own rather than with the others.
 */
const ISOLATE =
  /<(?:script|style|textarea|title|xmp|iframe|noembed|noframes|plaintext|template|rt|rp|annotation|sup|math|svg)\b|<!--|<!\[|<[^>]*\shidden/i;

/**
 * Values read on their own at most, per page. A page built of tens of
 * thousands of them would otherwise spend seconds here; past the bound the
 * rest is kept as text, markup and all, which only this fallback text sees.
 */
const MAX_ALONE = 2000;

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The values of a script as one HTML document, read in one parse: parsing
 * each value apart costs a parser's set-up per value, and a page can hold
 * tens of thousands of them. HTML goes in as it is; plain text escaped;
 * HTML written with character references (`&lt;p&gt;...&lt;/p&gt;`) decoded
 * first; a value with markup that could swallow the rest read on its own.
 * `<hr>` between values reads as a space that may be missing (a gap).
 */
class Values {
  /** Each value: HTML to parse, or text as it is (`markup` says which). */
  private readonly pieces: string[] = [];
  private readonly markup: boolean[] = [];
  private anyMarkup = false;
  /** Values parsed on their own so far; each costs a parser's set-up. */
  private alone = 0;

  add(value: string): void {
    if (HTML.test(value)) {
      if (ISOLATE.test(value)) this.addText(this.readAlone(value));
      else this.addHtml(value);
    } else if (REFERENCE.test(value) && !value.includes('<') && this.alone < MAX_ALONE) {
      // Character references only: HTML once decoded, or text with an entity in it.
      this.alone++;
      const decoded = fragmentText(value, BOUNDARY);
      if (!HTML.test(decoded)) this.addText(decoded);
      else if (ISOLATE.test(decoded)) this.addText(this.readAlone(decoded));
      else this.addHtml(decoded);
    } else {
      this.addText(value);
    }
  }

  private addHtml(value: string): void {
    this.pieces.push(value);
    this.markup.push(true);
    this.anyMarkup = true;
  }

  private addText(value: string): void {
    this.pieces.push(value);
    this.markup.push(false);
  }

  /** The HTML's text, marked; past MAX_ALONE such values, the HTML as text, markup and all. */
  private readAlone(html: string): string {
    if (this.alone >= MAX_ALONE) return html;
    this.alone++;
    return fragmentText(html, BOUNDARY);
  }

  /** The text of every value, marked for marked-text.ts. */
  text(): string {
    const gap = ` ${BOUNDARY}`;
    // Text alone needs no parser.
    if (!this.anyMarkup) return this.pieces.join(gap);
    const all = this.pieces.map((p, i) => (this.markup[i] ? p : escapeHtml(p))).join('<hr>');
    if (!tooDeeplyNested(all)) return fragmentText(all, BOUNDARY);
    // Values that leave elements open nest each other past what can be parsed at once: one at a time.
    return this.pieces.map((p, i) => (this.markup[i] ? this.readAlone(p) : p)).join(gap);
  }
}

/** Collects the values of the JSON-like data in `src` into `values`. */
function readData(src: string, isJson: boolean, depth: number, values: Values): void {
  const onValue = (value: string): void => {
    if (value === '') return;
    if (depth < MAX_DEPTH && isJsonDocument(value)) readData(value, true, depth + 1, values);
    else values.add(value);
  };
  if (isJson) {
    const first = src.search(/[{["]/);
    if (first < 0) return;
    if (src.charCodeAt(first) === 0x22) onValue(readString(src, first).value);
    else scanLiteral(src, first, onValue);
    return;
  }
  let from = 0;
  for (;;) {
    DATA_START.lastIndex = from;
    const m = DATA_START.exec(src);
    if (m === null) break;
    const at = m.index + m[0].length;
    if (src.charCodeAt(at) === 0x7b || src.charCodeAt(at) === 0x5b) {
      from = Math.max(scanLiteral(src, at, onValue), at + 1);
    } else {
      const { value, end } = readString(src, at);
      if (depth < MAX_DEPTH && isJsonDocument(value)) readData(value, true, depth + 1, values);
      from = end;
    }
  }
}

/**
 * The text held in the JSON of a page's scripts (html-text.ts gathers which
 * scripts), each string value apart from the next with a gap, marked for
 * marked-text.ts. A script whose source starts with `{` or `[` is read as
 * JSON, any other as JavaScript.
 */
export function scriptJsonText(scripts: readonly string[]): string {
  const values = new Values();
  for (const src of scripts) {
    const trimmed = src.trimStart();
    readData(src, trimmed.startsWith('{') || trimmed.startsWith('['), 0, values);
  }
  return values.text();
}
