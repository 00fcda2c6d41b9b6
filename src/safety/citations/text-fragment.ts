/**
 * A link that opens a cited page scrolled to the quoted passage, the passage
 * highlighted: the page's URL with a text directive in its fragment,
 * `#:~:text=[prefix-,]textStart[,textEnd][,-suffix]` (URL Fragment Text
 * Directives, https://wicg.github.io/scroll-to-text-fragment/; Chromium,
 * Safari and Firefox follow it).
 *
 * The directive is built from the page's own text at the passage's offsets
 * (match.ts locateInPage), never from the excerpt: the excerpt may differ
 * from the page where the match tolerates it (spacing at a tag, an elision,
 * a formula left out), and a browser looks for the page's words. That text is
 * normalised (lower case, plain quotes and dashes); a browser compares case
 * and accents loosely, so the case does not matter. What else normalisation
 * changed (a curly quote, a footnote marker taken out) would keep a browser
 * from finding a term that holds it, so a passage of more than a few words is
 * named by its first and last words (`textStart,textEnd`), whose text between
 * is not compared, rather than whole; and so is one that crosses an optional
 * span (a formula, a hidden element: optional-spans.ts), which the browser
 * may not show as the text has it.
 *
 * A browser highlights the first place in the page that the directive
 * matches, so the terms grow (and a word of context before or after is added)
 * until, searched in the page text as a browser searches, the first match is
 * the passage. Terms begin and end at word boundaries, as a browser requires
 * (Intl.Segmenter, the same word breaking as the browsers' ICU).
 */
import type { MatchText } from './marked-text.js';

/** The terms of one text directive, not encoded. */
export interface TextDirective {
  prefix?: string;
  start: string;
  end?: string;
  suffix?: string;
}

/** A passage of at most this many words is named whole; a longer one by its first and last words. */
const EXACT_MAX_WORDS = 10;
/** Words in each of textStart and textEnd at first; more are added while an earlier place matches. */
const TERM_WORDS = 3;
const MAX_TERM_WORDS = 8;
/** Words of context before (prefix) or after (suffix), at most, when longer terms are not enough. */
const MAX_CONTEXT_WORDS = 5;
/** Characters read around a place to find its words: more than the words any term takes. */
const WINDOW = 400;

const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/** The words (word-like segments) of `text` in `[from, to)`, as offsets of `text`. */
function wordsIn(text: string, from: number, to: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (to <= from) return out;
  for (const s of segmenter.segment(text.slice(from, to))) {
    if (s.isWordLike) out.push([from + s.index, from + s.index + s.segment.length]);
  }
  return out;
}

/** The word segment of `text` that holds the character at `i`, if that character is in a word. */
function wordAt(text: string, i: number): [number, number] | undefined {
  const from = Math.max(0, i - 64);
  for (const s of segmenter.segment(text.slice(from, Math.min(text.length, i + 64)))) {
    const a = from + s.index;
    const b = a + s.segment.length;
    if (a <= i && i < b) return s.isWordLike ? [a, b] : undefined;
  }
  return undefined;
}

/**
 * Letters, digits and marks of scripts that put spaces between words; in
 * Chinese, Japanese, Thai and the like a boundary is not visible in the text
 * and the segmenter decides.
 */
const SPACED_WORD_CHAR =
  /^(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\p{sc=Tibetan}])[\p{L}\p{N}\p{M}]$/u;
const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;

function charBefore(text: string, i: number): string {
  const low = text.charCodeAt(i - 1);
  return low >= 0xdc00 && low <= 0xdfff && i >= 2 ? text.slice(i - 2, i) : text.slice(i - 1, i);
}

function charAt(text: string, i: number): string {
  return String.fromCodePoint(text.codePointAt(i)!);
}

/** Whether a word boundary is at `i`, as a browser's word breaking finds it (near enough to rank places). */
function isBoundary(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return true;
  const a = charBefore(text, i);
  const b = charAt(text, i);
  if (!WORD_CHAR.test(a) || !WORD_CHAR.test(b)) return true;
  if (SPACED_WORD_CHAR.test(a) && SPACED_WORD_CHAR.test(b)) return false;
  const w = wordAt(text, i);
  return w === undefined || w[0] === i;
}

/** The first place at or after `from` where `term` stands with a word boundary before it (and after it, with `wordEnd`). */
function findTerm(text: string, term: string, from: number, wordEnd: boolean): number {
  let at = text.indexOf(term, from);
  while (at >= 0 && !(isBoundary(text, at) && (!wordEnd || isBoundary(text, at + term.length)))) {
    at = text.indexOf(term, at + 1);
  }
  return at;
}

function skipSpaces(text: string, i: number): number {
  while (text.charCodeAt(i) === 0x20) i++;
  return i;
}

/**
 * Where a browser would highlight `d` in `text`: the first match, as the
 * algorithm of the specification finds it (a prefix, then white space, then
 * textStart; textEnd after textStart; white space, then the suffix), case and
 * white space as the normalised text has them. A term is bounded by words at
 * its start and, where the specification may bound it there too, at its end:
 * the looser reading, which finds every place a browser could find. Exported
 * for the tests.
 */
export function findTextDirective(text: string, d: TextDirective): { start: number; end: number } | undefined {
  let from = 0;
  // The last place textEnd was found: the places of textStart only move on, so a later one may take it again,
  // and a page that repeats textStart many times is read once for textEnd, not once for each.
  let lastEnd = -1;
  for (;;) {
    let start: number;
    if (d.prefix !== undefined) {
      const p = findTerm(text, d.prefix, from, false);
      if (p < 0) return undefined;
      from = p + 1;
      start = skipSpaces(text, p + d.prefix.length);
      if (!text.startsWith(d.start, start)) continue;
    } else {
      start = findTerm(text, d.start, from, d.end === undefined && d.suffix === undefined);
      if (start < 0) return undefined;
      from = start + 1;
    }
    let end = start + d.start.length;
    if (d.end !== undefined) {
      if (lastEnd < end) lastEnd = findTerm(text, d.end, end, false);
      if (lastEnd < 0) return undefined;
      end = lastEnd + d.end.length;
    }
    if (d.suffix !== undefined && !text.startsWith(d.suffix, skipSpaces(text, end))) continue;
    return { start, end };
  }
}

/** The optional spans of `page` that lie inside `[start, end)`, as [from, to) pairs. */
function spansInside(page: MatchText, start: number, end: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const spans = page.optional ?? [];
  for (let k = 0; k + 1 < spans.length; k += 2) {
    if (spans[k]! < end && spans[k + 1]! > start) out.push([spans[k]!, spans[k + 1]!]);
  }
  return out;
}

/**
 * The text directive of the passage `[start, end)` of `page`'s text, or
 * undefined when the passage holds no word. `start` and `end` are as
 * locateInPage gives them (match.ts).
 */
export function passageDirective(page: MatchText, start: number, end: number): TextDirective | undefined {
  const text = page.text;
  const inside = spansInside(page, start, end);
  // The first words the passage shows before any optional span, and the last after every one.
  const headTo = Math.min(end, inside[0]?.[0] ?? end, start + WINDOW);
  const tailFrom = Math.max(start, inside[inside.length - 1]?.[1] ?? start, end - WINDOW);
  const head = wordsIn(text, start, headTo);
  const tail = wordsIn(text, tailFrom, end);
  if (head.length === 0 || tail.length === 0) return undefined;
  // Terms begin and end with a whole word: the passage's edges may cut one (a quote cut at a fixed length).
  const first = wordAt(text, head[0]![0]) ?? head[0]!;
  const last = wordAt(text, tail[tail.length - 1]![1] - 1) ?? tail[tail.length - 1]!;
  const s = Math.min(first[0], head[0]![0]);
  const e = Math.max(last[1], tail[tail.length - 1]![1]);
  const exact = inside.length === 0 && e - s <= WINDOW && wordsIn(text, s, e).length <= EXACT_MAX_WORDS;
  const wanted = (d: TextDirective) => {
    const found = findTextDirective(text, d);
    return found !== undefined && found.start === s && found.end === e;
  };

  let d: TextDirective = { start: text.slice(s, e) };
  if (!exact) {
    // textStart: the first words, more while an earlier place of the page begins the same; the last word stays for textEnd.
    const lastStart = tail[tail.length - 1]![0];
    const room = head.filter((w) => w[1] <= lastStart).length;
    let k = Math.min(TERM_WORDS, room);
    if (k > 0) {
      let startEnd = head[k - 1]![1];
      while (k < Math.min(MAX_TERM_WORDS, room) && findTerm(text, text.slice(s, startEnd), 0, false) !== s) {
        startEnd = head[k++]![1];
      }
      // textEnd: the last words after textStart, more while a place after textStart ends the same.
      const ends = tail.filter((w) => w[0] >= startEnd);
      let j = Math.min(TERM_WORDS, ends.length);
      const endsHere = (t: string) => findTerm(text, t, startEnd, false) + t.length === e;
      while (j < Math.min(MAX_TERM_WORDS, ends.length) && !endsHere(text.slice(ends[ends.length - j]![0], e))) j++;
      d = { start: text.slice(s, startEnd), end: text.slice(ends[ends.length - j]![0], e) };
    }
  }
  if (wanted(d)) return d;

  // Still found earlier: words of context before the passage, then after it.
  const before = wordsIn(text, Math.max(0, s - WINDOW), s);
  for (let n = 1; n <= Math.min(MAX_CONTEXT_WORDS, before.length); n++) {
    // Up to textStart, so that only white space stands between them, as the syntax requires.
    const prefix = text.slice(before[before.length - n]![0], s).trimEnd();
    const withPrefix = { ...d, prefix };
    if (wanted(withPrefix)) return withPrefix;
  }
  const after = wordsIn(text, e, Math.min(text.length, e + WINDOW));
  for (let n = 1; n <= Math.min(MAX_CONTEXT_WORDS, after.length); n++) {
    const suffix = text.slice(e, after[n - 1]![1]).trimStart();
    const withSuffix = { ...d, suffix };
    if (wanted(withSuffix)) return withSuffix;
  }
  // The page repeats the passage with its context: the link opens at the first of them.
  return d;
}

/**
 * A term percent-encoded for a text directive: as a URI component, and `-`
 * too, which the directive's syntax uses to mark a prefix and a suffix (`&`
 * and `,` are encoded as components already).
 */
function encodeTerm(term: string): string {
  return encodeURIComponent(term).replace(/-/g, '%2D');
}

/** The directive as the fragment carries it: `text=...`. */
export function encodeTextDirective(d: TextDirective): string {
  const terms = [
    ...(d.prefix === undefined ? [] : [`${encodeTerm(d.prefix)}-`]),
    encodeTerm(d.start),
    ...(d.end === undefined ? [] : [encodeTerm(d.end)]),
    ...(d.suffix === undefined ? [] : [`-${encodeTerm(d.suffix)}`]),
  ];
  return `text=${terms.join(',')}`;
}

/**
 * `url` with the directive in its fragment, or undefined for a URL that is
 * not http or https. A fragment the URL has (an element's id) is kept before
 * the directive, which a browser tries first; a fragment directive it has
 * already (a link copied with one) is replaced.
 */
export function textFragmentUrl(url: string, d: TextDirective): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  const fragment = parsed.hash.slice(1);
  const at = fragment.indexOf(':~:');
  const own = at < 0 ? fragment : fragment.slice(0, at);
  parsed.hash = '';
  return `${parsed.href}#${own}:~:${encodeTextDirective(d)}`;
}
