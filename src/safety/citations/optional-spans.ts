/**
 * The page text as a copy that leaves out its optional elements reads it.
 *
 * A formula, a pronunciation or a hidden element (html-text.ts) is in the page
 * text as the tags spell it, and a reader-mode copy of the page has nothing
 * there: "the matrix <formula> is Hermitian" is copied as "the matrix is
 * Hermitian". Such a quote is genuine. So the matcher (match.ts) looks an
 * excerpt up in the text as it is and, when it is not there, in this text:
 * the same, with the text of every optional span cut out whole. A span is
 * never cut in part, and every other rule of the match holds in this text as
 * in the other: a part may not begin inside a word, a number may not be cut,
 * and a space differs only at a gap.
 *
 * Where a span is cut out:
 * - the spaces either side become one, a gap: a copy may leave it out as at
 *   any element boundary ("the matrix is", or "the matrixis" from an
 *   extractor that trims text nodes), except between digits;
 * - with no space either side, the two sides meet at a gap (`x<math/>, y`
 *   reads "x, y" or "x , y");
 * - except where they would make one number of two (`1<math/>0`, `2<math/>.5`):
 *   there a space stands that no copy may leave out, so "10" is never read.
 */
import type { MatchText } from './marked-text.js';

const SPACE = 0x20;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isDecimalMark(code: number): boolean {
  return code === 0x2e || code === 0x2c;
}

/** Whether `left` then `right` (with `afterRight` after it) would run two numbers into one. */
function joinsNumbers(beforeLeft: number, left: number, right: number, afterRight: number): boolean {
  if (isDigit(left) && isDigit(right)) return true;
  if (isDigit(left) && isDecimalMark(right) && isDigit(afterRight)) return true;
  return isDecimalMark(left) && isDigit(beforeLeft) && isDigit(right);
}

/** The page text without its optional spans, and where an offset of the page text is in it. */
export interface Reduced {
  text: MatchText;
  /** The offset in `text` of the page text's offset `o` (an offset inside a span: where the span was). */
  at(o: number): number;
  /**
   * The offset in the page text of the character at `r` of `text`: the
   * other way, for an excerpt found here to be located in the page text. A
   * space that stands for a span cut out is where that span begins.
   */
  pageAt(r: number): number;
}

/** The offsets of `xs` in `[from, to)`, each moved by `by`, appended to `out`. */
function carry(xs: readonly number[] | undefined, from: number, to: number, by: number, out: number[]): void {
  if (xs === undefined) return;
  for (const o of xs) if (o >= from && o < to) out.push(o + by);
}

/**
 * The page text with the text of each optional span cut out (see the module
 * comment). Linear in the length of the text.
 */
export function withoutOptional(page: MatchText): Reduced {
  const spans = page.optional ?? [];
  const p = page.text;
  const pieces: string[] = [];
  const gaps: number[] = [];
  const hyphens: number[] = [];
  /** Kept stretches of the page: [from, to) of the page, `shift` added to an offset in it. */
  const kept: number[] = [];
  let length = 0;
  let last = -1;
  /** Appends p[from, to) at `length`, with its gaps and hyphens. A gap at `from` is the join's, recorded apart. */
  const keep = (from: number, to: number): void => {
    if (to <= from) return;
    const by = length - from;
    carry(page.gaps, from + 1, to, by, gaps);
    carry(page.hyphens, from + 1, to, by, hyphens);
    pieces.push(p.slice(from, to));
    kept.push(from, to, by);
    length += to - from;
    last = p.charCodeAt(to - 1);
  };
  let from = 0;
  for (let k = 0; k < spans.length; k += 2) {
    const a = spans[k]!;
    const b = spans[k + 1]!;
    keep(from, a);
    // What follows the span, its leading space taken when one is already there (or nothing is).
    from = b;
    if (p.charCodeAt(from) === SPACE && (length === 0 || last === SPACE)) from++;
    if (length === 0 || from >= p.length) continue;
    // Joins only where text is on both sides; the next span may start right here, and is cut in turn.
    const next = k + 2 < spans.length && spans[k + 2] === from ? undefined : p.charCodeAt(from);
    if (next === undefined) continue;
    if (last === SPACE) {
      gaps.push(length - 1);
    } else if (next === SPACE) {
      gaps.push(length);
    } else if (joinsNumbers(p.charCodeAt(a - 2), last, next, p.charCodeAt(from + 1))) {
      pieces.push(' ');
      length++;
      last = SPACE;
    } else {
      gaps.push(length);
    }
  }
  keep(from, p.length);
  let text = pieces.join('');
  // A span that ended the text leaves the space before it.
  if (text.endsWith(' ')) text = text.slice(0, -1);
  const n = text.length;
  const inside = (xs: number[]): number[] => [...new Set(xs)].filter((o) => o > 0 && o < n).sort((x, y) => x - y);
  const g = inside(gaps);
  const isGap = new Set(g);
  // A place is a gap or a soft hyphen, never both (marked-text.ts).
  const h = inside(hyphens).filter((o) => !isGap.has(o));
  const reduced: MatchText = { text, ...(g.length > 0 ? { gaps: g } : {}), ...(h.length > 0 ? { hyphens: h } : {}) };
  /** The last kept stretch whose start (`startOf` the stretch) is at or before x; -1 when none is. */
  const lastStretch = (startOf: (k: number) => number, x: number): number => {
    let lo = 0;
    let hi = kept.length / 3 - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (startOf(mid) <= x) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best;
  };
  const at = (o: number): number => {
    // The last stretch that starts at or before o.
    const best = lastStretch((k) => kept[k * 3]!, o);
    if (best < 0) return 0;
    // Past the end of its stretch, o is inside a span cut out: where the stretch ends.
    return Math.min(n, Math.min(o, kept[best * 3 + 1]!) + kept[best * 3 + 2]!);
  };
  const pageAt = (r: number): number => {
    // The last stretch that starts in `text` at or before r.
    const best = lastStretch((k) => kept[k * 3]! + kept[k * 3 + 2]!, r);
    if (best < 0) return 0;
    // Past the end of its stretch, r is a space put where a span was cut out: where the stretch ends.
    return Math.min(r - kept[best * 3 + 2]!, kept[best * 3 + 1]!);
  };
  return { text: reduced, at, pageAt };
}
