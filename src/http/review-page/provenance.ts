/**
 * Where a citation's evidence is, on the item pane: a link that opens the
 * cited page scrolled to the passage (the text-fragment link the service
 * built from the page it read, docs/citations.md#provenance), and the page
 * as it was read: when, its HTTP status and type, and where redirects led.
 *
 * The page shows every other URL as text; this link is the one exception,
 * and it is guarded: only an http or https URL becomes a link, it opens in a
 * new tab with no opener and no referrer (the page that cited it learns
 * nothing of the review page), and its target is shown as text beside it.
 */
import type { CitationResult, PageProvenance } from '../../contracts/results.js';
import { el, untrusted } from './dom.js';
import { exactTime, relativeTime } from './format.js';

/** The URL, when it is one a link may go to: http or https, nothing a browser would run. */
function linkable(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** "Open the page at the passage", or nothing when the result has no link to it. */
export function passageLink(x: CitationResult): HTMLElement | undefined {
  const href = x.location?.textFragmentUrl === undefined ? undefined : linkable(x.location.textFragmentUrl);
  if (href === undefined) return undefined;
  const a = el('a', 'Open the page at the passage', 'passage-link');
  a.href = href;
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  a.referrerPolicy = 'no-referrer';
  a.title = href;
  const note = el('span', ' (new tab)', 'small');
  const box = el('span');
  box.append(a, note);
  return box;
}

/** The page as read: "fetched 2 h ago (…) · HTTP 200 · text/html", and the URL redirects led to. */
export function pageLine(cited: string, page: PageProvenance): HTMLElement {
  const line = el('span', null, 'page-line small');
  const t = el('time', `fetched ${relativeTime(page.fetchedAt, Date.now())} (${exactTime(page.fetchedAt)})`);
  t.dateTime = page.fetchedAt;
  const parts = [
    ...(page.status !== undefined ? [`HTTP ${page.status}`] : []),
    ...(page.contentType !== undefined ? [page.contentType] : []),
  ];
  line.append(t, el('span', parts.map((p) => ` · ${p}`).join('')));
  let sameUrl = false;
  try {
    const a = new URL(cited);
    a.hash = '';
    sameUrl = page.finalUrl === undefined || a.href === page.finalUrl;
  } catch {
    sameUrl = page.finalUrl === undefined;
  }
  if (!sameUrl) line.append(el('span', ' · after redirects, '), untrusted('code', page.finalUrl!, 'url'));
  return line;
}
