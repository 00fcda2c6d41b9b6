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
import { removeInvisible } from '../text/invisible.js';
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

/**
 * After NFKC and lower-casing, one pass folds: ‘ ’ ‚ ‛ ′ to ' (NFKC has turned
 * fullwidth ＇ into '); “ ” „ ‟ to " (″ was folded before NFKC); hyphens,
 * dashes and minus signs ‐ ‑ ‒ – — ― − ﹘ ﹣ － to - (with the forms NFKC
 * produces from compatibility characters: ︱ ︲ become — –, ⁻ ₋ become −; NFKC
 * already maps ﹣ and － to '-', listed for clarity); and final sigma ς to σ,
 * the same letter (Unicode case folding maps one to the other), written one
 * way or the other by where a word ends, on which a page and a quote of it
 * may not agree (an element boundary inside a word, a quote cut mid-word).
 */
const FOLDED = /[\u2018\u2019\u201A\u201B\u2032\u201C-\u201F\u2010-\u2015\u2212\uFE58\uFE63\uFF0D\u03C2]/g;
function fold(c: string): string {
  const code = c.charCodeAt(0);
  if (code === 0x03c2) return '\u03C3';
  if (code >= 0x201c && code <= 0x201f) return '"';
  if ((code >= 0x2018 && code <= 0x201b) || code === 0x2032) return "'";
  return '-';
}

/**
 * A whitespace run to collapse (JS `\s`: space, tab, line breaks, NBSP, the
 * U+2000 spaces, U+3000, ...): two or more, or one that is not a plain space.
 * Leaving single spaces unmatched makes this pass ten times faster than `\s+`.
 */
export const WHITESPACE_RUN = /\s{2,}|[^\S ]/g;

/**
 * Every step of {@link normalizeForMatch} but the removal of reference markers
 * and the trim: what the page text with its spacing marks (marked-text.ts)
 * goes through before the marks are taken out.
 */
export function normalizeCharacters(text: string): string {
  let s = text;
  s = s.replace(BEFORE_NFKC, (c) => BEFORE_NFKC_MAP[c] ?? c);
  // Invisible characters go before NFKC, so that a base letter and a combining
  // mark separated by one (e\u200D\u0301) still compose into é. A loop with a
  // cached answer per character: three times faster on page text than a
  // replace with the \p{...} class.
  s = removeInvisible(s).text;
  s = s.normalize('NFKC').toLowerCase();
  s = s.replace(FOLDED, fold);
  return s.replace(WHITESPACE_RUN, ' ');
}

/** The form in which an excerpt is looked up in a page. */
export function normalizeForMatch(text: string): string {
  return removeReferenceMarkers(normalizeCharacters(text)).trim();
}
