/**
 * The texts of a document that an excerpt is looked up in, as the matcher
 * (match.ts) takes them and the page cache keeps them.
 */
import { readHtml } from './html-text.js';
import { joinTexts, markLineBreaks, normalizeMarked, type MatchText } from './marked-text.js';
import { scriptJsonText } from './script-json.js';

/** Where an excerpt was found: the visible text, the JSON-LD article text, or the JSON in the page's scripts. */
export const TEXT_SOURCES = ['text', 'json_ld', 'script_json'] as const;
export type TextSource = (typeof TEXT_SOURCES)[number];

export interface PageSources {
  /** The visible text, then (from `jsonLdAt`) the article text of the page's JSON-LD. */
  text: MatchText;
  /** Where the JSON-LD text begins in `text`; absent when the page has none. */
  jsonLdAt?: number;
  /**
   * The text of the JSON in the page's other scripts (script-json.ts): the
   * article of a client-rendered page. Looked in only for an excerpt not in
   * `text`; absent when there is none.
   */
  script?: MatchText;
}

/**
 * The texts of an HTML page, normalised, with their gaps. Throws
 * `HTML_TOO_DEEP` for a page nested too deeply to parse (html-text.ts).
 */
export function htmlSources(html: string): PageSources {
  const marked = readHtml(html);
  const { text, at } = joinTexts(normalizeMarked(marked.visible), normalizeMarked(marked.jsonLd));
  const script = marked.scripts.length === 0 ? undefined : normalizeMarked(scriptJsonText(marked.scripts));
  return {
    text,
    ...(at < text.text.length ? { jsonLdAt: at } : {}),
    ...(script !== undefined && script.text !== '' ? { script } : {}),
  };
}

/** The text of a plain-text document or of a PDF, normalised, its line breaks as gaps. */
export function plainSources(text: string): PageSources {
  return { text: normalizeMarked(markLineBreaks(text)) };
}
