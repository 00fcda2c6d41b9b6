/**
 * One decision on the rows ticked in the queue (POST api/decide). Never on a
 * click alone: the question lists every item it will release (or confirm),
 * with its state, categories and confidence, and takes the name and the
 * note for the audit trail; its answer names each item refused and why.
 */
import type { ReviewBulkDecideResult, ReviewQueueItem } from '../../contracts/review-api.js';
import { api } from './api.js';
import { byId, el, untrusted } from './dom.js';
import { categoriesView, confidenceText, plural, stateText } from './format.js';
import { rememberReviewer, reviewerName } from './reviewer.js';

type Verb = 'release' | 'confirm';

export interface BulkHandlers {
  selection(): ReviewQueueItem[];
  selectAll(on: boolean): void;
  decided(result: ReviewBulkDecideResult, verb: Verb): void;
  say(message: string): void;
  report(err: unknown): void;
}

export class BulkDecide {
  private verb: Verb = 'release';
  /** The items the open question lists: the only ones its answer decides. */
  private asked: ReviewQueueItem[] = [];
  private busy = false;
  /** The question named claims of other reviewers: its answer decides over them. */
  private overClaims = false;

  constructor(private readonly handlers: BulkHandlers) {
    byId('bulk-release').addEventListener('click', () => this.ask('release'));
    byId('bulk-confirm').addEventListener('click', () => this.ask('confirm'));
    byId('bulk-clear').addEventListener('click', () => handlers.selectAll(false));
    byId('select-all').addEventListener('click', () => handlers.selectAll(true));
    const dialog = byId<HTMLDialogElement>('bulk-dialog');
    dialog.addEventListener('close', () => {
      const asked = this.asked;
      this.asked = [];
      if (dialog.returnValue === 'go' && asked.length > 0) void this.send(asked);
      else byId(this.verb === 'release' ? 'bulk-release' : 'bulk-confirm').focus();
    });
  }

  /** The bar says how many are ticked, and offers the decisions only when some are. */
  selected(items: ReviewQueueItem[]): void {
    byId('bulk').hidden = items.length === 0;
    byId('bulk-count').textContent = `${plural(items.length, 'selected', 'selected')}:`;
    // Only confirm can close a revision in conflict: releasing one would be refused.
    byId<HTMLButtonElement>('bulk-release').disabled = items.some((i) => i.state === 'conflict');
  }

  private ask(verb: Verb): void {
    const items = this.handlers.selection();
    if (items.length === 0) return;
    this.verb = verb;
    this.asked = items;
    byId('bulk-h').textContent =
      verb === 'release'
        ? `Release ${plural(items.length, 'hypothesis', 'hypotheses')} to readers?`
        : `Confirm ${plural(items.length, 'hypothesis', 'hypotheses')}: keep them withheld?`;
    byId('bulk-what').textContent =
      verb === 'release'
        ? 'Each of these will be shown to readers: one decision each, final for its revision, in the audit trail under your name.'
        : 'Each of these stays withheld: one decision each, final for its revision, in the audit trail under your name.';
    const me = reviewerName().trim().toLowerCase();
    const claimedByOther = (item: ReviewQueueItem) =>
      item.claim !== undefined &&
      Date.parse(item.claim.expiresAt) > Date.now() &&
      item.claim.by.trim().toLowerCase() !== me;
    // The question names each claim it decides over: answering it is the confirmation a claim asks for.
    const claimed = items.filter(claimedByOther);
    this.overClaims = claimed.length > 0;
    byId('bulk-claims').hidden = claimed.length === 0;
    byId('bulk-claims').textContent =
      claimed.length === 0
        ? ''
        : `${plural(claimed.length, 'of these is', 'of these are')} claimed by another reviewer (marked below): deciding decides over the claim.`;
    byId('bulk-list').replaceChildren(
      ...items.map((item) => {
        const li = el('li');
        const view = categoriesView(item);
        li.append(
          untrusted('strong', item.title ?? item.hypothesisId),
          el('span', item.title ? ' · ' : ''),
          item.title ? untrusted('span', item.hypothesisId) : el('span', ''),
          el(
            'span',
            ` · revision ${item.revision} · ${stateText(item.state)} · ${view.label}` +
              (view.unclassified ? '' : ` · confidence ${confidenceText(item.confidence)}`),
          ),
        );
        if (claimedByOther(item))
          li.append(el('span', ' · on it: ', 'claimed'), untrusted('span', item.claim!.by, 'claimed'));
        return li;
      }),
    );
    const go = byId('bulk-go');
    go.textContent = verb === 'release' ? `Release ${items.length} to readers` : `Confirm ${items.length}`;
    go.className = verb === 'release' ? 'danger' : 'primary';
    byId<HTMLInputElement>('bulk-by').value = reviewerName();
    byId<HTMLDialogElement>('bulk-dialog').showModal();
  }

  private async send(items: ReviewQueueItem[]): Promise<void> {
    if (this.busy) return;
    const by = byId<HTMLInputElement>('bulk-by').value.trim();
    const note = byId<HTMLTextAreaElement>('bulk-note').value.trim();
    this.busy = true;
    try {
      rememberReviewer(by);
      const result = await api<ReviewBulkDecideResult>('POST', 'api/decide', {
        decision: this.verb,
        by,
        note,
        items: items.map((i) => ({ hypothesisId: i.hypothesisId, revision: i.revision })),
        ...(this.overClaims ? { confirm: true } : {}),
      });
      byId<HTMLTextAreaElement>('bulk-note').value = '';
      this.handlers.decided(result, this.verb);
      const refused = result.results.filter((r) => r.outcome === 'refused');
      this.handlers.say(
        `${this.verb === 'release' ? 'Released' : 'Confirmed'} ${result.decided} of ${items.length}.` +
          (refused.length > 0
            ? ` Refused: ${refused.map((r) => `${r.hypothesisId} (${r.code ?? 'refused'})`).join(', ')}.`
            : ''),
      );
    } catch (err) {
      this.handlers.report(err);
    } finally {
      this.busy = false;
    }
  }
}
