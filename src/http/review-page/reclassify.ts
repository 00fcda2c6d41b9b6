/**
 * Re-classify degraded: one action for every degraded held verdict, once the
 * classifier can answer (docs/review.md#reclassifying-degraded-verdicts).
 * It asks first, naming how many and what becomes of them, and who asks (the
 * name goes into each audit entry).
 */
import type { ReviewQueuePage, ReviewReclassifyResult } from '../../contracts/review-api.js';
import { api } from './api.js';
import { byId } from './dom.js';
import { plural } from './format.js';
import { reviewerName, rememberReviewer } from './reviewer.js';

/** What the API takes at most per call (src/review/reclassify.ts). */
const MAX_PER_CALL = 200;

export interface ReclassifyHandlers {
  say(message: string): void;
  /** The queue changed: read it again. */
  done(): Promise<void>;
  report(err: unknown): void;
}

export class ReclassifyAction {
  private degraded = 0;
  private busy = false;

  constructor(private readonly handlers: ReclassifyHandlers) {
    const dialog = byId<HTMLDialogElement>('reclassify-dialog');
    byId('reclassify').addEventListener('click', () => {
      byId('reclassify-what').textContent =
        `${plural(this.degraded, 'held hypothesis has', 'held hypotheses have')} a degraded verdict. ` +
        'Each is classified again with the configured key: a clean answer replaces the degraded verdict, ' +
        'with an audit entry in your name, and those it allows leave the queue. An answer still degraded changes nothing.';
      byId<HTMLInputElement>('reclassify-by').value = reviewerName();
      dialog.showModal();
    });
    dialog.addEventListener('close', () => {
      if (dialog.returnValue === 'go') void this.send(byId<HTMLInputElement>('reclassify-by').value.trim());
      else byId('reclassify').focus();
    });
  }

  /**
   * The queue's degraded count: the button shows only when there is one.
   * The action is on every degraded held verdict, and the counts keep the
   * other filters (a search, a state): with filters, the whole number is
   * read on its own.
   */
  counted(degraded: number, filtered: boolean): void {
    if (!filtered) return this.show(degraded);
    api<ReviewQueuePage>('GET', 'api/items?degraded=true&limit=1').then(
      (page) => this.show(page.counts.matching),
      () => undefined,
    );
  }

  private show(degraded: number): void {
    this.degraded = degraded;
    const button = byId<HTMLButtonElement>('reclassify');
    button.hidden = degraded === 0;
    button.textContent = `Re-classify ${degraded} degraded…`;
  }

  private async send(by: string): Promise<void> {
    if (this.busy || !by) return;
    this.busy = true;
    const button = byId<HTMLButtonElement>('reclassify');
    button.disabled = true;
    this.handlers.say(`Classifying ${plural(this.degraded, 'degraded verdict')} again…`);
    try {
      rememberReviewer(by);
      const r = await api<ReviewReclassifyResult>('POST', 'api/reclassify', { by, limit: MAX_PER_CALL });
      await this.handlers.done();
      this.handlers.say(
        `Re-classified: ${r.reassessed} reassessed (${r.released} left the queue), ` +
          `${r.stillDegraded} still degraded${r.items.find((i) => i.reason) ? ` (${r.items.find((i) => i.reason)!.reason})` : ''}, ` +
          `${r.skipped} skipped${r.remaining > 0 ? `, ${r.remaining} left for another run` : ''}.`,
      );
    } catch (err) {
      this.handlers.report(err);
    } finally {
      this.busy = false;
      button.disabled = false;
    }
  }
}
