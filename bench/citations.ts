/**
 * Speed of citation verification:
 *
 *   npm run bench:citations [-- --pages DIR] [--verifications N] [--runs N] [--no-docs]
 *
 * 1. HTML to text: throughput of `htmlSources` (the worker's HTML-to-text
 *    step: the visible text and the JSON-LD text with their element
 *    boundaries recorded, the text of the scripts' JSON, all normalised) in
 *    MB/s on one core, on generated article pages (navigation, paragraphs
 *    with inline markup, tables, figures, lists, scripts, styles, JSON-LD) of
 *    1, 4 and 16 MB, and with `--pages DIR` on the real pages
 *    DIR/NAME/source.html (sum of bytes over sum of times). MB is 10^6 bytes
 *    of UTF-8 HTML. Then the same pages through a parsing thread of the pool,
 *    as the worker reads them (the body moved to the thread, decoded, parsed,
 *    normalised, the texts sent back), against the same steps on this thread.
 * 2. Verifications per second from the cache: a loopback server serves a few
 *    generated pages, a verifier with the Redis page cache (REDIS_URL, by
 *    default redis://127.0.0.1:6379, under a unique key prefix deleted
 *    afterwards) is warmed, then N verifications run in reviews of
 *    REVIEW_SIZE entries. For comparison: the same with an in-process cache (no
 *    Redis), and a few with no cache at all (every entry fetched and parsed).
 * 3. `normalizeForMatch`, `normalizeMarked` and `matchExcerpt` on a page of
 *    1 MB of text with its element boundaries, and with optional spans.
 * 4. `findNearMiss`, the closest passage of an excerpt not found, on page
 *    texts of 0.25 to 16 MB: the time and how it grows with the page.
 *
 * Writes its section of docs/benchmarks.md (between the bench:citations
 * markers), keeping the other sections.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deleteKeysWithPrefix, gc, int, pick, rng, type Rand } from './support.js';
import { Redis } from 'ioredis';
import { buildParsePool, fetchOptionsFrom } from '../src/runtime/builders.js';
import { createPageCache, type CacheResult, type PageCache } from '../src/citations/page-cache.js';
import type { PageText } from '../src/citations/page-text.js';
import { createVerifier, type Verifier } from '../src/citations/verifier.js';
import { ConfigSchema } from '../src/config/schema.js';
import type { Evidence } from '../src/contracts/payloads.js';
import { HostLimiter } from '../src/fetcher/fetch-page.js';
import {
  decodeBody,
  findNearMiss,
  htmlSources,
  htmlToText,
  matchExcerpt,
  normalizeForMatch,
  normalizeMarked,
  type MatchText,
} from '../src/safety/citations/index.js';
import { readHtml } from '../src/safety/citations/html-text.js';
import { withoutOptional } from '../src/safety/citations/optional-spans.js';
import {
  describeMachine,
  formatMarkdown,
  markdownTable,
  runDate,
  textTable,
  writeMarkedSection,
} from '../eval/machine.js';
import { commandArgs } from '../eval/command-args.js';

const DOC = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const MB = 1e6;
const SIZES_MB = [1, 4, 16];
const GOAL_MBPS = 25;
/** Pages served for the verification benchmark, and the size of each. */
const CACHED_PAGES = 5;
const CACHED_PAGE_BYTES = 200_000;
/** Entries per review in the verification benchmark. */
const REVIEW_SIZE = 20;
/** Share of the excerpts with one word changed (not found: the whole page is searched). */
const CHANGED_SHARE = 0.25;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const USAGE = 'usage: npm run bench:citations [-- --pages DIR] [--verifications N] [--runs N] [--no-docs]';

const parsed = commandArgs('bench:citations', [USAGE], {
  options: {
    pages: { type: 'string' },
    verifications: { type: 'string', default: '20000' },
    runs: { type: 'string', default: '5' },
    'no-docs': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
const usage: (message: string) => never = parsed.usage;
const RUNS = Number(parsed.values.runs);
const VERIFICATIONS = Number(parsed.values.verifications);
if (!Number.isInteger(RUNS) || RUNS < 1) usage(`--runs must be a positive whole number, got ${parsed.values.runs}`);
if (!Number.isInteger(VERIFICATIONS) || VERIFICATIONS < REVIEW_SIZE) {
  usage(`--verifications must be a whole number of at least ${REVIEW_SIZE}, got ${parsed.values.verifications}`);
}

/** Real pages: NAME/source.html under the folder given with --pages. */
interface RealPage {
  name: string;
  bytes: number;
  html: string;
}
let realPages: RealPage[] | undefined;
let pagesDir: string | undefined;
if (parsed.values.pages !== undefined) {
  // npm runs scripts from the package folder; a relative path is meant from where npm was called.
  pagesDir = path.resolve(process.env.INIT_CWD ?? process.cwd(), parsed.values.pages);
  if (!existsSync(pagesDir) || !statSync(pagesDir).isDirectory()) {
    usage(`folder of pages not found: ${pagesDir} (given as '${parsed.values.pages}')`);
  }
  realPages = [];
  for (const name of readdirSync(pagesDir).sort()) {
    const file = path.join(pagesDir, name, 'source.html');
    if (!existsSync(file)) continue;
    const buf = readFileSync(file);
    realPages.push({ name, bytes: buf.length, html: buf.toString('utf8') });
  }
  if (realPages.length === 0) usage(`${pagesDir} holds no NAME/source.html`);
}

// A collection between runs keeps one run's garbage out of the next one's time.

// ---------------------------------------------------------------- generated pages

const WORDS = (
  'the of and in to a was were with for by that cells protein expression activity levels patients treatment ' +
  'study results increased reduced significantly compared control group mice effect receptor binding analysis ' +
  'samples observed response data model concentration inhibition gene mutation tumor dose mean showed between ' +
  'after during signal pathway kinase measured temperature pressure participants trial randomized cohort ' +
  'sequencing assay antibody plasma serum tissue membrane climate policy market city government researchers ' +
  'report according water energy children school health public national Müller García café naïve Zürich'
).split(' ');
const ENTITIES = ['&amp;', '&nbsp;', '&#8217;', '&mdash;', '&quot;', '&lt;', '&gt;', '&copy;', '&#x2014;', '&hellip;'];
const NAV = ['Home', 'World', 'Science', 'Health', 'Technology', 'Climate', 'Opinion', 'About', 'Contact', 'Subscribe'];

function words(r: Rand, lo: number, hi: number): string {
  const n = int(r, lo, hi);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(pick(r, WORDS));
  return out.join(' ');
}

const slug = (r: Rand): string =>
  words(r, 3, 7)
    .toLowerCase()
    .replace(/[^a-z]+/g, '-');
const href = (r: Rand): string =>
  `https://www.example.org/${pick(r, NAV).toLowerCase()}/2024/${int(r, 1, 12)}/${int(r, 1, 28)}/${slug(r)}` +
  (r() < 0.4 ? `?utm_source=article&amp;utm_medium=inline&amp;ref=${int(r, 1, 1e6)}` : '');

/** A sentence of plain text, sometimes with one inline element, a number or an entity. */
function sentence(r: Rand): string {
  let s = words(r, 8, 24);
  const roll = r();
  if (roll < 0.25) {
    s += ` <a href="${href(r)}" class="article-link article-link--inline" data-track="inline">${words(r, 1, 4)}</a> ${words(r, 2, 6)}`;
  } else if (roll < 0.35) s += ` <em>${words(r, 1, 3)}</em> ${words(r, 2, 5)}`;
  else if (roll < 0.42) s += ` <strong>${words(r, 1, 2)}</strong> ${words(r, 2, 5)}`;
  else if (roll < 0.5) s += ` ${int(r, 1, 999)}.${int(r, 0, 9)}% ${pick(r, ENTITIES)} ${words(r, 2, 5)}`;
  else if (roll < 0.53) s += ` <code>${pick(r, WORDS)}_${int(r, 1, 99)}()</code>`;
  s = s[0]!.toUpperCase() + s.slice(1) + '.';
  if (r() < 0.08) {
    const n = int(r, 1, 99);
    s += `<sup id="cite_ref-${n}" class="reference"><a href="#cite_note-${n}">[${n}]</a></sup>`;
  }
  return s;
}

function paragraph(r: Rand, indent: string): string {
  const n = int(r, 2, 6);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(sentence(r));
  return `${indent}<p class="article-body__paragraph" data-component="text-block">${out.join(' ')}</p>\n`;
}

function table(r: Rand, indent: string): string {
  const cols = int(r, 3, 6);
  const head = Array.from({ length: cols }, () => `<th scope="col" class="table__head">${words(r, 1, 2)}</th>`).join(
    '',
  );
  const rows = Array.from(
    { length: int(r, 4, 12) },
    () =>
      `${indent}    <tr class="table__row">` +
      Array.from(
        { length: cols },
        (_, c) => `<td class="table__cell">${c === 0 ? words(r, 1, 3) : int(r, 0, 9999)}</td>`,
      ).join('') +
      '</tr>',
  ).join('\n');
  return (
    `${indent}<div class="table-wrapper" data-component="table">\n${indent}  <table class="table table--striped">\n` +
    `${indent}  <caption>${words(r, 3, 8)}</caption>\n${indent}  <thead><tr>${head}</tr></thead>\n` +
    `${indent}  <tbody>\n${rows}\n${indent}  </tbody>\n${indent}  </table>\n${indent}</div>\n`
  );
}

/** An inline script: tracking code or a JSON configuration, as pages embed them. */
function script(r: Rand, indent: string): string {
  if (r() < 0.5) {
    const config: Record<string, unknown> = {};
    for (let i = 0, n = int(r, 10, 50); i < n; i++) {
      config[`${pick(r, WORDS)}_${i}`] = { id: int(r, 1, 1e6), label: words(r, 1, 5), url: href(r), on: r() < 0.5 };
    }
    return `${indent}<script>window.__PRELOADED_STATE__ = ${JSON.stringify(config)};</script>\n`;
  }
  const lines = Array.from(
    { length: int(r, 8, 40) },
    () =>
      `${indent}  w.q.push(["${pick(r, ['track', 'set', 'send', 'init'])}", "${pick(r, WORDS)}", ${int(r, 1, 1e6)}, ` +
      `function (e) { if (e && e.length < ${int(r, 1, 99)}) { return e.map(function (x) { return x.id; }); } }]);`,
  );
  return `${indent}<script type="text/javascript">\n${indent}(function (w, d) {\n${indent}  w.q = w.q || [];\n${lines.join('\n')}\n${indent}})(window, document);\n${indent}</script>\n`;
}

const ICON_PATH =
  'M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm-1 17.93c-3.95-.49-7-3.85-7-7.93 0-.62.08-1.21.21-1.79L9 15v1c0 1.1.9 2 2 2v1.93z';

function shareBar(r: Rand, indent: string): string {
  const items = ['Facebook', 'Twitter', 'Email', 'Print'].map(
    (n) =>
      `${indent}  <li class="share__item"><a class="share__link share__link--${n.toLowerCase()}" href="${href(r)}" aria-label="Share on ${n}">` +
      `<svg class="icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true"><path d="${ICON_PATH}"></path></svg></a></li>`,
  );
  return `${indent}<ul class="share" data-component="share">\n${items.join('\n')}\n${indent}</ul>\n`;
}

function block(r: Rand, indent: string): string {
  const roll = r();
  if (roll < 0.56) return paragraph(r, indent);
  if (roll < 0.63) return `${indent}<h2 id="${slug(r)}" class="article-body__heading">${words(r, 2, 6)}</h2>\n`;
  if (roll < 0.68) return table(r, indent);
  if (roll < 0.73) {
    return (
      `${indent}<figure class="article-figure" data-component="image">\n${indent}  <picture><source type="image/webp" srcset="https://cdn.example.org/img/${int(r, 1, 1e6)}-800.webp 800w, https://cdn.example.org/img/${int(r, 1, 1e6)}-1600.webp 1600w">` +
      `<img src="https://cdn.example.org/img/${int(r, 1, 1e6)}.jpg" alt="${words(r, 3, 8)}" width="800" height="450" loading="lazy" decoding="async"></picture>\n` +
      `${indent}  <figcaption class="article-figure__caption">${sentence(r)} <span class="credit">Photo: ${words(r, 1, 2)}</span></figcaption>\n${indent}</figure>\n`
    );
  }
  if (roll < 0.78) {
    return `${indent}<ul class="article-body__list">\n${Array.from({ length: int(r, 3, 7) }, () => `${indent}  <li>${sentence(r)}</li>`).join('\n')}\n${indent}</ul>\n`;
  }
  if (roll < 0.81)
    return `${indent}<blockquote class="pull-quote">\n${paragraph(r, indent + '  ')}${indent}</blockquote>\n`;
  if (roll < 0.87) return script(r, indent);
  if (roll < 0.9) return styleSheet(r, int(r, 20, 80));
  if (roll < 0.93) return shareBar(r, indent);
  if (roll < 0.97) {
    return `${indent}<div class="ad-slot ad-slot--inline" data-ad-unit="/1234/article/inline_${int(r, 1, 9)}" data-sizes="[[300,250],[728,90]]" style="min-height:250px"><iframe src="https://ads.example.net/frame?slot=${int(r, 1, 1e6)}" title="Advertisement" width="300" height="250" loading="lazy"></iframe></div>\n`;
  }
  return (
    `${indent}<aside class="related" data-component="related">\n${indent}  <h3 class="related__title">Related</h3>\n${indent}  <ul class="related__list">\n` +
    Array.from(
      { length: 5 },
      () =>
        `${indent}    <li class="related__item"><a class="related__link" href="${href(r)}">${words(r, 4, 10)}</a></li>`,
    ).join('\n') +
    `\n${indent}  </ul>\n${indent}</aside>\n`
  );
}

/** A style sheet of `rules` generated rules. */
function styleSheet(r: Rand, rules: number): string {
  const out: string[] = [];
  for (let i = 0; i < rules; i++) {
    out.push(
      `.${pick(r, WORDS).toLowerCase()}-${int(r, 1, 999)}__${pick(r, WORDS).toLowerCase()}{margin:${int(r, 0, 32)}px ${int(r, 0, 32)}px;` +
        `color:#${int(r, 0, 0xffffff).toString(16).padStart(6, '0')};font-size:${int(r, 10, 32)}px;line-height:1.${int(r, 1, 9)}}`,
    );
  }
  return `<style>\n${out.join('\n')}\n</style>\n`;
}

/** A news or science article page of about `bytes` bytes of UTF-8. */
function articlePage(bytes: number, seed: number): string {
  const r = rng(seed);
  const title = words(r, 4, 9);
  const head =
    `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${title} | The Example Times</title>\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    `<meta name="description" content="${words(r, 15, 30)}">\n` +
    `<link rel="stylesheet" href="https://cdn.example.org/static/site.3f9a1c.css">\n` +
    styleSheet(r, 300) +
    script(r, '') +
    `<script type="application/ld+json">${JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'NewsArticle',
      headline: title,
      description: words(r, 15, 30),
      author: { '@type': 'Person', name: 'A. Writer' },
    })}</script>\n</head>\n<body class="page page--article">\n` +
    `<header class="site-header" role="banner">\n  <a class="site-header__logo" href="/">The Example Times</a>\n` +
    `  <nav class="site-nav" aria-label="Main">\n    <ul class="site-nav__list">\n` +
    NAV.map(
      (n) => `      <li class="site-nav__item"><a class="site-nav__link" href="/${n.toLowerCase()}">${n}</a></li>`,
    ).join('\n') +
    `\n    </ul>\n  </nav>\n</header>\n<main id="main" class="layout">\n  <article class="article" itemscope itemtype="https://schema.org/NewsArticle">\n` +
    `    <h1 class="article__headline" itemprop="headline">${title}</h1>\n` +
    `    <p class="article__byline">By <a href="/people/a-writer" rel="author">A. Writer</a> <time datetime="2024-05-01T09:00:00Z">May 1, 2024</time></p>\n` +
    shareBar(r, '    ');
  const tail =
    `  </article>\n</main>\n<footer class="site-footer">\n  <p>&copy; 2024 The Example Times</p>\n  <ul class="site-footer__links">\n` +
    ['Privacy', 'Terms', 'Cookies', 'Contact']
      .map((n) => `    <li><a href="/${n.toLowerCase()}">${n}</a></li>`)
      .join('\n') +
    `\n  </ul>\n</footer>\n<script src="https://cdn.example.org/static/app.8c1d2e.js" defer></script>\n</body>\n</html>\n`;
  const parts = [head];
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail);
  while (size < bytes) {
    const b = `    <section class="article-body__section">\n${block(r, '      ')}${block(r, '      ')}${block(r, '      ')}    </section>\n`;
    parts.push(b);
    size += Buffer.byteLength(b);
  }
  parts.push(tail);
  return parts.join('');
}

// ---------------------------------------------------------------- timing helpers

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

let sink = 0;

/** Wall time and CPU time of the process (user + system, all its threads), in ms. */
interface Times {
  ms: number;
  cpuMs: number;
}
function timeHtmlSources(html: string): Times {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  sink += htmlSources(html).text.text.length;
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, cpuMs: (c.user + c.system) / 1000 };
}

const when = runDate();
const host = describeMachine();
const loadAtStart = os.loadavg()[0]!;
console.log(`Citation verification speed, ${when}; ${host}; load average ${loadAtStart.toFixed(1)}\n`);

// ---------------------------------------------------------------- 1. HTML to text

interface H2tRow {
  label: string;
  mb: number;
  ms: number;
  cpuMs: number;
  runs: number;
}
const h2tRows: H2tRow[] = [];
const warmPage = articlePage(MB, 99);
for (let i = 0; i < 5; i++) htmlSources(warmPage);
for (const mb of SIZES_MB) {
  const html = articlePage(mb * MB, mb);
  const bytes = Buffer.byteLength(html);
  const runs = mb >= 16 ? Math.min(RUNS, 3) : RUNS;
  // A forced collection discards optimised code, so it comes before the warm-up, not between timed runs.
  gc();
  for (let i = 0; i < 3; i++) htmlSources(warmPage);
  const times: Times[] = [];
  for (let i = 0; i < runs; i++) times.push(timeHtmlSources(html));
  const ms = median(times.map((t) => t.ms));
  const cpuMs = median(times.map((t) => t.cpuMs));
  h2tRows.push({ label: `generated article, ${mb} MB`, mb: bytes / MB, ms, cpuMs, runs });
  process.stderr.write(`  htmlSources, ${mb} MB: ${(bytes / MB / (ms / 1000)).toFixed(1)} MB/s\n`);
}

interface RealResult {
  pages: number;
  mb: number;
  ms: number;
  cpuMs: number;
  passes: number;
  slowest: { name: string; mbps: number; kb: number };
}
let real: RealResult | undefined;
if (realPages) {
  const passes = Math.max(1, Math.min(RUNS, 3));
  gc();
  for (const p of realPages) htmlSources(p.html); // warm-up pass
  const totals: number[] = [];
  const cpuTotals: number[] = [];
  const perPage = new Map<string, number[]>();
  for (let pass = 0; pass < passes; pass++) {
    let total = 0;
    let cpuTotal = 0;
    for (const p of realPages) {
      const { ms, cpuMs } = timeHtmlSources(p.html);
      total += ms;
      cpuTotal += cpuMs;
      const list = perPage.get(p.name);
      if (list) list.push(ms);
      else perPage.set(p.name, [ms]);
    }
    totals.push(total);
    cpuTotals.push(cpuTotal);
  }
  const bytes = realPages.reduce((n, p) => n + p.bytes, 0);
  let slowest = { name: '', mbps: Infinity, kb: 0 };
  for (const p of realPages) {
    if (p.bytes < 100_000) continue; // small pages are dominated by fixed costs
    const mbps = p.bytes / MB / (Math.min(...perPage.get(p.name)!) / 1000);
    if (mbps < slowest.mbps) slowest = { name: p.name, mbps, kb: p.bytes / 1000 };
  }
  real = { pages: realPages.length, mb: bytes / MB, ms: median(totals), cpuMs: median(cpuTotals), passes, slowest };
  process.stderr.write(`  htmlSources, real pages: ${(real.mb / (real.ms / 1000)).toFixed(1)} MB/s\n`);
}

// ---------------------------------------------------------------- 1b. in a parsing thread

/**
 * The worker's path for a page, on this thread and through one parsing
 * thread: the difference is what isolation costs (moving the body, the
 * result's copy back, the message round trip).
 */
interface ThreadRow {
  label: string;
  mb: number;
  inProcessMs: number;
  threadMs: number | undefined;
  note: string;
}
const threadRows: ThreadRow[] = [];
const HTML_TYPE = 'text/html; charset=utf-8';
{
  const benchPool = buildParsePool(ConfigSchema.parse({ citations: { parse_threads: 1 } }));
  try {
    const warm = new TextEncoder().encode(warmPage);
    for (let i = 0; i < 5; i++) await benchPool.extract(warm.slice(), HTML_TYPE);
    for (const mb of SIZES_MB) {
      const bytes = new TextEncoder().encode(articlePage(mb * MB, mb));
      const runs = mb >= 16 ? Math.min(RUNS, 3) : RUNS;
      gc();
      const local: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        sink += htmlSources(decodeBody(bytes, HTML_TYPE).text).text.text.length;
        local.push(performance.now() - t0);
      }
      // Each run moves its own copy of the body, made before the clock starts.
      const copies = Array.from({ length: runs }, () => bytes.slice());
      const inThread: number[] = [];
      let note = '';
      for (const copy of copies) {
        const t0 = performance.now();
        const result = await benchPool.extract(copy, HTML_TYPE);
        inThread.push(performance.now() - t0);
        if (!result.ok) {
          note = `${result.reason}: ${result.detail}`;
          break;
        }
        sink += result.sources.text.text.length;
      }
      threadRows.push({
        label: `generated article, ${mb} MB`,
        mb: bytes.length / MB,
        inProcessMs: median(local),
        threadMs: note ? undefined : median(inThread),
        note,
      });
      process.stderr.write(`  in a parsing thread, ${mb} MB: ${note || `${median(inThread).toFixed(0)} ms`}\n`);
    }
  } finally {
    await benchPool.close();
  }
}

// ---------------------------------------------------------------- 2. verifications per second

/** Plain text of the page as a reader sees it, and excerpts cut from it at word boundaries. */
function excerptsOf(html: string, count: number, seed: number): Array<{ text: string; changed: boolean }> {
  const text = htmlToText(html);
  const r = rng(seed);
  const out: Array<{ text: string; changed: boolean }> = [];
  while (out.length < count) {
    const start = text.indexOf(' ', int(r, 0, text.length - 400)) + 1;
    const end = text.lastIndexOf(' ', start + int(r, 60, 300));
    if (end <= start) continue;
    let excerpt = text.slice(start, end);
    // A number cut short at either end is not a quote of it: keep excerpts that end on a word.
    if (!/^\p{L}/u.test(excerpt) || !/\p{L}[.,;:]?$/u.test(excerpt)) continue;
    const changed = r() < CHANGED_SHARE;
    if (changed) {
      const words = excerpt.split(' ');
      const i = words.findIndex((w, k) => k >= words.length / 2 && /^\p{L}{4,}$/u.test(w));
      if (i < 0) continue;
      words[i] = words[i] === 'lantern' ? 'orchard' : 'lantern';
      excerpt = words.join(' ');
    }
    out.push({ text: excerpt, changed });
  }
  return out;
}

interface VerifyRow {
  label: string;
  verifications: number;
  seconds: number;
  wrong: number;
  note: string;
}
const verifyRows: VerifyRow[] = [];
let redisNote = '';
let cachedTextKb = 0;

const served = Array.from({ length: CACHED_PAGES }, (_, i) => articlePage(CACHED_PAGE_BYTES, 1000 + i));
const server = createServer((req, res) => {
  const m = /^\/page-(\d+)$/.exec(req.url ?? '');
  const body = m ? served[Number(m[1])] : undefined;
  if (body === undefined) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
});
await new Promise<void>((resolve, reject) => {
  server.once('error', reject);
  server.listen(0, '127.0.0.1', resolve);
});
const { port } = server.address() as AddressInfo;
const urls = served.map((_, i) => `http://localhost:${port}/page-${i}`);
const config = ConfigSchema.parse({ citations: { allow_private_hosts: [`localhost:${port}`] } });
const fetchOptions = fetchOptionsFrom(config);
const hostLimiter = new HostLimiter(config.citations.per_host_concurrency);
cachedTextKb = served.reduce((n, html) => n + Buffer.byteLength(htmlSources(html).text.text), 0) / CACHED_PAGES / 1000;
/** What the page cache keeps of a page: the texts, their gaps, the script JSON text, as JSON. */
const cachedJsonKb =
  served.reduce((n, html) => n + Buffer.byteLength(JSON.stringify(htmlSources(html))), 0) / CACHED_PAGES / 1000;

const pool = served.flatMap((html, p) => excerptsOf(html, 400, 2000 + p).map((e) => ({ ...e, url: urls[p]! })));
const poolRandom = rng(7);
/** Reviews of REVIEW_SIZE entries drawn from every page, the same sequence for every verifier. */
function reviews(n: number): Array<Array<Evidence & { changed: boolean }>> {
  const out: Array<Array<Evidence & { changed: boolean }>> = [];
  for (let done = 0; done < n; done += REVIEW_SIZE) {
    out.push(
      Array.from({ length: Math.min(REVIEW_SIZE, n - done) }, () => {
        const e = pool[Math.floor(poolRandom() * pool.length)]!;
        return { claim: '', url: e.url, excerpt: e.text, changed: e.changed };
      }),
    );
  }
  return out;
}

const parsePool = buildParsePool(config);
const verifierWith = (cache: PageCache | undefined): Verifier =>
  createVerifier({
    fetchOptions,
    reader: parsePool,
    hostLimiter,
    concurrency: config.citations.review_concurrency,
    deadlineMs: config.citations.review_deadline_ms,
    prefixChars: 0,
    cache,
  });

/** Runs the reviews one after another; returns seconds and the count of results that are not as expected. */
async function run(verifier: Verifier, n: number): Promise<{ seconds: number; wrong: number }> {
  const batch = reviews(n);
  let wrong = 0;
  const t0 = performance.now();
  for (const evidence of batch) {
    const results = await verifier.verify(evidence);
    results.forEach((res, i) => {
      if ((res.status === 'ok') === evidence[i]!.changed) wrong++;
    });
  }
  return { seconds: (performance.now() - t0) / 1000, wrong };
}

const cacheResults = new Map<CacheResult, number>();
try {
  // Redis page cache.
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null });
  const keyPrefix = `bench-citations-${randomUUID().slice(0, 8)}`;
  let connected = false;
  try {
    await redis.connect();
    connected = true;
  } catch (err) {
    redisNote = `no Redis at ${REDIS_URL} (${(err as Error).message}): the Redis row was not measured`;
    console.log(redisNote);
  }
  if (connected) {
    try {
      const cache = createPageCache({
        redis,
        keyPrefix,
        ttlSeconds: 3600,
        failureTtlSeconds: 60,
        lockMs: config.citations.total_timeout_ms + 5000,
        onResult: (result) => cacheResults.set(result, (cacheResults.get(result) ?? 0) + 1),
      });
      const verifier = verifierWith(cache);
      gc();
      await verifier.verify(urls.map((url) => ({ claim: '', url, excerpt: 'warm' })));
      await run(verifier, Math.min(2000, VERIFICATIONS)); // warm-up
      cacheResults.clear();
      const { seconds, wrong } = await run(verifier, VERIFICATIONS);
      const hits = cacheResults.get('hit') ?? 0;
      const shared = cacheResults.get('shared') ?? 0;
      verifyRows.push({
        label: 'Redis page cache',
        verifications: VERIFICATIONS,
        seconds,
        wrong,
        note: `${hits} Redis reads, ${shared} shared in process`,
      });
      process.stderr.write(`  Redis cache: ${(VERIFICATIONS / seconds).toFixed(0)} verifications/s\n`);
    } finally {
      await deleteKeysWithPrefix(redis, `${keyPrefix}:`);
      await redis.quit();
    }
  } else {
    redis.disconnect();
  }

  // In-process cache: the page text kept in memory, no Redis round trip.
  {
    const memory = new Map<string, Promise<PageText>>();
    const cache: PageCache = {
      get(url, fetch) {
        let p = memory.get(url);
        // Shared by every review, so never given up.
        if (!p) memory.set(url, (p = fetch(new AbortController().signal)));
        return p;
      },
    };
    const verifier = verifierWith(cache);
    gc();
    await run(verifier, Math.min(2000, VERIFICATIONS)); // warm-up, fills the cache
    const { seconds, wrong } = await run(verifier, VERIFICATIONS);
    verifyRows.push({ label: 'in-process cache, no Redis', verifications: VERIFICATIONS, seconds, wrong, note: '' });
    process.stderr.write(`  in-process cache: ${(VERIFICATIONS / seconds).toFixed(0)} verifications/s\n`);
  }

  // No cache: every entry fetched over loopback and parsed.
  {
    const n = Math.max(REVIEW_SIZE, Math.round(VERIFICATIONS / 40 / REVIEW_SIZE) * REVIEW_SIZE);
    const verifier = verifierWith(undefined);
    gc();
    await run(verifier, REVIEW_SIZE); // warm-up
    const { seconds, wrong } = await run(verifier, n);
    verifyRows.push({
      label: 'no cache: fetch and parse each',
      verifications: n,
      seconds,
      wrong,
      note: 'loopback fetch, HTML to text, normalisation',
    });
    process.stderr.write(`  no cache: ${(n / seconds).toFixed(0)} verifications/s\n`);
  }
} finally {
  server.closeAllConnections();
  server.close();
  await fetchOptions.dispatcher?.destroy();
  await parsePool.close();
}

// ---------------------------------------------------------------- 3. normalise and match on 1 MB

/**
 * Page text of about 1 MB (10^6 UTF-16 code units), cut at a space: as
 * readHtml gives it, its element boundaries marked, and without the marks.
 */
let bigMarked = readHtml(articlePage(3 * MB, 3000)).visible;
bigMarked = bigMarked.slice(0, bigMarked.lastIndexOf(' ', MB));
const bigText = bigMarked.replace(/\uDC00/gu, '');
function medianMs(f: () => unknown): { ms: number; runs: number } {
  const times: number[] = [];
  gc();
  for (let i = 0; i < 3; i++) f();
  for (let i = 0; i < Math.max(RUNS, 5); i++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  return { ms: median(times), runs: times.length };
}
const norm = medianMs(() => normalizeForMatch(bigText));
const normMarked = medianMs(() => normalizeMarked(bigMarked));
const page: MatchText = normalizeMarked(bigMarked);

function quoteAt(fraction: number, length: number): string {
  const start = page.text.indexOf(' ', Math.floor(page.text.length * fraction)) + 1;
  let end = page.text.lastIndexOf(' ', start + length);
  while (!/\p{L}/u.test(page.text[end - 1]!)) end = page.text.lastIndexOf(' ', end - 1);
  return page.text.slice(start, end);
}
const late = quoteAt(0.97, 200);
const lateWords = late.split(' ');
lateWords[Math.floor(lateWords.length / 2)] = 'lantern';
/** A quote with a space put at each element boundary inside a word or next to punctuation, and one left out. */
function respaced(fraction: number, length: number): string {
  const start = page.text.indexOf(' ', Math.floor(page.text.length * fraction)) + 1;
  const quote = quoteAt(fraction, length);
  const gaps = (page.gaps ?? []).filter((g) => g > start && g < start + quote.length).map((g) => g - start);
  let out = '';
  let last = 0;
  for (const g of gaps) {
    out += quote.slice(last, g);
    // A space where the page has none; none where it has one; never between digits.
    if (quote[g] === ' ') last = g + 1;
    else {
      if (!(/\d/.test(quote[g - 1]!) && /\d/.test(quote[g]!))) out += ' ';
      last = g;
    }
  }
  return out + quote.slice(last);
}
const spaced = respaced(0.6, 300);
/**
 * The same page with a word every 2,000 characters as an optional span (a
 * formula, a pronunciation, a hidden element): an excerpt not found in it is
 * searched for again in its text without them, built once per page text.
 */
const spans: number[] = [];
for (let k = 1000; k < page.text.length - 1000; k += 2000) {
  const a = page.text.indexOf(' ', k) + 1;
  const b = page.text.indexOf(' ', a);
  if (a > (spans[spans.length - 1] ?? 0) && b > a) spans.push(a, b);
}
const pageWithSpans: MatchText = { ...page, optional: spans };
/** 200 characters of the text without the spans, around the place of one near the end. */
const reducedPage = withoutOptional(pageWithSpans);
const leftOutAt = reducedPage.at(spans[spans.length - 20]!);
const leftOutQuote = (() => {
  const t = reducedPage.text.text;
  const start = t.indexOf(' ', leftOutAt - 100) + 1;
  return t.slice(start, t.lastIndexOf(' ', start + 200));
})();
const MATCH_CASES: Array<{
  label: string;
  excerpt: string;
  expect: boolean;
  page?: 'read again' | 'new' | 'spans' | 'spans, new';
}> = [
  { label: 'present near the start, 200 chars', excerpt: quoteAt(0.02, 200), expect: true },
  { label: 'present near the end, 200 chars', excerpt: late, expect: true },
  { label: 'one word changed, 200 chars (not found)', excerpt: lateWords.join(' '), expect: false },
  {
    label: 'one word changed, the page text read again (as from Redis)',
    excerpt: lateWords.join(' '),
    expect: false,
    page: 'read again',
  },
  {
    label: 'one word changed, a page text not seen before',
    excerpt: lateWords.join(' '),
    expect: false,
    page: 'new',
  },
  { label: 'present, 2000 chars', excerpt: quoteAt(0.5, 2000), expect: true },
  {
    label: 'two parts around an ellipsis',
    excerpt: `${quoteAt(0.3, 80)} … ${quoteAt(0.9, 80)}`,
    expect: true,
  },
  { label: 'spacing differs at every element boundary, 300 chars', excerpt: spaced, expect: true },
  { label: 'absent, starts with a common word', excerpt: 'the lantern orchard of the falcon meadow', expect: false },
  {
    label: `one word changed, a page with ${spans.length / 2} optional spans`,
    excerpt: lateWords.join(' '),
    expect: false,
    page: 'spans',
  },
  {
    label: 'one word changed, a page with optional spans not seen before',
    excerpt: lateWords.join(' '),
    expect: false,
    page: 'spans, new',
  },
  { label: 'an optional span left out, 200 chars', excerpt: leftOutQuote, expect: true, page: 'spans' },
];
const matchRows: Array<Array<string | number>> = [];
let matchWrong = 0;
let pageCount = 0;
for (const c of MATCH_CASES) {
  // A page text read again is a new object with the same text; one not seen before has no squeezed form yet.
  const target = (): MatchText =>
    c.page === 'read again'
      ? { ...page, text: page.text.slice(0) }
      : c.page === 'new'
        ? { ...page, text: `${page.text} ${pageCount++}` }
        : c.page === 'spans'
          ? pageWithSpans
          : c.page === 'spans, new'
            ? { ...pageWithSpans, text: `${page.text} ${pageCount++}` }
            : page;
  const found = matchExcerpt(target(), c.excerpt).found;
  if (found !== c.expect) matchWrong++;
  for (let i = 0; i < 20; i++) matchExcerpt(target(), c.excerpt);
  const times: number[] = [];
  for (let k = 0; k < 7; k++) {
    const t0 = performance.now();
    for (let i = 0; i < 50; i++) matchExcerpt(target(), c.excerpt);
    times.push((performance.now() - t0) / 50);
  }
  matchRows.push([c.label, found ? 'found' : 'not found', (median(times) * 1000).toFixed(0)]);
}

// ---------------------------------------------------------------- 4. closest passage on big pages

/**
 * The near miss of an excerpt not found (findNearMiss), on page texts of
 * 0.25 to 16 MB: each MB the normalised text of a generated page of its own
 * seed, so that no text repeats. The excerpts come from near the end of the
 * text (the whole page is read before them), with one number changed, one
 * word put in or one changed; and one of another page, which must be absent.
 */
const NEAR_SIZES_MB = [0.25, 1, 4, 16];
const NEAR_GOAL_MS = 50;
const chunks: string[] = [];
for (let k = 0; k < Math.max(...NEAR_SIZES_MB); k++) {
  const t = normalizeMarked(readHtml(articlePage(3 * MB, 5000 + k)).visible).text;
  chunks.push(t.slice(0, t.lastIndexOf(' ', MB)));
}
const nearText = (mb: number): string =>
  mb < 1 ? chunks[0]!.slice(0, chunks[0]!.lastIndexOf(' ', mb * MB)) : chunks.slice(0, mb).join(' ');
/** A quote of `length` characters at word boundaries from `fraction` of the text on, holding a number when asked. */
function quoteOf(text: string, fraction: number, length: number, number = false): string {
  let start = text.indexOf(' ', Math.floor(text.length * fraction)) + 1;
  for (;;) {
    const quote = text.slice(start, text.lastIndexOf(' ', start + length));
    if (!number || / \d+ /.test(quote.slice(quote.length / 4))) return quote;
    start = text.indexOf(' ', start + 1) + 1;
  }
}
interface NearCase {
  label: string;
  /** The excerpt for a text, and what its diff must name (undefined: it must be absent). */
  make: (text: string) => { excerpt: string; expect?: { kind: string; excerpt: string } };
}
const foreignText = normalizeMarked(readHtml(articlePage(MB, 7777)).visible).text;
const NEAR_CASES: NearCase[] = [
  {
    label: 'one number changed, 200 chars',
    make: (t) => {
      const q = quoteOf(t, 0.97, 200, true);
      const m = / (\d+) /.exec(q.slice(q.length / 4))!;
      const at = q.length / 4 + m.index + 1;
      const next = String(Number(m[1]) + 1);
      return {
        excerpt: q.slice(0, at) + next + q.slice(at + m[1]!.length),
        expect: { kind: 'number_changed', excerpt: next },
      };
    },
  },
  {
    label: 'one word inserted, 200 chars',
    make: (t) => {
      const words = quoteOf(t, 0.98, 200).split(' ');
      words.splice(Math.floor(words.length / 2), 0, 'lantern');
      return { excerpt: words.join(' '), expect: { kind: 'word_inserted', excerpt: 'lantern' } };
    },
  },
  { label: "another page's text, 200 chars (absent)", make: () => ({ excerpt: quoteOf(foreignText, 0.5, 200) }) },
  {
    label: 'one word changed, 2000 chars',
    make: (t) => {
      const words = quoteOf(t, 0.9, 2000).split(' ');
      const k = Math.floor(words.length / 2);
      words[k] = words[k] === 'orchard' ? 'meadow' : 'orchard';
      return { excerpt: words.join(' '), expect: { kind: 'word_changed', excerpt: words[k]! } };
    },
  },
  {
    label: 'one word changed, 5000 chars (the longest excerpt)',
    make: (t) => {
      const words = quoteOf(t, 0.9, 5000).split(' ');
      const k = Math.floor(words.length / 3);
      words[k] = words[k] === 'orchard' ? 'meadow' : 'orchard';
      return { excerpt: words.join(' '), expect: { kind: 'word_changed', excerpt: words[k]! } };
    },
  },
];
interface NearRow {
  label: string;
  /** Median wall and CPU time at each size. */
  ms: number[];
  cpuMs: number[];
  wrong: number;
}
const nearRows: NearRow[] = NEAR_CASES.map((c) => ({ label: c.label, ms: [], cpuMs: [], wrong: 0 }));
const NEAR_RUNS = Math.max(RUNS, 11);
/** Median wall and CPU time of `f` (the CPU time is what the code costs when it has a core: the machine is shared). */
function nearTimes(f: () => unknown): { ms: number; cpuMs: number } {
  gc();
  for (let i = 0; i < 3; i++) f();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < NEAR_RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    f();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { ms: median(wall), cpuMs: median(cpu) };
}
for (const mb of NEAR_SIZES_MB) {
  const sources = { text: { text: nearText(mb) } };
  NEAR_CASES.forEach((c, k) => {
    const { excerpt, expect } = c.make(sources.text.text);
    const result = findNearMiss(sources, excerpt);
    const changes = result.detail === 'altered' ? result.nearMiss.diff.filter((d) => d.kind !== 'same') : [];
    const right =
      expect === undefined
        ? result.detail === 'absent'
        : changes.length === 1 &&
          changes[0]!.kind === expect.kind &&
          'excerpt' in changes[0]! &&
          changes[0].excerpt === expect.excerpt;
    if (!right) nearRows[k]!.wrong++;
    const times = nearTimes(() => findNearMiss(sources, excerpt));
    nearRows[k]!.ms.push(times.ms);
    nearRows[k]!.cpuMs.push(times.cpuMs);
  });
  process.stderr.write(
    `  near miss, ${mb} MB: ${nearRows.map((r) => r.ms[r.ms.length - 1]!.toFixed(1)).join(', ')} ms\n`,
  );
}
const nearWrong = nearRows.reduce((n, r) => n + r.wrong, 0);
const at1 = NEAR_SIZES_MB.indexOf(1);
const exponent = (ms: number[]): number =>
  Math.log(ms[ms.length - 1]! / ms[at1]!) / Math.log(NEAR_SIZES_MB[NEAR_SIZES_MB.length - 1]!);
const nearHeader = [
  'excerpt',
  ...NEAR_SIZES_MB.map((mb) => `${mb} MB, ms (CPU)`),
  'exponent, 1 to 16 MB (CPU)',
  `≤ ${NEAR_GOAL_MS} ms at 1 MB`,
  'wrong',
];
const nearTable = nearRows.map((r) => [
  r.label,
  ...r.ms.map((ms, k) => `${ms.toFixed(1)} (${r.cpuMs[k]!.toFixed(1)})`),
  `${exponent(r.ms).toFixed(2)} (${exponent(r.cpuMs).toFixed(2)})`,
  r.ms[at1]! <= NEAR_GOAL_MS ? 'yes' : r.cpuMs[at1]! <= NEAR_GOAL_MS ? 'CPU time only' : 'no',
  r.wrong,
]);

// ---------------------------------------------------------------- report

const load = `load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end`;
const mbps = (mb: number, ms: number): number => mb / (ms / 1000);
const h2tHeader = ['input', 'MB', 'ms', 'MB/s', 'CPU ms', 'MB/s of CPU time', `≥ ${GOAL_MBPS} MB/s`];
const h2tRow = (label: string, mb: number, ms: number, cpuMs: number): Array<string | number> => [
  label,
  mb.toFixed(1),
  ms.toFixed(0),
  mbps(mb, ms).toFixed(1),
  cpuMs.toFixed(0),
  mbps(mb, cpuMs).toFixed(1),
  mbps(mb, ms) >= GOAL_MBPS ? 'yes' : mbps(mb, cpuMs) >= GOAL_MBPS ? 'CPU time only' : 'no',
];
const h2tTable = h2tRows.map((row) => h2tRow(row.label, row.mb, row.ms, row.cpuMs));
if (real)
  h2tTable.push(h2tRow(`real pages, ${real.pages} (sum of bytes / sum of times)`, real.mb, real.ms, real.cpuMs));
const verifyHeader = ['verifier', 'verifications', 's', 'verifications/s', 'wrong results', 'note'];
const verifyTable = verifyRows.map((row) => [
  row.label,
  row.verifications,
  row.seconds.toFixed(2),
  (row.verifications / row.seconds).toFixed(0),
  row.wrong,
  row.note || '–',
]);
const matchHeader = ['excerpt', 'result', 'µs per matchExcerpt'];
const gapCount = page.gaps?.length ?? 0;

console.log(`1. htmlSources, one core (median of ${RUNS} runs, ${Math.min(RUNS, 3)} at 16 MB)\n`);
console.log(textTable(h2tHeader, h2tTable));
if (real) {
  console.log(
    `\nreal pages: median of ${real.passes} passes over all pages after a warm-up pass; slowest page over 100 kB ` +
      `(best of its ${real.passes} times): ${real.slowest.name} (${real.slowest.kb.toFixed(0)} kB) at ${real.slowest.mbps.toFixed(1)} MB/s`,
  );
}
const threadHeader = ['input', 'MB', 'this thread, ms', 'parsing thread, ms', 'cost of isolation', 'note'];
const threadTable = threadRows.map((row) => [
  row.label,
  row.mb.toFixed(1),
  row.inProcessMs.toFixed(0),
  row.threadMs === undefined ? '–' : row.threadMs.toFixed(0),
  row.threadMs === undefined
    ? '–'
    : `${(row.threadMs - row.inProcessMs).toFixed(0)} ms (${(((row.threadMs - row.inProcessMs) / row.inProcessMs) * 100).toFixed(0)}%)`,
  row.note || '–',
]);
console.log(`\n1b. decode and htmlSources: on this thread and through a parsing thread (median)\n`);
console.log(textTable(threadHeader, threadTable));
console.log(
  `\n2. Verifications, reviews of ${REVIEW_SIZE} entries over ${CACHED_PAGES} pages of ` +
    `${CACHED_PAGE_BYTES / 1000} kB HTML (${cachedTextKb.toFixed(0)} kB of text each, ${cachedJsonKb.toFixed(0)} kB cached), ` +
    `${Math.round(CHANGED_SHARE * 100)}% with a word changed\n`,
);
console.log(textTable(verifyHeader, verifyTable));
if (redisNote) console.log(redisNote);
console.log(
  `\n3. 1 MB of page text (${gapCount} element boundaries): normalizeForMatch ${norm.ms.toFixed(1)} ms, ` +
    `normalizeMarked ${normMarked.ms.toFixed(1)} ms (median of ${norm.runs})\n`,
);
console.log(textTable(matchHeader, matchRows));
if (matchWrong > 0) console.log(`WRONG: ${matchWrong} match case(s) gave an unexpected result`);
console.log(
  `\n4. findNearMiss on page texts of ${NEAR_SIZES_MB.join(', ')} MB (median of ${NEAR_RUNS}; CPU time in brackets)\n`,
);
console.log(textTable(nearHeader, nearTable));
if (nearWrong > 0) console.log(`WRONG: ${nearWrong} near miss(es) did not name the change or were not absent`);
console.log(`\n${load}`);
if (sink === 0) console.log('(no output)');

if (!parsed.values['no-docs']) {
  const docHeader = [
    '# Benchmarks',
    '',
    'Each section below is written by the command named in it, which replaces its own section on every run and ' +
      'leaves the others alone; the section states the machine and the date of its run. The machines are shared ' +
      'and noisy: compare figures as ratios within one run (one kind against another, one size against another), ' +
      'not across runs or machines.',
    '',
  ].join('\n');
  const body = [
    '## Citation verification speed',
    '',
    `Written by \`npm run bench:citations${real ? ' -- --pages <pages-dir>' : ''}\` on ${when}, on ${host}; ${load}. ` +
      'The machine is shared and noisy: compare figures as ratios within this run (one input against another, ' +
      'one verifier against another), not across runs or machines.',
    '',
    '### HTML to text',
    '',
    'Throughput of `htmlSources` on one core, the whole of what a parsing thread does with a decoded HTML page: ' +
      'its visible text and JSON-LD text with their element boundaries recorded, the text of its scripts\u2019 ' +
      'JSON, all normalised. MB = 10^6 bytes of UTF-8 HTML. The generated pages are articles ' +
      'with a header and navigation, sections of paragraphs with links, emphasis, code, numbers, entities and ' +
      'reference markers, headings, tables, figures, lists, quotes, inline scripts, ad frames, a style sheet ' +
      `and JSON-LD, made with a fixed seed; each point is the median of ${RUNS} runs (${Math.min(RUNS, 3)} at 16 MB) ` +
      'after a garbage collection and a warm-up (a forced collection discards the optimised code of the parser, ' +
      'which makes the next few calls several times slower, so there is none between timed runs).' +
      (real
        ? ` The real pages are the \`source.html\` of each of the ${real.pages} pages of \`${path.basename(pagesDir!)}\`, ` +
          `one call per page, sum of bytes over sum of times (median of ${real.passes} passes after a warm-up ` +
          `pass); the slowest page over 100 kB (best of its ${real.passes} times) is ${real.slowest.name} ` +
          `(${real.slowest.kb.toFixed(0)} kB) at ` +
          `${real.slowest.mbps.toFixed(1)} MB/s.`
        : '') +
      ' MB/s is measured on the clock and, since other work shares the machine, also on the CPU time of the ' +
      'process (user and system, all its threads, so garbage collection counts): the second is what the code ' +
      `does on one core when it has the core. Goal: at least ${GOAL_MBPS} MB/s.`,
    '',
    markdownTable(h2tHeader, h2tTable),
    '',
    '### HTML to text in a parsing thread',
    '',
    'The worker extracts a page\u2019s text in a parsing thread (docs/citations.md#isolation): the body is moved to ' +
      'the thread, decoded, parsed and normalised there, and the texts are copied back. The same generated pages, ' +
      'decoded and read with `htmlSources` on the benchmark\u2019s own thread and through a pool of one thread ' +
      `with the default bounds (median of ${RUNS} runs, ${Math.min(RUNS, 3)} at 16 MB, after a warm-up); the ` +
      'difference is what the isolation costs. A page the thread cannot read within its bounds shows why.',
    '',
    markdownTable(threadHeader, threadTable),
    '',
    '### Verifications per second',
    '',
    `A loopback server serves ${CACHED_PAGES} generated pages of ${CACHED_PAGE_BYTES / 1000} kB of HTML ` +
      `(${cachedTextKb.toFixed(0)} kB of normalised text each; ${cachedJsonKb.toFixed(0)} kB as the page cache ` +
      `keeps it, with its gaps and the text of its scripts\u2019 JSON); \`createVerifier\` checks reviews of ${REVIEW_SIZE} ` +
      `entries drawn from all of them, one review after another, ${Math.round(CHANGED_SHARE * 100)}% of the ` +
      'excerpts with a word changed (not found, so the whole page is searched, then searched again for the ' +
      'closest passage, its near miss). With the Redis page cache ' +
      '(`createPageCache`, a unique key prefix deleted afterwards) the cache is warm: each entry reads the page ' +
      'text from Redis, or shares a read in flight in the process, then matches. The in-process cache keeps the ' +
      'page text in memory (matching and the verifier alone); without a cache each entry fetches the page over ' +
      'loopback and extracts its text. Wrong results (a changed excerpt ok, a true one not) must be 0.' +
      (redisNote ? ` ${redisNote}.` : ''),
    '',
    markdownTable(verifyHeader, verifyTable),
    '',
    '### Normalising and matching on a 1 MB page',
    '',
    `1 MB of page text (10^6 UTF-16 code units, generated, ${gapCount} element boundaries): ` +
      `\`normalizeForMatch\` of it ${norm.ms.toFixed(1)} ms; \`normalizeMarked\` of it with its boundaries ` +
      `marked, which records them, ${normMarked.ms.toFixed(1)} ms (median of ${norm.runs}). \`matchExcerpt\` ` +
      'against the normalised page with its gaps (it normalises the excerpt too), median of 7 rounds of 50 calls. ' +
      'An excerpt not found word for word is searched for again across the gaps, in a form of the page without ' +
      'spaces and hyphens, built once per page text and kept for the last few texts of up to 1 MB; a page ' +
      'read again from the Redis cache finds it kept, one not seen before builds it. On a page with optional ' +
      'spans (docs/citations.md#optional-elements; here a word every 2,000 characters), an excerpt not found is ' +
      'searched for once more in the text without them, built and kept the same way:',
    '',
    markdownTable(matchHeader, matchRows),
    '',
    '### Closest passage of an excerpt not found',
    '',
    'For an excerpt not on its page, `findNearMiss` finds the closest passage and its word-level diff ' +
      '(docs/citations.md#near-misses): one pass over the page text for the pairs of the excerpt\u2019s words, ' +
      'then an alignment of a window of twice the excerpt\u2019s length, whatever the page\u2019s. Page texts of ' +
      `${NEAR_SIZES_MB.join(', ')} MB (10^6 UTF-16 code units), each MB the normalised text of a generated page ` +
      'of a seed of its own (no text repeats, but the generator draws on about a hundred words, so every pair ' +
      'of words recurs: harder than prose); the excerpts are taken near the end of the text, one of another ' +
      `generated page must be \`absent\`, the others \`altered\` with their one change named. Median of ` +
      `${NEAR_RUNS} calls after 3, in ms on the clock and, in brackets, in CPU time of the process (what the ` +
      'search costs when it has a core; the machine is shared). The exponent k fits time ∝ size^k from 1 to 16 MB: ' +
      '1 is linear (the alignment, which depends on the excerpt alone, makes it less). Goal: ' +
      `${NEAR_GOAL_MS} ms at 1 MB.` +
      (nearWrong > 0 ? ` **${nearWrong} wrong.**` : ''),
    '',
    markdownTable(nearHeader, nearTable),
    '',
  ].join('\n');
  writeMarkedSection(DOC, 'bench:citations', docHeader, await formatMarkdown(body, DOC));
  console.log('\nwrote the bench:citations section of docs/benchmarks.md');
}
process.exit(matchWrong > 0 || nearWrong > 0 || verifyRows.some((row) => row.wrong > 0) ? 1 : 0);
