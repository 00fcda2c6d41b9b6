/**
 * Our boundary tags, and their detection in any form a model may still read
 * as one of them.
 */
import { OPEN_BRACKET_CHARS } from './confusables.js';
import { buildView, decodeEscapeAt, escapeExtentAt, foldCodePoint, type NormalizedView } from './normalized-view.js';

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
/** The spellings by the code of their first letter, longest first (an array, not a Map: it is read for every `<`). */
const BY_FIRST: Array<string[] | undefined> = new Array<string[] | undefined>(128);
for (const s of SPELLINGS) (BY_FIRST[s.charCodeAt(0)] ??= []).push(s);

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
 *     scripts among them;
 *   after the last letter, no letter or digit;
 *   and, when a `>` comes within 256 units with no `<` before it, the
 *   attributes and that `>`.
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
 * Reads one view, or the part of a region's view that reads as the whole
 * text does (`limit`): a read at or after the limit is UNDECIDED unless the
 * view is the whole text's, where it is the end.
 */
class Reader {
  private commentFrom = -1;
  private commentAt = -1;
  private blockFrom = -1;
  private blockAt = -1;

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

/** The end of `spelling` read from `p`, NO, or UNDECIDED. */
function matchName(r: Reader, p: number, spelling: string): number {
  for (let k = 0; k < spelling.length; k++) {
    if (k > 0) {
      p = skipGap(r, p);
      if (p === UNDECIDED) return UNDECIDED;
    }
    const u = r.read(p);
    if (u === UNDECIDED) return UNDECIDED;
    if (u !== spelling.charCodeAt(k)) return NO;
    p++;
  }
  const next = r.read(p);
  if (next === UNDECIDED) return UNDECIDED;
  return next !== END && classOf(next) === ASCII_ALNUM ? NO : p;
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

/** The end of the tag whose `<` is at `v`, NO, or UNDECIDED. */
function matchTag(r: Reader, v: number): number {
  const p = skipHead(r, v + 1);
  if (p === UNDECIDED) return UNDECIDED;
  const first = r.read(p);
  if (first === UNDECIDED) return UNDECIDED;
  const spellings = first < 128 ? BY_FIRST[first] : undefined;
  if (spellings === undefined) return NO;
  for (const spelling of spellings) {
    const e = matchName(r, p, spelling);
    if (e === UNDECIDED) return UNDECIDED;
    if (e === NO) continue;
    const tail = matchTail(r, e);
    if (tail === UNDECIDED) return UNDECIDED;
    return tail === NO ? e : tail;
  }
  return NO;
}

/**
 * Calls `found` with the view range of each tag, left to right, until it
 * returns false; a tag starts after the end of the one before it. False when
 * a tag that may start in the view cannot be decided within its limit (what
 * was found by then is not the answer: the caller grows the region).
 */
function scanTags(r: Reader, found: (start: number, end: number) => boolean): boolean {
  let v = nextCandidate(r, 0);
  while (v !== -1) {
    if (v >= r.limit) return r.whole;
    const e = matchTag(r, v);
    if (e === UNDECIDED) return false;
    if (e === NO) {
      v = nextCandidate(r, v + 1);
      continue;
    }
    if (!found(v, e)) return true;
    v = nextCandidate(r, e);
  }
  return true;
}

/**
 * What may start a tag: `<`, a head without comments, then a first letter
 * of a name or the start of a comment. Every tag's `<` matches it, so on the
 * view of a whole text the search skips, in native code, the many `<` of
 * ordinary text (`p < 0.05`) that cannot start one. The head reads up to the
 * next `<` at most, so the search stays linear.
 */
const CANDIDATE = new RegExp(`<[\\s/\\\\!?]*(?:[${[...new Set(SPELLINGS.map((s) => s[0]))].join('')}]|<!--|/\\*)`, 'g');

/**
 * The first `<` at or after `from` that may start a tag. On a region's view
 * the search above may read past the region's limit, where the view is not
 * yet the whole text's: there only a `<` whose next unit is neither part of
 * a head, a first letter, nor the `<` of `<!` is skipped.
 */
function nextCandidate(r: Reader, from: number): number {
  const view = r.view;
  if (r.whole) {
    CANDIDATE.lastIndex = from;
    const m = CANDIDATE.exec(view);
    return m === null ? -1 : m.index;
  }
  for (let v = view.indexOf('<', from); v !== -1; v = view.indexOf('<', v + 1)) {
    if (v + 2 >= r.limit) return v;
    const next = view.charCodeAt(v + 1);
    if (next < 128 && BY_FIRST[next] !== undefined) return v;
    if (isHead(next) || (next === LT && view.charCodeAt(v + 2) === BANG)) return v;
  }
  return -1;
}

/**
 * Characters of the original text that can become `<` in the view: the
 * brackets and their lookalikes, and the first characters of the escapes the
 * view decodes. Text without any of them cannot hold a tag. (A test checks
 * every code point against the view.)
 */
export const MAY_OPEN_CLASS = `[${[...OPEN_BRACKET_CHARS].map((ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`).join('')}&%\\\\]`;
const MAY_OPEN = new RegExp(MAY_OPEN_CLASS, 'u');
const OPEN_BRACKET_CODES = new Set([...OPEN_BRACKET_CHARS].map((ch) => ch.codePointAt(0)!));

export interface TagSpan {
  /** Start index in the original text. */
  start: number;
  /** End index (exclusive) in the original text. */
  end: number;
}

/**
 * Positions in the original where the view has a `<`: bracket characters and
 * their lookalikes, and escapes that decode to one.
 */
function openers(text: string): number[] {
  const found: number[] = [];
  // A charCodeAt scan: a global regex allocated a match per hit, and `&`, `%`
  // and `<` are common in ordinary text.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (c === LT) found.push(i);
      else if (c === 0x26 || c === 0x25 || c === 0x5c) {
        const decoded = decodeEscapeAt(text, i);
        if (decoded !== undefined && foldCodePoint(decoded[0]).includes('<')) found.push(i);
      }
    } else if (c >= 0xd800 && c <= 0xdbff) {
      if (OPEN_BRACKET_CODES.has(text.codePointAt(i)!)) found.push(i);
    } else if (OPEN_BRACKET_CODES.has(c)) {
      found.push(i);
    }
  }
  return found;
}

/** Original characters read ahead of the last opener of a region before the view is built. */
const REGION = 512;

/**
 * The index of the original from which the view of `text.slice(a, q)` may
 * read differently from the view of the whole text: the start of an escape
 * that the cut truncates, a surrogate pair or a CR LF that it splits. Only
 * the last escape start before the cut can be truncated, since no escape
 * holds an escape start (`&`, `%`, `\\`) after its first character; and an
 * escape pattern that matches within the slice, or not at all, in the whole
 * text matches the same way in the slice.
 */
function trustedEnd(text: string, a: number, q: number): number {
  const last = text.charCodeAt(q - 1);
  const limit = (last >= 0xd800 && last <= 0xdbff) || last === 0x0d ? q - 1 : q;
  for (let p = q - 1; p >= a; p--) {
    const c = text.charCodeAt(p);
    if (c === 0x26 || c === 0x25 || c === 0x5c) return p + escapeExtentAt(text, p) > q ? p : limit;
  }
  return limit;
}

/** The first unit of the view that comes from index `rel` of the original or later. */
function firstUnitFrom(view: NormalizedView, rel: number): number {
  let lo = 0;
  let hi = view.text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (view.start[mid]! < rel) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Finds every tag of ours in `text`, as spans of the original text: the tags
 * in the view of the whole text. A tag with no closing bracket
 * (`</UNTRUSTED_SOURCE_END id="x"` and then a newline) spans its bracket and
 * name; that is what makes it read as a tag.
 *
 * The view is built only around the openers (a tag cannot start elsewhere),
 * in regions that never overlap. A region that cannot decide a tag that may
 * start in it (a long run of separators, a comment whose end lies beyond it)
 * grows to twice its length until it can, or to the end of the text; so the
 * cost stays linear in the text, and a region finds exactly the tags that
 * the view of the whole text holds.
 */
export function findTags(text: string): TagSpan[] {
  const spans: TagSpan[] = [];
  if (!MAY_OPEN.test(text)) return spans;
  const at = openers(text);
  const n = text.length;
  let i = 0;
  while (i < at.length) {
    const a = at[i]!;
    let j = i;
    let q = Math.min(n, a + REGION);
    for (;;) {
      while (j + 1 < at.length && at[j + 1]! < q) {
        j++;
        q = Math.max(q, Math.min(n, at[j]! + REGION));
      }
      const view = buildView(text.slice(a, q));
      const whole = q === n;
      const limit = whole ? view.text.length : firstUnitFrom(view, trustedEnd(text, a, q) - a);
      const found: TagSpan[] = [];
      const decided = scanTags(new Reader(view.text, limit, whole), (s, e) => {
        found.push({ start: a + view.start[s]!, end: a + view.end[e - 1]! });
        return true;
      });
      if (decided) {
        // A loop, not push(...found): a region can hold more tags than a call has room for arguments.
        for (const span of found) spans.push(span);
        break;
      }
      q = Math.min(n, a + 2 * (q - a));
    }
    i = j + 1;
  }
  return spans;
}

/**
 * True when the view of a whole text holds a tag of ours: the same answer as
 * findTags on that text, without the map back. A test checks the two agree.
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
  return findTags(text).length > 0;
}
