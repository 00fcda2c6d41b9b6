/**
 * Layer 1 of the defence, importable by agents as `cosci-safety/quoting`.
 * Pure: no I/O, no configuration read.
 */
export {
  neutralize,
  quoteHypothesis,
  quoteText,
  quoteUntrusted,
  verifyQuoted,
  TAG_PLACEHOLDER,
  type Neutralised,
  type NeutralizeOptions,
  type QuoteOptions,
  type QuoteTag,
  type Quoted,
  type QuotingReport,
} from './quote.js';
export { SAFETY_PREAMBLE } from './preamble.js';
export {
  DEFAULT_INJECTION_THRESHOLD,
  SIGNAL_KINDS,
  detectInjection,
  type DetectOptions,
  type InjectionDetection,
  type InjectionSignal,
  type InjectionSpan,
  type SignalKind,
} from '../injection/index.js';
export { SNIPPET_CONTEXT, SNIPPET_SPAN, snippetAround, spanExcerpt, type SpanExcerpt } from './snippet.js';
export { datamarkingPreamble, MARKERS } from './datamark.js';
export { findTags, containsTag, TAG_NAMES, type TagName, type TagSpan } from './tags.js';
export { PREFIX_KINDS, classifyLine, type PrefixKind } from './prefixes.js';
export { removeInvisible } from '../text/invisible.js';
export { buildView, type NormalizedView } from '../text/normalized-view.js';
export { HASH_HEX_DIGITS, MAX_ID_LENGTH, escapeId } from './boundary.js';
export { QuotingError, type QuotingErrorCode } from './errors.js';
