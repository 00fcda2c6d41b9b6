/**
 * The texts of an HTML page that a reader may be shown besides its body
 * text, for the injection scan: an agent that reads a page may be given its
 * markup, or a tool's reading of it, and an injection placed where people do
 * not look is still read by the agent. Not matched against excerpts: a
 * reviewer quotes what the page shows.
 *
 * They are: the `alt`, `title`, `aria-label`, `aria-description` and
 * `placeholder` attributes, the values of `data-*` attributes, the page's
 * description (`<meta name="description">` and its Open Graph and Twitter
 * forms), comments, and the text of `<template>` elements and of elements
 * with the `hidden` attribute (which the visible text leaves out). On a
 * streamed page (streamed-html.ts), a hidden block that its script moves
 * into place is visible text, and not read here; the fallback it replaces,
 * which only a reader that runs no script is shown, is.
 */
import { nextAfter, type MarkupNode } from './markup-tree.js';

/** Where the visible text read a streamed page's blocks (html-text.ts). */
export interface StreamedReading {
  /** The hidden blocks read in place of their placeholders: shown, so not unshown text. */
  readonly placed: Set<MarkupNode>;
  /** The nodes of the fallbacks those blocks replaced (each a child of the boundary's parent). */
  readonly replaced: Set<MarkupNode>;
}

/** Attributes whose values a reader is shown: in place of an image, as a tooltip, read out by a screen reader. */
const SHOWN_ATTRIBUTES = new Set(['alt', 'title', 'aria-label', 'aria-description', 'placeholder']);
/** `<meta>` names and properties that hold the page's description. */
const DESCRIPTION_META = new Set(['description', 'og:description', 'twitter:description']);
/** Elements whose content is code, not text. */
const CODE = new Set(['script', 'style']);

/** Whether the element's text is left out of the visible text but may still be read: a template, a `hidden` element. */
function holdsUnshownText(el: MarkupNode, streamed: StreamedReading | undefined): boolean {
  if (el.name === 'template') return true;
  if (streamed !== undefined) {
    if (streamed.replaced.has(el)) return true;
    if (streamed.placed.has(el)) return false;
  }
  const hidden = el.attribs?.hidden;
  return hidden !== undefined && hidden.trim().toLowerCase() !== 'until-found';
}

/** The attribute values of one element that belong to the markup text, in document order. */
function attributeTexts(el: MarkupNode, out: string[]): void {
  const attribs = el.attribs!;
  if (el.name === 'meta') {
    const key = (attribs.name ?? attribs.property ?? '').trim().toLowerCase();
    if (DESCRIPTION_META.has(key) && attribs.content !== undefined) out.push(attribs.content);
  }
  for (const [name, value] of Object.entries(attribs)) {
    if (SHOWN_ATTRIBUTES.has(name) || name.startsWith('data-')) out.push(value);
  }
}

/**
 * The markup texts of the page under `root`, each with its white space made
 * single spaces, one a line. Iterative, so deep nesting cannot overflow the
 * stack.
 */
export function markupText(root: MarkupNode, streamed?: StreamedReading): string {
  const out: string[] = [];
  /** The outermost template or hidden element being read; null outside one. */
  let unshown: MarkupNode | null = null;
  let node: MarkupNode | null = root.children?.[0] ?? null;
  while (node !== null) {
    if (node.type === 'comment') {
      out.push(node.data ?? '');
    } else if (node.type === 'text') {
      if (unshown !== null || streamed?.replaced.has(node) === true) out.push(node.data ?? '');
    } else if (node.attribs !== undefined && node.name !== undefined) {
      attributeTexts(node, out);
      const first = node.children?.[0];
      if (!CODE.has(node.name) && first !== undefined) {
        if (unshown === null && holdsUnshownText(node, streamed)) unshown = node;
        node = first;
        continue;
      }
    }
    // Leave the node: on to its next sibling, or up, closing each element left.
    node = nextAfter(node, root, (left) => {
      if (left === unshown) unshown = null;
    });
  }
  const lines: string[] = [];
  for (const text of out) {
    const line = text.replace(/\s+/gu, ' ').trim();
    if (line !== '') lines.push(line);
  }
  return lines.join('\n');
}
