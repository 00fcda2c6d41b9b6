/**
 * The text of an HTML page as a reader sees it, for excerpt matching.
 *
 * Parsed with cheerio's `slim` entry point, which always uses htmlparser2: the
 * default entry point parses HTML with parse5, several times slower on real
 * pages, and this runs on every page a review cites. htmlparser2 does not
 * repair documents the way a browser does (an unclosed `<head>` keeps the whole
 * body inside it), so no rule here depends on where an element sits, except
 * MathML annotations, whose parent is always `<semantics>`.
 *
 * The walk follows `next` and `parent` links rather than recursing, so deep
 * nesting cannot overflow the stack, and collects text in an array joined once
 * at the end.
 */
import { load } from 'cheerio/slim';
import { CitationTextError } from './errors.js';
import { BOUNDARY, OPTIONAL_CLOSE, OPTIONAL_OPEN, wellFormed } from './marked-text.js';
import { markupText, type StreamedReading } from './markup-text.js';
import type { MarkupNode } from './markup-tree.js';
import { tooDeeplyNested } from './nesting.js';
import { WHITESPACE_RUN } from './normalize.js';
import { removeReferenceMarkers } from './reference-markers.js';
import { fallbackEnd, mayStream, streamedMoves, type Streamed } from './streamed-html.js';

/** The part of a domhandler node the walk reads. */
type DomNode = MarkupNode;

/**
 * Elements whose boundaries a browser shows as a line break or a gap: the
 * default `display: block` elements, table cells and rows, list items, and form
 * controls. `<p>a</p><p>b</p>` reads `a b`; inline elements add nothing, so
 * `pro<b>tein</b>` reads `protein`. `<title>` is here because it is the one text
 * of `<head>` a reader sees (in the tab and in search results), and reviewers
 * quote it; it must not run into the first words of the body.
 */
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'button', 'caption', 'center', 'dd', 'details',
  'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frameset',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'html', 'legend', 'li', 'listing',
  'main', 'menu', 'nav', 'noscript', 'ol', 'optgroup', 'option', 'p', 'plaintext', 'pre', 'section',
  'select', 'summary', 'svg', 'table', 'tbody', 'td', 'textarea', 'tfoot', 'th', 'thead', 'title', 'tr',
  'ul', 'xmp',
]); // prettier-ignore

/** Void elements that render as a break between words. */
const BREAK = new Set(['br', 'hr']);

/**
 * Elements whose content a reader never sees: code and styles, inert templates,
 * ruby annotations (`<rt>` readings, `<rp>` fallback parentheses) and iframe
 * fallback, which browsers do not render. `<noscript>` is not here: to a
 * fetcher that runs no script, its content is what the page shows.
 */
const SKIP = new Set(['script', 'style', 'template', 'rt', 'rp', 'iframe']);

/** MathML annotations (TeX source, content MathML): the presentation markup beside them is what is shown. */
const ANNOTATION = new Set(['annotation', 'annotation-xml']);

const REFERENCE_CLASS = /(?:^|\s)reference(?:\s|$)/;

/**
 * Elements whose text a faithful copy of the page may have or leave out, whole:
 * text that is not prose, or that a reader does not see. A formula (MathML,
 * and the wrappers the common renderers put around one: MediaWiki's math
 * element, KaTeX, MathJax) is an image or a layout a reader-mode extractor
 * drops and a text dump spells out; a pronunciation (`class="IPA"`, and
 * MediaWiki's `noexcerpt`, text its own excerpts leave out), the controls of a
 * form and an aside (a pull quote, a box of links) are dropped by readers too;
 * and an element hidden by its own attributes (`aria-hidden`, an inline
 * `display: none` or `visibility: hidden`) is not shown by a browser, is
 * dropped by reader modes, and is kept by an extractor that reads the tags.
 * A pop-up written into a sentence (a hover card or a tooltip after a name:
 * "by Jane Doe<span role="tooltip">Jane Doe is a reporter…</span> said") is
 * shown only on hover or focus, kept by a dump of the tags, dropped by reader
 * modes, so optional too. Only marks that name the pop-up's own content count:
 * `role="tooltip"` (WAI-ARIA's role for it; Bootstrap, Tippy, MUI and Radix
 * tooltips carry it), the `popover` attribute (HTML's Popover API: not shown
 * until opened), and the classes `tooltiptext` and `tooltip-content` (the
 * common CSS-only tooltip), `hovercard`, `hover-card` and `popover`
 * (Bootstrap's popover box). Not the class `tooltip`, which the CSS-only
 * pattern puts on the trigger around the name (`<span class="tooltip">Jane
 * Doe<span class="tooltiptext">…`): the name is prose and a quote has it.
 * Nor `data-tooltip`, on the trigger too: the pop-up's text is the
 * attribute's value, never in the visible text (the injection scan reads it,
 * markup-text.ts).
 *
 * Their text is recorded as an optional span (marked-text.ts). A `hidden`
 * element is not here: no browser or reader shows it, and it is dropped.
 */
const OPTIONAL_ELEMENT = new Set(['math', 'mjx-container', 'button', 'select', 'textarea', 'aside']);
const OPTIONAL_CLASS =
  /(?:^|\s)(?:IPA|noexcerpt|mwe-math-element|katex(?:-display)?|MathJax(?:_Display|_Preview)?|tooltiptext|tooltip-content|hovercard|hover-card|popover)(?:\s|$)/;
/** WAI-ARIA's role for a pop-up's content; `role` is a list of tokens, the first one known applies. */
const TOOLTIP_ROLE = /^\s*tooltip(?:\s|$)/i;
const HIDING_STYLE =
  /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))\s*(?:!\s*important\s*)?(?:;|$)/i;

/** Whether the element's text may be left out of a copy of the page, or kept (see {@link OPTIONAL_ELEMENT}). */
function isOptional(el: DomNode): boolean {
  if (OPTIONAL_ELEMENT.has(el.name!)) return true;
  const attribs = el.attribs!;
  if (attribs['aria-hidden'] !== undefined && attribs['aria-hidden'].trim().toLowerCase() === 'true') return true;
  if (attribs.class !== undefined && OPTIONAL_CLASS.test(attribs.class)) return true;
  if (attribs.popover !== undefined || (attribs.role !== undefined && TOOLTIP_ROLE.test(attribs.role))) return true;
  return attribs.style !== undefined && HIDING_STYLE.test(attribs.style);
}

/** Schema.org properties that hold the article text or a summary of it. */
const JSON_LD_KEYS = new Set(['articleBody', 'description', 'headline', 'abstract', 'text']);

/** The media type of a script element, lower case, without parameters; '' when it has none. */
function scriptType(el: DomNode): string {
  const type = el.attribs?.type;
  return type === undefined ? '' : type.split(';')[0]!.trim().toLowerCase();
}

function isJsonLd(el: DomNode): boolean {
  return scriptType(el) === 'application/ld+json';
}

/**
 * Script types that hold JavaScript or JSON (an application's state, which
 * client-rendered sites fill their pages from): no type, the JavaScript MIME
 * types and `module`, and JSON types other than JSON-LD, which is read apart.
 * Templates (`text/x-template`, `text/html`) and other data are not read.
 */
function holdsStateData(el: DomNode): boolean {
  const type = scriptType(el);
  if (isJavaScriptType(type)) return true;
  return (type.endsWith('/json') || type.endsWith('+json')) && type !== 'application/ld+json';
}

function isJavaScriptType(type: string): boolean {
  return type === '' || type === 'module' || type.endsWith('javascript') || type.endsWith('ecmascript');
}

/** Whether a browser runs the script: the calls that move a streamed page's blocks are read in these only. */
function runs(el: DomNode): boolean {
  return isJavaScriptType(scriptType(el));
}

function textOf(el: DomNode): string {
  let s = '';
  for (const child of el.children ?? []) if (child.type === 'text') s += child.data;
  return s;
}

/**
 * The strings under the schema.org text properties of a JSON-LD block, in
 * document order, through nested objects, arrays and `@graph`. Invalid JSON
 * yields nothing. Iterative, so deeply nested JSON cannot overflow the stack.
 */
function jsonLdTexts(source: string): string[] {
  let root: unknown;
  try {
    root = JSON.parse(source);
  } catch {
    return [];
  }
  const out: string[] = [];
  // A string on the stack is text to emit; anything else is a value to walk.
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      out.push(wellFormed(value));
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) if (typeof value[i] === 'object') stack.push(value[i]);
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, v] = entries[i]!;
        if (JSON_LD_KEYS.has(key) && typeof v === 'string') stack.push(v);
        else if (JSON_LD_KEYS.has(key) && Array.isArray(v)) {
          for (let j = v.length - 1; j >= 0; j--) stack.push(v[j]);
        } else if (typeof v === 'object' && v !== null) stack.push(v);
      }
    }
  }
  return out;
}

/** What the walk does with an element. */
const enum Visit {
  Skip,
  Inline,
  Block,
}

function visit(el: DomNode): Visit {
  const name = el.name!;
  if (SKIP.has(name)) return Visit.Skip;
  const attribs = el.attribs!;
  // `hidden="until-found"` content is found by find-in-page and shown (mobile
  // Wikipedia collapses its sections that way): only plain `hidden` hides.
  if (attribs.hidden !== undefined && attribs.hidden.trim().toLowerCase() !== 'until-found') return Visit.Skip;
  if (name === 'sup' && attribs.class !== undefined && REFERENCE_CLASS.test(attribs.class)) return Visit.Skip;
  if (ANNOTATION.has(name) && el.parent?.name === 'semantics') return Visit.Skip;
  return BLOCK.has(name) ? Visit.Block : Visit.Inline;
}

/** What the walk gathers besides the visible text. */
interface Gathered {
  /** The source of each JSON-LD block. */
  jsonLd: string[];
  /** The source of each other script that may hold JSON state ({@link holdsStateData}); only when asked for. */
  scripts: string[] | undefined;
  /** Where the walk read a streamed page's blocks, for the markup text; only when asked for. */
  streamed: StreamedReading | undefined;
}

/**
 * Appends the visible text under `root` to `parts`, and gathers the sources
 * of its scripts into `gathered` when it is given. With `mark` (a
 * {@link BOUNDARY}), every tag and comment between two pieces of text is
 * marked with it: at each node that is not text, and where each element ends;
 * and the text of each outermost optional element ({@link isOptional}) is put
 * between an {@link OPTIONAL_OPEN} and an {@link OPTIONAL_CLOSE}.
 *
 * With `streamed`, each block a call moves (streamed-html.ts) is read where
 * its placeholder is, once, and never where it was sent: the walk goes into
 * the block's children from the placeholder and, from the block's last child,
 * on after the placeholder (after the fallback, for a Suspense boundary).
 * Each block is read at most once, so a block whose placeholder it holds, or
 * two that hold each other's, end the walk as any other: a placeholder whose
 * block is read already is an empty template. The document and each block
 * are walked once, and the blocks being read are kept in a list, not on the
 * stack.
 */
function collect(
  root: DomNode,
  parts: string[],
  gathered: Gathered | undefined,
  mark: string,
  streamed?: Streamed,
): void {
  /** The optional element being read, outermost; null outside one. */
  let optionalRoot: DomNode | null = null;
  /** The streamed blocks being read in place, innermost last, each with the node the walk goes on after. */
  const reading: Array<{ block: DomNode; resume: DomNode }> = [];
  const placed = gathered?.streamed?.placed ?? new Set<DomNode>();
  const replaced = gathered?.streamed?.replaced;
  let node: DomNode | null = root.children?.[0] ?? null;
  while (node !== null) {
    if (node.type === 'text') {
      parts.push(node.data!);
    } else {
      // One mark stands for any number of boundaries in a row.
      if (mark !== '' && parts[parts.length - 1] !== mark) parts.push(mark);
      if (node.name !== undefined && node.attribs !== undefined) {
        const move = streamed?.moves.get(node);
        if (move !== undefined && !placed.has(move.segment)) {
          placed.add(move.segment);
          const resume = move.boundary ? fallbackEnd(node) : node;
          if (replaced !== undefined) for (let n = node; n !== resume; n = n.next!) replaced.add(n.next!);
          const first: DomNode | undefined = move.segment.children?.[0];
          if (first !== undefined) {
            reading.push({ block: move.segment, resume });
            node = first;
            continue;
          }
          node = resume;
        } else if (streamed?.sent.has(node)) {
          // Taken out of here by its call, read in place (or nowhere) instead.
        } else if (BREAK.has(node.name)) {
          parts.push(' ');
        } else if (node.name === 'script' && gathered !== undefined && isJsonLd(node)) {
          gathered.jsonLd.push(textOf(node));
        } else {
          if (node.name === 'script' && gathered?.scripts !== undefined && holdsStateData(node)) {
            gathered.scripts.push(textOf(node));
          }
          const how = visit(node);
          if (how === Visit.Block) parts.push(' ');
          const first: DomNode | undefined = node.children?.[0];
          if (how !== Visit.Skip && first !== undefined) {
            if (mark !== '' && optionalRoot === null && isOptional(node)) {
              optionalRoot = node;
              parts.push(OPTIONAL_OPEN);
            }
            node = first;
            continue;
          }
        }
      }
    }
    // Leave the node: on to its next sibling, or up, closing each element left.
    while (node !== null) {
      if (node.next !== null) {
        node = node.next;
        break;
      }
      node = node.parent;
      if (node === null || node === root) {
        node = null;
      } else if (reading.length > 0 && node === reading[reading.length - 1]!.block) {
        // The end of a block read in place (its element is not shown): on after its placeholder.
        node = reading.pop()!.resume;
        if (mark !== '' && parts[parts.length - 1] !== mark) parts.push(mark);
      } else {
        if (mark !== '' && parts[parts.length - 1] !== mark) parts.push(mark);
        if (BLOCK.has(node.name!)) parts.push(' ');
        if (node === optionalRoot) {
          parts.push(OPTIONAL_CLOSE);
          optionalRoot = null;
        }
      }
    }
  }
}

/** Collapses whitespace runs (NBSP included) to one space and drops reference markers. */
function finish(parts: string[]): string {
  return removeReferenceMarkers(parts.join('').replace(WHITESPACE_RUN, ' ').trim()).trim();
}

/** The document node of the parsed page. */
function parse(html: string): DomNode {
  // `root()` always wraps exactly the one document node.
  return load(html).root()[0]!;
}

/**
 * The text of an HTML fragment found inside JSON (no scripts of its own read),
 * marked with `mark` as {@link collect} does; '' when it nests too deeply to
 * be parsed in reasonable time.
 */
export function fragmentText(html: string, mark = ''): string {
  if (tooDeeplyNested(html)) return '';
  const parts: string[] = [];
  collect(parse(html), parts, undefined, mark);
  return mark === '' ? finish(parts) : parts.join('');
}

/** The texts of the JSON-LD blocks, markup inside their strings read as HTML. */
function jsonLdText(sources: readonly string[], mark: string): string[] {
  const out: string[] = [];
  for (const source of sources) {
    for (const text of jsonLdTexts(source)) {
      // Some sites put markup or character references in articleBody.
      out.push(' ', mark, /[<&]/.test(text) ? fragmentText(text, mark) : text);
    }
  }
  return out;
}

/** The moves of a streamed page (streamed-html.ts); undefined for a page whose source holds no call. */
function streamedOf(html: string, root: DomNode): Streamed | undefined {
  return mayStream(html) ? streamedMoves(root, runs) : undefined;
}

function checkNesting(html: string): void {
  if (tooDeeplyNested(html)) {
    throw new CitationTextError('HTML_TOO_DEEP', 'the page nests elements too deeply to be parsed in reasonable time');
  }
}

/**
 * The visible text of an HTML page, with the article text of its JSON-LD
 * blocks appended, whitespace collapsed. Character references are decoded.
 * Throws `HTML_TOO_DEEP` for a page nested so deeply that parsing it would take
 * quadratic time (see nesting.ts).
 */
export function htmlToText(html: string): string {
  checkNesting(html);
  const parts: string[] = [];
  const gathered: Gathered = { jsonLd: [], scripts: undefined, streamed: undefined };
  const root = parse(html);
  collect(root, parts, gathered, '', streamedOf(html, root));
  parts.push(...jsonLdText(gathered.jsonLd, ''));
  return finish(parts);
}

/** An HTML page read for matching: its texts with element boundaries marked, not yet normalised. */
export interface MarkedHtml {
  /** The visible text, each tag and comment between two pieces of text marked with {@link BOUNDARY}. */
  visible: string;
  /** The article text of the JSON-LD blocks, marked the same way. */
  jsonLd: string;
  /** The source of each script that may hold an application's state as JSON, in document order. */
  scripts: string[];
  /** The texts a reader may be shown besides the body text (markup-text.ts), one a line: scanned, not matched. */
  markup: string;
}

/**
 * The texts of an HTML page for matching: what {@link htmlToText} reads, with
 * its element boundaries marked (marked-text.ts), and the sources of its
 * other scripts. Throws `HTML_TOO_DEEP` as {@link htmlToText} does.
 */
export function readHtml(html: string): MarkedHtml {
  checkNesting(html);
  const parts: string[] = [];
  const streamed: StreamedReading = { placed: new Set(), replaced: new Set() };
  const gathered: Gathered = { jsonLd: [], scripts: [], streamed };
  const root = parse(html);
  collect(root, parts, gathered, BOUNDARY, streamedOf(html, root));
  // Collapsed here, so that normalisation works on the text, not on the page's indentation.
  return {
    visible: parts.join('').replace(WHITESPACE_RUN, ' '),
    jsonLd: jsonLdText(gathered.jsonLd, BOUNDARY).join(''),
    scripts: gathered.scripts!,
    markup: markupText(root, streamed),
  };
}
