/**
 * The review page's script (see src/http/review-page.ts for the shell and
 * its security headers, docs/review.md for the workflow): sign-in, the
 * queue beside the open item, deciding, the live feed and the keyboard.
 */
import type { ReviewDecideResult, ReviewItem } from '../../contracts/review-api.js';
import { api, ApiError, itemPath, SignedOut, token } from './api.js';
import { DecideForm, type Verb } from './decide.js';
import { byId } from './dom.js';
import { startFeed, type FeedState } from './feed.js';
import { exactTime } from './format.js';
import { notice, renderItem } from './item.js';
import { QueueView } from './queue.js';
import { ReclassifyAction } from './reclassify.js';
import { BulkDecide } from './bulk.js';

let shown: ReviewItem | undefined;
let feed: { stop(): void } | undefined;
/** Decisions this page took: the feed echoes them, and they need no second announcement. */
const ownDecisions = new Set<string>();

function say(message: string): void {
  byId('status').textContent = message;
}

function report(err: unknown): void {
  if (err instanceof SignedOut) return showSignIn(err.message);
  if (err instanceof ApiError) return say(`Error (${err.code}): ${err.message}`);
  say(`Error: ${err instanceof Error ? err.message : String(err)}`);
}

/** Runs a task started by the person, reporting what goes wrong in the status line. */
function run(task: () => Promise<void>): void {
  task().catch(report);
}

const reclassify = new ReclassifyAction({ say, report, done: () => queue.reload(true) });

const bulk: BulkDecide = new BulkDecide({
  say,
  report,
  selection: () => queue.selection(),
  selectAll: (on) => queue.selectAll(on),
  decided(result) {
    for (const r of result.results) {
      if (!r.decision) continue;
      ownDecisions.add(`${r.hypothesisId}/${r.revision}`);
      queue.markDecided(r.hypothesisId, r.decision.decision, r.decision.by, r.decision.at);
    }
    if (shown && result.results.some((r) => r.hypothesisId === shown!.hypothesisId && r.decision)) {
      run(() => openItem(shown!.hypothesisId, false));
    }
  },
});

const queue = new QueueView({
  open: (id) => run(() => openItem(id, true)),
  counted: (counts, filtered) => reclassify.counted(counts.degraded.yes, filtered),
  selected: (items) => bulk.selected(items),
});

const decide = new DecideForm({
  say,
  sending(item) {
    ownDecisions.add(`${item.hypothesisId}/${item.revision}`);
  },
  async decided(item, verb, result) {
    queue.markDecided(item.hypothesisId, result.decision.decision, result.decision.by, result.decision.at);
    showLastDecision(item, verb, result);
    const next = queue.nextUndecided(item.hypothesisId);
    const done = `${verb === 'release' ? 'Released' : 'Confirmed'} ${item.hypothesisId} revision ${result.decision.revision} by ${result.decision.by}; audit entry ${result.auditEntryId}.`;
    say(done);
    try {
      if (next) {
        await openItem(next, true);
        say(`${done} Opened the next: ${next}.`);
      } else {
        await openItem(item.hypothesisId, false);
        byId('last-decision').focus();
        say(`${done} No more held items in the rows shown.`);
      }
    } catch (err) {
      report(err);
    }
  },
  async refused(item, err) {
    ownDecisions.delete(`${item.hypothesisId}/${item.revision}`);
    if (err instanceof ApiError && (err.code === 'REVIEW_ALREADY_DECIDED' || err.code === 'REVIEW_NOT_HELD')) {
      // Someone decided first, or a newer revision arrived: show what is there now, then the refusal.
      try {
        await openItem(item.hypothesisId, false);
      } catch {
        // The refusal is what to report.
      }
    }
    report(err);
  },
});

function showLastDecision(item: ReviewItem, verb: Verb, result: ReviewDecideResult): void {
  const box = byId('last-decision');
  box.hidden = false;
  byId('last-decision-text').textContent =
    `${verb === 'release' ? 'Released' : 'Confirmed'} ` +
    (item.subject?.title
      ? `${item.subject.title} (${item.hypothesisId}, revision ${result.decision.revision})`
      : `${item.hypothesisId} revision ${result.decision.revision}`) +
    ` by ${result.decision.by} at ${exactTime(result.decision.at)}. ` +
    `Audit entry ${result.auditEntryId}. Note: ${result.decision.note}`;
}

async function openItem(id: string, focus: boolean): Promise<void> {
  const { item } = await api<{ item: ReviewItem }>('GET', itemPath(id));
  shown = item;
  renderItem(item);
  decide.show(item);
  queue.markOpen(item.hypothesisId);
  byId('app').classList.add('item-open');
  window.history.replaceState(null, '', `#item=${encodeURIComponent(item.hypothesisId)}`);
  if (focus) byId('detail-h').focus();
}

function closeItem(): void {
  byId('app').classList.remove('item-open');
  const id = shown?.hypothesisId;
  if (id && queue.has(id)) queue.focusRow(id);
  else byId('queue-h').focus();
}

function showSignIn(message?: string): void {
  token.clear();
  feed?.stop();
  feed = undefined;
  shown = undefined;
  byId('app').hidden = true;
  byId('signout').hidden = true;
  byId('signin').hidden = false;
  if (message) say(message);
  byId('token').focus();
}

const LIVE_WORDS: Record<FeedState, string> = {
  connecting: 'Connecting to live updates…',
  live: 'Live: changes made elsewhere appear here',
  reconnecting: 'Live updates interrupted: reconnecting…',
};

function startLive(): void {
  feed?.stop();
  feed = startFeed({
    state(state) {
      const live = byId('live');
      live.textContent = LIVE_WORDS[state];
      live.dataset.state = state;
    },
    reconnected() {
      // Changes may have been missed while the stream was down.
      run(() => queue.reload(true));
    },
    change(change) {
      const key = `${change.hypothesisId}/${change.revision}`;
      queue.apply(change);
      if (!shown || shown.hypothesisId !== change.hypothesisId || ownDecisions.has(key)) return;
      if (change.kind === 'decided' && change.revision === shown.revision) {
        const who = change.by ?? 'someone';
        run(async () => {
          await openItem(change.hypothesisId, false);
          notice(`${who} ${change.state} this revision meanwhile.`);
          say(`${who} ${change.state} ${change.hypothesisId} revision ${change.revision} meanwhile.`);
        });
      } else if (change.kind === 'held' && change.revision > shown.revision) {
        run(async () => {
          await openItem(change.hypothesisId, false);
          notice(`Revision ${change.revision} arrived and is held: it is shown now.`);
          say(`A new revision of ${change.hypothesisId} arrived: revision ${change.revision} is shown now.`);
        });
      }
    },
  });
}

/** The id that the address's `#item=<id>` names, if it names one. */
function linkedId(): string | undefined {
  const match = /^#item=(.+)$/.exec(window.location.hash);
  try {
    return match ? decodeURIComponent(match[1]!) : undefined;
  } catch {
    return undefined;
  }
}

async function start(): Promise<void> {
  await queue.reload();
  byId('signin').hidden = true;
  byId('app').hidden = false;
  byId('signout').hidden = false;
  say('Signed in.');
  startLive();
  const id = linkedId();
  if (id) await openItem(id, true);
  else if (queue.ids()[0]) queue.focusRow(queue.ids()[0]!);
  else byId('queue-h').focus();
}

// A link to an item followed in this tab (or Back to one) opens it: the page
// must never show one item while the address names another. Signed out, the
// sign-in opens it. openItem's own replaceState fires no hashchange.
window.addEventListener('hashchange', () => {
  const id = linkedId();
  if (!id || byId('app').hidden || id === shown?.hypothesisId) return;
  run(() => openItem(id, true));
});

// Keyboard: single keys, never while typing in a field or with a modifier.
const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape') {
    // A dialog closes itself. Otherwise Esc drops the action started, or else goes back to the queue.
    if (document.querySelector('dialog[open]') || decide.cancel()) return;
    if (byId('app').classList.contains('item-open')) closeItem();
    return;
  }
  const target = event.target as HTMLElement;
  if (event.ctrlKey || event.metaKey || event.altKey || TYPING.has(target.tagName) || target.isContentEditable) return;
  if (byId('app').hidden || document.querySelector('dialog[open]')) return;
  const keys: Record<string, () => void> = {
    j: () => queue.move(1),
    k: () => queue.move(-1),
    r: () => decide.start('release'),
    c: () => decide.start('confirm'),
    '/': () => byId('f-state').focus(),
    '?': () => byId<HTMLDialogElement>('help-dialog').showModal(),
  };
  const action = keys[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
});

byId('signin-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = byId<HTMLInputElement>('token');
  const value = input.value.trim();
  input.value = '';
  if (!value) {
    say('Enter the review token.');
    input.focus();
    return;
  }
  token.set(value);
  run(start);
});
byId('signout').addEventListener('click', () => showSignIn('Signed out.'));
byId('refresh').addEventListener('click', () => run(() => queue.reload(true)));
byId('help-open').addEventListener('click', () => byId<HTMLDialogElement>('help-dialog').showModal());
byId('back').addEventListener('click', closeItem);
byId('lookup-form').addEventListener('submit', (event) => {
  event.preventDefault();
  run(() => openItem(byId<HTMLInputElement>('lookup-id').value.trim(), true));
});
setInterval(() => queue.refreshTimes(), 30_000);

if (token.get()) run(start);
