/**
 * Is a quoted excerpt on the page? Deterministic and exact after normalisation:
 * no model, no edit distance. An excerpt with one word or one number changed is
 * a different excerpt and is not found.
 *
 * The whole excerpt is checked. The earlier rule checked only its first 200
 * characters, which let a real opening carry a fabricated tail; `prefixChars`
 * restores that rule for callers that need the old behaviour.
 */
import { CitationTextError } from './errors.js';
import type { MatchText } from './marked-text.js';
import { normalizeForMatch } from './normalize.js';
import { withoutOptional, type Reduced } from './optional-spans.js';
import { removeCutMarkerStart } from './reference-markers.js';
import type { PageSources, TextSource } from './page-sources.js';

export type MatchReason = 'excerpt_not_found' | 'excerpt_empty';

export type MatchResult = { found: true } | { found: false; reason: MatchReason };

/** A match in a page's texts, and in which of them it was found. */
export type PageMatch = { found: true; source: TextSource } | { found: false; reason: MatchReason };

/** A match in a page's texts, and where: offsets into the text of `source` (see locateInPage). */
export type PageLocation =
  { found: true; source: TextSource; start: number; end: number } | { found: false; reason: MatchReason };

export interface MatchOptions {
  /**
   * Check only the first N characters (UTF-16 units) of the normalised excerpt,
   * as the earlier verifier did with N = 200. A positive integer.
   * @defaultValue undefined: the whole excerpt is checked
   */
  prefixChars?: number;
}

/**
 * An elision in the normalised excerpt: `...` (NFKC has turned `…` into it),
 * `[...]` or `(...)`, with the space around it. Each repetition is bounded by
 * the next character, so the pattern is linear.
 */
const ELLIPSIS = / ?(?:\[ ?\.{3,} ?\]|\( ?\.{3,} ?\)|\.{3,}) ?/g;

/** A non-empty run of the normalised excerpt between elisions. */
export interface Part {
  text: string;
  /** True when `prefixChars` cut this part short. */
  cut: boolean;
}

/** The runs of `text` between elisions, as [start, end) ranges, without the empty ones. */
function splitAtElisions(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let last = 0;
  for (const m of text.matchAll(ELLIPSIS)) {
    if (m.index > last) ranges.push([last, m.index]);
    last = m.index + m[0].length;
  }
  if (last < text.length) ranges.push([last, text.length]);
  return ranges;
}

/**
 * The parts to look up. With `prefixChars`, only the first N characters count,
 * starting at the first quoted character (an opening `...` is not quoted text);
 * the cut never falls between the two halves of a surrogate pair.
 */
function partsToCheck(text: string, prefixChars: number | undefined): Part[] {
  const ranges = splitAtElisions(text);
  if (prefixChars === undefined || ranges.length === 0) {
    return ranges.map(([a, b]) => ({ text: text.slice(a, b).trim(), cut: false })).filter((p) => p.text !== '');
  }
  let limit = ranges[0]![0] + prefixChars;
  const high = text.charCodeAt(limit - 1);
  if (limit < text.length && high >= 0xd800 && high <= 0xdbff) limit--;
  const parts: Part[] = [];
  for (const [a, b] of ranges) {
    if (a >= limit) break;
    const part = text.slice(a, Math.min(b, limit)).trim();
    if (part !== '') parts.push({ text: part, cut: b > limit });
  }
  return parts;
}

/**
 * Letters, digits and marks of scripts that put spaces between words. In Chinese,
 * Japanese, Thai and the like a word boundary is not visible in the text, so no
 * boundary is required there.
 */
const WORD_CHAR =
  /^(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\p{sc=Tibetan}])[\p{L}\p{N}\p{M}]$/u;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isWordCode(code: number): boolean {
  if (code < 0x80) return isDigit(code) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
  return WORD_CHAR.test(String.fromCodePoint(code));
}

/** The code point that ends just before `index`, or -1 at the start. */
function codePointBefore(text: string, index: number): number {
  if (index <= 0) return -1;
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) return text.codePointAt(index - 2)!;
  return low;
}

function isDecimalMark(code: number): boolean {
  return code === 0x2e || code === 0x2c;
}

function isSign(code: number): boolean {
  return code === 0x2d || code === 0x2b;
}

/**
 * Whether an occurrence of `part` from `at` to `end` stands on its own in the
 * page. Plain substring search would accept `safe for children` inside
 * `unsafe for children` and `10 patients` inside `110 patients`; so a part may
 * not begin inside a word, and a number at either end may not be the cut-off
 * piece of a longer one or of a range (`5 mg` in `2.5 mg` or `-5 mg` or `3-5
 * mg`, `dose of 2` in `dose of 25` or `dose of 2-4`). The end of a part may
 * stop inside a word (a quote cut at a fixed length does that), but not inside
 * a number. `openEnd` lifts the end rule where the excerpt was cut by
 * `prefixChars`. The page's text is what a reader sees: an element boundary
 * inside a word (`un<b>safe</b>`) does not make it two words here.
 */
function standsAlone(page: string, part: string, at: number, end: number, openEnd: boolean): boolean {
  const first = part.codePointAt(0)!;
  if (isWordCode(first)) {
    const before = codePointBefore(page, at);
    if (before >= 0 && isWordCode(before)) return false;
    if (isDigit(first) && isSign(before)) return false;
    if (isDigit(first) && isDecimalMark(before) && isDigit(codePointBefore(page, at - 1))) return false;
  }
  if (openEnd) return true;
  const last = part.charCodeAt(part.length - 1);
  const lastDigit =
    isDigit(last) || (isDecimalMark(last) && part.length > 1 && isDigit(part.charCodeAt(part.length - 2)));
  if (!lastDigit) return true;
  const after = page.charCodeAt(end);
  if (isDigit(after)) return false;
  if (isDigit(last) && (isDecimalMark(after) || after === 0x2d) && isDigit(page.charCodeAt(end + 1))) return false;
  return true;
}

/** Where a part was found: `[at, end)` of the page text. */
interface Found {
  at: number;
  end: number;
}

/** The first place at or after `from` where `part` is, word for word and space for space, and stands alone. */
function findExact(page: string, part: string, from: number, openEnd: boolean): Found | undefined {
  let at = page.indexOf(part, from);
  while (at >= 0 && !standsAlone(page, part, at, at + part.length, openEnd)) at = page.indexOf(part, at + 1);
  return at < 0 ? undefined : { at, end: at + part.length };
}

// ---------------------------------------------------------------- spacing at the page's gaps

const SPACE = 0x20;
const HYPHEN = 0x2d;

/** Whether the ascending list holds `x` (binary search). */
function holds(sorted: readonly number[] | undefined, x: number): boolean {
  if (sorted === undefined) return false;
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid]!;
    if (v === x) return true;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * Whether a space put between `left` and `right`, or taken from between them,
 * would split a number or join two: digits on both sides, or a decimal mark
 * between digits. `1<b>10</b> patients` reads 110 patients, and "1 10
 * patients" is not a quote of it; nor is "310" a quote of `3 <b>10</b>`.
 */
function touchesNumber(page: string, left: number, right: number): boolean {
  const l = page.charCodeAt(left);
  const r = page.charCodeAt(right);
  if (isDigit(l) && isDigit(r)) return true;
  if (isDigit(l) && isDecimalMark(r) && isDigit(page.charCodeAt(right + 1))) return true;
  return isDecimalMark(l) && isDigit(page.charCodeAt(left - 1)) && isDigit(r);
}

/**
 * Follows `part` through the page from `at`, character by character. Where
 * they differ, the difference is accepted only at one of the page's gaps or
 * soft hyphens (marked-text.ts), and never where it would split or join a
 * number: a space of the page at a gap may be missing from the part; the part
 * may have a space where the page has a gap or a soft hyphen, or a hyphen and
 * a space at a soft hyphen. Returns where the part ends in the page, or -1.
 */
function follow(page: MatchText, part: string, at: number): number {
  const p = page.text;
  let i = 0;
  let j = at;
  while (i < part.length) {
    const e = part.charCodeAt(i);
    const c = p.charCodeAt(j);
    if (e === c) {
      i++;
      j++;
    } else if (e === SPACE && j > 0 && j < p.length) {
      // The part has a space the page does not.
      if (!(holds(page.gaps, j) || holds(page.hyphens, j)) || touchesNumber(p, j - 1, j)) return -1;
      i++;
    } else if (e === HYPHEN && part.charCodeAt(i + 1) === SPACE && holds(page.hyphens, j) && j > 0) {
      // A line broken at a soft hyphen.
      if (touchesNumber(p, j - 1, j)) return -1;
      i += 2;
    } else if (c === SPACE && holds(page.gaps, j)) {
      // The page has a space the part does not.
      if (touchesNumber(p, j - 1, j + 1)) return -1;
      j++;
    } else {
      return -1;
    }
  }
  return j;
}

/**
 * The page text without its spaces and hyphens: where a part that differs
 * from the page only in spacing (and in the hyphen of a line broken at a soft
 * hyphen) can be searched for with indexOf, squeezed the same way.
 * `dropped` holds the offsets of the characters left out, ascending.
 */
interface Squeezed {
  text: string;
  dropped: Int32Array;
}

const SQUEEZED = /[ -]/g;
/** One per page text object, kept while it is. */
const squeezedPages = new WeakMap<MatchText, Squeezed>();
/**
 * The last few built, by the text itself: a page read from the Redis cache is
 * a new object for each entry that cites it, with the same text. Only texts
 * up to a size are kept, so that the memory this holds stays small.
 */
const recentlySqueezed = new Map<string, Squeezed>();
const RECENT_KEPT = 8;
const RECENT_MAX_CHARS = 1 << 20;

/** One pass: the kept characters into a buffer, the offsets of the others into a list. */
function squeeze(p: string): Squeezed {
  const kept = new Uint16Array(p.length);
  const dropped: number[] = [];
  let k = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p.charCodeAt(i);
    if (c === SPACE || c === HYPHEN) dropped.push(i);
    else kept[k++] = c;
  }
  let text = '';
  // In chunks: String.fromCharCode takes its arguments on the stack.
  for (let a = 0; a < k; a += 8192) {
    text += String.fromCharCode.apply(null, kept.subarray(a, Math.min(k, a + 8192)) as unknown as number[]);
  }
  return { text, dropped: Int32Array.from(dropped) };
}

function squeezedOf(page: MatchText): Squeezed {
  let s = squeezedPages.get(page);
  if (s !== undefined) return s;
  const small = page.text.length <= RECENT_MAX_CHARS;
  s = small ? recentlySqueezed.get(page.text) : undefined;
  if (s === undefined) {
    s = squeeze(page.text);
    if (small) {
      recentlySqueezed.set(page.text, s);
      if (recentlySqueezed.size > RECENT_KEPT) recentlySqueezed.delete(recentlySqueezed.keys().next().value!);
    }
  } else {
    // Most recently used last.
    recentlySqueezed.delete(page.text);
    recentlySqueezed.set(page.text, s);
  }
  squeezedPages.set(page, s);
  return s;
}

/** How many of the dropped offsets are below `x`. */
function droppedBelow(dropped: Int32Array, x: number): number {
  let lo = 0;
  let hi = dropped.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (dropped[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The page offset of the character at `q` of the squeezed text. */
function pageOffset(dropped: Int32Array, q: number): number {
  // dropped[k] - k is the squeezed offset the k-th dropped character sits before; it never decreases.
  let lo = 0;
  let hi = dropped.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (dropped[mid]! - mid <= q) lo = mid + 1;
    else hi = mid;
  }
  return q + lo;
}

/**
 * The first place at or after `from` where `part` is on the page with its
 * spacing differing only at the page's gaps and soft hyphens, standing alone.
 */
function findAcrossGaps(page: MatchText, part: string, from: number, openEnd: boolean): Found | undefined {
  if (page.gaps === undefined && page.hyphens === undefined) return undefined;
  const squeezedPart = part.replace(SQUEEZED, '');
  // A part of dashes and spaces only, or one with no space where only hyphens are marked: nothing to differ.
  if (squeezedPart === '' || (page.gaps === undefined && !part.includes(' '))) return undefined;
  // A part that opens with a dash (`- and`): the dash is searched for before each place found.
  const lead = part.length - part.replace(/^[ -]+/, '').length;
  const sq = squeezedOf(page);
  let q = sq.text.indexOf(squeezedPart, from - droppedBelow(sq.dropped, from));
  while (q >= 0) {
    const first = pageOffset(sq.dropped, q);
    for (let at = first; at >= Math.max(from, first - 2 * lead); at--) {
      if (at < first && page.text.charCodeAt(at) !== SPACE && page.text.charCodeAt(at) !== HYPHEN) break;
      if (page.text.charCodeAt(at) !== part.charCodeAt(0)) continue;
      const end = follow(page, part, at);
      if (end >= 0 && standsAlone(page.text, part, at, end, openEnd)) return { at, end };
    }
    q = sq.text.indexOf(squeezedPart, q + 1);
  }
  return undefined;
}

/** The first place at or after `from` where the part is found, exactly or across the page's gaps. */
function findPart(page: MatchText, part: string, from: number, openEnd: boolean): Found | undefined {
  return findExact(page.text, part, from, openEnd) ?? findAcrossGaps(page, part, from, openEnd);
}

/** The parts of an excerpt in a page, in order, each after the end of the one before; undefined when one is missing. */
function findParts(page: MatchText, parts: readonly Part[]): Found[] | undefined {
  const out: Found[] = [];
  let from = 0;
  for (const part of parts) {
    const found = findPart(page, part.text, from, part.cut);
    if (found === undefined) return undefined;
    out.push(found);
    from = found.end;
  }
  return out;
}

/** One per page text object, kept while it is. */
const reducedPages = new WeakMap<MatchText, Reduced>();
/**
 * The last few built, by the text itself, as for the squeezed texts, with the
 * page text they were built from: the same text can come with other spans,
 * gaps or soft hyphens (another page's markup), and is then reduced apart.
 */
const recentlyReduced = new Map<string, { from: MatchText; reduced: Reduced }>();

function sameNumbers(a: readonly number[] | undefined, b: readonly number[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameMarks(a: MatchText, b: MatchText): boolean {
  return sameNumbers(a.optional, b.optional) && sameNumbers(a.gaps, b.gaps) && sameNumbers(a.hyphens, b.hyphens);
}

/** The page text without its optional spans (optional-spans.ts), built once per page. */
function reducedOf(page: MatchText): Reduced {
  let r = reducedPages.get(page);
  if (r !== undefined) return r;
  const small = page.text.length <= RECENT_MAX_CHARS;
  const recent = small ? recentlyReduced.get(page.text) : undefined;
  r = recent !== undefined && sameMarks(recent.from, page) ? recent.reduced : withoutOptional(page);
  if (small) {
    // Most recently used last.
    recentlyReduced.delete(page.text);
    recentlyReduced.set(page.text, { from: page, reduced: r });
    if (recentlyReduced.size > RECENT_KEPT) recentlyReduced.delete(recentlyReduced.keys().next().value!);
  }
  reducedPages.set(page, r);
  return r;
}

/**
 * Where an excerpt's last part ends in the text it was found in, and where an
 * offset of the page text is there; and the passage in the page text itself,
 * from the first part's start to the last part's end.
 */
interface FoundIn {
  end: number;
  at: (o: number) => number;
  passage: { start: number; end: number };
}

const same = (o: number): number => o;

/**
 * The parts of an excerpt in a page text, in order: in the text as it is, or
 * else, when it has optional spans, in the text without them all.
 */
function findPartsInText(page: MatchText, parts: readonly Part[]): FoundIn | undefined {
  const found = findParts(page, parts);
  if (found !== undefined) {
    const end = found[found.length - 1]!.end;
    return { end, at: same, passage: { start: found[0]!.at, end } };
  }
  if (page.optional === undefined) return undefined;
  const reduced = reducedOf(page);
  const inReduced = findParts(reduced.text, parts);
  if (inReduced === undefined) return undefined;
  const end = inReduced[inReduced.length - 1]!.end;
  // Parts are trimmed: their first and last characters are text of the page, never a space put for a span.
  const passage = { start: reduced.pageAt(inReduced[0]!.at), end: reduced.pageAt(end - 1) + 1 };
  return { end, at: reduced.at, passage };
}

/** The normalised parts of an excerpt that are looked up, in order (near-miss.ts diagnoses the same ones). */
export function excerptParts(excerpt: string, options: MatchOptions): Part[] {
  const { prefixChars } = options;
  if (prefixChars !== undefined && !(Number.isSafeInteger(prefixChars) && prefixChars > 0)) {
    throw new CitationTextError('BAD_OPTION', `prefixChars must be a positive integer, got ${String(prefixChars)}`);
  }
  return partsToCheck(removeCutMarkerStart(normalizeForMatch(excerpt)), prefixChars);
}

/**
 * Looks an excerpt up in a page. `page` must be the output of
 * {@link normalizeForMatch} (normalise a page once, then check each excerpt
 * that cites it), or a {@link MatchText}, whose gaps let the excerpt's
 * spacing differ there; the excerpt is normalised here.
 *
 * An excerpt with elisions (`...`, `…`, `[…]`, `[...]`, `(...)`) is found when
 * its parts appear in the page in order, each after the end of the one before.
 */
export function matchExcerpt(page: string | MatchText, excerpt: string, options: MatchOptions = {}): MatchResult {
  const parts = excerptParts(excerpt, options);
  if (parts.length === 0) return { found: false, reason: 'excerpt_empty' };
  const found = findPartsInText(typeof page === 'string' ? { text: page } : page, parts);
  return found === undefined ? { found: false, reason: 'excerpt_not_found' } : { found: true };
}

/**
 * Looks an excerpt up in the texts of a page (page-sources.ts): its visible
 * text with its JSON-LD text, then, only when it is not there, the text of
 * its scripts' JSON. The result says which one held it; an excerpt that
 * reaches into the JSON-LD text is `json_ld`.
 */
export function matchInPage(page: PageSources, excerpt: string, options: MatchOptions = {}): PageMatch {
  const located = locateInPage(page, excerpt, options);
  return located.found ? { found: true, source: located.source } : located;
}

/**
 * {@link matchInPage}, and where the excerpt is: `[start, end)` in UTF-16
 * code units of the text it was found in, from the start of its first part
 * to the end of its last (what an elision leaves out, and an optional span
 * the excerpt leaves out, lie inside). That text is `page.text` for `text`
 * and `json_ld`, `page.script` for `script_json`.
 */
export function locateInPage(page: PageSources, excerpt: string, options: MatchOptions = {}): PageLocation {
  const parts = excerptParts(excerpt, options);
  if (parts.length === 0) return { found: false, reason: 'excerpt_empty' };
  const found = findPartsInText(page.text, parts);
  if (found !== undefined) {
    const ld = page.jsonLdAt;
    const source = ld !== undefined && found.end > found.at(ld) ? 'json_ld' : 'text';
    return { found: true, source, ...found.passage };
  }
  const inScript = page.script === undefined ? undefined : findPartsInText(page.script, parts);
  if (inScript !== undefined) return { found: true, source: 'script_json', ...inScript.passage };
  return { found: false, reason: 'excerpt_not_found' };
}
