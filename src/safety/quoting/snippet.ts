/**
 * Short excerpts of untrusted text around a span of it (what gave an
 * injection score), safe to show and to quote. The detector gives offsets
 * only (src/safety/injection/detect.ts); the text of a span is made here, in
 * the quoting layer, as it must be neutralised: the citation scan
 * (src/safety/citations/injection-scan.ts) and the `scan` command use it.
 */
import { findTags } from './tags.js';
import { neutralize } from './quote.js';
import { codePointBoundary } from '../text/code-points.js';

/** Characters of context kept at most on each side of a span. */
export const SNIPPET_CONTEXT = 60;
/**
 * Characters of the span itself kept at most: a little more than the
 * model's largest window (48 words) in English, so that a window is mostly shown
 * whole; a longer span is cut and keeps its start.
 */
export const SNIPPET_SPAN = 400;

/**
 * A span's text and its context, each cut, its white space made single
 * spaces, and neutralised on its own (tags of ours replaced, invisible
 * characters removed, a piece that imitates instructions bracketed), so that
 * a reader can be shown which part is the span. An ellipsis marks each cut:
 * `before` starts with `… ` when the text goes on before it, `text` ends
 * with ` …` when the span is longer than SNIPPET_SPAN (then `after` follows
 * the span's real end), and `after` ends with ` …` when the text goes on.
 */
export interface SpanExcerpt {
  before: string;
  text: string;
  after: string;
}

function piece(raw: string): string {
  return neutralize(raw.replace(/\s+/gu, ' '), { detect: false }).content;
}

/** The raw pieces around [start, end) of `text`, cut, with their ellipses; not yet neutralised. */
function cut(text: string, start: number, end: number): SpanExcerpt {
  const s = codePointBoundary(text, Math.max(0, Math.min(start, text.length)));
  const e = codePointBoundary(text, Math.max(s, Math.min(end, text.length)));
  const shown = codePointBoundary(text, Math.min(e, s + SNIPPET_SPAN));
  const from = codePointBoundary(text, Math.max(0, s - SNIPPET_CONTEXT));
  const until = codePointBoundary(text, Math.min(text.length, e + SNIPPET_CONTEXT));
  return {
    before: `${from > 0 ? '… ' : ''}${text.slice(from, s).trimStart()}`,
    text: `${text.slice(s, shown)}${shown < e ? ' …' : ''}`,
    after: `${text.slice(e, until).trimEnd()}${until < text.length ? ' …' : ''}`,
  };
}

/**
 * The excerpt of [start, end) of `text`: its pieces, each safe alone. Their
 * join is safe too: where it would hold a tag of ours (one begun in the
 * context and ended in the span), the context is left out.
 */
export function spanExcerpt(text: string, start: number, end: number): SpanExcerpt {
  const raw = cut(text, start, end);
  const excerpt = { before: piece(raw.before), text: piece(raw.text), after: piece(raw.after) };
  if (findTags(excerpt.before + excerpt.text + excerpt.after).length > 0)
    return { before: '', text: excerpt.text, after: '' };
  return excerpt;
}

/**
 * The same excerpt as one string, neutralised whole (so a line imitating
 * instructions is bracketed whole): what a log line, an event or a prompt
 * takes.
 */
export function snippetAround(text: string, start: number, end: number): string {
  const raw = cut(text, start, end);
  return neutralize(`${raw.before}${raw.text}${raw.after}`.replace(/\s+/gu, ' ').trim(), { detect: false }).content;
}
