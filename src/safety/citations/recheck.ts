/**
 * Evidence rots: a cited page is edited, moved or taken down after the
 * review was verified. A recheck fetches the pages again and compares, per
 * citation, what it finds with what the verification found. The comparison
 * is here; the fetching and the stored result are the adapters'
 * (src/citations/rechecker.ts).
 *
 * Pages are compared by the digest of their text as matched (text-digest.ts).
 */
/**
 * What became of a citation since its review was verified:
 * - `unchanged`: the page's text is the one verified (the same digest), or
 *   the page is still not to be had for the same reason;
 * - `changed_present`: the text changed, and the excerpt is on the page now;
 * - `gone`: the excerpt is not on the page now (the page changed, or can no
 *   longer be read);
 * - `present`: the excerpt is on the page now, and whether the page changed
 *   cannot be told: the verification kept no digest of its text (a result
 *   stored before digests were kept), or one of another text version.
 */
export const RECHECK_OUTCOMES = ['unchanged', 'changed_present', 'gone', 'present'] as const;
export type RecheckOutcome = (typeof RECHECK_OUTCOMES)[number];

/** A citation as one check found it. */
export interface CheckedCitation {
  status: 'ok' | 'unverified' | 'fetch_failed';
  reason?: string | undefined;
  /** The digest of the page's text, when a text was read. */
  textSha256?: string | undefined;
  /** The version of the text's shape it was read in (PAGE_TEXT_VERSION): digests of two versions do not compare. */
  textVersion?: number | undefined;
}

/** What became of a citation between its verification (`before`) and a recheck (`now`). */
export function recheckOutcome(before: CheckedCitation, now: CheckedCitation): RecheckOutcome {
  const comparable =
    before.textSha256 !== undefined && now.textSha256 !== undefined && before.textVersion === now.textVersion;
  if (comparable && before.textSha256 === now.textSha256) return 'unchanged';
  // No text either time (not fetched, or not to be had), for the same reason.
  if (
    before.textSha256 === undefined &&
    now.textSha256 === undefined &&
    before.status === now.status &&
    before.reason === now.reason
  ) {
    return 'unchanged';
  }
  if (now.status !== 'ok') return 'gone';
  if (comparable) return 'changed_present';
  // Found now where there was no text then (the page could not be had): the page changed.
  if (before.textSha256 === undefined && before.status !== 'ok') return 'changed_present';
  return 'present';
}
