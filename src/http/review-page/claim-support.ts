/**
 * The claim support of an ok citation (docs/citations.md#claim-support),
 * beside the claim and the excerpt: the verdict as a badge, what it means,
 * and each sentence of the claim with the judge's reason. The sentences are
 * the agent's and the reasons quote the page: every piece is untrusted, set
 * as text.
 */
import type { CitationResult } from '../../contracts/results.js';
import { CLAIM_BADGES, claimSupportText } from '../../safety/review/claim-support-text.js';
import { el, untrusted } from './dom.js';

export function claimSupportView(support: NonNullable<CitationResult['claimSupport']>): HTMLElement {
  const box = el('div', null, `claim-support s-${support.verdict}`);
  const what = el('p', null, 'claim-what small');
  what.append(el('span', CLAIM_BADGES[support.verdict], `badge s-${support.verdict}`), ` ${claimSupportText(support)}`);
  box.append(what);
  if (support.sentences.length === 0) return box;
  const list = el('ul', null, 'claim-sentences small');
  for (const s of support.sentences) {
    const li = el('li', null, `s-${s.verdict}`);
    li.append(untrusted('q', s.text), ` ${CLAIM_BADGES[s.verdict]}: `, untrusted('span', s.rationale, 'claim-why'));
    list.append(li);
  }
  box.append(list);
  return box;
}
