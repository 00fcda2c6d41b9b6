/**
 * The review page's words for the near miss of an excerpt not on its page
 * (docs/citations.md#near-misses): what the page holds closest to it, and
 * each change. The codes (`altered`, `number_changed`, ...) stay stable for
 * programs; these words are for people, and may be improved freely.
 *
 * The review page's script imports this module, so it imports nothing but
 * types: it must stay free of zod and of Node.
 */
import type { ChangeKind, DiffSegment, NearMissDetail } from '../citations/near-miss-kinds.js';
import type { TextSource } from '../citations/page-sources.js';

/** The near miss as the review page reads it: the fields of a result that it shows. */
export interface NearMissView {
  source: TextSource;
  similarity: number;
  diff: readonly DiffSegment[];
  part?: number | undefined;
}

const WHERE: Record<TextSource, string> = {
  text: "the page's text",
  json_ld: "the page's JSON-LD",
  script_json: "the JSON of the page's scripts",
};

/** "1 number changed", "2 words inserted": the count of one kind, in words. */
const COUNTED: Record<ChangeKind, [string, string]> = {
  negation: ['negation turned round', 'negations turned round'],
  number_changed: ['number changed', 'numbers changed'],
  word_inserted: ['word inserted', 'words inserted'],
  word_removed: ['word left out', 'words left out'],
  word_changed: ['word changed', 'words changed'],
};

/** Only the changes of a diff. */
export function changesOf(diff: readonly DiffSegment[]): Array<Exclude<DiffSegment, { kind: 'same' }>> {
  return diff.filter((d): d is Exclude<DiffSegment, { kind: 'same' }> => d.kind !== 'same');
}

/** One sentence: whether the page holds the excerpt altered, how close, and what changed, by kind. */
export function nearMissText(detail: NearMissDetail, near?: NearMissView): string {
  if (detail === 'absent' || near === undefined) {
    return 'Absent: no passage of the page is close to the excerpt, even altered (text from elsewhere, or no quote at all).';
  }
  const counts = new Map<ChangeKind, number>();
  for (const c of changesOf(near.diff)) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
  const kinds = (Object.keys(COUNTED) as ChangeKind[])
    .filter((k) => counts.has(k))
    .map((k) => `${counts.get(k)} ${COUNTED[k][counts.get(k) === 1 ? 0 : 1]}`);
  const part = near.part === undefined ? '' : ` to part ${near.part + 1} of the excerpt (between elisions)`;
  return (
    `Altered: ${WHERE[near.source]} holds a passage close${part} (similarity ${near.similarity.toFixed(2)}), ` +
    `with ${kinds.length === 0 ? 'spacing or punctuation changed only' : kinds.join(', ')}.`
  );
}

/** Under the passage: how to read it. */
export const NEAR_MISS_LEGEND =
  "The passage as the page has it, in lower case as compared: struck, the excerpt's words; marked, the page's in their place.";

const q = (s: string): string => `“${s}”`;

/** One change in words, with the excerpt's words and the page's. */
export function changeText(change: { kind: ChangeKind; excerpt: string; page: string }): string {
  const { kind, excerpt, page } = change;
  const name = COUNTED[kind][0];
  if (excerpt === '') return `${name}: the excerpt leaves out the page's ${q(page)}`;
  if (page === '') return `${name}: the excerpt has ${q(excerpt)}, which the page does not`;
  return `${name}: the excerpt has ${q(excerpt)} where the page has ${q(page)}`;
}
