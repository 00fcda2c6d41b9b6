/**
 * Our boundary tags, and their detection in any form a model may still read
 * as one of them.
 */
import { OPEN_BRACKET_CHARS } from '../text/confusables.js';
import { MARKERS } from './datamark.js';
import { buildView, foldText, type NormalizedView } from '../text/normalized-view.js';

/** Every tag name the quoting layer and the classifier use. Longest first. */
export const TAG_NAMES = [
  'UNTRUSTED_SOURCE_END',
  'UNTRUSTED_SOURCE',
  'HYPOTHESIS_TEXT_END',
  'HYPOTHESIS_TEXT',
  'TEXT_END',
  'TEXT',
] as const;
export type TagName = (typeof TAG_NAMES)[number];

/** The letters of each name, in TAG_NAMES order: a name reads the same whatever stands between its letters. */
const SPELLINGS = TAG_NAMES.map((name) => name.replace(/_/g, ''));
/** For each spelling, 1 at the index of each letter that starts a word of the name (`S` of `SOURCE`). */
const WORD_STARTS = new Map<string, Uint8Array>(
  TAG_NAMES.map((name) => {
    const starts = new Uint8Array(name.length);
    let k = 0;
    for (let i = 0; i < name.length; i++) {
      if (name[i] === '_') starts[k] = 1;
      else k++;
    }
    return [name.replace(/_/g, ''), starts] as const;
  }),
);

/**
 * Leetspeak: what else a letter of a name may be written as. A digit stands
 * where the letter does (`UNTRU5T3D_50URC3_3ND`); a symbol (`$`, `+`, `!`,
 * ...) is a separator in a gap too, so it reads as the letter when a gap that
 * holds it leaves the letter missing: at either end of that gap
 * (`UNTRU$TED`, `TEX+`).
 */
const LEET_DIGITS: Record<string, string> = { O: '0', I: '1', E: '3', S: '5', T: '7' };
const LEET_SYMBOLS: Record<string, string> = {
  S: '$§',
  T: '+',
  I: '!|¡',
  E: '€',
  C: '(©',
  H: '#',
  R: '®',
  P: '¶',
};
/** For each letter code, the codes it may also be written as (digits and symbols). */
const ALSO: Array<Set<number> | undefined> = new Array<Set<number> | undefined>(128);
const ALSO_SYMBOL: Array<Set<number> | undefined> = new Array<Set<number> | undefined>(128);
for (const [letter, digits] of Object.entries(LEET_DIGITS)) {
  ALSO[letter.charCodeAt(0)] = new Set([...digits].map((d) => d.charCodeAt(0)));
}
for (const [letter, symbols] of Object.entries(LEET_SYMBOLS)) {
  const codes = [...symbols].map((ch) => ch.charCodeAt(0));
  ALSO_SYMBOL[letter.charCodeAt(0)] = new Set(codes);
  const also = (ALSO[letter.charCodeAt(0)] ??= new Set());
  for (const c of codes) also.add(c);
}

/** True when the view unit `u` reads as the letter whose code is `letter`. */
function readsAs(u: number, letter: number): boolean {
  return u === letter || ALSO[letter]?.has(u) === true;
}

/** The spellings by the code of their first letter or its leetspeak (ASCII), longest first (an array, not a Map: it is read for every `<`). */
const BY_FIRST: Array<string[] | undefined> = new Array<string[] | undefined>(128);
for (const s of SPELLINGS) {
  const first = s.charCodeAt(0);
  for (const code of [first, ...(ALSO[first] ?? [])]) if (code < 128) (BY_FIRST[code] ??= []).push(s);
}
/** The characters a name may start with in the view, for the candidate search. */
const FIRST_CHARS = BY_FIRST.map((list, code) => (list === undefined ? '' : String.fromCharCode(code))).join('');

/**
 * Brackets other than `<` that may hold a tag name (`[/UNTRUSTED_SOURCE_END]`,
 * `{...}`, `(...)`, `⟦...⟧`): every opening punctuation mark (General
 * Category Ps) and the relations a reader takes for an angle bracket or an
 * opening one (`≺ ⋖ ≤ ⊂ ≪ ⊏ ⊲ ...`); and what may close them.
 */
const RELATIONS_OPEN = '≤≦≨≪≲≴≶≺≼≾⊀⊂⊄⊆⊈⊊⊏⊑⊲⊴⋐⋖⋘⋚⋜⋞⋦⋨⋪⋬⩽⩿⪁⪃⪅⪇⪉⪋⪍⪏⪑⪓⪕⪗⪙⪛⪝⪟⪡⪣⪦⪨⪪⪬⪯⪱⪳⪵⪷⪹⪻⪽⪿⫁⫃⫅⫇⫉⫋⫍⫏⫑⫓⫕⫷⫹⦑⦓⦕';
const RELATIONS_CLOSE = '≥≧≩≫≳≵≷≻≽≿⊁⊃⊅⊇⊉⊋⊐⊒⊳⊵⋑⋗⋙⋛⋝⋟⋧⋩⋫⋭⩾⪀⪂⪄⪆⪈⪊⪌⪎⪐⪒⪔⪖⪘⪚⪜⪞⪠⪢⪤⪧⪩⪫⪭⪰⪲⪴⪶⪸⪺⪼⪾⫀⫂⫄⫆⫈⫊⫌⫎⫐⫒⫔⫖⫸⫺⦒⦔⦖';
/** 1 = another opening bracket, 2 = a closing bracket (besides `>`), 3 = neither; 0 = not known yet. */
const bracketKind = new Uint8Array(0x10000);
function bracketOf(u: number): number {
  let k = bracketKind[u]!;
  if (k === 0) {
    const ch = String.fromCharCode(u);
    if (u === LT || u === GT) k = 3;
    else if (/\p{Ps}/u.test(ch) || RELATIONS_OPEN.includes(ch)) k = 1;
    else if (/\p{Pe}/u.test(ch) || RELATIONS_CLOSE.includes(ch)) k = 2;
    else k = 3;
    bracketKind[u] = k;
  }
  return k;
}
/** The other opening brackets of the BMP beyond ASCII, as a regular-expression class body. */
function otherOpenersClass(): string {
  let body = '';
  for (let u = 0x80; u < 0x10000; u++) {
    if (u >= 0xd800 && u <= 0xdfff) continue;
    if (bracketOf(u) === 1) body += `\\u${u.toString(16).padStart(4, '0')}`;
  }
  return body;
}

/** What reads as white space between the words of a name written as a phrase: white space and the datamarking markers. */
const PHRASE_SPACE = new RegExp(`[\\s${MARKERS.join('')}]`);

/*
 * What a tag of ours is, in the view (this is the definition used
 * everywhere, including the property tests):
 *
 *   an opening bracket `<`;
 *   a head: any run of whitespace, `/`, `\` (the JSON-escaped `<\/`), `!`,
 *     `?` and comments;
 *   the letters of a name, each pair of letters apart by a gap: any run of
 *     separators (whitespace, punctuation, symbols: anything but a letter, a
 *     digit or a bracket) and comments (`<!-- ... -->`, `/* ... *\/`, with
 *     anything inside), with at most three letters or digits of other
 *     scripts among them; a letter may be written in leetspeak (LEET_DIGITS,
 *     LEET_SYMBOLS);
 *   after the last letter, no letter or digit;
 *   and, when a `>` comes within 256 units with no `<` before it, the
 *   attributes and that `>`.
 *
 * Besides, a name in another bracket (`[`, `{`, `(`, any other opening
 * punctuation, `≺ ⋖ ≤ ⊂ ...`), read the same way, up to a closing bracket
 * within 256 units; and a name that a line holds alone: after at most 16
 * separators from the start of the line, with nothing after it on the line
 * but separators or attributes (`id="x"`). Outside `<`, a name is read as a
 * phrase of prose (`(untrusted source)`, `Hypothesis text` as a heading) and
 * left alone when white space alone stands between two of its words and the
 * head holds no `/` or `\`; and `TEXT` alone (an ordinary word) needs that
 * `/` or `\`.
 *
 * So `UNTRUSTED SOURCE`, `U.N.T.R.U.S.T.E.D`, `UNTRUSTED____SOURCE`, a run
 * of spaces, tabs and newlines, or an HTML comment between two letters all
 * read as the name, however long. Invisible characters and marks are not in
 * the view at all; escapes and lookalikes are already folded.
 */

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const STAR = 0x2a;
const BANG = 0x21;
const DASH = 0x2d;

// Classes of a view unit, filled on first use (0 = not known yet).
const SEPARATOR = 1;
const ASCII_ALNUM = 2;
const BRACKET = 3;
/** A letter or digit of another script: a few may stand in a gap. */
const FOREIGN = 4;
const unitClass = new Uint8Array(0x10000);
/** 1 for the units a head may hold besides comments (whitespace, `/`, `\`, `!`, `?`), 2 for the others; 0 = not known yet. */
const headUnit = new Uint8Array(0x10000);

function classOf(u: number): number {
  let k = unitClass[u]!;
  if (k === 0) {
    if ((u >= 0x41 && u <= 0x5a) || (u >= 0x61 && u <= 0x7a) || (u >= 0x30 && u <= 0x39)) k = ASCII_ALNUM;
    else if (u === LT || u === GT) k = BRACKET;
    // Lone surrogate units are halves of astral characters: separators (astral letters of
    // other scripts are rare, and those that look Latin are folded already).
    else if (u >= 0xd800 && u <= 0xdfff) k = SEPARATOR;
    else k = /[\p{L}\p{N}]/u.test(String.fromCharCode(u)) ? FOREIGN : SEPARATOR;
    unitClass[u] = k;
  }
  return k;
}

function isHead(u: number): boolean {
  let h = headUnit[u]!;
  if (h === 0) {
    h = u === SLASH || u === 0x5c || u === BANG || u === 0x3f || /\s/.test(String.fromCharCode(u)) ? 1 : 2;
    headUnit[u] = h;
  }
  return h === 1;
}

/** A read past the part of the view that reads as the whole text does: the region must grow. */
const UNDECIDED = -2;
const NO = -1;
/** What `read` gives at the end of the whole text. */
const END = -1;
/** Most foreign letters or digits in one gap. */
const FOREIGN_IN_GAP = 3;
/** Most units between a name and the `>` that closes its tag. */
const TAIL_UNITS = 256;

/**
 * Reads one view, or the part of a partial view that reads as the whole
 * text does (`limit`): a read at or after the limit is UNDECIDED unless the
 * view is the whole text's, where it is the end. findTags reads whole views
 * only (a name alone on a line, or in any bracket, made the regions it once
 * read around each `<` cover most text); the limit stays for callers that
 * read part of one.
 */
class Reader {
  private commentFrom = -1;
  private commentAt = -1;
  private blockFrom = -1;
  private blockAt = -1;

  /** The next match of each of the candidate searches (nextCandidate): -2 = not searched yet, -1 = none. */
  candidates: number[] | undefined;

  /** Where runs end, by where they began (see skipRun): kept once a comment is met, for heads and for gaps; 0 = not known, -1 = UNDECIDED, else the end + 1. */
  runEnds: [Int32Array, Int32Array] | undefined;

  constructor(
    readonly view: string,
    readonly limit: number,
    readonly whole: boolean,
  ) {}

  metComment(): void {
    this.runEnds ??= [new Int32Array(this.view.length + 1), new Int32Array(this.view.length + 1)];
  }

  read(i: number): number {
    if (i < this.limit) return this.view.charCodeAt(i);
    return this.whole ? END : UNDECIDED;
  }

  /**
   * The first `-->` (or `*\/`) at or after `from`, -1 when there is none.
   * The answer is kept and reused for later starts before it, so a text
   * with many comment openings and no end is searched once, not once each.
   */
  find(block: boolean, from: number): number {
    const memoFrom = block ? this.blockFrom : this.commentFrom;
    const memoAt = block ? this.blockAt : this.commentAt;
    if (memoFrom !== -1 && memoFrom <= from && (memoAt === -1 || memoAt >= from)) return memoAt;
    const at = this.view.indexOf(block ? '*/' : '-->', from);
    if (block) [this.blockFrom, this.blockAt] = [from, at];
    else [this.commentFrom, this.commentAt] = [from, at];
    return at;
  }
}

/**
 * The end of the comment that starts at `p` (`<!--` ... `-->` or `/*` ...
 * `*\/`), `p` when none starts there (an opening with no end is no comment),
 * or UNDECIDED.
 */
function skipComment(r: Reader, p: number): number {
  const u = r.read(p);
  const html = u === LT;
  if (!html && u !== SLASH) return p;
  const open = html ? [BANG, DASH, DASH] : [STAR];
  for (let k = 0; k < open.length; k++) {
    const v = r.read(p + 1 + k);
    if (v === UNDECIDED) return UNDECIDED;
    if (v !== open[k]) return p;
  }
  const body = p + 1 + open.length;
  const closeLength = html ? 3 : 2;
  const at = r.find(!html, body);
  if (at === -1 || at + closeLength > r.limit) return r.whole ? p : UNDECIDED;
  return at + closeLength;
}

const HEAD_RUN = 0;
const GAP_RUN = 1;

/**
 * Where a run of separators and comments that starts at `p` ends: the first
 * unit that is neither (for a head, the first that is not whitespace, `/`,
 * `\`, `!`, `?` or a comment), or UNDECIDED. Letters of other scripts end a
 * gap's run too; skipGap counts them.
 *
 * Without comments, the runs that different tags read never overlap: a run
 * stops at the next `<`. A comment can hold a `<` that starts another tag
 * whose run goes on past the same comment end, so once the reader has met a
 * comment it keeps the end of every run it has read, by where the run or the
 * part after a comment began; a later run that reaches one of those points
 * stops there. Each unit is then read in a run once, and the cost stays
 * linear however comments and tags nest.
 */
function skipRun(r: Reader, p: number, kind: number): number {
  if (r.runEnds === undefined) {
    // The common case, before any comment: a plain loop up to the first unit that ends the run or may open a comment.
    const view = r.view;
    for (;;) {
      if (p >= r.limit) return r.whole ? p : UNDECIDED;
      const u = view.charCodeAt(p);
      if (u === LT || u === SLASH) break;
      if (kind === HEAD_RUN ? !isHead(u) : classOf(u) !== SEPARATOR) return p;
      p++;
    }
  }
  const points = runPoints;
  points.length = 0;
  let end: number;
  for (;;) {
    const memo = r.runEnds?.[kind];
    if (memo !== undefined) {
      const known = memo[p]!;
      if (known !== 0) {
        end = known === -1 ? UNDECIDED : known - 1;
        break;
      }
      points.push(p);
    }
    const u = r.read(p);
    if (u === UNDECIDED || u === END) {
      end = u === UNDECIDED ? UNDECIDED : p;
      break;
    }
    if (u === LT || u === SLASH) {
      const e = skipComment(r, p);
      if (e === UNDECIDED) {
        end = UNDECIDED;
        break;
      }
      if (e > p) {
        r.metComment();
        p = e;
        continue;
      }
    }
    if (kind === HEAD_RUN ? !isHead(u) : classOf(u) !== SEPARATOR) {
      end = p;
      break;
    }
    p++;
    // Within a plain run only its start and the points after comments are kept.
    while (r.runEnds === undefined || r.runEnds[kind]![p] === 0) {
      const v = r.read(p);
      if (v === UNDECIDED || v === END || v === LT || v === SLASH) break;
      if (kind === HEAD_RUN ? !isHead(v) : classOf(v) !== SEPARATOR) break;
      p++;
    }
  }
  const memo = r.runEnds?.[kind];
  if (memo !== undefined) for (const point of points) memo[point] = end === UNDECIDED ? -1 : end + 1;
  return end;
}
/** Reused by skipRun, which does not nest. */
const runPoints: number[] = [];

/** The end of the head that starts at `p` (after the `<`), or UNDECIDED. */
function skipHead(r: Reader, p: number): number {
  return skipRun(r, p, HEAD_RUN);
}

/** The end of the gap that starts at `p` (between two letters of a name), or UNDECIDED. */
function skipGap(r: Reader, p: number): number {
  let foreign = 0;
  for (;;) {
    p = skipRun(r, p, GAP_RUN);
    if (p === UNDECIDED) return UNDECIDED;
    const u = r.read(p);
    if (u === UNDECIDED) return UNDECIDED;
    if (u === END || classOf(u) !== FOREIGN || foreign === FOREIGN_IN_GAP) return p;
    foreign++;
    p++;
  }
}

/** True when the units of the view in [from, to) are all white space (PHRASE_SPACE). */
function onlySpace(view: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!PHRASE_SPACE.test(view[i]!)) return false;
  return true;
}

/**
 * The end of `spelling` read from `p`, NO, or UNDECIDED. With `strict` (a
 * name outside `<` with no slash before it), the letters of each word must
 * touch, and white space alone between two words is prose: `(untrusted
 * source)` is not a name, nor is the `t.extend` of `{ t.extend(...)`.
 * A letter may be read in more than one way when a leetspeak symbol stands
 * in the gap before the next letter (the symbol, or a real letter after it),
 * so the places the next letter may be read from are kept as a set: a few
 * at most, as a name has at most 18 letters.
 */
function matchName(r: Reader, p: number, spelling: string, strict: boolean): number {
  const starts = WORD_STARTS.get(spelling)!;
  let at: number[] = [p];
  for (let k = 0; k < spelling.length; k++) {
    const letter = spelling.charCodeAt(k);
    const symbols = ALSO_SYMBOL[letter];
    const wordStart = starts[k] === 1;
    /** Whether the gap [from, to) before this letter is allowed. */
    const allowed = (from: number, to: number): boolean =>
      !strict || (wordStart ? to === from || !onlySpace(r.view, from, to) : to === from);
    const next: number[] = [];
    const add = (q: number): void => {
      if (!next.includes(q)) next.push(q);
    };
    for (const from of at) {
      if (k === 0) {
        const u = r.read(from);
        if (u === UNDECIDED) return UNDECIDED;
        if (u !== END && readsAs(u, letter)) add(from + 1);
        continue;
      }
      const g = skipGap(r, from);
      if (g === UNDECIDED) return UNDECIDED;
      const u = r.read(g);
      if (u === UNDECIDED) return UNDECIDED;
      if (u !== END && readsAs(u, letter) && allowed(from, g)) add(g + 1);
      if (g > from && symbols !== undefined) {
        // The symbol at the gap's end: the next letter reads on from here.
        if (symbols.has(r.view.charCodeAt(g - 1)) && allowed(from, g - 1)) add(g);
        // The symbol at the gap's start, right after the letter before.
        if (symbols.has(r.view.charCodeAt(from))) add(from + 1);
      }
    }
    if (next.length === 0) return NO;
    at = next;
  }
  let end = NO;
  for (const q of at) {
    const u = r.read(q);
    if (u === UNDECIDED) return UNDECIDED;
    if ((u === END || classOf(u) !== ASCII_ALNUM) && q > end) end = q;
  }
  return end;
}

/** The end of the attributes and `>` after a name ending at `p`, NO when there are none, or UNDECIDED. */
function matchTail(r: Reader, p: number): number {
  for (let k = 0; k <= TAIL_UNITS; k++) {
    const u = r.read(p + k);
    if (u === UNDECIDED) return UNDECIDED;
    if (u === END || u === LT) return NO;
    if (u === GT) return p + k + 1;
  }
  return NO;
}

/** The same after a name in another bracket: up to any closing bracket, before any opening one. */
function matchOtherTail(r: Reader, p: number): number {
  for (let k = 0; k <= TAIL_UNITS; k++) {
    const u = r.read(p + k);
    if (u === UNDECIDED) return UNDECIDED;
    if (u === END || u === LT) return NO;
    if (u === GT) return p + k + 1;
    const kind = bracketOf(u);
    if (kind === 1) return NO;
    if (kind === 2) return p + k + 1;
  }
  return NO;
}

/**
 * True when the head [from, to) ends in `/`, right before the name: a closing
 * tag's (`[/TEXT]`), not prose, a comment (`// Text`) or TeX (`{\text{`).
 */
function slashIn(view: string, from: number, to: number): boolean {
  return to > from && view.charCodeAt(to - 1) === SLASH;
}

/** The first name read from `p`, as the end of it, NO or UNDECIDED. */
function matchAnyName(r: Reader, p: number, phrase: boolean, slash: boolean): number {
  const first = r.read(p);
  if (first === UNDECIDED) return UNDECIDED;
  const spellings = first >= 0 && first < 128 ? BY_FIRST[first] : undefined;
  if (spellings === undefined) return NO;
  for (const spelling of spellings) {
    // `TEXT` alone is an ordinary word: outside `<`, it needs a closing tag's slash.
    if (phrase && !slash && spelling === 'TEXT') continue;
    const e = matchName(r, p, spelling, phrase && !slash);
    // (phrase && !slash is matchName's strict reading.)
    if (e === UNDECIDED) return UNDECIDED;
    if (e !== NO) return e;
  }
  return NO;
}

/** The end of the tag whose bracket (`<` or another) is at `v`, NO, or UNDECIDED. */
function matchBracketed(r: Reader, v: number): number {
  const open = r.read(v);
  const angle = open === LT;
  if (!angle && (open < 0 || bracketOf(open) !== 1)) return NO;
  const p = skipHead(r, v + 1);
  if (p === UNDECIDED) return UNDECIDED;
  const e = matchAnyName(r, p, !angle, slashIn(r.view, v + 1, p));
  if (e === UNDECIDED || e === NO) return e;
  const tail = angle ? matchTail(r, e) : matchOtherTail(r, e);
  if (tail === UNDECIDED) return UNDECIDED;
  return tail === NO ? e : tail;
}

/** Most separators before a name that a line holds alone. */
const LINE_LEAD = 16;
/** After a name that a line holds alone: white space and an attribute (`id=`). */
const ATTRIBUTE_AFTER = /^\s+[A-Z][A-Z0-9_-]*\s*=/;

/** The end of the line that starts at `v` when it holds a name alone, NO, or UNDECIDED. */
function matchLine(r: Reader, v: number): number {
  let p = v;
  for (let k = 0; k < LINE_LEAD; k++) {
    const u = r.read(p);
    if (u === UNDECIDED) return UNDECIDED;
    if (u === END || u === LF || u === LT) break;
    // `>` too: a quoted line (`> UNTRUSTED_SOURCE_END`).
    if (u !== GT && classOf(u) !== SEPARATOR) break;
    p++;
  }
  const e = matchAnyName(r, p, true, slashIn(r.view, v, p));
  if (e === UNDECIDED || e === NO) return e;
  let end = e;
  let alone = true;
  for (;;) {
    const u = r.read(end);
    if (u === UNDECIDED) return UNDECIDED;
    if (u === END || u === LF) break;
    if (classOf(u) === ASCII_ALNUM || classOf(u) === FOREIGN) alone = false;
    end++;
  }
  if (!alone && !ATTRIBUTE_AFTER.test(r.view.slice(e, Math.min(end, e + 64)))) return NO;
  return end;
}

const LF = 0x0a;

/** The end of the tag at `v`, NO, or UNDECIDED: in a bracket there, or alone on a line that starts there. */
function matchTag(r: Reader, v: number): number {
  const e = matchBracketed(r, v);
  if (e !== NO) return e;
  return v === 0 || r.view.charCodeAt(v - 1) === LF ? matchLine(r, v) : NO;
}

/**
 * Calls `found` with the view range of each tag, left to right, until it
 * returns false; a tag starts after the end of the one before it. False when
 * a tag that may start in the view cannot be decided within its limit (what
 * was found by then is not the answer).
 */
function scanTags(r: Reader, found: (start: number, end: number) => boolean): boolean {
  let v = nextCandidate(r, 0);
  while (v !== -1) {
    if (v >= r.limit) return r.whole;
    const e = matchTag(r, v);
    if (e === UNDECIDED) return false;
    if (e === NO || e <= v) {
      v = nextCandidate(r, v + 1);
      continue;
    }
    if (!found(v, e)) return true;
    v = nextCandidate(r, e);
  }
  return true;
}

/**
 * What may start a tag: `<` or another opening bracket, a head without
 * comments, then a first letter of a name or the start of a comment; or the
 * start of a line, at most 16 units that are not letters or digits, and a
 * first letter. Every tag's start matches one of the three searches, so the
 * search skips, in native code, the many brackets of ordinary text
 * (`p < 0.05`, `(see Table 1)`) that cannot start one. The head reads up to
 * the next `<` at most, so the search stays linear. The brackets beyond ASCII
 * are searched apart: one class of all of them made the search of every text
 * ten times slower.
 */
const FIRST_CLASS = `[${FIRST_CHARS.replace(/[\\\]^-]/g, '\\$&')}]`;
const AFTER_OPENER = `[\\s/\\\\!?]*(?:${FIRST_CLASS}|<!--|/\\*)`;
const CANDIDATES = [
  new RegExp(`[<(\\[{]${AFTER_OPENER}`, 'g'),
  new RegExp(`[${otherOpenersClass()}]${AFTER_OPENER}`, 'g'),
  new RegExp(`(?:^|\\n)[^A-Za-z0-9\\n<]{0,${LINE_LEAD}}${FIRST_CLASS}`, 'g'),
];

/** The first unit at or after `from` that may start a tag. */
function nextCandidate(r: Reader, from: number): number {
  const view = r.view;
  const next = (r.candidates ??= [-2, -2, -2]);
  let best = -1;
  for (let k = 0; k < CANDIDATES.length; k++) {
    let at = next[k]!;
    if (at !== -1 && at < from) {
      const re = CANDIDATES[k]!;
      // A line start is found through the line break before it.
      re.lastIndex = k === 2 ? Math.max(0, from - 1) : from;
      for (;;) {
        const m = re.exec(view);
        if (m === null) {
          at = -1;
          break;
        }
        at = k === 2 && view.charCodeAt(m.index) === LF ? m.index + 1 : m.index;
        if (at >= from) break;
        re.lastIndex = m.index + 1;
      }
      next[k] = at;
    }
    if (at !== -1 && (best === -1 || at < best)) best = at;
  }
  return best;
}

/**
 * Characters of the original text that can become `<` in the view: the
 * brackets and their lookalikes, and the first characters of the escapes the
 * view decodes. (A test checks every code point against the view.) The
 * last-resort pass of quote.ts replaces them.
 */
export const MAY_OPEN_CLASS = `[${[...OPEN_BRACKET_CHARS].map((ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`).join('')}&%\\\\=]`;

export interface TagSpan {
  /** Start index in the original text. */
  start: number;
  /** End index (exclusive) in the original text. */
  end: number;
}

/** The tags of a text whose view is `view`, as spans of the original text. */
export function tagsOfView(view: NormalizedView): TagSpan[] {
  const spans: TagSpan[] = [];
  scanTags(new Reader(view.text, view.text.length, true), (s, e) => {
    spans.push({ start: view.start[s]!, end: view.end[e - 1]! });
    return true;
  });
  return spans;
}

/**
 * Finds every tag of ours in `text`, as spans of the original text: the tags
 * in the view of the whole text. A tag with no closing bracket
 * (`</UNTRUSTED_SOURCE_END id="x"` and then a newline) spans its bracket and
 * name; that is what makes it read as a tag. Most texts hold none: the view
 * is read once without its map back, and the map is built only for a text
 * that holds a tag.
 */
export function findTags(text: string): TagSpan[] {
  if (!viewHasTag(foldText(text))) return [];
  return tagsOfView(buildView(text));
}

/**
 * True when the view of a whole text holds a tag of ours: the same answer as
 * findTags on that text, without the map back.
 */
export function viewHasTag(view: string): boolean {
  let any = false;
  scanTags(new Reader(view, view.length, true), () => {
    any = true;
    return false;
  });
  return any;
}

/** The tags in the view of a whole text, as [start, end) ranges of the view; for the test that holds the matcher to a plain reading of the definition. */
export function tagsInView(view: string): Array<[start: number, end: number]> {
  const found: Array<[number, number]> = [];
  scanTags(new Reader(view, view.length, true), (start, end) => {
    found.push([start, end]);
    return true;
  });
  return found;
}

/** True when `text` holds anything the normaliser reads as a tag of ours. */
export function containsTag(text: string): boolean {
  return viewHasTag(foldText(text));
}
