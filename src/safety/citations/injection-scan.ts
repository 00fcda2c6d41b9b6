/**
 * The injection scan of a cited document: do the texts read from it carry
 * instructions addressed to an AI reader? An agent that read the page read
 * them too, so a person reviewing the hypothesis should know. The scan runs
 * once per fetched document, and its result is kept with the document's text
 * in the page cache; whether it is suspected is decided where it is used,
 * against the configured threshold, so a changed threshold needs no new
 * fetch.
 */
import { detectInjection, type InjectionDetection, type SignalKind } from '../injection/index.js';
import { snippetAround, spanExcerpt, type SpanExcerpt } from '../quoting/snippet.js';
import type { InjectionSource } from './injection-sources.js';
import type { PageSources } from './page-sources.js';

export { INJECTION_SOURCES, type InjectionSource } from './injection-sources.js';

/** What kind of document the main text came from. */
export type DocumentKind = 'page' | 'pdf';

/**
 * Where in the document the score came from (the detector's span,
 * detect.ts), and its text. The offsets are UTF-16 code units into the text
 * of `source` as the service extracted it: for `page` the visible text, for
 * `json_ld` the JSON-LD article text (each from its own start: the cached
 * text holds the visible text, a space, then the JSON-LD text), for `pdf`
 * the PDF's text, for `script_json` the JSON text of the scripts, for
 * `markup` the markup texts one a line; all normalised for matching
 * (marked-text.ts), so they are not offsets into the document's bytes. That
 * text is not published: `sourceLength` says where in it the span is, and
 * the excerpt shows it.
 */
export interface SourceSpan extends SpanExcerpt {
  /** What gave the score: `instruction_text` (the model's window of words) or a near-certain signal's kind. */
  kind: SignalKind;
  start: number;
  end: number;
  /** The length of the source's text. */
  sourceLength: number;
  /** The text is the document read as UTF-7, which it declares (a browser would not read it so). */
  utf7?: true;
}

export interface SourceScan {
  /** The detector's score of the text that scored highest, 0 to 1. */
  score: number;
  /** Where that text is. */
  source: InjectionSource;
  /** The kinds of the signals behind the score, each once, in order of first appearance. */
  kinds: string[];
  /**
   * The span's text with a little context on each side (SNIPPET_CONTEXT),
   * white space made single spaces, neutralised whole by the quoting layer;
   * empty when there is no span.
   */
  snippet: string;
  /** Where the score came from, and its text; absent when nothing in the text gave a score. */
  span?: SourceSpan;
}

const ALL_SIGNALS = { threshold: 0 };

/** A text the detector read, and where in it the source's text is (the JSON-LD text is the end of the main text). */
interface Scanned {
  text: string;
  /** Where the source's text begins in `text`, and where it ends. */
  from: number;
  to: number;
  /** `text` is the document read as UTF-7. */
  utf7: boolean;
}

function summarise(detection: InjectionDetection, source: InjectionSource, read: Scanned): SourceScan {
  const kinds = [...new Set(detection.signals.map((s) => s.kind))];
  const found = detection.span;
  if (found === undefined) return { score: detection.score, source, kinds, snippet: '' };
  // The source's own text, so that neither the offsets nor the context shown
  // reach into another: a window that begins in the visible text and ends in
  // the JSON-LD text is the visible text's, up to its end.
  const text = read.from === 0 && read.to === read.text.length ? read.text : read.text.slice(read.from, read.to);
  const start = Math.min(Math.max(found.start - read.from, 0), text.length);
  const end = Math.min(Math.max(found.end - read.from, start), text.length);
  const span: SourceSpan = {
    kind: found.kind,
    start,
    end,
    sourceLength: text.length,
    ...spanExcerpt(text, start, end),
    ...(read.utf7 ? { utf7: true as const } : {}),
  };
  return { score: detection.score, source, kinds, snippet: snippetAround(text, start, end), span };
}

/**
 * Scans the texts of a document (its main text, and for an HTML page the
 * JSON of its scripts and its markup texts; and the same texts read as UTF-7
 * when it declares UTF-7) and keeps the one that scores highest. A span in
 * the main text that begins at or after `jsonLdAt` is in the JSON-LD text.
 */
export function scanSources(sources: PageSources, kind: DocumentKind): SourceScan {
  return scanReading(sources, kind, false);
}

function scanReading(sources: PageSources, kind: DocumentKind, utf7: boolean): SourceScan {
  let best = scanTexts(sources, kind, utf7);
  if (sources.markup !== undefined) {
    const text = sources.markup;
    const markup = detectInjection(text, ALL_SIGNALS);
    if (markup.score > best.score) best = summarise(markup, 'markup', { text, from: 0, to: text.length, utf7 });
  }
  if (sources.utf7 !== undefined) {
    const read = scanReading(sources.utf7, kind, true);
    if (read.score > best.score) best = read;
  }
  return best;
}

function scanTexts(sources: PageSources, kind: DocumentKind, utf7: boolean): SourceScan {
  const text = sources.text.text;
  // Threshold 0: the signals of any score are kept, as the threshold that
  // decides is the service's, applied where the scan is used.
  const main = detectInjection(text, ALL_SIGNALS);
  const whole = { text, from: 0, to: text.length, utf7 };
  const ld = kind === 'page' ? sources.jsonLdAt : undefined;
  let best =
    ld === undefined
      ? summarise(main, kind === 'pdf' ? 'pdf' : 'page', whole)
      : (main.span?.start ?? -1) >= ld
        ? summarise(main, 'json_ld', { ...whole, from: ld })
        : // The visible text ends before the space that joins the JSON-LD text to it (joinTexts).
          summarise(main, 'page', { ...whole, to: Math.max(0, ld - 1) });
  if (sources.script !== undefined) {
    const scriptText = sources.script.text;
    const script = detectInjection(scriptText, ALL_SIGNALS);
    if (script.score > best.score)
      best = summarise(script, 'script_json', { text: scriptText, from: 0, to: scriptText.length, utf7 });
  }
  return best;
}
