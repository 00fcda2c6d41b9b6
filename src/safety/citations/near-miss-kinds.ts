/**
 * The names of a near miss (near-miss.ts): what is said of an excerpt not on
 * its page, and the kinds of the changes its diff names. Apart from the
 * search so that the contracts, and through them the review page's script,
 * get the names without it.
 */

/** `altered`: a passage of the page is close to the excerpt; `absent`: none is. */
export const NEAR_MISS_DETAILS = ['altered', 'absent'] as const;
export type NearMissDetail = (typeof NEAR_MISS_DETAILS)[number];

/**
 * How a run of words differs, from the page to the excerpt:
 *
 * - `number_changed`: one word with a number in place of another ("54%"
 *   where the page has "45%");
 * - `word_inserted`: words the excerpt has and the page does not;
 * - `word_removed`: words of the page the excerpt leaves out;
 * - `word_changed`: other words in their place (one for one, or a run that
 *   mixes words changed, put in and left out);
 * - `negation`: any of these, of at most four words a side, that puts in or
 *   takes out a negation ("not", "no", "never", "cannot", "without", a word
 *   ending in "n't", ...): what the sentence asserts is turned round, which
 *   a reader must see first, so it is named before the form of the change.
 */
export const CHANGE_KINDS = ['number_changed', 'word_inserted', 'word_removed', 'word_changed', 'negation'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * One segment of the word-level diff, in the excerpt's order: words the two
 * share (`same`, as the page has them), or a change with the excerpt's words
 * and the page's (an empty string for the side that has none).
 */
export type DiffSegment = { kind: 'same'; text: string } | { kind: ChangeKind; excerpt: string; page: string };
