/**
 * The cases of the citation evaluation (eval/citations.ts) that real pages do
 * not give as they are: excerpts as other text extractors copy a page, pages
 * whose article is only in a script's JSON, pages hyphenated with soft
 * hyphens, excerpts that leave out a formula, a pronunciation or a hidden
 * element, and the edited excerpts that must not verify.
 *
 * The element structure is read here with a walk of its own (cheerio's tree,
 * text nodes in document order), not with the verifier's HTML-to-text step:
 * where an element boundary lies is what the verifier is tested on, so the
 * evaluation does not take it from the verifier.
 */
import { load } from 'cheerio/slim';
import type { ChangeKind } from '../src/safety/citations/index.js';
import { pick, type Rand } from './random.js';

/** The part of a domhandler node the walk reads. */
interface DomNode {
  readonly type: string;
  readonly name?: string;
  readonly data?: string;
  readonly attribs?: Record<string, string>;
  readonly children?: readonly DomNode[];
}

/** Elements whose content a reader does not see. */
const SKIP = new Set(['script', 'style', 'template', 'rt', 'rp', 'iframe', 'head']);
/** Elements shown as a line or a block of their own (the common ones). */
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'dd', 'details', 'div', 'dl', 'dt',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'li', 'main',
  'nav', 'ol', 'p', 'pre', 'section', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul', 'br', 'hr',
]); // prettier-ignore

/** A text node, and whether a block boundary (or `<br>`) separates it from the one before. */
export interface Segment {
  text: string;
  block: boolean;
}

/** The visible text nodes under `root`, in document order. */
export function segmentsOf(root: DomNode): Segment[] {
  const out: Segment[] = [];
  let block = false;
  const walk = (node: DomNode): void => {
    for (const child of node.children ?? []) {
      if (child.type === 'text') {
        out.push({ text: child.data ?? '', block });
        block = false;
      } else if (child.name !== undefined) {
        if (SKIP.has(child.name) || child.attribs?.hidden !== undefined) continue;
        const isBlock = BLOCK.has(child.name);
        if (isBlock) block = true;
        walk(child);
        if (isBlock) block = true;
      }
    }
  };
  walk(root);
  return out;
}

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** How a text extractor joins the text nodes of a page. */
export type Joining = 'rendered' | 'spaced' | 'stripped';

/**
 * The text of the segments as a reader sees it (`rendered`: a space at block
 * boundaries only), as `get_text(" ")` and HTML-to-Markdown converters give it
 * (`spaced`: a space at every element boundary), or as extractors that trim
 * each text node give it (`stripped`: the spaces at the edges of text nodes
 * dropped, a space kept at block boundaries).
 */
export function joinSegments(segments: readonly Segment[], how: Joining): string {
  let s = '';
  for (const seg of segments) {
    if (how === 'stripped') s += (seg.block ? ' ' : '') + seg.text.trim();
    else s += (seg.block || (how === 'spaced' && s !== '') ? ' ' : '') + seg.text;
  }
  return collapse(s);
}

/** Indexes of the characters of `s` that are not whitespace. */
function nonSpace(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) if (!/\s/.test(s[i]!)) out.push(i);
  return out;
}

export const WINDOW_MIN = 60;
export const WINDOW_MAX = 240;

/**
 * An excerpt of `text` of WINDOW_MIN to WINDOW_MAX characters cut at word
 * boundaries (spaces), or undefined when the text is too short. With
 * `rendered` (the same text as a reader sees it, differing from `text` only in
 * whitespace), both ends must also be word boundaries there: an excerpt of
 * `expand ed to` that begins at `ed` begins inside a word of the page.
 */
export function window(random: Rand, text: string, rendered?: string): string | undefined {
  if (text.length < WINDOW_MIN) return undefined;
  const starts = [0];
  for (let i = 1; i < text.length; i++) if (text[i - 1] === ' ') starts.push(i);
  const renderedAt = rendered === undefined ? undefined : nonSpace(rendered);
  const textAt = rendered === undefined ? undefined : nonSpace(text);
  // Position k of the non-space characters of `text` is position k of `rendered`'s.
  const aligned = (start: number, end: number): boolean => {
    if (rendered === undefined) return true;
    const first = textAt!.findIndex((i) => i >= start);
    let last = -1;
    for (let k = textAt!.length - 1; k >= 0; k--) {
      if (textAt![k]! < end) {
        last = k;
        break;
      }
    }
    if (first < 0 || last < 0 || renderedAt!.length !== textAt!.length) return false;
    const a = renderedAt![first]!;
    const b = renderedAt![last]!;
    return (a === 0 || rendered[a - 1] === ' ') && (b === rendered.length - 1 || rendered[b + 1] === ' ');
  };
  for (let attempt = 0; attempt < 8; attempt++) {
    const length = WINDOW_MIN + Math.floor(random() * (WINDOW_MAX - WINDOW_MIN + 1));
    const start = pick(random, starts);
    let end = Math.min(text.length, start + length);
    if (end < text.length) end = text.lastIndexOf(' ', end);
    if (end - start < WINDOW_MIN || end <= start) continue;
    if (!aligned(start, end)) continue;
    return text.slice(start, end).trim();
  }
  return undefined;
}

// ---------------------------------------------------------------- pages with the article in a script

export type ScriptPage = 'window-state' | 'next-data' | 'escaped-html' | 'rich-text';

export const SCRIPT_PAGES: readonly ScriptPage[] = ['window-state', 'next-data', 'escaped-html', 'rich-text'];

/** JSON inside a `<script>`: `</` written `<\/`, so that no string ends the element. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/<\//g, '<\\/');

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The page as a client-rendered site serves it: its `<title>`, an empty
 * mount point, and the body only inside a script, as
 *
 * - `window-state`: `window.__INITIAL_STATE__ = {...}` with the body's HTML in a string;
 * - `next-data`: `<script id="__NEXT_DATA__" type="application/json">` with the body's HTML in a string;
 * - `escaped-html`: a JavaScript object whose string holds the body's HTML
 *   written with character references (`&lt;p&gt;...`);
 * - `rich-text`: structured content, one JSON string per text node, grouped by block.
 */
export function scriptPage(sourceHtml: string, how: ScriptPage): string {
  const $ = load(sourceHtml);
  const title = $('title').first().text();
  const body = $('body').first();
  const bodyHtml = body.length > 0 ? (body.html() ?? '') : $.root().html()!;
  let script: string;
  if (how === 'window-state') {
    script = `<script>window.__INITIAL_STATE__ = ${scriptJson({ page: { title, html: bodyHtml } })};</script>`;
  } else if (how === 'next-data') {
    const data = { props: { pageProps: { article: { title, body: bodyHtml } } }, page: '/[slug]', isFallback: false };
    script = `<script id="__NEXT_DATA__" type="application/json">${scriptJson(data)}</script>`;
  } else if (how === 'escaped-html') {
    script = `<script>var article = ${scriptJson({ top: title, bottom: escapeHtml(bodyHtml) })};</script>`;
  } else {
    const root = (body.length > 0 ? body[0] : $.root()[0]) as unknown as DomNode;
    const blocks: Array<{ type: string; children: Array<{ text: string }> }> = [];
    for (const seg of segmentsOf(root)) {
      if (seg.block || blocks.length === 0) blocks.push({ type: 'block', children: [] });
      blocks[blocks.length - 1]!.children.push({ text: seg.text });
    }
    script = `<script>window.__APOLLO_STATE__ = ${scriptJson({ article: { title, content: blocks } })};</script>`;
  }
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><div id="root"></div>${script}</body></html>`;
}

// ---------------------------------------------------------------- soft hyphens

export const SHY = '\u00AD';

/**
 * Words of seven letters or more with a soft hyphen every three letters, the
 * last part at least three long (`downloaded` → `dow·nlo·aded`), as a
 * hyphenating site serves them. A function of the word alone, so a page and an
 * excerpt hyphenated apart agree.
 */
export function hyphenate(text: string): string {
  return text.replace(/\p{L}{7,}/gu, (word) => {
    let out = '';
    let i = 0;
    for (; i + 6 <= word.length; i += 3) out += word.slice(i, i + 3) + SHY;
    return out + word.slice(i);
  });
}

/** The page with every word of seven letters or more in its visible text hyphenated. */
export function softHyphenPage(sourceHtml: string): string {
  const $ = load(sourceHtml);
  const walk = (node: DomNode): void => {
    for (const child of node.children ?? []) {
      if (child.type === 'text') (child as { data: string }).data = hyphenate(child.data ?? '');
      else if (child.name !== undefined && !SKIP.has(child.name)) walk(child);
    }
  };
  walk($.root()[0] as unknown as DomNode);
  return $.html();
}

/**
 * The excerpt as a text dump wrapped at one of its soft hyphens shows it: a
 * hyphen and a line break there, the other soft hyphens gone. Undefined when
 * it has none.
 */
export function breakAtSoftHyphen(random: Rand, excerpt: string): string | undefined {
  const at: number[] = [];
  for (let i = 0; i < excerpt.length; i++) if (excerpt[i] === SHY) at.push(i);
  if (at.length === 0) return undefined;
  const i = pick(random, at);
  return (excerpt.slice(0, i) + '-\n' + excerpt.slice(i + 1)).replaceAll(SHY, '');
}

// ---------------------------------------------------------------- edits that must not verify

export interface Edit {
  text: string;
  change: string;
  /** The change a near miss should name (docs/citations.md#near-misses), where the edit is one. */
  expect?: ExpectedChange;
}

/** A change of an edited excerpt: its kind, and the words of the excerpt and of the page, normalised. */
export interface ExpectedChange {
  kinds: readonly ChangeKind[];
  /** Words the change's excerpt side holds. */
  excerpt: string;
  /** Words its page side holds; empty: it holds none. */
  page: string;
}

/** The index of the match of `re` in `text` nearest its middle. */
function nearestMiddle(text: string, re: RegExp): RegExpExecArray | undefined {
  const mid = text.length / 2;
  let best: RegExpExecArray | undefined;
  let distance = Infinity;
  for (const m of text.matchAll(re)) {
    const d = Math.abs(m.index + m[0].length / 2 - mid);
    if (d < distance) {
      best = m as RegExpExecArray;
      distance = d;
    }
  }
  return best;
}

/**
 * A space moved where the page has none: two words joined (`the rapist` →
 * `therapist`), a word split (`therapist` → `the rapist`), a space shifted by
 * one letter (`the rapist` → `ther apist`). Each changes the words.
 */
export function spaceEdits(text: string): Edit[] {
  const out: Edit[] = [];
  const join = nearestMiddle(text, /(?<=\p{L}) (?=\p{L})/gu);
  if (join) {
    const i = join.index;
    out.push({ text: text.slice(0, i) + text.slice(i + 1), change: 'two words joined' });
    const moved = text.slice(0, i) + text[i + 1] + ' ' + text.slice(i + 2);
    if (/\p{L}{2}$/u.test(text.slice(0, i)) && /^\p{L}{3}/u.test(text.slice(i + 1)))
      out.push({ text: moved, change: 'a space shifted by one letter' });
  }
  const word = nearestMiddle(text, /(?<![\p{L}\p{N}])\p{L}{6,}(?![\p{L}\p{N}])/gu);
  if (word) {
    const i = word.index + Math.floor(word[0].length / 2);
    out.push({ text: text.slice(0, i) + ' ' + text.slice(i), change: 'a word split' });
  }
  return out;
}

/** `not` put after the first auxiliary verb. */
export function insertNot(text: string): Edit | undefined {
  const m = /\b(?:is|are|was|were|has|have|had|can|could|will|would|should|may|might|must|does|did)\b/i.exec(text);
  if (!m) return undefined;
  const at = m.index + m[0].length;
  return {
    text: `${text.slice(0, at)} not${text.slice(at)}`,
    change: `not after "${m[0]}"`,
    expect: { kinds: ['negation'], excerpt: 'not', page: '' },
  };
}

/**
 * Excerpts that begin or end inside a word or a number of the page: the first
 * word without its first letters (`nsafe for`), a number without its first
 * digit at the start, or cut before its last digit at the end.
 */
export function cutEdits(text: string): Edit[] {
  const out: Edit[] = [];
  const first = /^(\p{L})(\p{L}{3,})/u.exec(text);
  if (first) out.push({ text: text.slice(1), change: `starts inside "${first[0]}"` });
  const numbers = [...text.matchAll(/(?<![\d.,])\d{2,}(?![\d.,]?\d)/g)];
  if (numbers.length > 0) {
    const m = numbers[numbers.length - 1]!;
    out.push({ text: text.slice(0, m.index + m[0].length - 1), change: `ends inside "${m[0]}"` });
    const n = numbers[0]!;
    out.push({ text: text.slice(n.index + 1), change: `starts inside "${n[0]}"` });
  }
  return out;
}

/**
 * Edits of a number that touches an element boundary at `at` in `text`:
 * the number increased by one, its digit at the boundary dropped, a space put
 * between two digits at the boundary, or the space between two numbers there
 * taken out.
 */
export function numberEditsAt(text: string, at: number): Edit[] {
  const out: Edit[] = [];
  const digit = (i: number): boolean => i >= 0 && i < text.length && text[i]! >= '0' && text[i]! <= '9';
  // The number touching the boundary: the run of digits around `at` (or around the space at `at`).
  let s = at;
  let e = at;
  const around = digit(at - 1) ? at - 1 : digit(at) ? at : text[at] === ' ' && digit(at + 1) ? at + 1 : -1;
  if (around < 0) return out;
  s = around;
  e = around;
  while (digit(s - 1)) s--;
  while (digit(e + 1)) e++;
  const number = text.slice(s, e + 1);
  const next = (BigInt(number) + 1n).toString().padStart(number.length, '0');
  out.push({ text: text.slice(0, s) + next + text.slice(e + 1), change: `${number} → ${next}` });
  if (number.length >= 2) {
    const drop = around === at - 1 ? at - 1 : around;
    out.push({ text: text.slice(0, drop) + text.slice(drop + 1), change: `a digit of ${number} dropped` });
  }
  if (digit(at - 1) && digit(at)) {
    out.push({ text: `${text.slice(0, at)} ${text.slice(at)}`, change: 'a space put inside a number' });
  }
  if (digit(at - 1) && text[at] === ' ' && digit(at + 1)) {
    out.push({ text: text.slice(0, at) + text.slice(at + 1), change: 'two numbers joined' });
  }
  return out;
}

/**
 * Places in the visible text of a page where a digit touches an element
 * boundary, as `{text, at}` with `text` some words either side (collapsed
 * whitespace) and `at` the boundary's offset in it.
 */
export function numbersAtBoundaries(segments: readonly Segment[], limit: number): Array<{ text: string; at: number }> {
  const out: Array<{ text: string; at: number }> = [];
  for (let k = 1; k < segments.length && out.length < limit; k++) {
    const prev = segments[k - 1]!;
    const seg = segments[k]!;
    if (seg.block) continue;
    const left = prev.text.replace(/\s+/g, ' ');
    const right = seg.text.replace(/\s+/g, ' ');
    const touches = /\d$/.test(left) || /^ ?\d/.test(right) || (/\d ?$/.test(left) && /^\d/.test(right));
    if (!touches) continue;
    // Up to 60 characters either side, within the two text nodes, cut at spaces.
    let l = left.slice(-60);
    if (l.length < left.length) l = l.slice(l.indexOf(' ') + 1);
    let r = right.slice(0, 60);
    if (r.length < right.length && r.lastIndexOf(' ') > 0) r = r.slice(0, r.lastIndexOf(' '));
    const lead = l.length - l.trimStart().length;
    const text = (l + r).trimStart().replace(/ +$/, '');
    if (text.length < 20 || l.trim() === '' || r.trim() === '') continue;
    out.push({ text, at: l.length - lead });
  }
  return out;
}

/** Windows lying inside one text node (no element boundary in them), for the space edits. */
export function insideTextNodes(random: Rand, segments: readonly Segment[], limit: number): string[] {
  const out: string[] = [];
  for (const seg of segments) {
    if (out.length >= limit) break;
    const text = collapse(seg.text);
    // Stay a word away from both ends of the node, where boundaries are.
    const inner = text.slice(text.indexOf(' ') + 1, text.lastIndexOf(' '));
    if (inner.length < WINDOW_MIN + 20) continue;
    const w = window(random, inner);
    if (w !== undefined) out.push(w);
  }
  return out;
}

/** The DOM root of an HTML string, for {@link segmentsOf}. */
export function domOf(html: string): DomNode {
  return load(html).root()[0] as unknown as DomNode;
}

// ---------------------------------------------------------------- elements a reader's copy leaves out

/**
 * Elements whose text a copy of the page may have or leave out, whole
 * (docs/citations.md): formulas, pronunciations, form controls, asides,
 * elements hidden by their attributes, tooltips and hover cards. Decided here from the tags, as the documentation
 * states the rule.
 */
const OPTIONAL_TAGS = new Set(['math', 'mjx-container', 'button', 'select', 'textarea', 'aside']);
const OPTIONAL_CLASSES = new Set([
  'IPA', 'noexcerpt', 'mwe-math-element', 'katex', 'katex-display', 'MathJax', 'MathJax_Display', 'MathJax_Preview',
  'tooltiptext', 'tooltip-content', 'hovercard', 'hover-card', 'popover',
]); // prettier-ignore

function optionalElement(node: DomNode): boolean {
  if (OPTIONAL_TAGS.has(node.name!)) return true;
  const a = node.attribs ?? {};
  if ((a['aria-hidden'] ?? '').trim().toLowerCase() === 'true') return true;
  if (a.popover !== undefined || (a.role ?? '').trim().toLowerCase().split(/\s+/)[0] === 'tooltip') return true;
  if ((a.class ?? '').split(/\s+/).some((c) => OPTIONAL_CLASSES.has(c))) return true;
  const style = (a.style ?? '')
    .toLowerCase()
    .replace(/\s+/g, '')
    .replace(/!important/g, '');
  return style.split(';').some((d) => d === 'display:none' || d === 'visibility:hidden' || d === 'visibility:collapse');
}

/** An optional element inside a line of text: the text before it in its block, its own, and the text after. */
export interface Omission {
  before: string;
  inner: string;
  after: string;
}

/**
 * Inline optional elements of the page with text on both sides in the same
 * block, at most `limit`; `before` and `after` leave out every other optional
 * element too (a copy that leaves one out leaves them all out).
 */
export function omissions(root: DomNode, limit: number): Omission[] {
  const segs: Array<Segment & { opt: number }> = [];
  let block = false;
  let count = 0;
  const walk = (node: DomNode, opt: number): void => {
    for (const child of node.children ?? []) {
      if (child.type === 'text') {
        segs.push({ text: child.data ?? '', block, opt });
        block = false;
      } else if (child.name !== undefined) {
        if (SKIP.has(child.name) || child.attribs?.hidden !== undefined) continue;
        const isBlock = BLOCK.has(child.name);
        if (isBlock) block = true;
        walk(child, opt < 0 && optionalElement(child) ? count++ : opt);
        if (isBlock) block = true;
      }
    }
  };
  walk(root, -1);
  const out: Omission[] = [];
  for (let i0 = 0; i0 < segs.length && out.length < limit; i0++) {
    const opt = segs[i0]!.opt;
    if (opt < 0 || (i0 > 0 && segs[i0 - 1]!.opt === opt)) continue;
    let i1 = i0;
    while (i1 + 1 < segs.length && segs[i1 + 1]!.opt === opt && !segs[i1 + 1]!.block) i1++;
    if (segs[i0]!.block || (i1 + 1 < segs.length && segs[i1 + 1]!.block)) continue;
    const inner = collapse(
      segs
        .slice(i0, i1 + 1)
        .map((s) => s.text)
        .join(''),
    );
    let before = '';
    for (let j = i0; j > 0 && !segs[j]!.block;) {
      j--;
      if (segs[j]!.opt < 0) before = segs[j]!.text + before;
    }
    let after = '';
    for (let k = i1; k + 1 < segs.length && !segs[k + 1]!.block;) {
      k++;
      if (segs[k]!.opt < 0) after += segs[k]!.text;
    }
    before = before.replace(/\s+/g, ' ').trimStart();
    after = after.replace(/\s+/g, ' ').trimEnd();
    // Up to 60 characters of words either side.
    if (before.length > 60) before = before.slice(before.indexOf(' ', before.length - 60) + 1);
    if (after.length > 60) after = after.slice(0, Math.max(0, after.lastIndexOf(' ', 60)));
    if (inner === '' || before.trim().length < 20 || after.trim().length < 20) continue;
    out.push({ before, inner, after });
  }
  return out;
}

/** The excerpt with the element left out, as a reader's copy has it. */
export function leftOut(o: Omission): string {
  return collapse(o.before + o.after);
}

/** The excerpt with `text` where the element was. */
export function withInside(o: Omission, text: string): string {
  return collapse(`${o.before}${text}${o.after}`);
}
