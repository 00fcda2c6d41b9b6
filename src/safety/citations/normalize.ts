/**
 * The one normal form that both a fetched page and a quoted excerpt go through
 * before the excerpt is looked up in the page. Every step removes a difference
 * that does not change what the text says (how a quote mark, a dash or a space
 * is encoded, an invisible character, a footnote marker) and nothing else, so
 * an excerpt with a word or a number changed still differs after it.
 *
 * Each step is one native pass (`normalize`, `toLowerCase`, or a `replace` with
 * a regex whose class is matched one character at a time), so the whole is
 * linear in the length of the text; it runs on whole pages.
 */
import { INVISIBLE_RUN } from '../quoting/invisible.js';
import { removeReferenceMarkers } from './reference-markers.js';

/**
 * Characters that NFKC would split into several: `″` becomes `′′`, which would
 * then read `''` and not match a quote written with `"`. Folded before NFKC.
 * Vertical tab, form feed and NEL are folded to a space here because the
 * invisible-character pass below would otherwise delete them and join words.
 */
// eslint-disable-next-line no-control-regex -- vertical tab and form feed are what this folds
const BEFORE_NFKC = /[\u2033\u2034\u2057\u000B\u000C\u0085]/g;
const BEFORE_NFKC_MAP: Record<string, string> = {
  '\u2033': '"',
  '\u2034': '"',
  '\u2057': '"',
  '\u000B': ' ',
  '\u000C': ' ',
  '\u0085': ' ',
};

/** ‘ ’ ‚ ‛ ′ (after NFKC, which also turns fullwidth ＇ into '). */
const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032]/g;
/** “ ” „ ‟ (″ was folded before NFKC). */
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F]/g;
/**
 * Hyphens, dashes and minus signs: ‐ ‑ ‒ – — ― − ﹘ ﹣ －, plus the forms NFKC
 * produces from compatibility characters (︱ ︲ become — –, ⁻ ₋ become −).
 * NFKC already maps ﹣ and － to '-'; they are listed for clarity.
 */
const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;
/**
 * A whitespace run to collapse (JS `\s`: space, tab, line breaks, NBSP, the
 * U+2000 spaces, U+3000, ...): two or more, or one that is not a plain space.
 * Leaving single spaces unmatched makes this pass ten times faster than `\s+`.
 */
export const WHITESPACE_RUN = /\s{2,}|[^\S ]/g;

/**
 * Final sigma, which lower-casing writes at the end of a word and `σ` inside
 * one: the same letter (Unicode case folding maps one to the other). Where a
 * word ends depends on what follows it, and a page and a quote of it may not
 * agree on that (an element boundary inside a word, a quote cut mid-word).
 */
const FINAL_SIGMA = /\u03C2/g;

/**
 * Every step of {@link normalizeForMatch} but the removal of reference markers
 * and the trim: what the page text with its spacing marks (marked-text.ts)
 * goes through before the marks are taken out.
 */
export function normalizeCharacters(text: string): string {
  let s = text;
  s = s.replace(BEFORE_NFKC, (c) => BEFORE_NFKC_MAP[c] ?? c);
  // Invisible characters go before NFKC, so that a base letter and a combining
  // mark separated by one (e\u200D\u0301) still compose into é.
  s = s.replace(INVISIBLE_RUN, '');
  s = s.normalize('NFKC').toLowerCase();
  s = s.replace(SINGLE_QUOTES, "'").replace(DOUBLE_QUOTES, '"').replace(DASHES, '-').replace(FINAL_SIGMA, '\u03C3');
  return s.replace(WHITESPACE_RUN, ' ');
}

/** The form in which an excerpt is looked up in a page. */
export function normalizeForMatch(text: string): string {
  return removeReferenceMarkers(normalizeCharacters(text)).trim();
}
