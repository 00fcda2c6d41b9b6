/**
 * The queue pane: the filters with their counts, the table of held
 * revisions (one row each, with previews), paging by cursor, the selection
 * that j and k move, and the marks that live changes put on rows.
 */
import type { ReviewFeedChange, ReviewQueueItem, ReviewQueuePage } from '../../contracts/review-api.js';
import type { QueueCounts } from '../../safety/review/queue.js';
import { api } from './api.js';
import { byId, el, untrusted } from './dom.js';
import { categoriesView, confidenceText, exactTime, plural, relativeTime, stateText } from './format.js';

export const PAGE_SIZE = 100;

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** The age choices: the held-time bounds each sets, from the time the queue is read. */
const AGES: Record<string, (now: number) => { heldBefore?: number; heldAfter?: number }> = {
  under_1h: (now) => ({ heldAfter: now - HOUR }),
  over_1h: (now) => ({ heldBefore: now - HOUR }),
  over_1d: (now) => ({ heldBefore: now - DAY }),
  over_7d: (now) => ({ heldBefore: now - 7 * DAY }),
};

interface Row {
  item: ReviewQueueItem;
  tr: HTMLTableRowElement;
  open: HTMLButtonElement;
  /** Decided (here or elsewhere) since the queue was read. */
  decided: boolean;
}

export interface QueueHandlers {
  /** A row asked to be opened (click, Enter). */
  open(id: string): void;
  /** The counts were read again; `filtered`: with filters (other than the order), which the counts keep. */
  counted?(counts: QueueCounts, filtered: boolean): void;
  /** The selection changed (a row ticked, a row decided, the queue read again). */
  selected?(items: ReviewQueueItem[]): void;
}

export class QueueView {
  private rows = new Map<string, Row>();
  private order: string[] = [];
  private nextCursor: string | undefined;
  /** The filters of the rows shown, with the held-time bounds fixed when they were read. */
  private query = new URLSearchParams();
  private openId: string | undefined;
  private newHeld = new Set<string>();
  private loading = false;
  private countsTimer: ReturnType<typeof setTimeout> | undefined;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  /** Rows ticked for a decision on the selection. */
  private picked = new Set<string>();

  constructor(private readonly handlers: QueueHandlers) {
    for (const id of ['f-state', 'f-category', 'f-degraded', 'f-age', 'f-order']) {
      byId<HTMLSelectElement>(id).addEventListener('change', () => void this.reload());
    }
    // The search is read a moment after the last key, so typing a word costs one request.
    byId<HTMLInputElement>('f-q').addEventListener('input', () => {
      clearTimeout(this.searchTimer);
      this.searchTimer = setTimeout(() => void this.reload(), 300);
    });
    byId('filters').addEventListener('submit', (event) => {
      event.preventDefault();
      clearTimeout(this.searchTimer);
      void this.reload();
    });
    byId('more').addEventListener('click', () => void this.more());
    byId('show-new').addEventListener('click', () => void this.reload(true));
    byId('queue-rows').addEventListener('click', (event) => {
      const tr = (event.target as Element).closest('tr');
      const id = tr?.dataset.id;
      // The title's button opens by itself, the tick box ticks; a click elsewhere on the row opens.
      if (id !== undefined && !(event.target as Element).closest('button, input, label')) this.handlers.open(id);
    });
  }

  /** Reads the first page with the filters as chosen; keeps the focus on the row it was on. */
  async reload(keepFocus = false): Promise<void> {
    const focused = keepFocus ? this.focusedId() : undefined;
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    const value = (id: string) => byId<HTMLSelectElement>(id).value;
    if (value('f-state')) query.set('state', value('f-state'));
    if (value('f-category')) query.set('category', value('f-category'));
    if (value('f-degraded')) query.set('degraded', value('f-degraded'));
    const search = byId<HTMLInputElement>('f-q').value.trim();
    if (search) query.set('q', search);
    if (value('f-order') !== 'oldest') query.set('order', value('f-order'));
    const age = AGES[value('f-age')]?.(Date.now());
    if (age?.heldBefore !== undefined) query.set('heldBefore', new Date(age.heldBefore).toISOString());
    if (age?.heldAfter !== undefined) query.set('heldAfter', new Date(age.heldAfter).toISOString());
    this.query = query;
    const page = await this.fetch(query);
    this.rows.clear();
    this.order = [];
    this.picked.clear();
    this.notifySelection();
    this.clearNews();
    byId('queue-rows').replaceChildren();
    this.append(page);
    if (focused && this.rows.has(focused)) this.focusRow(focused);
  }

  private async more(): Promise<void> {
    if (!this.nextCursor || this.loading) return;
    const query = new URLSearchParams(this.query);
    query.set('cursor', this.nextCursor);
    const first = this.nextCursor;
    const page = await this.fetch(query);
    // A reload meanwhile started the queue again: this page belongs to the old one.
    if (first !== this.nextCursor) return;
    const firstNew = page.items[0]?.hypothesisId;
    this.append(page);
    if (firstNew) this.focusRow(firstNew);
  }

  private async fetch(query: URLSearchParams): Promise<ReviewQueuePage> {
    this.loading = true;
    byId('queue-pane').setAttribute('aria-busy', 'true');
    try {
      return await api<ReviewQueuePage>('GET', `api/items?${query.toString()}`);
    } finally {
      this.loading = false;
      byId('queue-pane').removeAttribute('aria-busy');
    }
  }

  private append(page: ReviewQueuePage): void {
    const body = byId('queue-rows');
    for (const item of page.items) {
      if (this.rows.has(item.hypothesisId)) continue;
      const row = this.renderRow(item);
      this.rows.set(item.hypothesisId, row);
      this.order.push(item.hypothesisId);
      body.append(row.tr);
    }
    this.nextCursor = page.nextCursor;
    this.renderCounts(page.counts, page);
    this.markOpen(this.openId);
  }

  private renderRow(item: ReviewQueueItem): Row {
    const tr = el('tr');
    tr.dataset.id = item.hypothesisId;
    const now = Date.now();

    const main = el('td', null, 'c-main');
    const pick = el('input', null, 'pick');
    pick.type = 'checkbox';
    // A label element of its own, as every field has: its text for screen readers only.
    const pickLabel = el('label', null, 'pick-label');
    pickLabel.append(
      pick,
      el('span', 'Select ', 'visually-hidden'),
      untrusted('span', item.title ?? item.hypothesisId, 'visually-hidden'),
    );
    pick.addEventListener('change', () => {
      if (pick.checked) this.picked.add(item.hypothesisId);
      else this.picked.delete(item.hypothesisId);
      this.notifySelection();
    });
    const open = el('button', null, 'open');
    open.type = 'button';
    open.append(untrusted('span', item.title ?? item.hypothesisId, 'title'));
    open.addEventListener('click', () => this.handlers.open(item.hypothesisId));
    const head = el('span', null, 'head');
    const meta = el('span', null, 'meta');
    if (item.title !== undefined) meta.append(untrusted('span', item.hypothesisId, 'rid'), el('span', ' · '));
    meta.append(el('span', `r${item.revision}`));
    meta.title = `${item.hypothesisId}, revision ${item.revision}`;
    head.append(pickLabel, open, meta);
    const preview = untrusted('span', item.preview || '(no text kept)', 'preview line');
    const why = el('span', null, 'why line');
    if (item.state === 'conflict') {
      why.append(el('span', 'Published again with other text under a revision already judged; never classified.'));
    } else {
      why.append(el('span', 'Classifier: ', 'label'), untrusted('span', item.rationale || '(no rationale)'));
    }
    main.append(head, preview, why);

    const verdict = el('td', null, 'c-verdict');
    verdict.append(el('span', stateText(item.state), `badge s-${item.state}`));
    if (item.refusal) verdict.append(el('span', 'model refused', 'small'));
    if (item.claim && Date.parse(item.claim.expiresAt) > now) {
      const who = el('span', null, 'small claimed');
      who.title = `Claimed until ${exactTime(item.claim.expiresAt)}`;
      who.append(el('span', 'on it: '), untrusted('span', item.claim.by));
      verdict.append(who);
    }

    const cats = el('td', null, 'c-cats');
    const view = categoriesView(item);
    // The verdict of a revision in conflict is of the text first published, not of the one that waits.
    const conflict = item.state === 'conflict';
    if (conflict) cats.append(el('span', 'not classified: published again', 'badge unclassified'));
    else cats.append(el('span', view.label, view.unclassified ? 'badge unclassified' : 'cats'));
    if (view.degradedWhy && !conflict) cats.append(el('span', view.degradedWhy, 'small degraded'));

    const conf = el('td', view.unclassified || conflict ? '–' : confidenceText(item.confidence), 'c-conf num');
    const held = el('td', null, 'c-held');
    const time = el('time', relativeTime(item.heldAt, now));
    time.dateTime = item.heldAt;
    time.title = `Held at ${exactTime(item.heldAt)}`;
    held.append(time);

    tr.append(main, verdict, cats, conf, held);
    return { item, tr, open, decided: false };
  }

  private renderCounts(counts: QueueCounts, page: ReviewQueuePage): void {
    const filtered = [...this.query.keys()].some((k) => k !== 'limit' && k !== 'order' && k !== 'cursor');
    this.handlers.counted?.(counts, filtered);
    const label = (select: string, value: string, text: string, n?: number) => {
      const option = [...byId<HTMLSelectElement>(select).options].find((o) => o.value === value);
      if (option) option.textContent = n === undefined ? text : `${text} (${n})`;
    };
    label('f-state', '', 'All', counts.state.quarantined + counts.state.blocked + counts.state.conflict);
    label('f-state', 'quarantined', 'Quarantined', counts.state.quarantined);
    label('f-state', 'blocked', 'Blocked', counts.state.blocked);
    label('f-state', 'conflict', 'In conflict', counts.state.conflict);
    label('f-degraded', '', 'All', counts.degraded.yes + counts.degraded.no);
    label('f-degraded', 'false', 'Clean', counts.degraded.no);
    label('f-degraded', 'true', 'Degraded', counts.degraded.yes);
    const a = counts.age;
    label('f-age', '', 'Any time', a.under_1h + a['1h_to_1d'] + a['1d_to_7d'] + a.over_7d);
    label('f-age', 'under_1h', 'Under 1 h ago', a.under_1h);
    label('f-age', 'over_1h', 'Over 1 h ago', a['1h_to_1d'] + a['1d_to_7d'] + a.over_7d);
    label('f-age', 'over_1d', 'Over 1 day ago', a['1d_to_7d'] + a.over_7d);
    label('f-age', 'over_7d', 'Over 7 days ago', a.over_7d);

    // Categories: the ones present, most frequent first, and the one chosen even when none is left.
    const select = byId<HTMLSelectElement>('f-category');
    const chosen = select.value;
    const names = Object.entries(counts.category).sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
    if (chosen && !names.some(([n]) => n === chosen)) names.push([chosen, 0]);
    const all = el('option', 'All');
    all.value = '';
    select.replaceChildren(
      all,
      ...names.map(([name, n]) => {
        const option = el('option', `${name} (${n})`);
        option.value = name;
        return option;
      }),
    );
    select.value = chosen;

    const shown = this.order.length;
    const decided = [...this.rows.values()].filter((r) => r.decided).length;
    const held = plural(counts.all, 'held hypothesis', 'held hypotheses');
    let summary =
      decided === 0
        ? `Showing ${shown} of ${counts.matching} matching · ${held} in all`
        : `Showing ${shown} (${decided} decided since read) · ${counts.matching} matching · ${held} in all`;
    if (page.truncated) summary += ` · filters cover the ${page.scanned} ${page.order} only`;
    byId('queue-summary').textContent = summary;
    document.title = `(${counts.all}) Held hypotheses: cosci-safety review`;
    byId('queue-empty').hidden = shown > 0;
    const more = byId<HTMLButtonElement>('more');
    more.hidden = this.nextCursor === undefined;
    // Rows decided since are no longer in `matching`; new holds may be: the number is a guide.
    const left = Math.min(PAGE_SIZE, counts.matching - (shown - decided));
    more.textContent = left > 0 ? `Load ${left} more` : 'Load more';
  }

  /**
   * After a change, the counts beside the filters are read again (a page of
   * one), a moment later so that a burst of changes costs one read; the rows
   * stay as they are, so nothing moves under the reviewer's cursor.
   */
  private scheduleCounts(): void {
    clearTimeout(this.countsTimer);
    this.countsTimer = setTimeout(() => {
      const query = new URLSearchParams(this.query);
      query.set('limit', '1');
      api<ReviewQueuePage>('GET', `api/items?${query.toString()}`).then(
        (page) => this.renderCounts(page.counts, page),
        () => undefined,
      );
    }, 400);
  }

  /** The rows ticked, in the queue's order. */
  selection(): ReviewQueueItem[] {
    return this.order.filter((id) => this.picked.has(id)).map((id) => this.rows.get(id)!.item);
  }

  /** Ticks every row shown that waits for a decision, or none. */
  selectAll(on: boolean): void {
    for (const [id, row] of this.rows) {
      const box = row.tr.querySelector<HTMLInputElement>('input.pick')!;
      box.checked = on && !row.decided;
      if (box.checked) this.picked.add(id);
      else this.picked.delete(id);
    }
    this.notifySelection();
  }

  private notifySelection(): void {
    this.handlers.selected?.(this.selection());
  }

  /** Rows in order; the decided ones stay, marked, until the queue is read again. */
  ids(): string[] {
    return this.order;
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  isDecided(id: string): boolean {
    return this.rows.get(id)?.decided ?? false;
  }

  /** The row after `id` that still waits for a decision, for opening after a decision. */
  nextUndecided(id: string): string | undefined {
    const at = this.order.indexOf(id);
    const after = [...this.order.slice(at + 1), ...this.order.slice(0, Math.max(at, 0))];
    return after.find((other) => !this.rows.get(other)!.decided);
  }

  /** The row whose button has the focus, else the open one. */
  focusedId(): string | undefined {
    const tr = document.activeElement?.closest('#queue-rows tr') as HTMLTableRowElement | null;
    return tr?.dataset.id ?? this.openId;
  }

  focusRow(id: string): void {
    const row = this.rows.get(id);
    if (!row) return;
    row.open.focus({ preventScroll: true });
    row.tr.scrollIntoView({ block: 'nearest' });
  }

  /** j and k: the next or the previous row. */
  move(step: 1 | -1): void {
    if (this.order.length === 0) return;
    const current = this.focusedId();
    const at = current === undefined ? -1 : this.order.indexOf(current);
    const next = at === -1 ? (step === 1 ? 0 : this.order.length - 1) : at + step;
    const id = this.order[Math.max(0, Math.min(this.order.length - 1, next))];
    if (id !== undefined) this.focusRow(id);
  }

  markOpen(id: string | undefined): void {
    this.openId = id;
    for (const [rowId, row] of this.rows) {
      if (rowId === id) row.tr.setAttribute('aria-current', 'true');
      else row.tr.removeAttribute('aria-current');
    }
  }

  /** A decision on a row, taken here or elsewhere: the row says so until the queue is read again. */
  markDecided(id: string, state: string, by: string | undefined, at: string | undefined): void {
    const row = this.rows.get(id);
    if (!row || row.decided) return;
    row.decided = true;
    row.tr.classList.add('decided');
    const box = row.tr.querySelector<HTMLInputElement>('input.pick')!;
    box.checked = false;
    box.disabled = true;
    if (this.picked.delete(id)) this.notifySelection();
    const cell = row.tr.querySelector('.c-verdict')!;
    const who = el('span', null, 'small');
    who.append(
      el('span', 'by '),
      untrusted('span', by ?? 'someone'),
      el('span', at ? ` · ${relativeTime(at, Date.now())}` : ''),
    );
    cell.replaceChildren(el('span', state, `badge s-${state}`), who);
    this.scheduleCounts();
  }

  /** A live change: a decision marks its row; a new hold is counted in the banner until the queue is read again. */
  apply(change: ReviewFeedChange): void {
    if (change.kind === 'decided') {
      const row = this.rows.get(change.hypothesisId);
      if (row && row.item.revision === change.revision)
        this.markDecided(change.hypothesisId, change.state, change.by, change.at);
      return;
    }
    const row = this.rows.get(change.hypothesisId);
    if (row && row.item.revision === change.revision) return;
    this.newHeld.add(change.hypothesisId);
    const banner = byId('new-held');
    banner.hidden = false;
    byId('show-new').textContent = `${plural(this.newHeld.size, 'new held hypothesis', 'new held hypotheses')}: show`;
    this.scheduleCounts();
  }

  /** The queue was read again: the banner's news is in it. */
  clearNews(): void {
    this.newHeld.clear();
    byId('new-held').hidden = true;
  }

  /** Relative times drift: rewrite them now and then. */
  refreshTimes(): void {
    const now = Date.now();
    for (const row of this.rows.values()) {
      const time = row.tr.querySelector('.c-held time');
      if (time) time.textContent = relativeTime(row.item.heldAt, now);
    }
  }
}
