/**
 * Page text that knows where its spacing is uncertain.
 *
 * Text extractors disagree about the spaces at element boundaries:
 * `Boeing</a>'s` reads "Boeing's" in a browser and "Boeing 's" after a
 * `get_text(" ")` join or an HTML-to-Markdown converter; `word <a>link</a>`
 * reads "word link" and, after an extractor that trims each text node,
 * "wordlink". A quote copied through such a tool is genuine, yet differs from
 * the page in a space. Elsewhere a space is part of the words: "the rapist"
 * is not "therapist". So the page text records the places where spacing may
 * differ, and nowhere else is a difference in spacing accepted
 * (match.ts).
 *
 * The HTML-to-text step (html-text.ts) writes {@link BOUNDARY} wherever a tag
 * or a comment separates two pieces of text. A lone UTF-16 surrogate cannot
 * come out of decoding a page (the decoders and the character-reference
 * decoder write U+FFFD for one), survives NFKC and lower-casing, and is no
 * whitespace or invisible character, so the mark rides through normalisation
 * and is taken out afterwards by {@link normalizeMarked}, which returns the
 * offsets of the places it marked. The marks never reach the text that is
 * matched, stored or compared.
 */
import { normalizeCharacters } from './normalize.js';
import { referenceMarkerRanges } from './reference-markers.js';

/** Marks an element boundary (and a line break of a PDF or plain text): a gap. */
export const BOUNDARY = '\uDC00';
/** Marks a soft hyphen, which a line broken there shows as a hyphen. */
const SOFT_HYPHEN_MARK = '\uDC01';
/** Marks where an element opens whose text a reader's copy may leave out (html-text.ts): an optional span. */
export const OPTIONAL_OPEN = '\uDC02';
/** Marks where that element closes. */
export const OPTIONAL_CLOSE = '\uDC03';

/**
 * Normalised text (normalizeForMatch's form) and the places where a quote of
 * it may differ in spacing.
 */
export interface MatchText {
  text: string;
  /**
   * Offsets into `text`, ascending, of its gaps (element boundaries): where
   * `text` has a space, a quote may leave it out; elsewhere, a quote may have
   * a space before the character at that offset.
   */
  gaps?: number[];
  /**
   * Offsets into `text`, ascending, of its soft hyphens: a quote may have a
   * space, or a hyphen and a space (the line broken there), before the
   * character at that offset. Never a gap's offset as well.
   */
  hyphens?: number[];
  /**
   * The optional spans of `text` as pairs of offsets, `[start0, end0, start1,
   * end1, ...]`, ascending and apart: the text of whole elements that a copy
   * of the page may leave out (a formula, a pronunciation, a hidden element;
   * html-text.ts). An excerpt may have all of them or none (optional-spans.ts).
   */
  optional?: number[];
}

/** Break hints a page holds as characters: soft hyphen, and zero-width space (a gap). */
const BREAK_HINTS = /[\u00AD\u200B]/g;
/** Marks before a combining mark: they would keep it from composing with its base letter under NFKC. */
const MARK_BEFORE_COMBINING = /[\uDC00\uDC01]+(?=\p{M})/gu;
const OPTIONAL_MARKS = /[\uDC02\uDC03]/;
/**
 * A run of marks and spaces with at least one mark (whitespace is already
 * collapsed to single spaces), captured, so that `split` gives the text and
 * the runs in turn. With the `u` flag, so that the second half of a surrogate
 * pair (🐀 is \uD83D\uDC00) is never taken for a mark.
 */
const MARKED_RUN = /( ?[\uDC00-\uDC03][ \uDC00-\uDC03]*)/u;

/**
 * Normalises text holding {@link BOUNDARY} marks, soft hyphens and
 * zero-width spaces, and takes the marks out: each run of marks and spaces
 * becomes one space (when it held a space) or nothing, and its offset is
 * recorded as a gap, or as a soft hyphen when the run held only soft hyphens
 * and no space. A space that comes with no mark is recorded nowhere: the page
 * has it between two words of one text node, and it is not optional.
 * Linear: a few native passes and one pass over the marked runs.
 */
export function normalizeMarked(marked: string): MatchText {
  let s = marked.replace(BREAK_HINTS, (c) => (c === '\u00AD' ? SOFT_HYPHEN_MARK : BOUNDARY));
  if (s.includes(BOUNDARY) || s.includes(SOFT_HYPHEN_MARK)) s = s.replace(MARK_BEFORE_COMBINING, '');
  s = normalizeCharacters(s).trim();
  // Text and runs in turn: [text, run, text, run, ..., text].
  const split = s.split(MARKED_RUN);
  if (split.length === 1) return dropReferenceMarkers(s, [], [], []);
  const gaps: number[] = [];
  const hyphens: number[] = [];
  const optional: number[] = [];
  /** Where the optional span being read began; -1 outside one. */
  let openAt = -1;
  const pieces: string[] = [split[0]!];
  let length = split[0]!.length;
  const lastRun = split.length - 2;
  for (let i = 1; i < split.length; i += 2) {
    const run = split[i]!;
    const before = length;
    // At either end of the text the run is trimmed away.
    if (length > 0 && !(i === lastRun && split[i + 1] === '')) {
      const space = run.includes(' ');
      const gap = run.includes(BOUNDARY);
      if (space) {
        if (gap) gaps.push(length);
        pieces.push(' ');
        length++;
      } else if (run.includes(SOFT_HYPHEN_MARK)) {
        hyphens.push(length);
      } else if (gap) {
        gaps.push(length);
      }
    }
    if (OPTIONAL_MARKS.test(run)) {
      // A span holds the text between its marks, never the space of the run they stand in.
      for (const c of run) {
        if (c === OPTIONAL_OPEN) {
          openAt = length;
        } else if (c === OPTIONAL_CLOSE && openAt >= 0) {
          if (before > openAt) optional.push(openAt, before);
          openAt = -1;
        }
      }
    }
    const text = split[i + 1]!;
    pieces.push(text);
    length += text.length;
  }
  return dropReferenceMarkers(pieces.join(''), gaps, hyphens, optional);
}

/**
 * The offsets still inside the text once the ranges are cut out of it,
 * moved back by what was cut before them; an offset inside a range goes.
 */
function cutOffsets(offsets: readonly number[], ranges: ReadonlyArray<readonly [number, number]>): number[] {
  const out: number[] = [];
  let r = 0;
  let removed = 0;
  for (const o of offsets) {
    while (r < ranges.length && ranges[r]![1] <= o) {
      removed += ranges[r]![1] - ranges[r]![0];
      r++;
    }
    if (r < ranges.length && ranges[r]![0] <= o) continue;
    const moved = o - removed;
    if (out.length === 0 || out[out.length - 1]! < moved) out.push(moved);
  }
  return out;
}

/**
 * The spans still inside the text once the ranges are cut out of it and
 * `lead` characters trimmed from its start, each end moved back by what was
 * cut before it (an end inside a range moves to where the range was), within
 * `[0, length]`; a span left empty goes. One walk over both, in order.
 */
function cutSpans(
  spans: readonly number[],
  ranges: ReadonlyArray<readonly [number, number]>,
  lead: number,
  length: number,
): number[] {
  let r = 0;
  /** What the ranges wholly before the current offset removed. */
  let removed = 0;
  // Span ends come in ascending order, so the ranges are walked once.
  const moved = (o: number): number => {
    while (r < ranges.length && ranges[r]![1] <= o) {
      removed += ranges[r]![1] - ranges[r]![0];
      r++;
    }
    const inside = r < ranges.length && ranges[r]![0] < o ? o - ranges[r]![0] : 0;
    return Math.min(length, Math.max(0, o - removed - inside - lead));
  };
  const out: number[] = [];
  for (let k = 0; k < spans.length; k += 2) {
    const a = moved(spans[k]!);
    const b = moved(spans[k + 1]!);
    if (b > a) out.push(a, b);
  }
  return out;
}

/**
 * A MatchText of `text` and offsets into it, without empty lists and without
 * offsets at the start or the end (nothing stands on one side of them).
 */
function matchText(text: string, gaps: number[], hyphens: number[], optional: number[] = []): MatchText {
  const inside = (xs: number[]) =>
    xs.length === 0 || (xs[0]! > 0 && xs[xs.length - 1]! < text.length)
      ? xs
      : xs.filter((o) => o > 0 && o < text.length);
  const g = inside(gaps);
  const h = inside(hyphens);
  return {
    text,
    ...(g.length > 0 ? { gaps: g } : {}),
    ...(h.length > 0 ? { hyphens: h } : {}),
    ...(optional.length > 0 ? { optional } : {}),
  };
}

/**
 * Removes reference markers (reference-markers.ts) as normalizeForMatch does,
 * here after the marks are out, so that `[<a>17</a>]` is a marker too; then
 * trims what their removal left at either end. Offsets move to match.
 */
function dropReferenceMarkers(text: string, gaps: number[], hyphens: number[], optional: number[]): MatchText {
  const ranges = referenceMarkerRanges(text);
  if (ranges.length > 0) {
    const pieces: string[] = [];
    let last = 0;
    for (const [a, b] of ranges) {
      pieces.push(text.slice(last, a));
      last = b;
    }
    pieces.push(text.slice(last));
    const cut = pieces.join('');
    // A marker that opened the text leaves its space at the start: the rest moves back by it.
    const lead = cut.length - cut.trimStart().length;
    const trimmed = cut.trim();
    const shift = (xs: number[]) => cutOffsets(xs, ranges).map((o) => o - lead);
    return matchText(trimmed, shift(gaps), shift(hyphens), cutSpans(optional, ranges, lead, trimmed.length));
  }
  return matchText(text, gaps, hyphens, optional);
}

/**
 * Two texts as one, joined by a space that is a gap (a block boundary):
 * the visible text of a page and its JSON-LD text. `at` is where `b` begins.
 */
export function joinTexts(a: MatchText, b: MatchText): { text: MatchText; at: number } {
  if (b.text === '') return { text: a, at: a.text.length };
  if (a.text === '') return { text: b, at: 0 };
  const at = a.text.length + 1;
  const shift = (xs: number[] | undefined) => (xs ?? []).map((o) => o + at);
  return {
    text: matchText(
      `${a.text} ${b.text}`,
      [...(a.gaps ?? []), a.text.length, ...shift(b.gaps)],
      [...(a.hyphens ?? []), ...shift(b.hyphens)],
      [...(a.optional ?? []), ...shift(b.optional)],
    ),
    at,
  };
}

/**
 * Text from a source that can hold lone surrogates (JSON strings with `\udc00`
 * escapes, a PDF's font maps) without them: each is U+FFFD, as a decoder
 * writes it, so that none is taken for a mark.
 */
export function wellFormed(text: string): string {
  return text.isWellFormed() ? text : text.toWellFormed();
}

/**
 * Plain text (text/plain, a PDF's text) with its line breaks marked as gaps:
 * where a line ends, a copy of the text may or may not have a space.
 */
export function markLineBreaks(text: string): string {
  return wellFormed(text).replace(/\r?\n|\r/g, ` ${BOUNDARY}`);
}
