/**
 * The normalised view of a text: what quoting's tag and prefix detection and
 * the injection detector read (src/safety/text is the one layer both share).
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
import { foldChar, tableFold } from './confusables.js';
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
  LBRACK: 0x5b,
  RBRACK: 0x5d,
  LPAR: 0x28,
  RPAR: 0x29,
  LCUB: 0x7b,
  RCUB: 0x7d,
  LBRACE: 0x7b,
  RBRACE: 0x7d,
  PERCNT: 0x25,
  EQUALS: 0x3d,
  SEMI: 0x3b,
  PLUS: 0x2b,
  AST: 0x2a,
  MIDAST: 0x2a,
  DOLLAR: 0x24,
  COMMAT: 0x40,
  PERIOD: 0x2e,
  COMMA: 0x2c,
  HAT: 0x5e,
  GRAVE: 0x60,
  // Relations that can stand for a bracket (docs/quoting.md, "Tags").
  LE: 0x2264,
  LEQ: 0x2264,
  GE: 0x2265,
  GEQ: 0x2265,
  LL: 0x226a,
  GG: 0x226b,
  PREC: 0x227a,
  SUCC: 0x227b,
  SUB: 0x2282,
  SUBSET: 0x2282,
  SUP: 0x2283,
  SUPSET: 0x2283,
  LTDOT: 0x22d6,
  GTDOT: 0x22d7,
  LBRKE: 0x298b,
  RBRKE: 0x298c,
  LOBRK: 0x27e6,
  ROBRK: 0x27e7,
};

/**
 * One encoded character: a character reference (any number of `amp;` layers,
 * any number of leading zeros), a percent escape of an ASCII character (any
 * number of `25` layers) or `%u` and four hex digits, a JS/JSON/Python
 * escape (`\u003c`, `\u{3c}`, `\U0000003c`, `\x3c`, `\x{3c}`), a CSS escape
 * (a backslash, one to six hex digits among which a decimal digit, and one
 * optional space or tab: `\3c `, `\00003C`), an octal escape as C, Python and
 * old JavaScript write it (`\074`, `\74`: one to three octal digits alone,
 * read as octal rather than CSS), or a quoted-printable escape of a mark (`=`
 * then two capital hex digits, the first 2 to 7 and the second A to F: `=3C`,
 * `=2F`; digits alone, as in `n=30`, are left as they are). No escape holds
 * an escape start (`&`, `%`, `\\`, `=`) after its first character, which
 * the nested decoding below relies on. One backslash only: the walk tries each
 * backslash of a run in turn, so `\\u003c` still decodes at its last one, and
 * a long run costs linear time.
 */
const ESCAPE =
  /&(?:amp;)*(?:#[xX]0*([0-9a-fA-F]{1,6});?|#0*([0-9]{1,7});?|([a-zA-Z]{2,20});?)|%(?:25)*(?:([0-7][0-9a-fA-F])|[uU]([0-9a-fA-F]{4}))|\\(?:[uU]\{?0*([0-9a-fA-F]{1,6})\}?|x\{0*([0-9a-fA-F]{1,6})\}|x([0-9a-fA-F]{2})|(?![0-7]{1,3}(?![0-9a-fA-F]))(?=[a-fA-F]{0,5}[0-9])([0-9a-fA-F]{1,6})[ \t]?|([0-3]?[0-7]{1,2}))|=([2-7][A-F])/y;

/**
 * What may come between an escape start and a later escape start that, once
 * decoded, continues the first one (`&%2360;` is `&#60;` once `%23` is read,
 * `%%33C` is `%3C`): a superset of the prefixes of the escapes above.
 */
const VIABLE = /(?:&[a-zA-Z0-9#;]*|%[0-9a-fA-FuU]*|\\[0-9a-fA-FuUxX{]*|=[0-9A-F]?)(?=[&%\\=])/y;

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
  for (const g of [m[4], m[5], m[6], m[7], m[8], m[9], m[11]]) if (g !== undefined) return [parseInt(g, 16), whole];
  if (m[10] !== undefined) return [parseInt(m[10], 8), whole];
  return undefined;
}

// Folding is per code point and pure, so it is cached: an array for the BMP
// (a Map lookup per character was a large share of the walk), a Map above it.
const bmpCache: Array<string | undefined> = new Array<string | undefined>(0x10000);
const astralCache = new Map<number, string>();

/** LF, VT, FF, CR, NEL, U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR. */
export function isLineTerminator(cp: number): boolean {
  return (cp >= 0x0a && cp <= 0x0d) || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
}

/**
 * The confusables table is read before decomposition (U+03F9 `Ϲ` looks like
 * `C`, though NFKD makes it a sigma) and again on each decomposed character,
 * before marks are dropped (U+0903, a spacing mark, looks like `:`). The
 * table holds nothing that NFKD already makes ASCII, so `ſ` still reads `S`.
 */
function computeFold(cp: number): string {
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return '';
  if (isLineTerminator(cp)) return '\n';
  if (isInvisibleCodePoint(cp)) return '';
  const direct = tableFold(cp);
  if (direct !== undefined) return direct;
  let out = '';
  for (const ch of String.fromCodePoint(cp).normalize('NFKD')) {
    const cpi = ch.codePointAt(0)!;
    const table = tableFold(cpi);
    if (table !== undefined) {
      out += table;
      continue;
    }
    if (/\p{M}/u.test(ch)) continue;
    if (isInvisibleCodePoint(cpi)) continue;
    out += foldChar(ch);
  }
  return out;
}

/** What an escape that decodes to `cp` reads as: a decoded line break is a space, so the view's lines are the text's lines. */
function foldDecoded(cp: number): string {
  return isLineTerminator(cp) ? ' ' : foldCodePoint(cp);
}

/** The view of one code point: '' for invisible characters and marks. */
export function foldCodePoint(cp: number): string {
  if (cp < 0x10000) {
    let folded = bmpCache[cp];
    if (folded === undefined) bmpCache[cp] = folded = computeFold(cp);
    return folded;
  }
  let folded = astralCache.get(cp);
  if (folded === undefined) {
    folded = computeFold(cp);
    if (astralCache.size < 65536) astralCache.set(cp, folded);
  }
  return folded;
}

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
 * The number of characters the escape pattern spans at `i`, whether or not it
 * decodes to anything; 0 when it does not match there.
 */
export function escapeExtentAt(text: string, i: number): number {
  ESCAPE.lastIndex = i;
  const m = ESCAPE.exec(text);
  return m ? m[0].length : 0;
}

const AMP = 0x26;
const PERCENT = 0x25;
const BACKSLASH = 0x5c;
const EQUALS = 0x3d;

/** True for the characters an escape starts with: `&`, `%`, `\\`, `=`. */
function isEscapeStart(cp: number): boolean {
  return cp === AMP || cp === PERCENT || cp === BACKSLASH || cp === EQUALS;
}

/** 1 for an ASCII unit that is plain: printable, tab or LF, and not an escape start. */
const PLAIN = new Uint8Array(128);
for (let c = 0x20; c < 0x7f; c++) PLAIN[c] = 1;
PLAIN[0x09] = PLAIN[0x0a] = 1;
PLAIN[AMP] = PLAIN[PERCENT] = PLAIN[BACKSLASH] = PLAIN[EQUALS] = 0;

/**
 * For each escape start, 1 for the ASCII units that may follow it in an
 * escape or in a prefix of one (VIABLE); an escape start followed by
 * anything else, and by no escape start, is a literal character, and the
 * walks skip both regular expressions for it (`R & D`, `96% of`, `n = 30`).
 */
const CONTINUES = new Map<number, Uint8Array>();
for (const [start, chars] of [
  [AMP, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789#;'],
  [PERCENT, '0123456789ABCDEFabcdefuU'],
  [BACKSLASH, '0123456789ABCDEFabcdefuUxX{'],
  [EQUALS, '0123456789ABCDEF'],
] as const) {
  const table = new Uint8Array(128);
  for (const ch of chars) table[ch.charCodeAt(0)] = 1;
  for (const c of [AMP, PERCENT, BACKSLASH, EQUALS]) table[c] = 1;
  CONTINUES.set(start, table);
}

/** False when the escape start at `i` can neither begin an escape nor nest one: it reads as itself. */
function mayEscape(text: string, i: number, c: number): boolean {
  const next = text.charCodeAt(i + 1);
  return next < 128 && CONTINUES.get(c)![next] === 1;
}

/**
 * True when the escape (or escape start) at `i` may be one layer of a nested
 * escape: it decodes to an escape start (`&#38;lt;`, `%26lt;`, `&#37;3C`), or
 * a later escape start that decodes may continue it (`&%2360;`, `%26%2360%3B`).
 * Otherwise decoding one layer, left to right, gives the same view as
 * decoding to a fixed point (see deepView), and the walks below stay on their
 * fast path.
 */
function mayNest(text: string, i: number, decoded: [number, number] | undefined): boolean {
  if (decoded !== undefined && isEscapeStart(decoded[0])) {
    // What it decodes to, and the text after it, may spell another escape; `AT&amp;T` does not.
    const after = i + decoded[1];
    const spelt = String.fromCharCode(decoded[0]) + text.slice(after, after + NEST_LOOKAHEAD);
    if (decodeEscapeAt(spelt, 0) !== undefined) return true;
    VIABLE.lastIndex = 0;
    if (VIABLE.test(spelt) && decodeEscapeAt(text, after + VIABLE.lastIndex - 1) !== undefined) return true;
  }
  // Two escape starts in a row: the second cannot begin an escape (none holds one after its first character).
  if (isEscapeStart(text.charCodeAt(i + 1)) && isEscapeStart(text.charCodeAt(i + 2))) return false;
  VIABLE.lastIndex = i;
  if (!VIABLE.test(text)) return false;
  return decodeEscapeAt(text, VIABLE.lastIndex) !== undefined;
}

/**
 * The fold of each BMP code unit when it is exactly one unit (the common
 * case), so the hot loop writes a number instead of building a string:
 * 0 = not computed yet, 0xFFFF = the fold is empty or longer (use
 * foldCodePoint). ASCII letters are pre-filled with their capitals.
 */
const ONE_UNIT = new Uint16Array(0x10000);
const MULTI = 0xffff;
for (let c = 0; c < 128; c++) if (PLAIN[c] === 1) ONE_UNIT[c] = c >= 0x61 && c <= 0x7a ? c - 32 : c;

function oneUnit(c: number): number {
  let u = ONE_UNIT[c]!;
  if (u === 0) {
    const folded = foldCodePoint(c);
    u = folded.length === 1 && folded.charCodeAt(0) !== MULTI ? folded.charCodeAt(0) : MULTI;
    ONE_UNIT[c] = u;
  }
  return u;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * The view of each ASCII unit: its capital, LF for VT and FF (line
 * terminators), 0 to drop it (another control), ESCAPE_START for `&`, `%`
 * and `\\`, CR_START for CR (LF alone, or nothing before an LF).
 */
const ESCAPE_START = 0xfffe;
const CR_START = 0xfffd;
const ASCII_VIEW = new Uint16Array(128);
for (let c = 0; c < 128; c++) {
  if (PLAIN[c] === 1) ASCII_VIEW[c] = c >= 0x61 && c <= 0x7a ? c - 32 : c;
}
ASCII_VIEW[AMP] = ASCII_VIEW[PERCENT] = ASCII_VIEW[BACKSLASH] = ASCII_VIEW[EQUALS] = ESCAPE_START;
ASCII_VIEW[0x0b] = ASCII_VIEW[0x0c] = LF;
ASCII_VIEW[CR] = CR_START;

/** Growable output of buildView: the view's UTF-16 units and their original spans. */
class ViewBuffer {
  units: Uint16Array;
  start: Int32Array;
  end: Int32Array;
  k = 0;

  constructor(capacity: number) {
    this.units = new Uint16Array(capacity);
    this.start = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
  }

  grow(need: number): void {
    const cap = Math.max(this.units.length * 2, this.k + need + 16);
    const units = new Uint16Array(cap);
    units.set(this.units.subarray(0, this.k));
    this.units = units;
    const start = new Int32Array(cap);
    start.set(this.start.subarray(0, this.k));
    this.start = start;
    const end = new Int32Array(cap);
    end.set(this.end.subarray(0, this.k));
    this.end = end;
  }

  pushString(view: string, from: number, to: number): void {
    if (this.k + view.length > this.units.length) this.grow(view.length);
    for (let j = 0; j < view.length; j++) {
      this.units[this.k] = view.charCodeAt(j);
      this.start[this.k] = from;
      this.end[this.k] = to;
      this.k++;
    }
  }

  text(): string {
    return Buffer.from(this.units.buffer, this.units.byteOffset, this.k * 2).toString('utf16le');
  }
}

/**
 * The pass behind buildView: each unit of the original is written to the
 * buffer as its fold, escapes decoded first, with the range of the original
 * it came from. One typed-array write per unit and no string per character:
 * building strings here made garbage collection the main cost on text with
 * non-ASCII characters. scanText is the same walk without the ranges; a
 * property test checks that the two agree.
 */
function fold(text: string): ViewBuffer {
  const n = text.length;
  const b = new ViewBuffer(n + 16);
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      let u = ASCII_VIEW[c]!;
      let width = 1;
      if (u === ESCAPE_START && mayEscape(text, i, c)) {
        const decoded = decodeEscapeAt(text, i);
        if (mayNest(text, i, decoded)) return deepView(text, undefined, true).buffer!;
        if (decoded !== undefined) {
          const [cp, length] = decoded;
          b.pushString(foldDecoded(cp), i, i + length);
          i += length;
          continue;
        }
        u = c;
      } else if (u === ESCAPE_START) {
        u = c;
      } else if (u === CR_START) {
        // CR LF is one line break: one LF in the view, spanning both.
        u = LF;
        if (i + 1 < n && text.charCodeAt(i + 1) === LF) width = 2;
      } else if (u === 0) {
        // Controls other than the line terminators and tab drop out of the view.
        i++;
        continue;
      }
      if (b.k >= b.units.length) b.grow(1);
      b.units[b.k] = u;
      b.start[b.k] = i;
      b.end[b.k] = i + width;
      b.k++;
      i += width;
      continue;
    }
    let width = 1;
    let u: number;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const cp = text.codePointAt(i)!;
      if (cp > 0xffff) {
        width = 2;
        b.pushString(foldCodePoint(cp), i, i + 2);
        i += 2;
        continue;
      }
      u = MULTI;
    } else {
      u = oneUnit(c);
    }
    if (u === MULTI) {
      b.pushString(foldCodePoint(c), i, i + width);
    } else {
      if (b.k >= b.units.length) b.grow(1);
      b.units[b.k] = u;
      b.start[b.k] = i;
      b.end[b.k] = i + 1;
      b.k++;
    }
    i += width;
  }
  return b;
}

/** Units of the window deepView reads an escape in; doubled while a match may reach past it. */
const DEEP_WINDOW = 16;
/** Characters after an escape that decodes to an escape start that mayNest reads. */
const NEST_LOOKAHEAD = 64;

/**
 * The view of a text whose escapes nest (mayNest): every escape decoded to a
 * fixed point. The text is read from its end, onto a stack of units whose top
 * is the leftmost: each character is pushed, and while the top is an escape
 * start and the units from it read as an escape, those units are replaced by
 * the one they decode to (`%23` by `#`, then `&#60;` by `<`). A unit to the
 * right of an escape is thus read as decoded before the escape is, however
 * deep the layers, and each decoding removes at least one unit, so the pass
 * is linear. On a text where nothing nests it gives what the walks above
 * give (a property test holds the two to it), which read one layer, left to
 * right, and are several times faster.
 */
function deepView(
  text: string,
  keep: Uint8Array | undefined,
  ranges: boolean,
): { buffer?: ViewBuffer; scan: TextScan } {
  const n = text.length;
  // The units, from `t` to the end: their code points, where each starts in
  // the text (a unit ends where the next one starts: together they cover the
  // text, in order), and whether each was decoded.
  const cps = new Int32Array(n + 1);
  const st = new Int32Array(n + 1);
  const dec = new Uint8Array(n + 1);
  st[n] = n;
  let t = n;
  const windowAt = (length: number): string => {
    let w = '';
    for (let k = t; k < n && k < t + length; k++) {
      const cp = cps[k]!;
      w += cp < 0x80 ? String.fromCharCode(cp) : '\u0080';
    }
    return w;
  };
  for (let i = n; i > 0;) {
    let j = i - 1;
    let cp = text.charCodeAt(j);
    if (cp >= 0xdc00 && cp <= 0xdfff && j > 0) {
      const high = text.charCodeAt(j - 1);
      if (high >= 0xd800 && high <= 0xdbff) cp = text.codePointAt(--j)!;
    }
    if (cp === CR && t < n && dec[t] === 0 && cps[t] === LF && st[t] === i) {
      // CR LF is one line break, as in the walks above.
      st[t] = j;
    } else {
      t--;
      cps[t] = cp;
      st[t] = j;
      dec[t] = 0;
    }
    i = j;
    while (isEscapeStart(cps[t]!)) {
      let length = DEEP_WINDOW;
      let w = windowAt(length);
      let d = decodeEscapeAt(w, 0);
      while (d !== undefined && d[1] >= w.length - 1 && t + w.length < n) {
        length *= 2;
        w = windowAt(length);
        d = decodeEscapeAt(w, 0);
      }
      if (d === undefined) break;
      // The units it spans become one, which starts where the first did.
      const from = st[t]!;
      t += d[1] - 1;
      cps[t] = d[0];
      st[t] = from;
      dec[t] = 1;
    }
  }
  // The units folded as the walks fold them.
  const b = ranges ? new ViewBuffer(n - t + 16) : undefined;
  let units = new Uint16Array(ranges ? 0 : n - t + 16);
  let k2 = 0;
  let keptUnits = new Uint16Array(keep === undefined ? 0 : n - t + 16);
  let s2 = 0;
  let invisible = false;
  for (let k = t; k < n; k++) {
    const cp = cps[k]!;
    let folded: string;
    if (dec[k] === 1) {
      folded = foldDecoded(cp);
    } else if (cp < 128) {
      const u = ASCII_VIEW[cp]!;
      if (u === 0) {
        invisible = true;
        continue;
      }
      folded = u === ESCAPE_START ? String.fromCharCode(cp) : u === CR_START ? '\n' : String.fromCharCode(u);
    } else {
      folded = foldCodePoint(cp);
      if (folded.length === 0 && isInvisibleCodePoint(cp)) invisible = true;
    }
    if (b !== undefined) b.pushString(folded, st[k]!, st[k + 1]!);
    if (folded.length > 1) {
      // A fold longer than one unit: make room for it and for one unit per unit left.
      const need = k2 + folded.length + (n - k) + 16;
      if (b === undefined && need > units.length) units = grown(units, need, k2);
      if (keep !== undefined && need > keptUnits.length) keptUnits = grown(keptUnits, need, s2);
    }
    for (let q = 0; q < folded.length; q++) {
      const u = folded.charCodeAt(q);
      if (b === undefined) units[k2++] = u;
      if (keep !== undefined && u < 128) {
        const upper = u >= 0x61 && u <= 0x7a ? u - 32 : u;
        if (keep[upper] === 1) keptUnits[s2++] = upper;
      }
    }
  }
  const view = b !== undefined ? b.text() : unitsToString(units, k2);
  const keptText = unitsToString(keptUnits, s2);
  return { ...(b !== undefined ? { buffer: b } : {}), scan: { view, kept: keptText, invisible, aligned: false } };
}

/** A copy of the first `k` units of `units` in an array of at least `need` units. */
function grown(units: Uint16Array, need: number, k: number): Uint16Array<ArrayBuffer> {
  const out = new Uint16Array(Math.max(need, units.length * 2));
  out.set(units.subarray(0, k));
  return out;
}

/** What scanText finds in one pass over a text. */
export interface TextScan {
  /** The view's text: the same as foldText. */
  view: string;
  /** The view's units that `keep` marks, in order (lower-case ASCII letters counted as capitals). */
  kept: string;
  /** True when the text holds a character that removeInvisible removes. */
  invisible: boolean;
  /**
   * True when each unit of the text gave exactly one unit of the view, in
   * place: an index of the view is then the same index of the text, and a
   * caller needs no map back (buildView).
   */
  aligned: boolean;
}

// Reused between calls: foldText runs once per checked line, and allocating per call was a large share of its cost.
let viewUnits = new Uint16Array(4096);
let keptUnits = new Uint16Array(4096);

function viewCapacity(need: number, k: number): void {
  if (need <= viewUnits.length) return;
  const units = new Uint16Array(Math.max(need, viewUnits.length * 2));
  units.set(viewUnits.subarray(0, k));
  viewUnits = units;
}

function unitsToString(units: Uint16Array, k: number): string {
  return Buffer.from(units.buffer, units.byteOffset, k * 2).toString('utf16le');
}

/**
 * The view of `text` without the map back, and in the same pass the units a
 * caller asks for (`keep`, indexed by ASCII unit) and whether anything
 * invisible is present. The quoting layer's common path reads a text once
 * with it: text with no tag in its view and nothing invisible needs no other
 * pass of the normaliser.
 */
export function scanText(text: string, keep?: Uint8Array): TextScan {
  const n = text.length;
  // Room for one unit per unit of the text; a fold longer than one unit makes more room for itself.
  viewCapacity(n + 16, 0);
  if (keep !== undefined && keptUnits.length < n + 16) keptUnits = new Uint16Array(n + 16);
  let units = viewUnits;
  let kept = keptUnits;
  let k = 0;
  let s = 0;
  let invisible = false;
  let aligned = true;
  let nested = false;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    let folded: string;
    let width = 1;
    if (c < 128) {
      let u = ASCII_VIEW[c]!;
      if (u !== 0 && u < 128) {
        // The common case: a plain ASCII unit.
        units[k++] = u;
        if (keep !== undefined && keep[u] === 1) kept[s++] = u;
        i++;
        continue;
      }
      if (u === 0) {
        // Controls other than the line terminators and tab drop out of the view, and removeInvisible removes them.
        invisible = true;
        aligned = false;
        i++;
        continue;
      }
      if (u === CR_START) {
        u = LF;
        if (i + 1 < n && text.charCodeAt(i + 1) === LF) {
          aligned = false;
          i++;
        }
      }
      if (u !== ESCAPE_START) {
        units[k++] = u;
        if (keep !== undefined && keep[u] === 1) kept[s++] = u;
        i++;
        continue;
      }
      if (!mayEscape(text, i, c)) {
        units[k++] = c;
        if (keep !== undefined && keep[c] === 1) kept[s++] = c;
        i++;
        continue;
      }
      const decoded = decodeEscapeAt(text, i);
      if (mayNest(text, i, decoded)) {
        nested = true;
        break;
      }
      if (decoded === undefined) {
        units[k++] = c;
        if (keep !== undefined && keep[c] === 1) kept[s++] = c;
        i++;
        continue;
      }
      folded = foldDecoded(decoded[0]);
      width = decoded[1];
    } else {
      const cp = c >= 0xd800 && c <= 0xdbff && i + 1 < n ? text.codePointAt(i)! : c;
      if (cp > 0xffff) {
        folded = foldCodePoint(cp);
        width = 2;
        if (folded.length === 0 && isInvisibleCodePoint(cp)) invisible = true;
      } else {
        const u = cp >= 0xd800 && cp <= 0xdfff ? MULTI : oneUnit(c);
        if (u !== MULTI) {
          units[k++] = u;
          if (keep !== undefined && u < 128) {
            const upper = u >= 0x61 && u <= 0x7a ? u - 32 : u;
            if (keep[upper] === 1) kept[s++] = upper;
          }
          i++;
          continue;
        }
        folded = foldCodePoint(c);
        // Everything removeInvisible removes folds to nothing; so do combining marks.
        if (folded.length === 0 && isInvisibleCodePoint(c)) invisible = true;
      }
    }
    if (folded.length !== 1 || width !== 1) aligned = false;
    if (folded.length > 1) {
      const need = k + folded.length + (n - i) + 16;
      viewCapacity(need, k);
      units = viewUnits;
      if (keep !== undefined && need > kept.length) {
        keptUnits = new Uint16Array(Math.max(need, kept.length * 2));
        keptUnits.set(kept.subarray(0, s));
        kept = keptUnits;
      }
    }
    for (let j = 0; j < folded.length; j++) {
      const u = folded.charCodeAt(j);
      units[k++] = u;
      if (keep !== undefined && u < 128) {
        const upper = u >= 0x61 && u <= 0x7a ? u - 32 : u;
        if (keep[upper] === 1) kept[s++] = upper;
      }
    }
    i += width;
  }
  if (nested) return deepView(text, keep, false).scan;
  return {
    view: unitsToString(units, k),
    kept: keep === undefined ? '' : unitsToString(kept, s),
    invisible,
    aligned,
  };
}

/** The view's text alone, without the map back to the original. */
export function foldText(text: string): string {
  return scanText(text).view;
}

/** Builds the normalised view of `text`, with its map back. Linear in the length of `text`. */
export function buildView(text: string): NormalizedView {
  const b = fold(text);
  return { text: b.text(), start: b.start.subarray(0, b.k), end: b.end.subarray(0, b.k) };
}

/** scanText's answer read from the end (deepView), whether or not the text nests; for the test that holds the two walks to one view. */
export function deepScanText(text: string, keep?: Uint8Array): TextScan {
  return deepView(text, keep, false).scan;
}
