/**
 * The review page: a static HTML shell with a small inline script that calls
 * the review API (src/http/review-api.ts). See docs/review.md.
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
 * with textContent only, never innerHTML; the Content-Security-Policy allows
 * only this response's script and style (by nonce), and Trusted Types make
 * any HTML-parsing sink throw, so a slip in the script fails loudly rather
 * than running markup from the data. URLs are shown as text, not links.
 */

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
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; }
main { max-width: 62rem; margin: 0 auto; padding: 1rem; }
h1, h2, h3, h4, p, dt, dd, li, code, pre { overflow-wrap: anywhere; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; }
h2 { font-size: 1.3rem; margin-top: 1.5rem; }
h3 { font-size: 1.1rem; margin: 1rem 0 .25rem; }
h4 { font-size: 1rem; margin: .75rem 0 .25rem; }
[tabindex="-1"]:focus { outline: none; }
:focus-visible, [tabindex="-1"]:focus-visible { outline: 3px solid #1a5fb4; outline-offset: 2px; }
[hidden] { display: none !important; }
label { display: block; font-weight: 600; margin-top: .5rem; }
.hint { margin: .1rem 0 .25rem; font-size: .9rem; }
input, textarea, button { font: inherit; }
input, textarea { display: block; width: 100%; max-width: 40rem; padding: .4rem; border: 1px solid #767676; border-radius: 4px; }
button { padding: .4rem .9rem; margin: .5rem .5rem 0 0; border: 1px solid #767676; border-radius: 4px; cursor: pointer; }
.status { min-height: 1.5rem; margin: .5rem 0; padding: .25rem .5rem; border-left: 4px solid transparent; }
.status:not(:empty) { border-left-color: #1a5fb4; }
.cards { list-style: none; padding: 0; margin: 0; display: grid; gap: .75rem; }
.cards > li { border: 1px solid #888; border-radius: 6px; padding: .75rem; }
.cards h3 { margin-top: 0; }
dl { display: grid; grid-template-columns: minmax(7rem, max-content) minmax(0, 1fr); gap: .15rem 1rem; margin: .25rem 0; }
dt { font-weight: 600; }
dd { margin: 0; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; font-family: ui-monospace, monospace; margin: 0; padding: .75rem; border: 1px solid #888; border-radius: 4px; max-height: 60vh; overflow: auto; }
.note { white-space: pre-wrap; }
.results, .history { padding-left: 1.25rem; }
.results li, .history li { margin-bottom: .5rem; }
.toolbar { display: flex; flex-wrap: wrap; gap: 0 .5rem; }
.inline-form { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 0 .5rem; }
.inline-form > div { flex: 0 1 40rem; min-width: 0; }
@media (max-width: 30rem) {
  dl { grid-template-columns: minmax(0, 1fr); }
  dd { margin-bottom: .35rem; }
}
`;

/* The client: plain ES2017, no HTML parsing of data anywhere (see the file comment). */
const SCRIPT = String.raw`
'use strict';
(function () {
  var TOKEN_KEY = 'cosci-review-token';
  var REVIEWER_KEY = 'cosci-review-reviewer';
  var byId = function (id) { return document.getElementById(id); };
  var shown = null;
  var busy = false;

  function SignedOut() {}

  function say(message) { byId('status').textContent = message; }

  function el(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  function fact(dl, term, value) { dl.append(el('dt', term), el('dd', value)); }
  function categories(list) { return list && list.length > 0 ? list.join(', ') : 'none'; }
  function confidence(n) { return typeof n === 'number' ? n.toFixed(2) : String(n); }
  function count(n) { return n === 1 ? '1 held hypothesis.' : n + ' held hypotheses.'; }
  function timeEl(iso) { var t = el('time', iso); t.dateTime = iso; return t; }

  function showSignIn(message) {
    sessionStorage.removeItem(TOKEN_KEY);
    shown = null;
    byId('app').hidden = true;
    byId('signin').hidden = false;
    if (message) say(message);
    byId('token').focus();
  }

  async function api(method, path, body) {
    var token = sessionStorage.getItem(TOKEN_KEY);
    if (!token) { showSignIn('Sign in with the review token.'); throw new SignedOut(); }
    var headers = { authorization: 'Bearer ' + token, accept: 'application/json' };
    var init = { method: method, headers: headers, cache: 'no-store', credentials: 'omit' };
    if (body !== undefined) { headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
    var response = await fetch(path, init);
    var data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (response.status === 401) { showSignIn('The token was refused. Sign in again.'); throw new SignedOut(); }
    if (!response.ok) {
      var problem = data && data.error ? data.error : { code: 'HTTP_' + response.status, message: 'the request failed' };
      var err = new Error(problem.message);
      err.code = problem.code;
      throw err;
    }
    return data;
  }

  function run(task) {
    return Promise.resolve().then(task).catch(function (err) {
      if (err instanceof SignedOut) return;
      say('Error' + (err && err.code ? ' (' + err.code + ')' : '') + ': ' + (err && err.message ? err.message : String(err)));
    });
  }

  function renderQueue(items) {
    var list = byId('queue');
    list.replaceChildren();
    byId('queue-empty').hidden = items.length > 0;
    items.forEach(function (item) {
      var li = el('li');
      var dl = el('dl');
      fact(dl, 'Hypothesis', item.hypothesisId);
      fact(dl, 'Revision', item.revision);
      fact(dl, 'State', item.state);
      fact(dl, 'Categories', categories(item.categories));
      fact(dl, 'Confidence', confidence(item.confidence));
      fact(dl, 'Degraded', item.degraded ? 'yes' : 'no');
      fact(dl, 'Held since', item.updatedAt);
      var open = el('button', 'Review ' + item.hypothesisId);
      open.type = 'button';
      open.addEventListener('click', function () { run(function () { return openItem(item.hypothesisId, true); }); });
      li.append(el('h3', item.title ? item.title : item.hypothesisId), dl, open);
      list.append(li);
    });
  }

  function renderEvidence(reviews) {
    var box = byId('evidence');
    box.replaceChildren();
    if (reviews.length === 0) { box.append(el('p', 'No review has cited evidence for this hypothesis.')); return; }
    reviews.forEach(function (r) {
      var part = el('div');
      part.append(el('h4', 'Review ' + r.reviewId + ', revision ' + r.revision));
      var dl = el('dl');
      fact(dl, 'Verified', r.verifiedAt);
      if (r.skipped) fact(dl, 'Verification', 'off in the configuration');
      var c = r.counts || {};
      fact(dl, 'Citations', 'ok ' + (c.ok || 0) + ', unverified ' + (c.unverified || 0) + ', fetch failed ' + (c.fetch_failed || 0));
      part.append(dl);
      var list = el('ul', null, 'results');
      (r.results || []).forEach(function (x) {
        var li = el('li');
        li.append(el('strong', x.status), document.createTextNode(x.reason ? ' (' + x.reason + ') ' : ' '), el('code', x.url));
        list.append(li);
      });
      part.append(list);
      box.append(part);
    });
  }

  function renderDecision(item) {
    var held = item.state === 'quarantined' || item.state === 'blocked';
    byId('decide-fields').hidden = !held;
    var closed = byId('decide-closed');
    closed.hidden = held;
    closed.textContent = held ? '' : item.decision
      ? 'Revision ' + item.revision + ' was ' + item.decision.decision + ' by ' + item.decision.by + ' at ' + item.decision.at + '. A decision is final for its revision.'
      : 'Revision ' + item.revision + ' is ' + item.state + ': nothing to decide.';
    if (held && !byId('reviewer').value) byId('reviewer').value = sessionStorage.getItem(REVIEWER_KEY) || '';
  }

  function renderHistory(entries) {
    var list = byId('history');
    list.replaceChildren();
    byId('history-empty').hidden = entries.length > 0;
    entries.forEach(function (e) {
      var li = el('li');
      var head = el('p');
      head.append(
        el('strong', e.type === 'hypothesis_confirmed' ? 'Confirmed' : 'Released'),
        document.createTextNode(' revision ' + e.revision + ' by '),
        el('span', e.by, 'who'),
        document.createTextNode(' at '),
        timeEl(e.at)
      );
      var why = el('p', null, 'note');
      why.append(el('strong', 'Why: '), el('span', e.note, 'why'));
      var verdict = el('p', 'Classifier verdict decided on: ' + e.overriddenAction + ', ' + categories(e.overriddenCategories) + ', confidence ' + confidence(e.overriddenConfidence));
      li.append(head, why, verdict);
      list.append(li);
    });
  }

  function renderItem(item) {
    shown = item;
    var v = item.verdict;
    var subject = item.subject || {};
    byId('detail').hidden = false;
    byId('detail-h').textContent = 'Hypothesis ' + item.hypothesisId;
    var facts = byId('facts');
    facts.replaceChildren();
    if (subject.title) fact(facts, 'Title', subject.title);
    fact(facts, 'Revision', item.revision);
    fact(facts, 'State', item.state);
    fact(facts, 'Classifier action', v.action);
    fact(facts, 'Categories', categories(v.categories));
    fact(facts, 'Confidence', confidence(v.confidence));
    fact(facts, 'Degraded', v.degraded ? 'yes' + (v.reason ? ' (' + v.reason + ')' : '') : 'no');
    if (v.refusal) fact(facts, 'Model refused', 'yes');
    fact(facts, 'Classified', item.updatedAt);
    if (subject.goalId) fact(facts, 'Goal', subject.goalId);
    if (subject.runId) fact(facts, 'Run', subject.runId);
    if (subject.agent) fact(facts, 'Agent', subject.agent);
    byId('rationale').textContent = v.rationale || '(none given)';
    byId('text').textContent = typeof subject.text === 'string' ? subject.text : '(no text kept: only a held revision keeps its text)';
    renderEvidence(item.evidence || []);
    renderDecision(item);
    renderHistory(item.history || []);
    window.history.replaceState(null, '', '#item=' + encodeURIComponent(item.hypothesisId));
  }

  async function loadQueue() {
    var data = await api('GET', 'api/items');
    renderQueue(data.items);
    return data.items.length;
  }

  async function openItem(id, focus) {
    var data = await api('GET', 'api/items/' + encodeURIComponent(id));
    renderItem(data.item);
    if (focus) byId('detail-h').focus();
  }

  async function decide(kind) {
    if (!shown || busy) return;
    if (!byId('decide-form').reportValidity()) return;
    var item = shown;
    var by = byId('reviewer').value;
    var verb = kind === 'released' ? 'release' : 'confirm';
    busy = true;
    byId('decide-form').setAttribute('aria-busy', 'true');
    try {
      say((kind === 'released' ? 'Releasing ' : 'Confirming ') + item.hypothesisId + '...');
      var result = await api('POST', 'api/items/' + encodeURIComponent(item.hypothesisId) + '/' + verb, {
        by: by,
        note: byId('note').value,
        revision: item.revision
      });
      sessionStorage.setItem(REVIEWER_KEY, by);
      byId('note').value = '';
      await openItem(item.hypothesisId, false);
      byId('history-h').focus();
      say((kind === 'released' ? 'Released ' : 'Confirmed ') + item.hypothesisId + ' revision ' + result.decision.revision +
        ' by ' + result.decision.by + '. The decision is in the audit history.');
      await loadQueue();
    } catch (err) {
      if (err && (err.code === 'REVIEW_ALREADY_DECIDED' || err.code === 'REVIEW_NOT_HELD')) {
        // Someone decided first, or a newer revision arrived: show what is there now, then the refusal.
        try { await openItem(item.hypothesisId, false); await loadQueue(); } catch (ignored) { /* the refusal is what to report */ }
      }
      throw err;
    } finally {
      busy = false;
      byId('decide-form').removeAttribute('aria-busy');
    }
  }

  async function start() {
    var held = await loadQueue();
    byId('signin').hidden = true;
    byId('app').hidden = false;
    say('Signed in. ' + count(held));
    var match = /^#item=(.+)$/.exec(window.location.hash);
    var id = null;
    if (match) { try { id = decodeURIComponent(match[1]); } catch (e) { id = null; } }
    if (id) await openItem(id, true);
    else byId('queue-h').focus();
  }

  byId('signin-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var input = byId('token');
    var token = input.value.trim();
    input.value = '';
    if (!token) { say('Enter the review token.'); input.focus(); return; }
    sessionStorage.setItem(TOKEN_KEY, token);
    run(start);
  });
  byId('signout').addEventListener('click', function () { showSignIn('Signed out.'); });
  byId('refresh').addEventListener('click', function () {
    run(async function () { say('Queue refreshed. ' + count(await loadQueue())); });
  });
  byId('lookup-form').addEventListener('submit', function (event) {
    event.preventDefault();
    run(function () { return openItem(byId('lookup-id').value.trim(), true); });
  });
  byId('decide-form').addEventListener('submit', function (event) {
    // Enter in the name field must not decide anything: the person picks a button.
    event.preventDefault();
    say('Choose Release or Confirm.');
  });
  byId('release').addEventListener('click', function () { run(function () { return decide('released'); }); });
  byId('confirm').addEventListener('click', function () { run(function () { return decide('confirmed'); }); });

  if (sessionStorage.getItem(TOKEN_KEY)) run(start);
})();
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
<main>
<h1>Held hypotheses</h1>
<p id="status" class="status" role="status" aria-live="polite"></p>

<section id="signin" aria-labelledby="signin-h">
<h2 id="signin-h">Sign in</h2>
<form id="signin-form">
<label for="token">Review token</label>
<p id="token-hint" class="hint">Kept in this browser tab only, and sent with each request; never in the address or a cookie.</p>
<input id="token" name="token" type="password" autocomplete="off" spellcheck="false" required aria-describedby="token-hint">
<button type="submit">Sign in</button>
</form>
</section>

<div id="app" hidden>
<div class="toolbar">
<button type="button" id="refresh">Refresh queue</button>
<button type="button" id="signout">Sign out</button>
</div>

<section aria-labelledby="queue-h">
<h2 id="queue-h" tabindex="-1">Queue</h2>
<p id="queue-empty" hidden>No held hypotheses.</p>
<ul id="queue" class="cards"></ul>
</section>

<section aria-labelledby="lookup-h">
<h2 id="lookup-h">Look up a hypothesis</h2>
<form id="lookup-form" class="inline-form">
<div>
<label for="lookup-id">Hypothesis id</label>
<input id="lookup-id" name="id" required autocomplete="off" spellcheck="false">
</div>
<button type="submit">Show</button>
</form>
</section>

<section id="detail" aria-labelledby="detail-h" hidden>
<h2 id="detail-h" tabindex="-1">Hypothesis</h2>
<dl id="facts"></dl>
<h3>Classifier rationale</h3>
<p id="rationale" class="note"></p>
<h3>Text, exactly as submitted</h3>
<pre id="text" class="text"></pre>
<h3>Cited evidence</h3>
<div id="evidence"></div>
<h3 id="decide-h">Decision</h3>
<form id="decide-form" aria-labelledby="decide-h">
<p id="decide-closed" hidden></p>
<div id="decide-fields">
<p class="hint">Release lets this revision through; Confirm keeps it withheld. A decision is final for its revision.</p>
<label for="reviewer">Your name</label>
<p id="reviewer-hint" class="hint">Letters, digits, spaces and . _ @ - only.</p>
<input id="reviewer" name="by" required maxlength="100" autocomplete="name" aria-describedby="reviewer-hint">
<label for="note">Why (a note for the audit trail)</label>
<textarea id="note" name="note" required maxlength="2000" rows="3"></textarea>
<button type="button" id="release">Release</button>
<button type="button" id="confirm">Confirm</button>
</div>
</form>
<h3 id="history-h" tabindex="-1">Audit history</h3>
<p id="history-empty">No decisions yet.</p>
<ol id="history" class="history"></ol>
</section>
</div>
</main>
<script nonce="${nonce}">${SCRIPT}</script>
</body>
</html>
`;
}
