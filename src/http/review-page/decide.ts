/**
 * Deciding: the name and the note, Release (after a confirmation that
 * restates what readers will be shown) or Confirm, and the answer. A
 * decision is final for its revision, so Release never happens on one
 * keystroke or click: r or the Release button only opens the question.
 */
import type { ReviewDecideResult, ReviewItem } from '../../contracts/review-api.js';
import { api, ApiError, itemPath } from './api.js';
import { byId, el, untrusted } from './dom.js';
import { categoriesView, confidenceText, exactTime } from './format.js';
import { rememberReviewer, reviewerName } from './reviewer.js';

/** Characters of the text the release question shows. */
const RELEASE_PREVIEW_CHARS = 600;

export type Verb = 'release' | 'confirm';

export interface DecideHandlers {
  /** A decision is about to be sent: the feed may bring its echo before the answer comes. */
  sending(item: ReviewItem): void;
  /** The item decided on; the decision and its audit entry id. */
  decided(item: ReviewItem, verb: Verb, result: ReviewDecideResult): Promise<void>;
  /** The API refused (someone decided first, a newer revision): the item as it now stands should be shown. */
  refused(item: ReviewItem, err: unknown): Promise<void>;
  say(message: string): void;
}

export class DecideForm {
  private item: ReviewItem | undefined;
  private busy = false;
  /** The action r or c started: Ctrl+Enter in the note takes it. */
  private pending: Verb | undefined;
  /** The revision the release question restates: the only one its answer may release. */
  private asked: ReviewItem | undefined;
  /** The decision the claim question is about, if one is open. */
  private overClaim: Verb | undefined;

  constructor(private readonly handlers: DecideHandlers) {
    byId('decide-form').addEventListener('submit', (event) => {
      // Enter in a field decides nothing by itself.
      event.preventDefault();
      if (this.pending) void this.take(this.pending);
      else handlers.say('Choose Release or Confirm.');
    });
    byId('reviewer').addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        byId('note').focus();
      }
    });
    byId('note').addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        void this.take(this.pending ?? 'confirm', this.pending === undefined);
      }
    });
    byId('claim').addEventListener('click', () => void this.claim());
    const claimed = byId<HTMLDialogElement>('claimed-dialog');
    claimed.addEventListener('close', () => {
      const verb = this.overClaim;
      this.overClaim = undefined;
      if (claimed.returnValue === 'go' && verb) void this.send(verb, true);
    });
    byId('release').addEventListener('click', () => void this.take('release'));
    byId('confirm').addEventListener('click', () => void this.take('confirm'));
    byId('release-dialog').addEventListener('close', () => {
      const dialog = byId<HTMLDialogElement>('release-dialog');
      const asked = this.asked;
      this.asked = undefined;
      if (dialog.returnValue === 'release' && asked !== undefined && asked === this.item) void this.send('release');
      else byId('release').focus();
    });
  }

  /** The item to decide on; a held one shows the form, a decided one says who decided. */
  show(item: ReviewItem): void {
    // A note is written for one revision: it never carries over to another item.
    if (this.item?.hypothesisId !== item.hypothesisId || this.item.revision !== item.revision) {
      byId<HTMLTextAreaElement>('note').value = '';
    }
    this.item = item;
    // The release question restates one revision; another shown meanwhile (a
    // newer one arrived, another item opened) ends it, deciding nothing.
    const dialog = byId<HTMLDialogElement>('release-dialog');
    if (dialog.open) {
      dialog.returnValue = '';
      dialog.close();
    }
    this.setPending(undefined);
    const held = item.state === 'quarantined' || item.state === 'blocked' || item.state === 'conflict';
    byId('decide-fields').hidden = !held;
    // Text published again under a used revision was never classified: it can only be confirmed.
    byId<HTMLButtonElement>('release').disabled = item.state === 'conflict';
    const closed = byId('decide-closed');
    closed.hidden = held;
    closed.replaceChildren();
    if (!held) {
      if (item.decision) {
        closed.append(
          el('span', `Revision ${item.revision} was ${item.decision.decision} by `),
          untrusted('span', item.decision.by, 'who'),
          el('span', ` at ${exactTime(item.decision.at)}. A decision is final for its revision.`),
        );
      } else {
        closed.textContent = `Revision ${item.revision} is ${item.state}: nothing to decide.`;
      }
    }
    const reviewer = byId<HTMLInputElement>('reviewer');
    if (held && !reviewer.value) reviewer.value = reviewerName();
    byId('claim').closest('p')!.hidden = !held;
    this.showClaim(item);
  }

  /** Who is on the item, until when; the claim button says what it will do. */
  private showClaim(item: ReviewItem): void {
    const line = byId('claim-line');
    const claim = item.claim && Date.parse(item.claim.expiresAt) > Date.now() ? item.claim : undefined;
    const me = byId<HTMLInputElement>('reviewer').value.trim().toLowerCase();
    const mine = claim !== undefined && claim.by.trim().toLowerCase() === me;
    line.replaceChildren();
    if (claim) {
      line.append(
        el('span', mine ? 'You are on it' : 'On it: ', 'claim-who'),
        mine ? el('span', '') : untrusted('strong', claim.by),
        el('span', ` (claim until ${exactTime(claim.expiresAt)})`),
      );
    } else {
      line.textContent = 'Nobody has claimed it.';
    }
    const button = byId<HTMLButtonElement>('claim');
    button.textContent = !claim ? 'Claim' : mine ? 'Renew claim' : 'Take over claim';
    button.dataset.take = claim && !mine ? 'true' : 'false';
  }

  private async claim(): Promise<void> {
    const item = this.item;
    if (!item) return;
    const reviewer = byId<HTMLInputElement>('reviewer');
    if (!reviewer.reportValidity()) return;
    const take = byId('claim').dataset.take === 'true';
    try {
      const { claim } = await api<{ claim: NonNullable<ReviewItem['claim']> }>(
        'POST',
        `${itemPath(item.hypothesisId)}/claim`,
        { by: reviewer.value.trim(), ...(take ? { take: true } : {}) },
      );
      rememberReviewer(reviewer.value.trim());
      this.item = { ...item, claim };
      this.showClaim(this.item);
      this.handlers.say(`You are on ${item.hypothesisId} until ${exactTime(claim.expiresAt)}.`);
    } catch (err) {
      await this.handlers.refused(item, err);
    }
  }

  isOpenFor(id: string): boolean {
    return this.item?.hypothesisId === id;
  }

  /**
   * r or c: the form with that action chosen, the cursor in the note, which
   * every decision needs; a missing name is asked for in the status line, and
   * deciding without it takes the person to it.
   */
  start(verb: Verb): void {
    if (!this.item || byId('decide-fields').hidden) {
      this.handlers.say(this.item ? 'This revision is not held: nothing to decide.' : 'Open an item first (Enter).');
      return;
    }
    this.setPending(verb);
    byId('note').focus();
    const name = byId<HTMLInputElement>('reviewer').value.trim() ? '' : ' Fill in your name too (the field before).';
    this.handlers.say(
      (verb === 'release'
        ? 'Release: write why, then Ctrl+Enter (or press Release). You will be asked to confirm.'
        : 'Confirm: write why, then Ctrl+Enter (or press Confirm).') + name,
    );
  }

  /**
   * Escape: the draft is dropped, the action started with r or c and the
   * note written, so that neither is taken by a later Ctrl+Enter; says
   * whether there was one. The name stays: it is the reviewer's.
   */
  cancel(): boolean {
    const note = byId<HTMLTextAreaElement>('note');
    const had = this.pending !== undefined || note.value !== '';
    this.setPending(undefined);
    note.value = '';
    if (had) this.handlers.say('Nothing decided: the note is cleared.');
    return had;
  }

  private setPending(verb: Verb | undefined): void {
    this.pending = verb;
    byId('release').classList.toggle('chosen', verb === 'release');
    byId('confirm').classList.toggle('chosen', verb === 'confirm');
  }

  /** Release asks first; Confirm goes. With `ask`, Ctrl+Enter without an action started: say so instead. */
  private async take(verb: Verb, ask = false): Promise<void> {
    if (!this.item || this.busy) return;
    if (ask) {
      this.handlers.say('Choose Release or Confirm (r or c, or the buttons).');
      return;
    }
    if (!byId<HTMLFormElement>('decide-form').reportValidity()) return;
    if (verb === 'confirm') return this.send('confirm');
    this.askRelease(this.item);
  }

  private askRelease(item: ReviewItem): void {
    const text = item.subject?.text ?? '';
    const shown = text.length > RELEASE_PREVIEW_CHARS ? `${text.slice(0, RELEASE_PREVIEW_CHARS)}…` : text;
    const cats = categoriesView(item.verdict);
    byId('release-h').textContent = `Release revision ${item.revision} to readers?`;
    byId('release-what').replaceChildren(
      el('span', 'Readers will be shown '),
      untrusted('strong', item.subject?.title ?? item.hypothesisId),
      el('span', text.length > RELEASE_PREVIEW_CHARS ? ` (${text.length} characters; the start below):` : ':'),
    );
    byId('release-text').textContent = shown || '(no text kept)';
    byId('release-verdict').textContent =
      `The classifier held it: ${item.verdict.action}, ${cats.label}` +
      (cats.unclassified ? ` (${cats.degradedWhy})` : `, confidence ${confidenceText(item.verdict.confidence)}`) +
      '. Releasing overrides that; it is final for this revision and goes into the audit trail under your name with your note.';
    byId('release-note').replaceChildren(
      el('strong', 'Your note: '),
      untrusted('span', byId<HTMLTextAreaElement>('note').value.trim()),
    );
    const dialog = byId<HTMLDialogElement>('release-dialog');
    dialog.returnValue = '';
    this.asked = item;
    dialog.showModal();
    byId('release-cancel').focus();
  }

  private async send(verb: Verb, overClaim = false): Promise<void> {
    const item = this.item;
    if (!item || this.busy) return;
    const by = byId<HTMLInputElement>('reviewer').value;
    const form = byId('decide-form');
    this.busy = true;
    form.setAttribute('aria-busy', 'true');
    this.handlers.say(`${verb === 'release' ? 'Releasing' : 'Confirming'} ${item.hypothesisId}...`);
    this.handlers.sending(item);
    let result: ReviewDecideResult;
    try {
      result = await api<ReviewDecideResult>('POST', `${itemPath(item.hypothesisId)}/${verb}`, {
        by,
        note: byId<HTMLTextAreaElement>('note').value,
        revision: item.revision,
        ...(overClaim ? { confirm: true } : {}),
      });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'REVIEW_CLAIMED' && !overClaim) {
        // Another reviewer is on it: deciding over them is asked, not done.
        this.overClaim = verb;
        const who = err.message.replace(/; send confirm: true.*$/, '');
        byId('claimed-what').textContent = `${who}.`;
        byId('claimed-go').textContent = verb === 'release' ? 'Release anyway' : 'Confirm anyway';
        const dialog = byId<HTMLDialogElement>('claimed-dialog');
        dialog.returnValue = '';
        dialog.showModal();
        byId('claimed-cancel').focus();
        this.handlers.say(`Not decided yet: ${who}.`);
        return;
      }
      await this.handlers.refused(item, err);
      return;
    } finally {
      this.busy = false;
      form.removeAttribute('aria-busy');
    }
    rememberReviewer(by);
    byId<HTMLTextAreaElement>('note').value = '';
    // Decided: the form says so at once, so that nothing more is started on
    // this item while the next one loads; an action started then would be
    // taken on the next item, which the person has not read.
    this.show({ ...item, state: result.decision.decision, decision: result.decision });
    // What goes wrong from here (opening the next item) is not a refusal of the decision taken.
    await this.handlers.decided(item, verb, result);
  }
}
