/**
 * The near miss of an excerpt not on its page (docs/citations.md#near-misses),
 * beside the claim and the excerpt: the page's closest passage with the
 * excerpt's changed words struck and the page's marked in their place, then
 * each change in words. Every piece of text is untrusted, set as text.
 */
import type { CitationResult } from '../../contracts/results.js';
import {
  changesOf,
  changeText,
  NEAR_MISS_LEGEND,
  nearMissText,
  type NearMissView,
} from '../../safety/review/near-miss-text.js';
import { el, untrusted } from './dom.js';

/** Changes listed in words at most; a long excerpt rewritten throughout says enough with these. */
const LISTED = 20;

export function nearMissView(
  detail: NonNullable<CitationResult['detail']>,
  near: NearMissView | undefined,
): HTMLElement {
  const box = el('div', null, `near-miss near-${detail}`);
  box.append(el('p', nearMissText(detail, near), 'near-what small'));
  if (detail !== 'altered' || near === undefined) return box;
  const passage = el('q', null, 'near-passage');
  near.diff.forEach((segment, k) => {
    if (k > 0) passage.append(' ');
    if (segment.kind === 'same') {
      passage.append(untrusted('span', segment.text, 'near-same'));
      return;
    }
    const change = el('span', null, `near-change k-${segment.kind}`);
    if (segment.excerpt !== '') change.append(untrusted('s', segment.excerpt, 'near-excerpt'));
    if (segment.excerpt !== '' && segment.page !== '') change.append(' ');
    if (segment.page !== '') change.append(untrusted('mark', segment.page, 'near-page'));
    passage.append(change);
  });
  box.append(passage, el('p', NEAR_MISS_LEGEND, 'near-legend small'));
  const changes = changesOf(near.diff);
  const list = el('ul', null, 'near-changes small');
  for (const c of changes.slice(0, LISTED)) list.append(untrusted('li', changeText(c)));
  if (changes.length > LISTED) list.append(el('li', `… and ${changes.length - LISTED} more`, 'muted'));
  if (changes.length > 0) box.append(list);
  return box;
}
