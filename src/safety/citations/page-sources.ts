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
  /**
   * For the injection scan only, never matched nor kept in the page cache:
   * the texts a reader may be shown besides the body text (markup-text.ts),
   * one a line; absent when there are none.
   */
  markup?: string;
  /**
   * For the injection scan only: the texts of the same bytes decoded as
   * UTF-7, when the document declares it (charset.ts). No browser decodes
   * UTF-7, so an excerpt is matched in the texts above; a reader that does
   * decode it would read these.
   */
  utf7?: PageSources;
}

/** The sources without what is kept for the scan only (markup, utf7): what the page cache keeps. */
export function matchedSources(sources: PageSources): PageSources {
  if (sources.markup === undefined && sources.utf7 === undefined) return sources;
  const { markup: _markup, utf7: _utf7, ...kept } = sources;
  return kept;
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
    ...(marked.markup !== '' ? { markup: marked.markup } : {}),
  };
}

/** The text of a plain-text document or of a PDF, normalised, its line breaks as gaps. */
export function plainSources(text: string): PageSources {
  return { text: normalizeMarked(markLineBreaks(text)) };
}
