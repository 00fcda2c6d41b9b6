/**
 * Evaluation of citation verification on a folder of real pages:
 *
 *   npm run eval:citations -- <pages-dir> [--fetch-each] [--others N] [--seed S] [--no-docs]
 *
 * <pages-dir> holds one folder per page, NAME/source.html (the page as served)
 * and NAME/expected.html (the article text a reader sees). A loopback server
 * serves each source.html at /NAME/ as `text/html; charset=utf-8`, and the
 * verifier built from the configuration (allow-listing `localhost`, no Redis)
 * checks excerpts taken from the paragraphs of expected.html, so the whole
 * path runs: undici, the address guards, charset decoding, HTML to text,
 * normalisation and matching.
 *
 * 1. Recall: every paragraph of expected.html, whole and (when longer) its
 *    first 200 characters, cited against its own page, must verify `ok`.
 * 2. False accepts: excerpts of other pages, and true excerpts with one word
 *    or one number changed, must not verify `ok`.
 *
 * Each page's excerpts go to `verify` as one review (at most MAX_EVIDENCE
 * entries). By default a review fetches each page once, as the worker's page
 * cache does; `--fetch-each` uses `buildVerifier` exactly as the one-off
 * `verify` command does, which fetches the page again for every entry
 * (several times slower). Either way the text is extracted in the parsing
 * threads built from the configuration, as in the worker.
 *
 * Prints the figures and the misses, writes the `## Measured` section at the
 * end of docs/citations.md (replaced on each run), and exits 1 when recall is
 * under 99.5% or anything false is accepted, 2 on a usage error.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'cheerio/slim';
import { buildParsePool, buildVerifier, fetchOptionsFrom } from '../src/runtime/builders.js';
import type { PageCache } from '../src/citations/page-cache.js';
import type { PageText } from '../src/citations/page-text.js';
import type { CitationResult } from '../src/contracts/results.js';
import { createVerifier, type Verifier } from '../src/citations/verifier.js';
import { ConfigSchema } from '../src/config/schema.js';
import { MAX_EVIDENCE, MAX_EXCERPT_CHARS, type Evidence } from '../src/contracts/payloads.js';
import { HostLimiter } from '../src/fetcher/fetch-page.js';
import { htmlToText, matchExcerpt, normalizeForMatch } from '../src/safety/citations/index.js';
import {
  describeMachine,
  formatMarkdown,
  markdownTable,
  percent,
  runDate,
  textTable,
  writeTrailingSection,
} from './machine.js';
import { commandArgs } from './command-args.js';
import { rng } from './random.js';

const DOC = fileURLToPath(new URL('../docs/citations.md', import.meta.url));
const RECALL_GOAL = 0.995;
/** Length of the opening slice taken from a longer paragraph. */
const SLICE = 200;
/** Foreign and changed excerpts are at least this long once normalised. */
const MIN_NEGATIVE = 40;
/** Excerpts taken from each page to cite against other pages. */
const FOREIGN_PER_PAGE = 8;

const USAGE = 'usage: npm run eval:citations -- <pages-dir> [--fetch-each] [--others N] [--seed S] [--no-docs]';

// ---------------------------------------------------------------- arguments

const args = commandArgs(
  'eval:citations',
  [USAGE, '       <pages-dir> holds NAME/source.html and NAME/expected.html for each page'],
  {
    allowPositionals: true,
    options: {
      'fetch-each': { type: 'boolean', default: false },
      others: { type: 'string', default: '3' },
      seed: { type: 'string', default: '20240601' },
      'no-docs': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  },
);
const usage: (message: string) => never = args.usage;
if (args.positionals.length !== 1) usage('give exactly one folder of pages');
const OTHERS = Number(args.values.others);
const SEED = Number(args.values.seed);
const FETCH_EACH = args.values['fetch-each'];
if (!Number.isSafeInteger(OTHERS) || OTHERS < 1)
  usage(`--others must be a positive whole number, got ${args.values.others}`);
if (!Number.isSafeInteger(SEED)) usage(`--seed must be a whole number, got ${args.values.seed}`);

// npm runs scripts from the package folder; a relative path is meant from where npm was called.
const given = args.positionals[0]!;
const pagesDir = path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
if (!existsSync(pagesDir) || !statSync(pagesDir).isDirectory()) {
  usage(`folder of pages not found: ${pagesDir} (given as '${given}')`);
}

// ---------------------------------------------------------------- corpus

interface Page {
  name: string;
  source: Buffer;
  /** expected.html as a reader sees it, normalised for matching. */
  expected: string;
  /** The paragraphs of expected.html as a reader sees them, non-empty. */
  paragraphs: string[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const prepStarted = performance.now();
const pages: Page[] = [];
const notUtf8: string[] = [];
for (const name of readdirSync(pagesDir).sort()) {
  const dir = path.join(pagesDir, name);
  const sourceFile = path.join(dir, 'source.html');
  const expectedFile = path.join(dir, 'expected.html');
  if (!existsSync(sourceFile) || !existsSync(expectedFile)) continue;
  const source = readFileSync(sourceFile);
  try {
    utf8.decode(source);
  } catch {
    notUtf8.push(name);
  }
  const expectedHtml = readFileSync(expectedFile, 'utf8');
  const $ = load(expectedHtml);
  const paragraphs = $('p')
    .toArray()
    .map((el) => htmlToText($.html(el)))
    .filter((text) => normalizeForMatch(text) !== '');
  pages.push({ name, source, expected: normalizeForMatch(htmlToText(expectedHtml)), paragraphs });
}
if (pages.length < 2) usage(`${pagesDir} holds ${pages.length} page folder(s) with source.html and expected.html`);
const byName = new Map(pages.map((p) => [p.name, p]));

const random = rng(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
function shuffled<T>(xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

// ---------------------------------------------------------------- excerpts

type Kind = 'paragraph' | 'opening' | 'foreign' | 'word' | 'number';

interface Excerpt {
  /** The page the excerpt cites. */
  page: string;
  /** The page the excerpt was taken from. */
  from: string;
  kind: Kind;
  text: string;
  /** For a changed excerpt: what was changed. */
  change?: string;
}

/**
 * The first `n` characters of a paragraph, cut back where the cut would split
 * a surrogate pair, leave a combining mark behind, or fall inside a number (a
 * quote of "201" is not a quote of "2013", and the matcher says so).
 */
function opening(text: string, n: number): string {
  let end = n;
  const high = text.charCodeAt(end - 1);
  if (high >= 0xd800 && high <= 0xdbff) end--;
  if (/^\p{M}/u.test(text.slice(end))) {
    while (end > 0 && /\p{M}/u.test(text[end - 1]!)) end--;
    end--;
  }
  let slice = text.slice(0, end);
  if (/\d[.,]?$/.test(slice) && /^[.,-]?\d/.test(text.slice(end))) slice = slice.replace(/\S*$/, '');
  return slice;
}

/** Real words put in place of a word of the excerpt. */
const REPLACEMENTS = [
  'garden', 'window', 'silver', 'mountain', 'pencil', 'harbour', 'violet', 'thunder', 'blanket', 'marble',
  'lantern', 'orchard', 'falcon', 'meadow', 'copper', 'saddle', 'village', 'engine', 'basket', 'winter',
]; // prettier-ignore

const WORD = /(?<![\p{L}\p{M}\p{N}])\p{L}{4,}(?![\p{L}\p{M}\p{N}])/gu;
const NUMBER = /\d+/g;

/** The match of `re` in `text` whose centre is nearest the middle of the text. */
function nearestMiddle(text: string, re: RegExp): RegExpExecArray | undefined {
  const mid = text.length / 2;
  let best: RegExpExecArray | undefined;
  let bestDistance = Infinity;
  for (const m of text.matchAll(re)) {
    const distance = Math.abs(m.index + m[0].length / 2 - mid);
    if (distance < bestDistance) {
      best = m as RegExpExecArray;
      bestDistance = distance;
    }
  }
  return best;
}

function sameCase(word: string, like: string): string {
  if (like === like.toUpperCase() && like !== like.toLowerCase()) return word.toUpperCase();
  if (like[0] === like[0]!.toUpperCase() && like[0] !== like[0]!.toLowerCase())
    return word[0]!.toUpperCase() + word.slice(1);
  return word;
}

/** The excerpt with the word of 4+ letters nearest its middle replaced by another real word. */
function changeWord(text: string): { text: string; change: string } | undefined {
  const m = nearestMiddle(text, WORD);
  if (!m) return undefined;
  let word = pick(REPLACEMENTS);
  while (word === m[0].toLowerCase()) word = pick(REPLACEMENTS);
  word = sameCase(word, m[0]);
  return { text: text.slice(0, m.index) + word + text.slice(m.index + m[0].length), change: `${m[0]} → ${word}` };
}

/** The excerpt with the number nearest its middle increased by one (leading zeros kept). */
function changeNumber(text: string): { text: string; change: string } | undefined {
  const m = nearestMiddle(text, NUMBER);
  if (!m) return undefined;
  const next = (BigInt(m[0]) + 1n).toString().padStart(m[0].length, '0');
  return { text: text.slice(0, m.index) + next + text.slice(m.index + m[0].length), change: `${m[0]} → ${next}` };
}

const trueExcerpts: Excerpt[] = [];
let tooLong = 0;
for (const page of pages) {
  const seen = new Set<string>();
  const add = (kind: Kind, text: string): void => {
    if (seen.has(text)) return;
    seen.add(text);
    trueExcerpts.push({ page: page.name, from: page.name, kind, text });
  };
  for (const text of page.paragraphs) {
    // An excerpt longer than a review may carry is checked by its opening only.
    if (text.length <= MAX_EXCERPT_CHARS) add('paragraph', text);
    else tooLong++;
    if (text.length > SLICE) add('opening', opening(text, SLICE));
  }
}

/** Changed and foreign excerpts; those genuinely on the cited page (as a reader sees it) are skipped and counted. */
const negatives: Excerpt[] = [];
const skipped: Record<'foreign' | 'word' | 'number', number> = { foreign: 0, word: 0, number: 0 };
/** Foreign excerpts skipped, by "taken from → cited against". */
const skippedPairs = new Map<string, number>();
const addNegative = (e: Excerpt): void => {
  if (!matchExcerpt(byName.get(e.page)!.expected, e.text).found) {
    negatives.push(e);
    return;
  }
  skipped[e.kind as keyof typeof skipped]++;
  const pair = `${e.from} → ${e.page}`;
  if (e.kind === 'foreign') skippedPairs.set(pair, (skippedPairs.get(pair) ?? 0) + 1);
};

for (const e of trueExcerpts) {
  if (normalizeForMatch(e.text).length < MIN_NEGATIVE) continue;
  const word = changeWord(e.text);
  if (word) addNegative({ ...e, kind: 'word', ...word });
  const number = changeNumber(e.text);
  if (number) addNegative({ ...e, kind: 'number', ...number });
}

for (const page of pages) {
  const long = trueExcerpts.filter((e) => e.from === page.name && normalizeForMatch(e.text).length >= MIN_NEGATIVE);
  const sample = shuffled(long).slice(0, FOREIGN_PER_PAGE);
  const others = shuffled(pages.filter((p) => p !== page)).slice(0, OTHERS);
  for (const other of others) {
    for (const e of sample) addNegative({ page: other.name, from: page.name, kind: 'foreign', text: e.text });
  }
}
const prepSeconds = (performance.now() - prepStarted) / 1000;

// ---------------------------------------------------------------- server and verifier

let requests = 0;
const server = createServer((req, res) => {
  const m = /^\/([^/?]+)\/(?:\?.*)?$/.exec(req.url ?? '');
  let name: string | undefined;
  try {
    name = m ? decodeURIComponent(m[1]!) : undefined;
  } catch {
    name = undefined;
  }
  const page = name === undefined ? undefined : byName.get(name);
  if (!page) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
    return;
  }
  requests++;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': page.source.length });
  res.end(page.source);
});
await new Promise<void>((resolve, reject) => {
  server.once('error', reject);
  server.listen(0, '127.0.0.1', resolve);
});
const { port } = server.address() as AddressInfo;
const urlOf = (name: string): string => `http://localhost:${port}/${encodeURIComponent(name)}/`;

const config = ConfigSchema.parse({ citations: { allow_private_hosts: [`localhost:${port}`] } });
const c = config.citations;
const fetchOptions = fetchOptionsFrom(config);
const hostLimiter = new HostLimiter(c.per_host_concurrency);

/** A page cache for one review: each page it cites is fetched once, as the worker's cache does. */
function reviewCache(): PageCache {
  const pagesOfReview = new Map<string, Promise<PageText>>();
  return {
    get(url, fetch) {
      let p = pagesOfReview.get(url);
      if (!p) pagesOfReview.set(url, (p = fetch()));
      return p;
    },
  };
}

const parsePool = buildParsePool(config);
const fetchEachVerifier = FETCH_EACH ? buildVerifier(config, { reader: parsePool }) : undefined;
function reviewVerifier(): Verifier {
  if (fetchEachVerifier) return fetchEachVerifier;
  return createVerifier({
    fetchOptions,
    reader: parsePool,
    hostLimiter,
    concurrency: c.review_concurrency,
    prefixChars: c.prefix_chars,
    cache: reviewCache(),
  });
}

let reviews = 0;
let verifications = 0;
/** Verifies the excerpts, one review per cited page (split at MAX_EVIDENCE entries). */
async function verifyAll(excerpts: Excerpt[]): Promise<CitationResult[]> {
  const results = new Array<CitationResult>(excerpts.length);
  const byPage = new Map<string, number[]>();
  excerpts.forEach((e, i) => {
    const list = byPage.get(e.page);
    if (list) list.push(i);
    else byPage.set(e.page, [i]);
  });
  for (const [name, indexes] of byPage) {
    for (let at = 0; at < indexes.length; at += MAX_EVIDENCE) {
      const chunk = indexes.slice(at, at + MAX_EVIDENCE);
      const evidence: Evidence[] = chunk.map((i) => ({ claim: '', url: urlOf(name), excerpt: excerpts[i]!.text }));
      const out = await reviewVerifier().verify(evidence);
      reviews++;
      verifications += evidence.length;
      out.forEach((r, k) => (results[chunk[k]!] = r));
    }
  }
  return results;
}

const loadAtStart = os.loadavg()[0]!;
const when = runDate();
const host = describeMachine();
console.log(`Citation evaluation, ${when}; ${host}; load average ${loadAtStart.toFixed(1)}`);
console.log(`pages: ${pagesDir} (${pages.length} pages), served at http://localhost:${port}/NAME/`);
console.log(
  FETCH_EACH
    ? 'verifier: buildVerifier(config, { reader }), a fetch per entry\n'
    : 'verifier: a fetch per page per review\n',
);

let trueResults: CitationResult[];
let negativeResults: CitationResult[];
const started = performance.now();
let trueSeconds: number;
try {
  trueResults = await verifyAll(trueExcerpts);
  trueSeconds = (performance.now() - started) / 1000;
  process.stderr.write(`  true excerpts: ${trueExcerpts.length} in ${trueSeconds.toFixed(1)} s\n`);
  negativeResults = await verifyAll(negatives);
} finally {
  server.closeAllConnections();
  server.close();
  await fetchOptions.dispatcher?.destroy();
  await parsePool.close();
}
const totalSeconds = (performance.now() - started) / 1000;
const negativeSeconds = totalSeconds - trueSeconds;

// ---------------------------------------------------------------- recall

const pageTexts = new Map<string, string>();
/** The page's text as the verifier reads it (these pages are UTF-8 and served as such). */
function pageText(name: string): string {
  let text = pageTexts.get(name);
  if (text === undefined) {
    text = normalizeForMatch(htmlToText(byName.get(name)!.source.toString('utf8')));
    pageTexts.set(name, text);
  }
  return text;
}

const squeeze = (s: string): string => s.replace(/ /g, '');

interface Diagnosis {
  cause: string;
  /** The excerpt and the page from where they part, normalised. */
  excerptAt?: string;
  pageAt?: string;
}

/**
 * Why a true excerpt was not found, as far as a few checks can tell: where the
 * longest opening of the excerpt that is on the page ends, and whether the
 * excerpt goes on a little further in the page (the excerpt leaves out text
 * the page shows) or the page goes on a little further in the excerpt (the
 * excerpt has text the page does not).
 */
function diagnose(e: Excerpt, r: CitationResult): Diagnosis {
  if (r.status !== 'unverified' || r.reason !== 'excerpt_not_found') return { cause: r.reason ?? r.status };
  const excerpt = normalizeForMatch(e.text);
  const text = pageText(e.page);
  if (squeeze(text).includes(squeeze(excerpt))) return { cause: 'spacing differs' };
  let lo = 0;
  let hi = excerpt.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (text.includes(excerpt.slice(0, mid))) lo = mid;
    else hi = mid - 1;
  }
  const at = lo === 0 ? -1 : text.indexOf(excerpt.slice(0, lo)) + lo;
  if (at < 0) return { cause: 'not on the page' };
  const excerptAt = excerpt.slice(lo, lo + 60);
  const pageAt = text.slice(at, at + 60);
  const rest = excerpt.slice(lo, lo + 12).trim();
  const pageRest = text.slice(at, at + 12).trim();
  let cause = 'text differs';
  if (rest !== '' && text.slice(at, at + 300).includes(rest)) cause = 'the excerpt leaves out text the page shows';
  else if (pageRest !== '' && excerpt.slice(lo, lo + 60).includes(pageRest))
    cause = 'the excerpt has text the page lacks';
  return { cause, excerptAt, pageAt };
}

interface Miss extends Diagnosis {
  excerpt: Excerpt;
  result: CitationResult;
}
const misses: Miss[] = [];
const recallRows: Array<Array<string | number>> = [];
for (const kind of ['paragraph', 'opening'] as const) {
  const idx = trueExcerpts.flatMap((e, i) => (e.kind === kind ? [i] : []));
  const ok = idx.filter((i) => trueResults[i]!.status === 'ok').length;
  recallRows.push([
    kind === 'paragraph' ? 'whole paragraph' : `first ${SLICE} characters`,
    idx.length,
    ok,
    percent(ok, idx.length, 2),
  ]);
}
trueExcerpts.forEach((e, i) => {
  const r = trueResults[i]!;
  if (r.status !== 'ok') misses.push({ excerpt: e, result: r, ...diagnose(e, r) });
});
const trueOk = trueExcerpts.length - misses.length;
recallRows.push(['all', trueExcerpts.length, trueOk, percent(trueOk, trueExcerpts.length, 2)]);
const recall = trueExcerpts.length === 0 ? 0 : trueOk / trueExcerpts.length;
const causes = new Map<string, number>();
for (const m of misses) causes.set(m.cause, (causes.get(m.cause) ?? 0) + 1);
const missPages = new Set(misses.map((m) => m.excerpt.page));
/** "a 3, b 1": counts, highest first. */
const count = (m: Map<string, number>): string =>
  [...m]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');

// ---------------------------------------------------------------- false accepts

interface Accepted {
  excerpt: Excerpt;
}
const accepted: Accepted[] = [];
const notOkReasons = new Map<string, number>();
const falseRows: Array<Array<string | number>> = [];
const NEGATIVE_LABEL: Record<'foreign' | 'word' | 'number', string> = {
  foreign: `excerpt of another page (${FOREIGN_PER_PAGE} per page × ${OTHERS} other pages)`,
  word: 'one word changed',
  number: 'one number changed (+1)',
};
for (const kind of ['foreign', 'word', 'number'] as const) {
  const idx = negatives.flatMap((e, i) => (e.kind === kind ? [i] : []));
  let ok = 0;
  for (const i of idx) {
    const r = negativeResults[i]!;
    if (r.status === 'ok') {
      ok++;
      accepted.push({ excerpt: negatives[i]! });
    } else {
      const key = `${r.status}: ${r.reason}`;
      notOkReasons.set(key, (notOkReasons.get(key) ?? 0) + 1);
    }
  }
  falseRows.push([NEGATIVE_LABEL[kind], idx.length, skipped[kind], ok]);
}
falseRows.push(['all', negatives.length, skipped.foreign + skipped.word + skipped.number, accepted.length]);

// ---------------------------------------------------------------- printing

const clip = (s: string, n = 160): string => JSON.stringify(s.length > n ? s.slice(0, n) + '…' : s);
const loadLine = `load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end`;
const perSecond = (n: number, s: number): string => (s > 0 ? (n / s).toFixed(0) : '–');
const paragraphsTotal = pages.reduce((n, p) => n + p.paragraphs.length, 0);

console.log(
  `excerpts from ${paragraphsTotal} non-empty paragraphs: ${trueExcerpts.length} true (whole paragraphs, and the ` +
    `first ${SLICE} characters of the longer ones), ${negatives.length} false; prepared in ${prepSeconds.toFixed(1)} s`,
);
if (tooLong > 0)
  console.log(`${tooLong} paragraph(s) over ${MAX_EXCERPT_CHARS} characters checked by their opening only`);
if (notUtf8.length > 0) console.log(`not valid UTF-8 (served as UTF-8 all the same): ${notUtf8.join(', ')}`);

console.log('\n1. Recall: true excerpts cited against their own page\n');
console.log(textTable(['excerpt', 'checked', 'ok', 'recall'], recallRows));
console.log(
  `\nrequirement: recall >= ${(RECALL_GOAL * 100).toFixed(1)}%: ${recall >= RECALL_GOAL ? 'met' : 'NOT MET'}` +
    (misses.length > 0 ? `; ${misses.length} miss(es) on ${missPages.size} page(s)` : ''),
);
if (misses.length > 0) console.log(`  by cause: ${count(causes)}`);
for (const m of misses) {
  console.log(
    `  MISS ${m.excerpt.page} (${m.excerpt.kind}): ${m.result.status} ${m.result.reason ?? ''} [${m.cause}]\n` +
      `    ${clip(m.excerpt.text)}` +
      (m.excerptAt === undefined
        ? ''
        : `\n    parts at: excerpt ${clip(m.excerptAt)}\n              page    ${clip(m.pageAt ?? '')}`),
  );
}

console.log('\n2. False accepts: each verification that returns ok\n');
console.log(textTable(['excerpt', 'verified', 'skipped: on the page', 'accepted'], falseRows));
if (skippedPairs.size > 0) console.log(`\nforeign excerpts skipped, by pages: ${count(skippedPairs)}`);
console.log(`not ok, by result: ${[...notOkReasons].map(([k, n]) => `${k} ${n}`).join('; ') || 'none'}`);
console.log(`requirement: no false accept: ${accepted.length === 0 ? 'met' : 'NOT MET'}`);
for (const a of accepted.slice(0, 20)) {
  const e = a.excerpt;
  console.log(
    `  ACCEPTED ${e.kind} cited against ${e.page}` +
      (e.kind === 'foreign' ? ` (taken from ${e.from})` : ` (${e.change})`) +
      `\n    ${clip(e.text, 400)}`,
  );
}

console.log(
  `\n3. Volume: ${verifications} verifications in ${reviews} reviews, ${requests} page fetches, ` +
    `${totalSeconds.toFixed(1)} s (true ${trueSeconds.toFixed(1)} s, false ${negativeSeconds.toFixed(1)} s), ` +
    `${perSecond(verifications, totalSeconds)} verifications/s`,
);
console.log(loadLine);

// ---------------------------------------------------------------- docs

if (!args.values['no-docs']) {
  const missesByPage = new Map<string, number>();
  for (const m of misses) missesByPage.set(m.excerpt.page, (missesByPage.get(m.excerpt.page) ?? 0) + 1);
  const causeText =
    misses.length === 0
      ? 'No true excerpt was missed.'
      : `Misses by cause: ${count(causes)}; by page: ${count(missesByPage)}. The cause is found by comparing the ` +
        'normalised excerpt with the page text from where they part: the excerpt leaves out text the page shows ' +
        '(the excerpt goes on a little further in the page), has text the page lacks (the page goes on a little ' +
        'further in the excerpt), or differs otherwise; "spacing differs" means the words are all there but a block ' +
        'boundary or markup between them gives different spaces. `npm run eval:citations` prints each miss.';
  const body = [
    '## Measured',
    '',
    `Written by \`npm run eval:citations -- <pages-dir>\` on ${when}, on ${host}; ${loadLine}; each run replaces ` +
      `this section. Corpus: \`${path.basename(pagesDir)}\`, ${pages.length} real web pages, each as served ` +
      `(\`source.html\`) and as the article text a reader sees (\`expected.html\`). The corpus stores every page in ` +
      `UTF-8${notUtf8.length > 0 ? ` (${notUtf8.length} not valid UTF-8)` : ''}; a loopback server serves each one ` +
      `as \`text/html; charset=utf-8\` at \`http://localhost:PORT/NAME/\`, and the verifier built from the ` +
      `configuration (\`localhost\` allow-listed, no Redis) fetches it, so the whole path runs: undici, the ` +
      `address guards, decoding, HTML to text, normalisation and matching. Excerpts are cited one page at a ` +
      `time, as one review (at most ${MAX_EVIDENCE} entries) per page` +
      (FETCH_EACH
        ? ', with `buildVerifier`, which fetches the page for every entry.'
        : '; within a review each page is fetched once, as the worker\u2019s page cache does ' +
          '(`--fetch-each` fetches it for every entry).'),
    '',
    '### Recall',
    '',
    `True excerpts are the text of each \`<p>\` of \`expected.html\` as a reader sees it (${paragraphsTotal} ` +
      `non-empty paragraphs), whole, and the first ${SLICE} characters of each longer one (cut back so as not to ` +
      `end inside a number), each cited against its own page. Requirement: at least ` +
      `${(RECALL_GOAL * 100).toFixed(1)}% verify \`ok\`: **${recall >= RECALL_GOAL ? 'met' : 'not met'}**.`,
    '',
    markdownTable(['excerpt', 'checked', 'ok', 'recall'], recallRows),
    '',
    causeText,
    '',
    '### False accepts',
    '',
    `Excerpts that must not verify: up to ${FOREIGN_PER_PAGE} excerpts of at least ${MIN_NEGATIVE} normalised ` +
      `characters from each page, cited against ${OTHERS} other pages drawn at random (seed ${SEED}); and each ` +
      `true excerpt of at least ${MIN_NEGATIVE} characters with the word of four or more letters nearest its ` +
      'middle replaced by a different real word, and, when it holds a number, with the number nearest its ' +
      'middle increased by one. An excerpt that is genuinely on the cited page (found in its `expected.html` as ' +
      `a reader sees it) is skipped. Requirement: none verifies \`ok\`: **${accepted.length === 0 ? 'met' : 'not met'}**.`,
    '',
    markdownTable(['excerpt', 'verified', 'skipped: on the page', 'accepted'], falseRows),
    '',
    '### Volume',
    '',
    `${verifications} verifications in ${reviews} reviews, ${requests} page fetches, in ` +
      `${totalSeconds.toFixed(1)} s (${perSecond(verifications, totalSeconds)} verifications/s): true excerpts ` +
      `${trueSeconds.toFixed(1)} s, false ones ${negativeSeconds.toFixed(1)} s. On a shared machine these times ` +
      'are indicative only.',
    '',
  ].join('\n');
  writeTrailingSection(DOC, '## Measured', await formatMarkdown(body, DOC));
  console.log('\nwrote the ## Measured section of docs/citations.md');
}

process.exit(recall >= RECALL_GOAL && accepted.length === 0 ? 0 : 1);
