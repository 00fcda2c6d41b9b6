/**
 * The review page: a static HTML shell, its style, and its script (written
 * in TypeScript in src/http/review-page/, bundled: src/http/review-page-script.ts)
 * inline under a fresh nonce. The script calls the review API
 * (src/http/review-api.ts). See docs/review.md.
 *
 * How the token reaches the API. A browser sends no bearer header when it
 * navigates, and a cookie would be sent on every request, cross-site ones
 * included, which brings CSRF and a cookie's lifetime with it. So the page
 * carries no data and needs no token: it asks for the token once, keeps it in
 * sessionStorage (this tab only, gone when the tab closes), and sends it in
 * the Authorization header of each fetch. Another site can make the browser
 * load the page but cannot read it or send the header, and the token never
 * appears in a URL, a cookie, a log line or the HTML.
 *
 * Why the text is shown as text. A hypothesis, its title, the reviewer names
 * and notes and the cited URLs all come from agents or people the page does
 * not trust. The script builds every node with createElement and sets data
 * with textContent only, never innerHTML (src/http/review-page/dom.ts), and
 * isolates it so that direction marks in it cannot reorder the page around
 * it; the Content-Security-Policy allows
 * only this response's script and style (by nonce), and Trusted Types make
 * any HTML-parsing sink throw, so a slip in the script fails loudly rather
 * than running markup from the data. URLs are shown as text, not links.
 */

import { reviewPageScript } from './review-page-script.js';

/** Headers of the page: a per-response nonce for its one script and one style, nothing else loads. */
export function reviewPageHeaders(nonce: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      "connect-src 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "require-trusted-types-for 'script'",
      "trusted-types 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}

const STYLE = String.raw`
:root {
  color-scheme: light;
  --fg: #1b1b1f; --muted: #595963; --line: #c9c9d1; --soft: #f3f3f6; --bg: #ffffff;
  --accent: #1a5fb4; --accent-soft: #e6effa; --danger: #a51d2d;
  font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.45; color: var(--fg); background: var(--bg);
}
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; font-size: 15px; }
h1, h2, h3, p, dt, dd, li, code, pre, td { overflow-wrap: anywhere; }
h1 { font-size: 1.15rem; margin: 0; }
h2 { font-size: 1.2rem; margin: 0; }
h3 { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 1.1rem 0 .35rem; }
p { margin: .25rem 0; }
[hidden] { display: none !important; }
[tabindex="-1"]:focus { outline: none; }
:focus-visible, [tabindex="-1"]:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.u { unicode-bidi: isolate; }
.muted, .small { color: var(--muted); }
.small { font-size: .8rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
input, textarea, select, button { font: inherit; color: inherit; }
input, textarea { display: block; width: 100%; padding: .35rem .45rem; border: 1px solid #767676; border-radius: 4px; background: var(--bg); }
select { padding: .25rem .3rem; border: 1px solid #767676; border-radius: 4px; background: var(--bg); max-width: 100%; }
button { padding: .3rem .75rem; border: 1px solid #767676; border-radius: 4px; background: var(--soft); cursor: pointer; }
button:hover { background: #e4e4ea; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.danger { background: var(--danger); border-color: var(--danger); color: #fff; }
button.chosen { box-shadow: 0 0 0 3px #f5c211; }
label { font-weight: 600; font-size: .85rem; }
kbd { font-family: ui-monospace, monospace; font-size: .8rem; border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 3px; padding: 0 .3rem; background: var(--soft); }

.bar { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem 1rem; padding: .45rem 1rem; border-bottom: 1px solid var(--line); background: var(--soft); }
.bar .spacer { flex: 1; }
.bar button { padding: .2rem .6rem; }
.live { font-size: .8rem; color: var(--muted); }
.live::before { content: "\25CF  "; color: #8a8a8a; }
.live[data-state="live"]::before { color: #26a269; }
.live[data-state="reconnecting"]::before { color: #c64600; }
.status { margin: 0; padding: .3rem 1rem; min-height: 1.9rem; font-size: .9rem; border-bottom: 1px solid var(--line); }
.status:empty { border-bottom-color: transparent; }

#signin { max-width: 30rem; margin: 2rem auto; padding: 0 1rem; }
#signin button { margin-top: .6rem; }
.hint { font-size: .85rem; color: var(--muted); margin: .1rem 0 .3rem; }

.workbench { display: grid; grid-template-columns: minmax(0, 1.3fr) minmax(0, 1fr); height: calc(100vh - 5.3rem); }
.pane { overflow: auto; min-height: 0; }
.queue-pane { border-right: 1px solid var(--line); }
.queue-pane { display: flex; flex-direction: column; overflow: hidden; }
.queue-head { flex: none; background: var(--bg); padding: .5rem .75rem .35rem; border-bottom: 1px solid var(--line); }
.queue-scroll { flex: 1 1 auto; min-height: 0; overflow: auto; }
.filters { display: flex; flex-wrap: wrap; gap: .35rem .45rem; align-items: end; font-size: .8rem; }
.filters select, .filters button { padding: .15rem .3rem; }
.filters > div { display: flex; flex-direction: column; min-width: 0; }
.filters label { font-size: .75rem; color: var(--muted); }
.filters .search { flex: 1 1 100%; }
.filters input[type="search"] { padding: .15rem .35rem; }
.summary-line { display: flex; flex-wrap: wrap; align-items: center; gap: .2rem .6rem; margin-top: .4rem; font-size: .8rem; }
.summary-line .spacer { flex: 1; }
.summary-line select, .summary-line button { padding: .1rem .3rem; }
.summary-line h2 { font-size: .95rem; }
#queue-summary { font-size: .8rem; color: var(--muted); }
.new-held { margin: .35rem 0 0; }
.queue-actions { display: flex; flex-wrap: wrap; gap: .4rem; margin-top: .35rem; font-size: .8rem; }
.queue-actions:empty { display: none; }
.queue-actions button { padding: .1rem .5rem; }
.bulk { display: inline-flex; flex-wrap: wrap; gap: .3rem; align-items: center; }
.bulk-list { max-height: 40vh; overflow: auto; padding-left: 1.4rem; font-size: .85rem; }
.claim-row { font-size: .85rem; display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: 0 0 .4rem; }
.claim-row button { padding: .1rem .5rem; }
.claimed { color: #5c3d00; }
.pick-label { flex: none; display: inline-flex; align-items: center; cursor: pointer; }
.pick { flex: none; display: inline-block; width: auto; margin: .15rem .1rem 0 0; }
.new-held button { background: #fff4d6; border-color: #b07d00; }

table.queue { width: 100%; border-collapse: collapse; table-layout: fixed; font-size: .85rem; }
.queue thead th { position: sticky; top: 0; background: var(--soft); text-align: left; font-size: .72rem; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); padding: .3rem .5rem; border-bottom: 1px solid var(--line); }
.queue th.c-verdict { width: 6.6rem; } .queue th.c-cats { width: 8.4rem; } .queue th.c-conf { width: 3.2rem; } .queue th.c-held { width: 5.2rem; }
.queue td { padding: .35rem .5rem; border-bottom: 1px solid #e3e3e8; vertical-align: top; }
.queue tbody tr { cursor: pointer; scroll-margin-top: 2rem; }
.queue tbody tr:hover { background: #f7f7fa; }
.queue tbody tr:focus-within { background: var(--accent-soft); }
.queue tbody tr[aria-current="true"] { background: var(--accent-soft); box-shadow: inset 4px 0 0 var(--accent); }
.queue tbody tr.decided { opacity: .6; }
.queue tbody tr.decided .title { text-decoration: line-through; }
.c-main > * { display: block; }
.c-main > .head { display: flex; gap: .5rem; align-items: baseline; min-width: 0; }
.open { all: unset; flex: 1 1 auto; min-width: 0; cursor: pointer; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.open:hover { background: none; text-decoration: underline; }
.open:focus-visible { outline: 3px solid var(--accent); outline-offset: 1px; }
.meta { flex: 0 0 auto; max-width: 40%; font-size: .75rem; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.line { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.why { color: var(--muted); font-style: italic; }
.why .label { font-style: normal; }
.c-verdict .small, .c-cats .small { display: block; line-height: 1.25; margin-top: .15rem; }
.num { font-variant-numeric: tabular-nums; }
.more { margin: .6rem .75rem; }
.lookup { padding: .75rem; border-top: 1px solid var(--line); display: flex; flex-wrap: wrap; align-items: end; gap: .4rem; }
.lookup > div { flex: 1 1 12rem; }

.badge { display: inline-block; font-size: .72rem; font-weight: 600; padding: .05rem .4rem; border-radius: 999px; border: 1px solid transparent; white-space: nowrap; }
.s-quarantined { background: #fff1cc; color: #5c3d00; border-color: #e0b341; }
.s-blocked { background: #fde2e1; color: #7d1a11; border-color: #e6908a; }
.s-conflict { background: #f3e3ff; color: #4b1670; border-color: #b48ad6; }
.s-released { background: #dcf2e2; color: #17502a; border-color: #7fc493; }
.s-confirmed, .s-assessed { background: #e9e9ef; color: #33334d; border-color: #b4b4c4; }
.unclassified { background: #f1e8fd; color: #4b2a85; border: 1px dashed #7d57c1; }
.cats { font-weight: 600; }
.degraded { color: #4b2a85; }

.detail-pane { padding: .75rem 1.1rem 2rem; }
.detail-empty { color: var(--muted); margin-top: 2rem; text-align: center; }
.back { display: none; margin-bottom: .5rem; }
#detail-meta { font-size: .85rem; color: var(--muted); margin: .2rem 0 .4rem; }
.item-notice { background: #fff1cc; border: 1px solid #e0b341; padding: .4rem .6rem; border-radius: 4px; }
.last-decision { background: #dcf2e2; border: 1px solid #7fc493; padding: .4rem .6rem; border-radius: 4px; margin-bottom: .6rem; font-size: .85rem; }
dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .1rem .9rem; margin: .2rem 0; font-size: .9rem; }
dt { font-weight: 600; color: var(--muted); }
dd { margin: 0; }
dl.compact { font-size: .85rem; }
.rationale { background: var(--soft); border-left: 3px solid var(--line); padding: .35rem .6rem; margin: 0; white-space: pre-wrap; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; font-family: ui-monospace, "SFMono-Regular", monospace; font-size: .82rem; margin: 0; padding: .6rem; border: 1px solid var(--line); border-radius: 4px; max-height: 45vh; overflow: auto; background: #fcfcfd; }
.decide { border: 1px solid var(--line); border-radius: 6px; padding: .6rem .75rem; margin-top: .9rem; background: #fafafc; }
.decide h3 { margin-top: 0; }
.decide-row { display: grid; grid-template-columns: minmax(0, 14rem) minmax(0, 1fr); gap: .5rem; }
.decide-buttons { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .5rem; align-items: center; }
.decide-buttons .hint { margin: 0; }
.citations { padding-left: 1.4rem; margin: .3rem 0; }
.citation { margin-bottom: .6rem; }
.citation-status { font-size: .85rem; }
.c-ok { background: #dcf2e2; color: #17502a; }
.badge.c-unverified { background: #fff1cc; color: #5c3d00; }
.badge.c-fetch_failed { background: #fde2e1; color: #7d1a11; }
.citation-injection { font-size: .85rem; margin: .2rem 0; }
.badge.c-injection { background: #f3e3ff; color: #4b1870; }
.attack-text { display: block; overflow-wrap: anywhere; }
.attack-span { background: #f3e3ff; color: #4b1870; outline: 1px solid #b27fd6; border-radius: 2px; padding: 0 .1rem; }
.attack-where { margin: .15rem 0 0; color: var(--muted); }
.near-what { margin: 0 0 .15rem; }
.near-passage { display: block; overflow-wrap: anywhere; }
.near-excerpt { background: #fde2e1; color: #7d1a11; text-decoration-thickness: 2px; border-radius: 2px; padding: 0 .1rem; }
.near-page { background: #fff1cc; color: #5c3d00; outline: 1px solid #e0b341; border-radius: 2px; padding: 0 .1rem; }
.near-legend { margin: .1rem 0 0; color: var(--muted); }
.near-changes { margin: .2rem 0 0; padding-left: 1.1rem; }
.claim-what { margin: 0 0 .15rem; }
.badge.s-supported { background: #dcf2e2; color: #17502a; }
.badge.s-partially_supported, .badge.s-unclear { background: #fff1cc; color: #5c3d00; }
.badge.s-not_supported, .badge.s-contradicted { background: #fde2e1; color: #7d1a11; }
.claim-sentences { margin: .2rem 0 0; padding-left: 1.1rem; }
.claim-why { overflow-wrap: anywhere; }
li.citation { background: none; }
.review-head { font-size: .85rem; }
.url { font-size: .8rem; }
.history, .revisions { padding-left: 1.2rem; margin: .2rem 0; font-size: .9rem; }
.history li, .revisions li { margin-bottom: .45rem; }
.note { white-space: pre-wrap; }

dialog { max-width: min(42rem, calc(100vw - 2rem)); border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; }
dialog::backdrop { background: rgba(20, 20, 30, .45); }
dialog .text { max-height: 30vh; }
dialog menu { display: flex; justify-content: flex-end; gap: .5rem; padding: 0; margin: 1rem 0 0; }
.keys { border-collapse: collapse; margin: .5rem 0; }
.keys td, .keys th { padding: .25rem .75rem .25rem 0; text-align: left; vertical-align: top; }
.keys td:first-child { white-space: nowrap; }

@media (max-width: 60rem) {
  .workbench { display: block; height: auto; }
  .pane, .queue-pane, .queue-scroll { overflow: visible; }
  .queue-pane { display: block; border-right: 0; }
  .workbench.item-open .queue-pane { display: none; }
  .workbench:not(.item-open) .detail-pane { display: none; }
  .back { display: inline-block; }
}
@media (max-width: 40rem) {
  .queue thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  table.queue, .queue tbody { display: block; }
  .queue tbody tr { display: grid; grid-template-columns: auto auto minmax(0, 1fr) auto; gap: .15rem .5rem; padding: .45rem .6rem; border-bottom: 1px solid #e3e3e8; }
  .queue td { display: block; padding: 0; border: 0; }
  .queue td.c-main { grid-column: 1 / -1; }
  .queue td.c-held { text-align: right; }
  .c-verdict .small, .c-cats .small { display: inline; margin-left: .3rem; }
  .filters > div { flex: 1 1 45%; }
  .decide-row { grid-template-columns: minmax(0, 1fr); }
  dl { gap: .1rem .6rem; }
  .bar { padding: .4rem .6rem; }
  #help-open { display: none; }
  .bar .live { order: 3; flex-basis: 100%; }
  .queue td.c-conf { text-align: right; padding-right: .25rem; }
}
`;

/** The page. `nonce` must be fresh per response and match reviewPageHeaders. */
export function renderReviewPage(nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Held hypotheses: cosci-safety review</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<header class="bar">
<h1>Held hypotheses</h1>
<span id="live" class="live" data-state="off"></span>
<span class="spacer"></span>
<button type="button" id="help-open" aria-keyshortcuts="?">Keyboard shortcuts <kbd>?</kbd></button>
<button type="button" id="signout" hidden>Sign out</button>
</header>
<main>
<p id="status" class="status" role="status" aria-live="polite"></p>

<section id="signin" aria-labelledby="signin-h">
<h2 id="signin-h">Sign in</h2>
<form id="signin-form">
<label for="token">Review token</label>
<p id="token-hint" class="hint">Kept in this browser tab only, and sent with each request; never in the address or a cookie.</p>
<input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required aria-describedby="token-hint">
<button type="submit" class="primary">Sign in</button>
</form>
</section>

<div id="app" class="workbench" hidden>
<section id="queue-pane" class="pane queue-pane" aria-labelledby="queue-h">
<div class="queue-head">
<form id="filters" class="filters" role="search" aria-label="Filter the queue">
<div class="search"><label for="f-q">Search id, title, text</label><input id="f-q" type="search" maxlength="200" autocomplete="off" spellcheck="false"></div>
<div><label for="f-state">State</label><select id="f-state" aria-keyshortcuts="/"><option value="">All</option><option value="quarantined">Quarantined</option><option value="blocked">Blocked</option><option value="conflict">In conflict</option></select></div>
<div><label for="f-category">Category</label><select id="f-category"><option value="">All</option></select></div>
<div><label for="f-degraded">Classification</label><select id="f-degraded"><option value="">All</option><option value="false">Clean</option><option value="true">Degraded</option></select></div>
<div><label for="f-age">Held</label><select id="f-age"><option value="">Any time</option><option value="under_1h">Under 1 h ago</option><option value="over_1h">Over 1 h ago</option><option value="over_1d">Over 1 day ago</option><option value="over_7d">Over 7 days ago</option></select></div>
</form>
<div class="summary-line"><h2 id="queue-h" tabindex="-1">Queue</h2><span id="queue-summary"></span>
<span class="spacer"></span>
<label for="f-order" class="visually-hidden">Order</label><select id="f-order" form="filters"><option value="oldest">Oldest first</option><option value="newest">Newest first</option><option value="most_confident">Most confident first</option><option value="least_confident">Least confident first</option></select>
<button type="button" id="refresh">Refresh</button></div>
<p id="new-held" class="new-held" hidden><button type="button" id="show-new"></button></p>
<div id="queue-actions" class="queue-actions"><button type="button" id="select-all">Select all shown</button><span id="bulk" class="bulk" hidden><span id="bulk-count"></span> <button type="button" id="bulk-release" class="danger">Release selected…</button> <button type="button" id="bulk-confirm">Confirm selected…</button> <button type="button" id="bulk-clear">Clear selection</button></span><button type="button" id="reclassify" hidden>Re-classify degraded…</button></div>
</div>
<div id="queue-scroll" class="queue-scroll">
<table id="queue" class="queue" aria-labelledby="queue-h">
<thead><tr><th scope="col" class="c-main">Hypothesis, text and rationale</th><th scope="col" class="c-verdict">State</th><th scope="col" class="c-cats">Categories</th><th scope="col" class="c-conf">Conf.</th><th scope="col" class="c-held">Held</th></tr></thead>
<tbody id="queue-rows"></tbody>
</table>
<p id="queue-empty" class="muted more" hidden>No held hypotheses match these filters.</p>
<button type="button" id="more" class="more" hidden>Load more</button>
<form id="lookup-form" class="lookup">
<div>
<label for="lookup-id">Look up a hypothesis by id (decided ones too)</label>
<input id="lookup-id" name="id" required autocomplete="off" spellcheck="false">
</div>
<button type="submit">Show</button>
</form>
</div>
</section>

<section id="detail" class="pane detail-pane" aria-labelledby="detail-h">
<div id="last-decision" class="last-decision" tabindex="-1" hidden><strong>Decided: </strong><span id="last-decision-text"></span></div>
<p id="detail-empty" class="detail-empty">Move through the queue with <kbd>j</kbd> and <kbd>k</kbd>, and open an item with <kbd>Enter</kbd>.</p>
<div id="detail-body" hidden>
<button type="button" id="back" class="back">Back to the queue</button>
<h2 id="detail-h" tabindex="-1">Hypothesis</h2>
<p id="detail-meta"></p>
<p id="item-notice" class="item-notice" hidden></p>
<h3>Verdict</h3>
<dl id="facts"></dl>
<h3>Classifier rationale</h3>
<p id="rationale" class="rationale"></p>
<form id="decide-form" class="decide" aria-labelledby="decide-h">
<h3 id="decide-h">Decision</h3>
<p class="claim-row"><span id="claim-line"></span> <button type="button" id="claim">Claim</button></p>
<p id="decide-closed" hidden></p>
<div id="decide-fields">
<div class="decide-row">
<div><label for="reviewer">Your name</label>
<input id="reviewer" name="by" required maxlength="100" autocomplete="name" aria-describedby="reviewer-hint">
<p id="reviewer-hint" class="hint">Letters, digits, spaces and . _ @ - only.</p></div>
<div><label for="note">Why (a note for the audit trail)</label>
<textarea id="note" name="note" required maxlength="2000" rows="2"></textarea></div>
</div>
<div class="decide-buttons">
<button type="button" id="release" class="danger" aria-keyshortcuts="r">Release…</button>
<button type="button" id="confirm" class="primary" aria-keyshortcuts="c">Confirm</button>
<p class="hint">Release shows it to readers; Confirm keeps it withheld. Final for this revision.</p>
</div>
</div>
</form>
<h3 id="text-h">Text, exactly as submitted</h3>
<pre id="text" class="text u" dir="auto" tabindex="0" aria-labelledby="text-h"></pre>
<section id="conflicts-part" hidden aria-labelledby="conflicts-h">
<h3 id="conflicts-h">Published again with other text</h3>
<p class="hint">Other text arrived under a revision that was already judged. It was never classified; it stays withheld. Confirm to close it; only a new revision of the text can be shown.</p>
<ol id="conflicts" class="revisions"></ol>
</section>
<h3>Cited evidence</h3>
<div id="evidence"></div>
<h3>Earlier revisions</h3>
<p id="revisions-empty" class="muted">None: this is the first revision.</p>
<ol id="revisions" class="revisions" reversed></ol>
<h3 id="history-h" tabindex="-1">Audit history</h3>
<p id="history-empty" class="muted">No decisions yet.</p>
<ol id="history" class="history"></ol>
</div>
</section>
</div>
</main>

<dialog id="release-dialog" aria-labelledby="release-h">
<form method="dialog">
<h2 id="release-h">Release to readers?</h2>
<p id="release-what"></p>
<pre id="release-text" class="text u" dir="auto"></pre>
<p id="release-verdict"></p>
<p id="release-note" class="note"></p>
<menu>
<button type="submit" id="release-cancel" value="cancel">Cancel</button>
<button type="submit" id="release-go" value="release" class="danger">Release to readers</button>
</menu>
</form>
</dialog>

<dialog id="bulk-dialog" aria-labelledby="bulk-h">
<form method="dialog">
<h2 id="bulk-h">Decide the selection?</h2>
<p id="bulk-what"></p>
<p id="bulk-claims" class="item-notice" hidden></p>
<ol id="bulk-list" class="bulk-list"></ol>
<div class="decide-row">
<div><label for="bulk-by">Decided by</label>
<input id="bulk-by" name="by" required maxlength="100" autocomplete="name"></div>
<div><label for="bulk-note">Note for each audit entry</label>
<textarea id="bulk-note" name="note" required maxlength="2000" rows="2"></textarea></div>
</div>
<menu>
<button type="submit" id="bulk-cancel" value="cancel" formnovalidate>Cancel</button>
<button type="submit" id="bulk-go" value="go" class="danger">Decide</button>
</menu>
</form>
</dialog>

<dialog id="claimed-dialog" aria-labelledby="claimed-h">
<form method="dialog">
<h2 id="claimed-h">Another reviewer is on it</h2>
<p id="claimed-what"></p>
<p>Decide anyway? They will see it decided.</p>
<menu>
<button type="submit" id="claimed-cancel" value="cancel">Cancel</button>
<button type="submit" id="claimed-go" value="go" class="danger">Decide anyway</button>
</menu>
</form>
</dialog>

<dialog id="reclassify-dialog" aria-labelledby="reclassify-h">
<form method="dialog">
<h2 id="reclassify-h">Classify the degraded verdicts again?</h2>
<p id="reclassify-what"></p>
<label for="reclassify-by">Asked by (for each audit entry)</label>
<input id="reclassify-by" name="by" required maxlength="100" autocomplete="name">
<menu>
<button type="submit" id="reclassify-cancel" value="cancel" formnovalidate>Cancel</button>
<button type="submit" id="reclassify-go" value="go" class="primary">Re-classify</button>
</menu>
</form>
</dialog>

<dialog id="help-dialog" aria-labelledby="help-h">
<form method="dialog">
<h2 id="help-h">Keyboard shortcuts</h2>
<table class="keys">
<tbody>
<tr><td><kbd>j</kbd> / <kbd>k</kbd></td><td>next / previous item in the queue</td></tr>
<tr><td><kbd>Enter</kbd></td><td>open the item</td></tr>
<tr><td><kbd>r</kbd></td><td>start releasing the open item: write the note, then <kbd>Ctrl</kbd>+<kbd>Enter</kbd>; you are asked to confirm</td></tr>
<tr><td><kbd>c</kbd></td><td>start confirming the open item (it stays withheld): write the note, then <kbd>Ctrl</kbd>+<kbd>Enter</kbd></td></tr>
<tr><td><kbd>/</kbd></td><td>go to the filters</td></tr>
<tr><td><kbd>Esc</kbd></td><td>drop the draft (the action started and the note); else back to the queue</td></tr>
<tr><td><kbd>?</kbd></td><td>this list</td></tr>
</tbody>
</table>
<p class="hint">Keys act only when the cursor is not in a field.</p>
<menu><button type="submit" class="primary">Close</button></menu>
</form>
</dialog>
<script nonce="${nonce}">${reviewPageScript()}</script>
</body>
</html>
`;
}
