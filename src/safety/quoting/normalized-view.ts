/**
 * The normalised view of a text: what tag detection and prefix detection read.
 *
 * Each code point of the original is decomposed (NFKD, a superset of the NFKC
 * the design asks for, so that `<` + U+0338 cannot hide as `≮` and `Ü` reads as
 * `U`), stripped of combining marks and invisible characters, folded from
 * confusable letters and brackets to ASCII, and upper-cased. Character
 * references (`&lt;`, `&#60;`, `&#x3c;`, `&amp;lt;`), percent escapes (`%3C`)
 * and JSON/JS escapes (`\u003c`, `\x3c`) are decoded first, so that every
 * spelling a model may still read as `<` reads as `<` here.
 *
 * Every unit of the view keeps the half-open range of the original it came
 * from, so a match in the view maps back to exactly the original characters.
 */
import { foldChar } from './confusables.js';
import { isInvisibleCodePoint } from './invisible.js';

export interface NormalizedView {
  /** The folded, upper-case text. */
  text: string;
  /** For each UTF-16 unit of `text`, the index in the original where it starts. */
  start: Int32Array;
  /** For each UTF-16 unit of `text`, the index in the original just after it. */
  end: Int32Array;
}

const NAMED_REFS: Record<string, number> = {
  LT: 0x3c,
  GT: 0x3e,
  AMP: 0x26,
  SOL: 0x2f,
  BSOL: 0x5c,
  LOWBAR: 0x5f,
  UNDERBAR: 0x5f,
  LSAQUO: 0x2039,
  RSAQUO: 0x203a,
  LAQUO: 0xab,
  RAQUO: 0xbb,
  LANG: 0x27e8,
  RANG: 0x27e9,
  LANGLE: 0x27e8,
  RANGLE: 0x27e9,
  LEFTANGLEBRACKET: 0x27e8,
  RIGHTANGLEBRACKET: 0x27e9,
  QUOT: 0x22,
  APOS: 0x27,
  EXCL: 0x21,
  QUEST: 0x3f,
  VERBAR: 0x7c,
  VERT: 0x7c,
  COLON: 0x3a,
  NBSP: 0xa0,
  TAB: 0x09,
  NEWLINE: 0x0a,
  SHY: 0xad,
  ZWJ: 0x200d,
  ZWNJ: 0x200c,
  HYPHEN: 0x2010,
  DASH: 0x2010,
  MINUS: 0x2212,
  NUM: 0x23,
  LSQB: 0x5b,
  RSQB: 0x5d,
};

/**
 * One encoded character: a character reference (any number of `amp;` layers),
 * a percent escape of an ASCII bracket, slash or underscore, or a JS escape.
 */
const ESCAPE =
  /&(?:amp;)*(?:#[xX]([0-9a-fA-F]{1,6});?|#([0-9]{1,7});?|([a-zA-Z]{2,20});?)|%(?:25)*(3[cCeEfF]|2[fF]|5[fF]|7[cC])|\\+(?:u\{?0*([0-9a-fA-F]{1,6})\}?|x([0-9a-fA-F]{2}))/y;

/** Named references that HTML decodes even without the `;` (`&ltfoo` reads `<foo`). */
const LEGACY_REFS = ['AMP', 'LT', 'GT', 'QUOT', 'LAQUO', 'RAQUO', 'NBSP', 'SHY'];

/** Decodes a match of ESCAPE: the code point and how many characters it spans. */
function decodeEscape(m: RegExpExecArray): [cp: number, length: number] | undefined {
  const whole = m[0].length;
  if (m[1] !== undefined) return [parseInt(m[1], 16), whole];
  if (m[2] !== undefined) return [parseInt(m[2], 10), whole];
  if (m[3] !== undefined) {
    const name = m[3].toUpperCase();
    const cp = NAMED_REFS[name];
    if (cp !== undefined) return [cp, whole];
    // `&ltUNTRUSTED_SOURCE`: the longest legacy name that prefixes the letters.
    const lead = whole - m[3].length - (m[0].endsWith(';') ? 1 : 0);
    for (const legacy of LEGACY_REFS) {
      if (name.startsWith(legacy)) return [NAMED_REFS[legacy]!, lead + legacy.length];
    }
    return undefined;
  }
  for (const g of [m[4], m[5], m[6]]) if (g !== undefined) return [parseInt(g, 16), whole];
  return undefined;
}

const foldCache = new Map<number, string>();

/** The view of one code point: '' for invisible characters and marks. */
export function foldCodePoint(cp: number): string {
  const cached = foldCache.get(cp);
  if (cached !== undefined) return cached;
  let out = '';
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
    out = '';
  } else if (!isInvisibleCodePoint(cp)) {
    for (const ch of String.fromCodePoint(cp).normalize('NFKD')) {
      if (/\p{M}/u.test(ch)) continue;
      const cpi = ch.codePointAt(0)!;
      if (isInvisibleCodePoint(cpi)) continue;
      out += foldChar(ch);
    }
  }
  if (foldCache.size < 65536) foldCache.set(cp, out);
  return out;
}

const AMP = 0x26;
const PERCENT = 0x25;
const BACKSLASH = 0x5c;

/**
 * Decodes the escape (character reference, percent or JS escape) that starts
 * at `i`, if any: its code point and the number of characters it spans.
 */
export function decodeEscapeAt(text: string, i: number): [cp: number, length: number] | undefined {
  ESCAPE.lastIndex = i;
  const m = ESCAPE.exec(text);
  return m ? decodeEscape(m) : undefined;
}

/**
 * The next unit that is not plain ASCII (plain: printable or tab/newline/CR,
 * and not `&`, `%` or `\`, which may start an escape). Found by a regex
 * because a charCodeAt loop was several times slower.
 */
const SPECIAL = /[^\t\n\r\x20-\x24\x27-\x5b\x5d-\x7e]/g;

/**
 * Walks `text`, calling `plain(from, to)` for each run of plain ASCII (whose
 * view is its upper case) and `special(view, from, to)` for each other unit or
 * escape, in order. Both builders below share this walk.
 */
function walk(
  text: string,
  plain: (from: number, to: number) => void,
  special: (view: string, from: number, to: number) => void,
): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    SPECIAL.lastIndex = i;
    const next = SPECIAL.exec(text);
    const stop = next === null ? n : next.index;
    if (stop > i) plain(i, stop);
    if (stop >= n) break;
    i = stop;
    const c = text.charCodeAt(i);
    if (c === AMP || c === PERCENT || c === BACKSLASH) {
      const decoded = decodeEscapeAt(text, i);
      if (decoded !== undefined) {
        const [cp, length] = decoded;
        special(foldCodePoint(cp), i, i + length);
        i += length;
      } else {
        special(String.fromCharCode(c), i, i + 1);
        i++;
      }
      continue;
    }
    if (c < 128) {
      // A control character the view drops.
      i++;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    special(foldCodePoint(cp), i, i + len);
    i += len;
  }
}

/** The view's text alone, without the map back to the original. */
export function foldText(text: string): string {
  let out = '';
  walk(
    text,
    (from, to) => {
      out += text.slice(from, to).toUpperCase();
    },
    (view) => {
      out += view;
    },
  );
  return out;
}

/** Growable parallel arrays of the view's map back to the original. */
class SpanBuilder {
  start: Int32Array;
  end: Int32Array;
  k = 0;

  constructor(capacity: number) {
    this.start = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
  }

  private ensure(need: number): void {
    if (this.k + need <= this.start.length) return;
    const cap = Math.max(this.start.length * 2, this.k + need + 16);
    const start = new Int32Array(cap);
    start.set(this.start.subarray(0, this.k));
    this.start = start;
    const end = new Int32Array(cap);
    end.set(this.end.subarray(0, this.k));
    this.end = end;
  }

  /** Units from..to of the original, one view unit each. */
  identity(from: number, to: number): void {
    this.ensure(to - from);
    const start = this.start;
    const end = this.end;
    let k = this.k;
    for (let j = from; j < to; j++, k++) {
      start[k] = j;
      end[k] = j + 1;
    }
    this.k = k;
  }

  /** `count` view units that all come from from..to of the original. */
  folded(count: number, from: number, to: number): void {
    this.ensure(count);
    this.start.fill(from, this.k, this.k + count);
    this.end.fill(to, this.k, this.k + count);
    this.k += count;
  }
}

/** Builds the normalised view of `text`, with its map back. Linear in the length of `text`. */
export function buildView(text: string): NormalizedView {
  const spans = new SpanBuilder(text.length + 16);
  let out = '';
  walk(
    text,
    (from, to) => {
      out += text.slice(from, to).toUpperCase();
      spans.identity(from, to);
    },
    (view, from, to) => {
      out += view;
      spans.folded(view.length, from, to);
    },
  );
  return { text: out, start: spans.start.subarray(0, spans.k), end: spans.end.subarray(0, spans.k) };
}
