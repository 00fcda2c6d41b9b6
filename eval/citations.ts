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
 *    first 200 characters, and an excerpt of 60 to 240 characters cut at word
 *    boundaries, cited against its own page, must verify `ok`; and so must
 *    excerpts of the kinds real pages and real extractors make hard:
 *    (1) spaces at element boundaries as other extractors copy them (a space
 *    at every boundary, or none at the edges of text nodes); (2) the article
 *    only in a script's JSON (derived pages, served at /NAME/<variant>/);
 *    (3) soft hyphens on the page, in the excerpt, and a line broken at one;
 *    (4) an optional element (a formula, a pronunciation, a hidden element) left out.
 * 2. False accepts: excerpts of other pages, true excerpts of each kind with
 *    one word or one number changed, and the guards' own cases (a space moved
 *    where the page has no element boundary, a number edited next to one, a
 *    `not` inserted, an excerpt that begins or ends inside a word or a
 *    number, an element of kind 4 cut in part, replaced or turned into
 *    `not`) must not verify `ok`; nor must a true excerpt with one word put in.
 * 3. Near misses: each false excerpt not on its page is `altered` (a close
 *    passage, with a diff) or `absent`; one with a number changed or a word
 *    put in must be `altered` with its diff naming that change, and one of
 *    another page `absent`, each in at least 99%.
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
 * under 99.5%, anything false is accepted or a near-miss requirement is not
 * met, 2 on a usage error.
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
import {
  ALTERED_MIN_SIMILARITY,
  closestPassage,
  htmlSources,
  htmlToText,
  matchExcerpt,
  normalizeForMatch,
} from '../src/safety/citations/index.js';
import {
  breakAtSoftHyphen,
  cutEdits,
  domOf,
  insertNot,
  insideTextNodes,
  joinSegments,
  numberEditsAt,
  numbersAtBoundaries,
  omissions,
  leftOut,
  withInside,
  SCRIPT_PAGES,
  scriptPage,
  segmentsOf,
  SHY,
  softHyphenPage,
  spaceEdits,
  window,
  WINDOW_MAX,
  WINDOW_MIN,
  type Edit,
  type ExpectedChange,
  type ScriptPage,
  type Segment,
} from './citation-cases.js';
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
import { rng, type Rand } from './random.js';

const DOC = fileURLToPath(new URL('../docs/citations.md', import.meta.url));
const RECALL_FLOOR = 0.995;
const RECALL_GOAL = 0.999;
/** Length of the opening slice taken from a longer paragraph. */
const SLICE = 200;
/** Foreign and changed excerpts are at least this long once normalised. */
const MIN_NEGATIVE = 40;
/** Excerpts taken from each page to cite against other pages. */
const FOREIGN_PER_PAGE = 8;
/** Guard cases drawn from each page: windows inside one text node, numbers at element boundaries. */
const GUARD_PER_PAGE = 12;

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
  /** The text nodes of each `<p>` of expected.html (the non-empty ones), for other extractors' copies. */
  paragraphSegments: Segment[][];
  /** Each `<p>` of expected.html, hyphenated as the soft-hyphen page is, as a reader sees it. */
  hyphenatedParagraphs: string[];
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
  const paragraphs: string[] = [];
  const paragraphSegments: Segment[][] = [];
  const hyphenatedParagraphs: string[] = [];
  for (const el of $('p').toArray()) {
    const html = $.html(el);
    const text = htmlToText(html);
    if (normalizeForMatch(text) === '') continue;
    paragraphs.push(text);
    paragraphSegments.push(segmentsOf(el as unknown as Parameters<typeof segmentsOf>[0]));
    hyphenatedParagraphs.push(htmlToText(softHyphenPage(html)));
  }
  pages.push({
    name,
    source,
    expected: normalizeForMatch(htmlToText(expectedHtml)),
    paragraphs,
    paragraphSegments,
    hyphenatedParagraphs,
  });
}
if (pages.length < 2) usage(`${pagesDir} holds ${pages.length} page folder(s) with source.html and expected.html`);
const byName = new Map(pages.map((p) => [p.name, p]));

/** Pages served, by key: NAME for the page as it is, NAME/VARIANT for a page derived from it. */
const served = new Map<string, Buffer>();
for (const page of pages) served.set(page.name, page.source);
const baseName = (key: string): string => key.split('/')[0]!;
const variantKey = (name: string, variant: string): string => {
  const key = `${name}/${variant}`;
  if (!served.has(key)) {
    const html = byName.get(name)!.source.toString('utf8');
    const built = variant === 'shy' ? softHyphenPage(html) : scriptPage(html, variant as ScriptPage);
    served.set(key, Buffer.from(built, 'utf8'));
  }
  return key;
};

const random = rng(SEED);
function shuffled<T>(xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

// ---------------------------------------------------------------- kinds

/** Excerpts that are on their page and must verify. */
const TRUE_KINDS = {
  paragraph: 'whole paragraph',
  opening: `first ${SLICE} characters`,
  window: `excerpt of ${WINDOW_MIN}–${WINDOW_MAX} characters at word boundaries`,
  spaced: '1. a space at every element boundary (get_text(" "), HTML to Markdown)',
  stripped: '1. no space at the edges of text nodes (text nodes trimmed and joined)',
  'script:window-state': '2. article only in `window.__INITIAL_STATE__ = {...}`',
  'script:next-data': '2. article only in `__NEXT_DATA__` (application/json)',
  'script:escaped-html': '2. article only as `&lt;p&gt;...` in a script object',
  'script:rich-text': '2. article only as rich-text JSON, a string per text node',
  'shy:plain': '3. soft hyphens on the page, none in the excerpt',
  'shy:excerpt': '3. soft hyphens on the page and in the excerpt',
  'shy:broken': '3. excerpt broken at a soft hyphen ("-" and a line break)',
  optional: '4. an optional element (formula, pronunciation, hidden, ...) left out, as reader modes copy',
} as const;
type TrueKind = keyof typeof TRUE_KINDS;

/** Excerpts that are not on their page and must not verify. */
const FALSE_KINDS = {
  foreign: `excerpt of another page (${FOREIGN_PER_PAGE} per page × ${OTHERS} other pages)`,
  word: 'one word changed',
  number: 'one number changed (+1)',
  inserted: 'one word inserted',
  'edited:spacing': '1. element-boundary excerpts, one word or number changed',
  'edited:script': '2. script-only pages, one word or number changed',
  'edited:shy': '3. soft-hyphen excerpts, one word or number changed',
  'edited:optional': '4. excerpts leaving out an element, one word or number changed',
  space: 'guard: a space moved where the page has no element boundary',
  'boundary-number': 'guard: a number edited next to an element boundary',
  not: 'guard: "not" inserted',
  cut: 'guard: begins or ends inside a word or a number',
  'optional-part': 'guard: part of an optional element left out',
  'optional-other': 'guard: the text of another optional element in its place',
  'optional-not': 'guard: "not" where an optional element was left out',
} as const;
type FalseKind = keyof typeof FALSE_KINDS;

interface Excerpt<K extends string = TrueKind | FalseKind> {
  /** The page the excerpt cites (a key of `served`). */
  page: string;
  /** The page the excerpt was taken from. */
  from: string;
  kind: K;
  text: string;
  /** For a changed excerpt: what was changed. */
  change?: string;
  /** The change its near miss should name. */
  expect?: ExpectedChange;
}

// ---------------------------------------------------------------- true excerpts

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

/** The match of `re` in `text` (that `keep` keeps) whose centre is nearest the middle of the text. */
function nearestMiddle(
  text: string,
  re: RegExp,
  keep: (m: RegExpExecArray) => boolean = () => true,
): RegExpExecArray | undefined {
  const mid = text.length / 2;
  let best: RegExpExecArray | undefined;
  let bestDistance = Infinity;
  for (const m of text.matchAll(re)) {
    if (!keep(m as RegExpExecArray)) continue;
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
function changeWord(text: string, r: Rand = random): Edit | undefined {
  const m = nearestMiddle(text, WORD);
  if (!m) return undefined;
  const choose = (): string => REPLACEMENTS[Math.floor(r() * REPLACEMENTS.length)]!;
  let word = choose();
  while (word === m[0].toLowerCase()) word = choose();
  word = sameCase(word, m[0]);
  return {
    text: text.slice(0, m.index) + word + text.slice(m.index + m[0].length),
    change: `${m[0]} → ${word}`,
    // A replaced "never" or "without" takes a negation out.
    expect: { kinds: ['word_changed', 'negation'], excerpt: normalizeForMatch(word), page: normalizeForMatch(m[0]) },
  };
}

/** Its own stream, so that the excerpts of the other kinds stay as they were before this kind was added. */
const insertionRandom = rng(SEED + 1);

/**
 * The excerpt with a real word put in before the word of 4+ letters nearest
 * its middle that begins after a space, or after an opening bracket or quote
 * that does: between two words, not inside a compound ("non-participants",
 * "o'clock").
 */
function insertWord(text: string): Edit | undefined {
  const m = nearestMiddle(
    text,
    WORD,
    (x) => /(?:^|\s)[(["'\u201C\u2018\u00AB]?$/u.test(text.slice(0, x.index)) && x.index > 0,
  );
  if (!m) return undefined;
  const word = REPLACEMENTS[Math.floor(insertionRandom() * REPLACEMENTS.length)]!;
  return {
    text: `${text.slice(0, m.index)}${word} ${text.slice(m.index)}`,
    change: `${word} before ${m[0]}`,
    expect: { kinds: ['word_inserted'], excerpt: word, page: '' },
  };
}

/**
 * The excerpt with the number nearest its middle increased by one (leading
 * zeros kept). Numbers of reference markers (`[17]`) are left alone: the
 * matcher removes markers from both sides, so a changed one says nothing.
 */
function changeNumber(text: string): Edit | undefined {
  // A number inside a marker's brackets, or the page number after one (`[1]: 207`).
  const inMarker = (m: RegExpExecArray): boolean => {
    const before = text.slice(Math.max(0, m.index - 30), m.index);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 30);
    if (/\[[\d ,\-–]*$/.test(before) && /^[\d ,\-–]*\]/.test(after)) return true;
    return /\] ?: ?(?:pp?\. ?)?(?:\d{1,4} ?[-–] ?)?$/.test(before);
  };
  const m = nearestMiddle(text, NUMBER, (x) => !inMarker(x));
  if (!m) return undefined;
  const next = (BigInt(m[0]) + 1n).toString().padStart(m[0].length, '0');
  return {
    text: text.slice(0, m.index) + next + text.slice(m.index + m[0].length),
    change: `${m[0]} → ${next}`,
    expect: { kinds: ['number_changed'], excerpt: next, page: m[0] },
  };
}

const trueExcerpts: Array<Excerpt<TrueKind>> = [];
let tooLong = 0;
for (const page of pages) {
  const seen = new Set<string>();
  const add = (kind: TrueKind, text: string): void => {
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
const negatives: Array<Excerpt<FalseKind>> = [];
const skipped = Object.fromEntries(Object.keys(FALSE_KINDS).map((k) => [k, 0])) as Record<FalseKind, number>;
/** Foreign excerpts skipped, by "taken from → cited against". */
const skippedPairs = new Map<string, number>();

/** The page's text as the verifier reads it, normalised (by key of `served`). */
const pageTexts = new Map<string, string>();
function pageText(key: string): string {
  let text = pageTexts.get(key);
  if (text === undefined) {
    text = normalizeForMatch(htmlToText(served.get(key)!.toString('utf8')));
    pageTexts.set(key, text);
  }
  return text;
}

/**
 * Whether the excerpt is, word for word, on the page: in its expected.html as
 * a reader sees it, or (for the guards, whose excerpts come from the served
 * page) in the served page's text. Matched against plain text, so that no
 * tolerance of the matcher decides what counts as false.
 */
const genuinelyOn = (e: Excerpt<FalseKind>, served: boolean): boolean =>
  matchExcerpt(byName.get(baseName(e.page))!.expected, e.text).found ||
  (served && matchExcerpt(pageText(baseName(e.page)), e.text).found);

const addNegative = (e: Excerpt<FalseKind>, checkServed = false): void => {
  if (!genuinelyOn(e, checkServed)) {
    negatives.push(e);
    return;
  }
  skipped[e.kind]++;
  const pair = `${e.from} → ${e.page}`;
  if (e.kind === 'foreign') skippedPairs.set(pair, (skippedPairs.get(pair) ?? 0) + 1);
};

for (const e of trueExcerpts) {
  if (normalizeForMatch(e.text).length < MIN_NEGATIVE) continue;
  const word = changeWord(e.text);
  if (word) addNegative({ ...e, kind: 'word', ...word });
  const number = changeNumber(e.text);
  if (number) addNegative({ ...e, kind: 'number', ...number });
  const inserted = insertWord(e.text);
  if (inserted) addNegative({ ...e, kind: 'inserted', ...inserted });
}

for (const page of pages) {
  const long = trueExcerpts.filter((e) => e.from === page.name && normalizeForMatch(e.text).length >= MIN_NEGATIVE);
  const sample = shuffled(long).slice(0, FOREIGN_PER_PAGE);
  const others = shuffled(pages.filter((p) => p !== page)).slice(0, OTHERS);
  for (const other of others) {
    for (const e of sample) addNegative({ page: other.name, from: page.name, kind: 'foreign', text: e.text });
  }
}

// The kinds below draw from random streams of their own, so that adding one
// leaves the excerpts of the others as they were.
const streams = new Map<string, Rand>();
const stream = (name: string): Rand => {
  let r = streams.get(name);
  if (!r) {
    let h = SEED;
    for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 0x9e3779b1);
    streams.set(name, (r = rng(h)));
  }
  return r;
};

/** Each changed excerpt of a kind's true excerpt, against the same page. */
function addEdited(e: Excerpt<TrueKind>, kind: FalseKind): void {
  if (normalizeForMatch(e.text).length < MIN_NEGATIVE) return;
  const word = changeWord(e.text, stream(kind));
  if (word) addNegative({ ...e, kind, ...word });
  const number = changeNumber(e.text);
  if (number) addNegative({ ...e, kind, ...number });
}

const plainNormalized = (page: Page, i: number): string => normalizeForMatch(page.paragraphs[i]!);

for (const page of pages) {
  const added = new Set<string>();
  const add = (kind: TrueKind, pageKey: string, text: string | undefined): Excerpt<TrueKind> | undefined => {
    if (text === undefined || text.length > MAX_EXCERPT_CHARS || added.has(`${kind} ${text}`)) return undefined;
    added.add(`${kind} ${text}`);
    const e: Excerpt<TrueKind> = { page: pageKey, from: page.name, kind, text };
    trueExcerpts.push(e);
    return e;
  };
  page.paragraphs.forEach((paragraph, i) => {
    add('window', page.name, window(stream('window'), paragraph));

    // 1. The paragraph as other extractors copy it; only excerpts that differ
    //    from the text a reader sees are this kind.
    const segments = page.paragraphSegments[i]!;
    const rendered = joinSegments(segments, 'rendered');
    for (const how of ['spaced', 'stripped'] as const) {
      const w = window(stream(how), joinSegments(segments, how), rendered);
      if (w === undefined || plainNormalized(page, i).includes(normalizeForMatch(w))) continue;
      const e = add(how, page.name, w);
      if (e) addEdited(e, 'edited:spacing');
    }

    // 2. The article only in a script, one derived page per construction.
    for (const how of SCRIPT_PAGES) {
      const e = add(`script:${how}`, variantKey(page.name, how), window(stream(`script:${how}`), paragraph));
      if (e) addEdited(e, 'edited:script');
    }

    // 3. Soft hyphens: the page hyphenated, the excerpt without them, with them, broken at one.
    const hyphenated = window(stream('shy'), page.hyphenatedParagraphs[i]!);
    if (hyphenated !== undefined && hyphenated.includes(SHY)) {
      const key = variantKey(page.name, 'shy');
      for (const e of [
        add('shy:plain', key, hyphenated.replaceAll(SHY, '')),
        add('shy:excerpt', key, hyphenated),
        add('shy:broken', key, breakAtSoftHyphen(stream('shy:broken'), hyphenated)),
      ]) {
        if (e) addEdited(e, 'edited:shy');
      }
    }
  });

  // The guards' own cases, from the served page's text nodes.
  const dom = domOf(page.source.toString('utf8'));
  const body = segmentsOf(dom);
  // Only excerpts found once on the page: elsewhere the same words may stand at an element boundary.
  const onPage = (text: string): boolean => {
    const t = pageText(page.name);
    const n = normalizeForMatch(text);
    return matchExcerpt(t, text).found && t.indexOf(n) === t.lastIndexOf(n);
  };
  for (const w of insideTextNodes(stream('space'), body, GUARD_PER_PAGE)) {
    if (!onPage(w)) continue;
    for (const edit of spaceEdits(w)) addNegative({ page: page.name, from: page.name, kind: 'space', ...edit }, true);
  }
  for (const { text, at } of numbersAtBoundaries(body, GUARD_PER_PAGE)) {
    if (!onPage(text)) continue;
    for (const edit of numberEditsAt(text, at)) {
      addNegative({ page: page.name, from: page.name, kind: 'boundary-number', ...edit }, true);
    }
  }
  // 4. Formulas, pronunciations and hidden elements left out, as a reader's copy has them, and the guards.
  const left = omissions(dom, GUARD_PER_PAGE);
  left.forEach((o, k) => {
    const e = add('optional', page.name, leftOut(o));
    if (e) addEdited(e, 'edited:optional');
    const inner = [...o.inner];
    if (inner.length >= 2) {
      const half = inner.slice(0, Math.ceil(inner.length / 2)).join('');
      const part = { text: withInside(o, half), change: `"${o.inner}" cut to "${half}"` };
      addNegative({ page: page.name, from: page.name, kind: 'optional-part', ...part }, true);
    }
    const other = left.find((x, j) => j !== k && normalizeForMatch(x.inner) !== normalizeForMatch(o.inner));
    if (other) {
      const text = withInside(o, ` ${other.inner} `);
      addNegative(
        { page: page.name, from: page.name, kind: 'optional-other', text, change: `"${o.inner}" → "${other.inner}"` },
        true,
      );
    }
    const text = withInside(o, ' not ');
    addNegative({ page: page.name, from: page.name, kind: 'optional-not', text, change: `not for "${o.inner}"` }, true);
  });

  for (const e of trueExcerpts.filter((x) => x.page === page.name && x.kind === 'window')) {
    const not = insertNot(e.text);
    if (not) addNegative({ page: page.name, from: page.name, kind: 'not', ...not });
    for (const edit of cutEdits(e.text)) {
      // A cut that leaves a few characters only says nothing about the guard.
      if (normalizeForMatch(edit.text).length < MIN_NEGATIVE) continue;
      addNegative({ page: page.name, from: page.name, kind: 'cut', ...edit });
    }
  }
}
const prepSeconds = (performance.now() - prepStarted) / 1000;

// ---------------------------------------------------------------- server and verifier

let requests = 0;
const server = createServer((req, res) => {
  const m = /^\/([^/?]+)\/(?:([a-z-]+)\/)?(?:\?.*)?$/.exec(req.url ?? '');
  let key: string | undefined;
  try {
    key = m ? decodeURIComponent(m[1]!) + (m[2] ? `/${m[2]}` : '') : undefined;
  } catch {
    key = undefined;
  }
  const body = key === undefined ? undefined : served.get(key);
  if (!body) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
    return;
  }
  requests++;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
await new Promise<void>((resolve, reject) => {
  server.once('error', reject);
  server.listen(0, '127.0.0.1', resolve);
});
const { port } = server.address() as AddressInfo;
const urlOf = (key: string): string => {
  const [name, variant] = key.split('/');
  return `http://localhost:${port}/${encodeURIComponent(name!)}/${variant ? `${variant}/` : ''}`;
};

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
      if (!p) pagesOfReview.set(url, (p = fetch(new AbortController().signal)));
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
    deadlineMs: c.review_deadline_ms,
    prefixChars: c.prefix_chars,
    cache: reviewCache(),
  });
}

let reviews = 0;
let verifications = 0;
/** Verifies the excerpts, one review per cited page (split at MAX_EVIDENCE entries). */
async function verifyAll(excerpts: readonly Excerpt[]): Promise<CitationResult[]> {
  const results = new Array<CitationResult>(excerpts.length);
  const byPage = new Map<string, number[]>();
  excerpts.forEach((e, i) => {
    const list = byPage.get(e.page);
    if (list) list.push(i);
    else byPage.set(e.page, [i]);
  });
  for (const [key, indexes] of byPage) {
    for (let at = 0; at < indexes.length; at += MAX_EVIDENCE) {
      const chunk = indexes.slice(at, at + MAX_EVIDENCE);
      const evidence: Evidence[] = chunk.map((i) => ({ claim: '', url: urlOf(key), excerpt: excerpts[i]!.text }));
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

const squeeze = (s: string): string => s.replace(/ /g, '');

/** The page's visible text and the text of its scripts' JSON, normalised: where a miss is looked for. */
function diagnosisText(key: string): string {
  const script = htmlSources(served.get(key)!.toString('utf8')).script?.text;
  return script === undefined ? pageText(key) : `${pageText(key)} ${script}`;
}

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
  const text = diagnosisText(e.page);
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

/** "a 3, b 1": counts, highest first. */
const count = (m: Map<string, number>): string =>
  [...m]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
const tally = (m: Map<string, number>, key: string): void => void m.set(key, (m.get(key) ?? 0) + 1);

/** Where the verified excerpts were found (the result's `source`, when the verifier reports one). */
const sourceOf = (r: CitationResult): string => (r as { source?: string }).source ?? 'text';

interface Miss extends Diagnosis {
  excerpt: Excerpt;
  result: CitationResult;
}
const misses: Miss[] = [];
const recallRows: Array<Array<string | number>> = [];
for (const kind of Object.keys(TRUE_KINDS) as TrueKind[]) {
  const idx = trueExcerpts.flatMap((e, i) => (e.kind === kind ? [i] : []));
  const ok = idx.filter((i) => trueResults[i]!.status === 'ok');
  const sources = new Map<string, number>();
  for (const i of ok) tally(sources, sourceOf(trueResults[i]!));
  recallRows.push([TRUE_KINDS[kind], idx.length, ok.length, percent(ok.length, idx.length, 2), count(sources) || '–']);
}
trueExcerpts.forEach((e, i) => {
  const r = trueResults[i]!;
  if (r.status !== 'ok') misses.push({ excerpt: e, result: r, ...diagnose(e, r) });
});
const trueOk = trueExcerpts.length - misses.length;
recallRows.push(['all', trueExcerpts.length, trueOk, percent(trueOk, trueExcerpts.length, 2), '']);
const recall = trueExcerpts.length === 0 ? 0 : trueOk / trueExcerpts.length;
const causes = new Map<string, number>();
for (const m of misses) tally(causes, `${m.excerpt.kind}: ${m.cause}`);
const missPages = new Set(misses.map((m) => baseName(m.excerpt.page)));

// ---------------------------------------------------------------- false accepts

const accepted: Array<Excerpt<FalseKind>> = [];
const notOkReasons = new Map<string, number>();
const falseRows: Array<Array<string | number>> = [];
for (const kind of Object.keys(FALSE_KINDS) as FalseKind[]) {
  const idx = negatives.flatMap((e, i) => (e.kind === kind ? [i] : []));
  let ok = 0;
  for (const i of idx) {
    const r = negativeResults[i]!;
    if (r.status === 'ok') {
      ok++;
      accepted.push(negatives[i]!);
    } else {
      tally(notOkReasons, `${r.status}: ${r.reason}`);
    }
  }
  falseRows.push([FALSE_KINDS[kind], idx.length, skipped[kind], ok]);
}
const skippedAll = Object.values(skipped).reduce((a, b) => a + b, 0);
falseRows.push(['all', negatives.length, skippedAll, accepted.length]);

// ---------------------------------------------------------------- near misses

/** Whether the result's diff names the expected change, and whether it names nothing else. */
function named(r: CitationResult, x: ExpectedChange): { names: boolean; only: boolean } {
  const changes = (r.nearMiss?.diff ?? []).filter((d) => d.kind !== 'same');
  const names = changes.some(
    (d) =>
      x.kinds.includes(d.kind) &&
      d.excerpt.includes(x.excerpt) &&
      (x.page === '' ? d.page === '' : d.page.includes(x.page)),
  );
  return { names, only: names && changes.length === 1 };
}

/** Kinds whose near miss has a requirement: [kind, what must hold, the share required]. */
const NEAR_REQUIREMENTS: Array<[FalseKind, 'names' | 'absent']> = [
  ['number', 'names'],
  ['inserted', 'names'],
  ['foreign', 'absent'],
];
const NEAR_FLOOR = 0.99;

interface NearStats {
  diagnosed: number;
  altered: number;
  absent: number;
  expected: number;
  names: number;
  only: number;
}
const nearStats = new Map<FalseKind, NearStats>();
/** Results that miss what their kind requires, for printing. */
const nearMisses: Array<{ e: Excerpt<FalseKind>; r: CitationResult }> = [];
negatives.forEach((e, i) => {
  const r = negativeResults[i]!;
  let st = nearStats.get(e.kind);
  if (!st) nearStats.set(e.kind, (st = { diagnosed: 0, altered: 0, absent: 0, expected: 0, names: 0, only: 0 }));
  if (r.detail === undefined) return;
  st.diagnosed++;
  if (r.detail === 'altered') st.altered++;
  else st.absent++;
  let missed = e.kind === 'foreign' && r.detail !== 'absent';
  if (e.expect !== undefined) {
    st.expected++;
    const n = named(r, e.expect);
    if (n.names) st.names++;
    if (n.only) st.only++;
    missed = !n.names && (e.kind === 'number' || e.kind === 'inserted');
  }
  if (missed) nearMisses.push({ e, r });
});
const nearRows: Array<Array<string | number>> = [];
for (const kind of Object.keys(FALSE_KINDS) as FalseKind[]) {
  const st = nearStats.get(kind);
  if (!st || st.diagnosed === 0) continue;
  nearRows.push([
    FALSE_KINDS[kind],
    st.diagnosed,
    percent(st.altered, st.diagnosed, 2),
    percent(st.absent, st.diagnosed, 2),
    st.expected === 0 ? '–' : percent(st.names, st.expected, 2),
    st.expected === 0 ? '–' : percent(st.only, st.expected, 2),
  ]);
}
const nearMet = NEAR_REQUIREMENTS.map(([kind, what]) => {
  const st = nearStats.get(kind);
  const share = !st ? 0 : what === 'absent' ? st.absent / st.diagnosed : st.names / st.expected;
  return { kind, what, share, met: st !== undefined && share >= NEAR_FLOOR };
});
const nearAllMet = nearMet.every((n) => n.met);

/**
 * The similarity of the closest passage, computed here with the pure search on
 * the served page's text as a reader sees it (no gaps), for the kinds the
 * threshold separates: another page's text, and one word or number changed or
 * put in. Zero when no pair of the excerpt's words is on the page.
 */
const SIMILARITY_KINDS: FalseKind[] = ['foreign', 'word', 'number', 'inserted', 'not'];
const similarities = new Map<FalseKind, number[]>();
for (const e of negatives) {
  if (!SIMILARITY_KINDS.includes(e.kind)) continue;
  const list = similarities.get(e.kind) ?? [];
  similarities.set(e.kind, list);
  list.push(closestPassage(pageText(baseName(e.page)), normalizeForMatch(e.text))?.similarity ?? 0);
}
const quantile = (xs: number[], q: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))] ?? 0;
};
const similarityRows = SIMILARITY_KINDS.filter((k) => similarities.has(k)).map((k) => {
  const xs = similarities.get(k)!;
  const over = xs.filter((x) => x >= ALTERED_MIN_SIMILARITY).length;
  return [
    FALSE_KINDS[k],
    xs.length,
    quantile(xs, 0).toFixed(3),
    quantile(xs, 0.01).toFixed(3),
    quantile(xs, 0.5).toFixed(3),
    quantile(xs, 0.99).toFixed(3),
    quantile(xs, 1).toFixed(3),
    percent(over, xs.length, 2),
  ];
});
const similarityHeader = ['excerpt', 'n', 'min', '1%', 'median', '99%', 'max', `≥ ${ALTERED_MIN_SIMILARITY}`];
const nearHeader = ['excerpt', 'diagnosed', 'altered', 'absent', 'names the change', 'names only it'];

// ---------------------------------------------------------------- printing

const clip = (s: string, n = 160): string => JSON.stringify(s.length > n ? s.slice(0, n) + '…' : s);
const loadLine = `load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end`;
const perSecond = (n: number, s: number): string => (s > 0 ? (n / s).toFixed(0) : '–');
const paragraphsTotal = pages.reduce((n, p) => n + p.paragraphs.length, 0);
const derivedPages = served.size - pages.length;
const met = (ok: boolean): string => (ok ? 'met' : 'NOT MET');

console.log(
  `excerpts from ${paragraphsTotal} non-empty paragraphs: ${trueExcerpts.length} true, ${negatives.length} false; ` +
    `${derivedPages} derived pages; prepared in ${prepSeconds.toFixed(1)} s`,
);
if (tooLong > 0)
  console.log(`${tooLong} paragraph(s) over ${MAX_EXCERPT_CHARS} characters checked by their opening only`);
if (notUtf8.length > 0) console.log(`not valid UTF-8 (served as UTF-8 all the same): ${notUtf8.join(', ')}`);

console.log('\n1. Recall: true excerpts cited against their own page\n');
console.log(textTable(['excerpt', 'checked', 'ok', 'recall', 'found in'], recallRows));
console.log(
  `\nrequirement: recall >= ${(RECALL_FLOOR * 100).toFixed(1)}%: ${met(recall >= RECALL_FLOOR)}; ` +
    `goal ${(RECALL_GOAL * 100).toFixed(1)}%: ${met(recall >= RECALL_GOAL)}` +
    (misses.length > 0 ? `; ${misses.length} miss(es) on ${missPages.size} page(s)` : ''),
);
if (misses.length > 0) console.log(`  by kind and cause: ${count(causes)}`);
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
console.log(`requirement: no false accept: ${met(accepted.length === 0)}`);
const shownPerKind = new Map<string, number>();
for (const e of accepted) {
  // At most 10 of each kind, so that one kind cannot hide another.
  tally(shownPerKind, e.kind);
  if (shownPerKind.get(e.kind)! > 10) continue;
  console.log(
    `  ACCEPTED ${e.kind} cited against ${e.page}` +
      (e.kind === 'foreign' ? ` (taken from ${e.from})` : ` (${e.change})`) +
      `\n    ${clip(e.text, 400)}`,
  );
}

console.log('\n3. Near misses: the closest passage of each false excerpt not on its page\n');
console.log(textTable(nearHeader, nearRows));
for (const n of nearMet) {
  console.log(
    `requirement: ${FALSE_KINDS[n.kind]}: ${n.what === 'absent' ? 'absent' : 'altered, naming the change'} ` +
      `>= ${(NEAR_FLOOR * 100).toFixed(0)}%: ${percent(n.share, 1, 2)} ${met(n.met)}`,
  );
}
const shownNear = new Map<string, number>();
for (const { e, r } of nearMisses) {
  tally(shownNear, e.kind);
  if (shownNear.get(e.kind)! > 10) continue;
  const diff = (r.nearMiss?.diff ?? []).filter((d) => d.kind !== 'same');
  console.log(
    `  NEAR ${e.kind} cited against ${e.page} (${e.change ?? `taken from ${e.from}`}): ${r.detail}` +
      (r.nearMiss ? ` ${r.nearMiss.similarity}` : '') +
      `\n    excerpt ${clip(e.text)}` +
      (r.nearMiss ? `\n    passage ${clip(r.nearMiss.passage)}\n    changes ${clip(JSON.stringify(diff), 300)}` : ''),
  );
}
console.log(`\nsimilarity of the closest passage (altered from ${ALTERED_MIN_SIMILARITY}):\n`);
console.log(textTable(similarityHeader, similarityRows));

console.log(
  `\n4. Volume: ${verifications} verifications in ${reviews} reviews, ${requests} page fetches, ` +
    `${totalSeconds.toFixed(1)} s (true ${trueSeconds.toFixed(1)} s, false ${negativeSeconds.toFixed(1)} s), ` +
    `${perSecond(verifications, totalSeconds)} verifications/s`,
);
console.log(loadLine);

// ---------------------------------------------------------------- docs

if (!args.values['no-docs']) {
  const missesByPage = new Map<string, number>();
  for (const m of misses) tally(missesByPage, baseName(m.excerpt.page));
  const causeText =
    misses.length === 0
      ? 'No true excerpt was missed.'
      : `Misses by kind and cause: ${count(causes)}; by page: ${count(missesByPage)}. The cause is found by ` +
        'comparing the normalised excerpt with the text of the page (visible, and its scripts\u2019 JSON) from ' +
        'where they part: the excerpt ' +
        'leaves out text the page shows (the excerpt goes on a little further in the page), has text the page ' +
        'lacks (the page goes on a little further in the excerpt), or differs otherwise; "spacing differs" means ' +
        'the words are all there but with different spaces. `npm run eval:citations` prints each miss.';
  const body = [
    '## Measured',
    '',
    `Written by \`npm run eval:citations -- <pages-dir>\` on ${when}, on ${host}; ${loadLine}; each run replaces ` +
      `this section. Corpus: \`${path.basename(pagesDir)}\`, ${pages.length} real web pages, each as served ` +
      `(\`source.html\`) and as the article text a reader sees (\`expected.html\`), and ${derivedPages} pages ` +
      'derived from them (below). The corpus stores every page in ' +
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
    `True excerpts come from the text of each \`<p>\` of \`expected.html\` (${paragraphsTotal} non-empty ` +
      `paragraphs): the paragraph whole as a reader sees it, its first ${SLICE} characters when longer (cut back ` +
      `so as not to end inside a number), and an excerpt of ${WINDOW_MIN} to ${WINDOW_MAX} characters cut at word ` +
      'boundaries at a random place (seeded); each cited against its own page. Then the kinds that real pages ' +
      'and real extractors make hard, each an excerpt of the same length: (1) the paragraph as other text ' +
      'extractors copy it, with a space at every element boundary or none at the edges of text nodes, counted ' +
      'only where that differs from the text a reader sees, and cut where the reader also sees a word boundary; ' +
      '(2) the page rebuilt as a client-rendered site serves it, its `<title>`, an empty body and the original ' +
      'body only inside a script, in four constructions; (3) the page with a soft hyphen every three letters of ' +
      'each word of seven letters or more, the excerpt without them, with them, and broken at one as a ' +
      'wrapped text dump shows it (`-` and a line break); (4) up to ' +
      `${GUARD_PER_PAGE} places per served page where an optional element (a formula, a pronunciation, a form ` +
      'control, an aside, a hidden element: [Optional elements](#optional-elements)) stands inside a line of ' +
      'text, found from the tags, the excerpt the words either side (up to 60 characters each) with every such ' +
      'element left out, as a reader mode copies it. Requirement: at least ' +
      `${(RECALL_FLOOR * 100).toFixed(1)}% verify \`ok\`: **${recall >= RECALL_FLOOR ? 'met' : 'not met'}**; goal ` +
      `${(RECALL_GOAL * 100).toFixed(1)}%: **${recall >= RECALL_GOAL ? 'met' : 'not met'}**. "Found in" is the ` +
      "result's `source`.",
    '',
    markdownTable(['excerpt', 'checked', 'ok', 'recall', 'found in'], recallRows),
    '',
    causeText,
    '',
    '### False accepts',
    '',
    `Excerpts that must not verify: up to ${FOREIGN_PER_PAGE} excerpts of at least ${MIN_NEGATIVE} normalised ` +
      `characters from each page, cited against ${OTHERS} other pages drawn at random (seed ${SEED}); each true ` +
      `excerpt of at least ${MIN_NEGATIVE} characters, of every kind above, with the word of four or more ` +
      'letters nearest its middle replaced by a different real word, and, when it holds a number, with the ' +
      'number nearest its middle increased by one; and the cases of each guard, drawn from the served page: up ' +
      `to ${GUARD_PER_PAGE} excerpts per page lying inside one text node with two words joined, a word split ` +
      'or a space shifted by one letter; up to the same number of places where a digit touches an element ' +
      'boundary, with the number increased, its digit at the boundary dropped, a space put inside it or the ' +
      'space between two numbers taken out; each word-boundary excerpt with "not" after its first auxiliary ' +
      'verb, and cut to begin inside its first word or a number or to end inside its last number; and, for each ' +
      'excerpt of kind 4, the element cut to the first half of its text, the text of another such element of the ' +
      'page in its place, or "not" in its place. An excerpt ' +
      'that is word for word on the cited page (in its `expected.html` as a reader sees it or, for the guards, ' +
      `in the served page) is skipped. Requirement: none verifies \`ok\`: **${accepted.length === 0 ? 'met' : 'not met'}**.`,
    '',
    markdownTable(['excerpt', 'verified', 'skipped: on the page', 'accepted'], falseRows),
    '',
    '### Near-miss diagnosis',
    '',
    'Each false excerpt above that is not on its page (`excerpt_not_found`) has a `detail`: `altered` when the ' +
      'page holds a passage close to it, `absent` when not ([Near misses](#near-misses)); "names the change" ' +
      'counts, among the excerpts edited in a known way, those whose diff holds a change of the right kind with ' +
      'the excerpt\u2019s new word and the page\u2019s old one (`number_changed` "46" for "45"; `word_inserted` ' +
      'with the word; `word_changed` or `negation` for a word replaced; `negation` for "not" put in), and "names ' +
      'only it" those whose diff holds nothing else. "One word inserted" puts one of the real words above before ' +
      'the word of four or more letters nearest the middle of each true excerpt. Requirements: ' +
      nearMet
        .map(
          (n) =>
            `${FALSE_KINDS[n.kind]}, ${n.what === 'absent' ? '`absent`' : '`altered` naming the change'} ` +
            `in at least ${(NEAR_FLOOR * 100).toFixed(0)}%: ${percent(n.share, 1, 2)}, **${n.met ? 'met' : 'not met'}**`,
        )
        .join('; ') +
      '. True excerpts are not diagnosed: an excerpt found is `ok`, and the figures above are unchanged by it.',
    '',
    markdownTable(nearHeader, nearRows),
    '',
    `The similarity of the closest passage, which decides \`altered\` (from ${ALTERED_MIN_SIMILARITY}, with at ` +
      'least three words shared), computed with the same search on the text of each served page as a reader sees ' +
      'it (0 when no two adjacent words of the excerpt are on the page):',
    '',
    markdownTable(similarityHeader, similarityRows),
    '',
    '### Volume',
    '',
    `${verifications} verifications in ${reviews} reviews, ${requests} page fetches, in ` +
      `${totalSeconds.toFixed(1)} s (${perSecond(verifications, totalSeconds)} verifications/s): true excerpts ` +
      `${trueSeconds.toFixed(1)} s, false ones ${negativeSeconds.toFixed(1)} s (each of them not on its page is ` +
      'diagnosed too: its closest passage is searched for). On a shared machine these times are indicative only.',
    '',
  ].join('\n');
  writeTrailingSection(DOC, '## Measured', await formatMarkdown(body, DOC));
  console.log('\nwrote the ## Measured section of docs/citations.md');
}

process.exit(recall >= RECALL_FLOOR && accepted.length === 0 && nearAllMet ? 0 : 1);
