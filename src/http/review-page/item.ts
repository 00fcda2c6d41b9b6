/**
 * The item pane: one hypothesis as a reviewer reads it before deciding: the
 * verdict, the rationale, the text exactly as submitted, what each cited
 * source was cited for and why it failed, the earlier revisions and the
 * audit history.
 */
import type { ReviewAuditEntry, ReviewConflict, ReviewItem, ReviewRevision } from '../../contracts/review-api.js';
import type { InjectionSpan } from '../../contracts/events.js';
import type { ReviewVerification, SourceInjection } from '../../contracts/results.js';
import { injectionText, spanText } from '../../safety/review/injection-text.js';
import { citationReasonText } from '../../safety/review/reasons.js';
import { claimSupportView } from './claim-support.js';
import { byId, el, fact, untrusted } from './dom.js';
import { nearMissView } from './near-miss.js';
import { categoriesView, confidenceText, exactTime, plural, relativeTime, stateText } from './format.js';
import { pageLine, passageLink } from './provenance.js';

function timeText(iso: string): HTMLTimeElement {
  const t = el('time', `${relativeTime(iso, Date.now())} (${exactTime(iso)})`);
  t.dateTime = iso;
  return t;
}

function verdictLine(v: {
  action: string;
  categories: readonly string[];
  confidence: number;
  degraded: boolean;
  reason?: string | undefined;
}): string {
  const cats = categoriesView(v);
  return `${v.action} · ${cats.label}${cats.unclassified ? '' : ` · confidence ${confidenceText(v.confidence)}`}`;
}

/**
 * The span of a suspected document: its text marked inside its context,
 * each part untrusted text (set as text, never parsed; isolated, so that
 * nothing in one part can reorder another), then where it is in words.
 */
function attackView(source: SourceInjection['source'], span: InjectionSpan): HTMLElement {
  const box = el('div', null, 'attack');
  const quote = el('q', null, 'attack-text');
  quote.append(
    untrusted('span', span.before, 'attack-context'),
    untrusted('mark', span.text, 'attack-span'),
    untrusted('span', span.after, 'attack-context'),
  );
  box.append(quote, el('p', spanText(source, span), 'attack-where small'));
  return box;
}

export function renderItem(item: ReviewItem): void {
  const v = item.verdict;
  const subject = item.subject;
  byId('detail-empty').hidden = true;
  byId('detail-body').hidden = false;
  byId('item-notice').hidden = true;

  const heading = byId('detail-h');
  heading.replaceChildren(untrusted('span', subject?.title ?? item.hypothesisId));
  const meta = byId('detail-meta');
  meta.replaceChildren(
    el('span', stateText(item.state), `badge s-${item.state}`),
    el('span', ' '),
    untrusted('span', item.hypothesisId, 'rid'),
    el('span', ` · revision ${item.revision} · classified `),
    timeText(item.updatedAt),
  );

  const facts = byId('facts');
  facts.replaceChildren();
  const cats = categoriesView(v);
  fact(facts, 'Action', v.action);
  const catNode = el('span', cats.label, cats.unclassified ? 'badge unclassified' : '');
  fact(facts, 'Categories', catNode);
  fact(facts, 'Confidence', cats.unclassified ? '– (not classified)' : confidenceText(v.confidence));
  fact(facts, 'Degraded', v.degraded ? `yes: ${cats.degradedWhy}` : 'no: a clean classification');
  if (v.refusal) fact(facts, 'Model refused', 'yes: the model declined to assess the text');
  fact(facts, 'Model', v.model);
  if (subject?.agent) fact(facts, 'Agent', untrusted('span', subject.agent));
  if (subject?.goalId) fact(facts, 'Goal', untrusted('span', subject.goalId));
  if (subject?.runId) fact(facts, 'Run', untrusted('span', subject.runId));

  byId('rationale').replaceChildren(untrusted('span', v.rationale || '(none given)'));
  const text = byId('text');
  if (subject) {
    text.textContent = subject.text;
    byId('text-h').textContent = `Text, exactly as submitted (${plural(subject.text.length, 'character')})`;
  } else {
    text.textContent = '(no text kept: only a held revision keeps its text)';
    byId('text-h').textContent = 'Text';
  }
  renderConflicts(item.conflicts);
  renderEvidence(item.evidence);
  renderRevisions(item.revisions);
  renderHistory(item.history);
}

function renderEvidence(reviews: ReviewVerification[]): void {
  const box = byId('evidence');
  box.replaceChildren();
  if (reviews.length === 0) {
    box.append(el('p', 'No review has cited evidence for this hypothesis.', 'muted'));
    return;
  }
  for (const r of reviews) {
    const part = el('section', null, 'review');
    const head = el('p', null, 'review-head');
    const c = r.counts as Partial<Record<string, number>>;
    head.append(
      el('strong', 'Review '),
      untrusted('span', r.reviewId),
      el('span', ` of revision ${r.revision}, verified `),
      timeText(r.verifiedAt),
      el(
        'span',
        r.skipped
          ? ' · verification is off in the configuration'
          : ` · ${c.ok ?? 0} ok, ${c.unverified ?? 0} unverified, ${c.fetch_failed ?? 0} fetch failed`,
      ),
    );
    part.append(head);
    const list = el('ol', null, 'citations');
    for (const x of r.results) {
      const li = el('li', null, `citation c-${x.status}`);
      const status = el('p', null, 'citation-status');
      status.append(
        el('span', x.status.replace('_', ' '), `badge c-${x.status}`),
        el('span', ` ${citationReasonText(x.status, x.reason)}`),
      );
      const dl = el('dl', null, 'compact');
      fact(
        dl,
        'Claim',
        x.claim === undefined
          ? el('span', '(not kept: verified before claims were stored)', 'muted')
          : untrusted('span', x.claim),
      );
      fact(
        dl,
        'Excerpt',
        x.excerpt === undefined
          ? el('span', `(not kept; ${x.excerptLen} characters)`, 'muted')
          : untrusted('q', x.excerpt),
      );
      // What the page holds closest to an excerpt not on it, beside the claim and the excerpt.
      if (x.detail !== undefined) fact(dl, 'On the page', nearMissView(x.detail, x.nearMiss));
      // Whether the page text around an ok excerpt supports the claim: the judge's reading, beside the claim.
      if (x.claimSupport !== undefined) fact(dl, 'Supports the claim?', claimSupportView(x.claimSupport));
      fact(dl, 'URL', untrusted('code', x.url, 'url'));
      const page = r.pages?.[x.url];
      if (page !== undefined) fact(dl, 'Page as read', pageLine(x.url, page));
      const link = passageLink(x);
      if (link !== undefined) fact(dl, 'Passage', link);
      li.append(status);
      if (x.injection !== undefined) {
        // Beside the status, not in it: the excerpt check decided the status.
        const warning = el('p', null, 'citation-injection');
        warning.append(
          el('span', 'injection suspected', 'badge c-injection'),
          el('span', ` ${injectionText(x.injection)}`),
        );
        li.append(warning);
        if (x.injection.span !== undefined) fact(dl, 'The attack', attackView(x.injection.source, x.injection.span));
        // A result stored before spans were kept has the snippet alone.
        else if (x.injection.snippet !== '')
          fact(dl, 'Around the strongest signal', untrusted('q', x.injection.snippet));
      }
      li.append(dl);
      list.append(li);
    }
    part.append(list);
    box.append(part);
  }
}

/** Other text published under a revision already judged: each text, as published, and whether it waits. */
function renderConflicts(conflicts: ReviewConflict[]): void {
  byId('conflicts-part').hidden = conflicts.length === 0;
  const list = byId('conflicts');
  list.replaceChildren();
  for (const c of conflicts) {
    const li = el('li');
    const head = el('p');
    head.append(
      el('strong', `Revision ${c.revision}: `),
      el('span', c.open ? 'waits for a person' : 'confirmed', `badge s-${c.open ? 'conflict' : 'confirmed'}`),
      el('span', ' published again '),
      timeText(c.at),
    );
    li.append(head);
    if (c.decision) {
      const by = el('p', null, 'small');
      by.append(
        el('span', 'confirmed by '),
        untrusted('span', c.decision.by, 'who'),
        el('span', ': '),
        untrusted('span', c.decision.note, 'note'),
      );
      li.append(by);
    }
    if (c.subject?.title !== undefined) li.append(untrusted('p', c.subject.title, 'title'));
    li.append(
      c.subject
        ? untrusted('pre', c.subject.text, 'text')
        : el('p', '(no text kept: the job that brought it no longer had it)', 'muted'),
    );
    list.append(li);
  }
}

function renderRevisions(revisions: ReviewRevision[]): void {
  const list = byId('revisions');
  list.replaceChildren();
  byId('revisions-empty').hidden = revisions.length > 0;
  for (const r of revisions) {
    const li = el('li');
    li.append(
      el('strong', `Revision ${r.revision}: `),
      el('span', stateText(r.state), `badge s-${r.state}`),
      el('span', ` ${verdictLine(r)}`),
    );
    if (r.decision) {
      const by = el('p', null, 'small');
      by.append(
        el('span', `${r.decision.decision} by `),
        untrusted('span', r.decision.by, 'who'),
        el('span', ' '),
        timeText(r.decision.at),
        el('span', ': '),
        untrusted('span', r.decision.note, 'note'),
      );
      li.append(by);
    }
    list.append(li);
  }
}

function renderHistory(entries: ReviewAuditEntry[]): void {
  const list = byId('history');
  list.replaceChildren();
  byId('history-empty').hidden = entries.length > 0;
  for (const e of entries) {
    const li = el('li');
    const head = el('p');
    const kind = {
      hypothesis_confirmed: 'Confirmed',
      hypothesis_released: 'Released',
      hypothesis_reassessed: 'Reclassified',
    };
    head.append(
      el('strong', kind[e.type]),
      el('span', ` revision ${e.revision} by `),
      untrusted('span', e.by, 'who'),
      el('span', ' '),
      timeText(e.at),
    );
    const why = el('p', null, 'note');
    why.append(el('strong', 'Why: '), untrusted('span', e.note, 'why'));
    const before = verdictLine({
      action: e.overriddenAction,
      categories: e.overriddenCategories,
      confidence: e.overriddenConfidence,
      degraded: e.type === 'hypothesis_reassessed',
    });
    const after =
      e.type === 'hypothesis_reassessed' && e.action !== undefined
        ? ` · new verdict: ${verdictLine({ action: e.action, categories: e.categories ?? [], confidence: e.confidence ?? 0, degraded: false })}`
        : '';
    const verdict = el(
      'p',
      `${e.type === 'hypothesis_reassessed' ? 'Degraded verdict replaced' : 'Verdict decided on'}: ${before}${after} · audit entry ${e.entryId}`,
      'small',
    );
    li.append(head, why, verdict);
    list.append(li);
  }
}

/** A line above the item: a decision taken elsewhere, a new revision. */
export function notice(text: string): void {
  const box = byId('item-notice');
  box.textContent = text;
  box.hidden = false;
}
