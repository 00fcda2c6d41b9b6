/**
 * Wikipedia-style reference markers: `[17]`, `[3–5]`, `[12, 14]`, `[note 2]`,
 * `[a]`, `[citation needed]`, `[update]`, `[when?]`. A page shows them inside
 * the sentence, and a reviewer quoting the sentence may keep them or leave them
 * out; removing them from both the page and the excerpt makes both quotes
 * match. They carry no claim of their own: the only quotes this lets through
 * are ones that differ from the page inside a marker (`[2]` for `[17]`).
 *
 * The pattern is linear: it is tried only where a `[` stands (after at most one
 * space), and every repetition in it is bounded.
 */
const DASHES = String.raw`\-\u2010-\u2015\u2212\uFE58\uFE63\uFF0D`;
const NUMBER = String.raw`\d{1,4}`;
/** `[17]`, `[3–5]`, `[12, 14]`, `[1,4-6]`. */
const NUMBERS = `${NUMBER}(?: ?[${DASHES},] ?${NUMBER}){0,15}`;
/** `[note 2]`, `[nb 1]`, `[n 3]`, `[note a]`. */
const NOTE = String.raw`(?:note|nb|n) ?[a-z0-9]{1,4}`;
/** `[a]`: lettered footnotes. */
const LETTER = '[a-z]';
/** `[citation needed]`, `[better source needed]`, ... */
const NEEDED = '(?:[a-z]{1,20} ){1,3}needed';
/**
 * Other maintenance tags: `[update]` (after "as of 2015"), `[dead link]`,
 * `[when?]`, `[according to whom?]`, ..., and the `[edit]` link of a heading.
 */
const MAINTENANCE = [
  'update',
  'edit(?: source)?',
  '(?:permanent )?dead link',
  'failed verification',
  `dubious(?: ?[${DASHES}] ?discuss)?`,
  String.raw`(?:[a-z]{1,20} ){0,3}[a-z]{1,20}\?`,
].join('|');

/**
 * One marker and the single space before it, so `word [17] more` reads
 * `word more` and `word [17].` reads `word.`. Case-insensitive, because the
 * HTML text is not lower-cased yet when it goes through this.
 */
/**
 * A page number after a numbered reference, as Wikipedia shows it inside the
 * same superscript: `[1]: 207`, `[4]: p. 23`, `[7]: 12–14`. The page drops the
 * whole superscript, so the excerpt must drop the suffix with the marker.
 */
const PAGES = String.raw`(?: ?: ?(?:pp?\. ?)?${NUMBER}(?: ?[${DASHES}] ?${NUMBER})?)?`;

/**
 * The same page number cut short by the end of the text: an excerpt that
 * stops inside the superscript (`loop.[1]:`, `[1]: 2`, `[4]: pp. 12–`) ends
 * with a piece of a marker the page drops whole. Only at the very end.
 */
const CUT_PAGES = String.raw` ?:(?: ?(?:pp?\.? ?)?(?:${NUMBER}(?: ?[${DASHES}] ?\d{0,4})?)?)?(?= ?$)`;

/**
 * A space is allowed inside the brackets and before a page number because
 * the marker is markup (`<sup>[<a>17</a>]</sup>`), and an extractor that
 * puts a space at every element boundary copies it as `[ 17 ] : 207`.
 */
const MARKER = new RegExp(
  String.raw` ?\[ ?(?:(?:${NUMBERS}) ?\](?:${CUT_PAGES}|${PAGES})|(?:${NOTE}|${LETTER}|${NEEDED}|${MAINTENANCE}) ?\])`,
  'gi',
);

/**
 * Removes reference markers. The text must already have its whitespace
 * collapsed to single spaces (only one space before a marker is removed).
 */
export function removeReferenceMarkers(text: string): string {
  // Most text holds no bracket at all: skip the regex pass.
  if (!text.includes('[')) return text;
  return text.replace(MARKER, '');
}

/**
 * The `[start, end)` ranges {@link removeReferenceMarkers} removes, in order,
 * for callers that keep offsets into the text and must move them.
 */
export function referenceMarkerRanges(text: string): Array<[number, number]> {
  if (!text.includes('[')) return [];
  const out: Array<[number, number]> = [];
  for (const m of text.matchAll(MARKER)) out.push([m.index, m.index + m[0].length]);
  return out;
}

/**
 * The last word of a marker of several words and its bracket, when the start
 * of the excerpt cuts the rest off (an excerpt taken at a space of
 * `[citation needed] that` begins `needed] that`): `needed]`, `link]`,
 * `discuss]`, `source]`, `whom?]`, or the number or letter of `[note 2]`.
 * Only at the very start, and only these: nothing of a claim.
 */
const CUT_START = /^ ?(?:needed|link|discuss|source|whom\?|\d{1,4}|[a-z]) ?\] ?(?=.)/i;

/**
 * An excerpt without the end of a marker cut by its start ({@link CUT_START}).
 * For excerpts only: a page's text has no start cut from a longer text.
 */
export function removeCutMarkerStart(excerpt: string): string {
  return excerpt.includes(']') ? excerpt.replace(CUT_START, '') : excerpt;
}
