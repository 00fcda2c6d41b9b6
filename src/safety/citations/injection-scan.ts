/**
 * The injection scan of a cited document: do the texts read from it carry
 * instructions addressed to an AI reader? An agent that read the page read
 * them too, so a person reviewing the hypothesis should know. The scan runs
 * once per fetched document, and its result is kept with the document's text
 * in the page cache; whether it is suspected is decided where it is used,
 * against the configured threshold, so a changed threshold needs no new
 * fetch.
 */
import { detectInjection, type InjectionDetection, type InjectionSignal } from '../injection/index.js';
import { neutralize } from '../quoting/quote.js';
import type { InjectionSource } from './injection-sources.js';
import type { PageSources } from './page-sources.js';

export { INJECTION_SOURCES, type InjectionSource } from './injection-sources.js';

/** What kind of document the main text came from. */
export type DocumentKind = 'page' | 'pdf';

export interface SourceScan {
  /** The detector's score of the text that scored highest, 0 to 1. */
  score: number;
  /** Where that text is. */
  source: InjectionSource;
  /** The kinds of the signals behind the score, each once, in order of first appearance. */
  kinds: string[];
  /**
   * The text around the strongest signal, white space made single spaces,
   * neutralised by the quoting layer; empty when there is no signal.
   */
  snippet: string;
}

const ALL_SIGNALS = { threshold: 0 };

/** Characters of context kept on each side of the strongest signal. */
export const SNIPPET_CONTEXT = 60;
/** Characters of the signal itself kept at most. */
export const SNIPPET_SIGNAL = 160;

/**
 * A short excerpt around the span, safe to show and to quote: cut at
 * `SNIPPET_CONTEXT` characters each side (ellipses where it is cut), white
 * space collapsed, then neutralised (tags of ours removed, invisible
 * characters removed, lines imitating instructions bracketed), so that it can
 * break neither a prompt it is quoted into nor the page it is shown on.
 */
export function snippetAround(text: string, start: number, end: number): string {
  const to = Math.min(end, start + SNIPPET_SIGNAL);
  const from = Math.max(0, start - SNIPPET_CONTEXT);
  const until = Math.min(text.length, to + SNIPPET_CONTEXT);
  const raw = text.slice(from, until).replace(/\s+/gu, ' ').trim();
  const cut = `${from > 0 ? '… ' : ''}${raw}${until < text.length ? ' …' : ''}`;
  return neutralize(cut).content;
}

/** The signal of highest weight, the first of equals. */
function strongestSignal(detection: InjectionDetection): InjectionSignal | undefined {
  let strongest: InjectionSignal | undefined;
  for (const s of detection.signals) if (strongest === undefined || s.weight > strongest.weight) strongest = s;
  return strongest;
}

function summarise(text: string, detection: InjectionDetection, source: InjectionSource): SourceScan {
  const kinds = [...new Set(detection.signals.map((s) => s.kind))];
  const strongest = strongestSignal(detection);
  return {
    score: detection.score,
    source,
    kinds,
    snippet: strongest === undefined ? '' : snippetAround(text, strongest.start, strongest.end),
  };
}

/**
 * Scans the texts of a document (its main text, and for an HTML page the
 * JSON of its scripts and its markup texts; and the same texts read as UTF-7
 * when it declares UTF-7) and keeps the one that scores highest. A signal in
 * the main text at or after `jsonLdAt` is in the JSON-LD text.
 */
export function scanSources(sources: PageSources, kind: DocumentKind): SourceScan {
  let best = scanTexts(sources, kind);
  if (sources.markup !== undefined) {
    const markup = detectInjection(sources.markup, ALL_SIGNALS);
    if (markup.score > best.score) best = summarise(sources.markup, markup, 'markup');
  }
  if (sources.utf7 !== undefined) {
    const utf7 = scanSources(sources.utf7, kind);
    if (utf7.score > best.score) best = utf7;
  }
  return best;
}

function scanTexts(sources: PageSources, kind: DocumentKind): SourceScan {
  const text = sources.text.text;
  // Threshold 0: the signals of any score are kept, as the threshold that
  // decides is the service's, applied where the scan is used.
  const main = detectInjection(text, ALL_SIGNALS);
  const strongestAt = strongestSignal(main)?.start ?? -1;
  const inJsonLd = kind === 'page' && sources.jsonLdAt !== undefined && strongestAt >= sources.jsonLdAt;
  let best = summarise(text, main, kind === 'pdf' ? 'pdf' : inJsonLd ? 'json_ld' : 'page');
  if (sources.script !== undefined) {
    const scriptText = sources.script.text;
    const script = detectInjection(scriptText, ALL_SIGNALS);
    if (script.score > best.score) best = summarise(scriptText, script, 'script_json');
  }
  return best;
}
