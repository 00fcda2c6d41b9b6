/**
 * Layer 3 of the defence, the pure text part: a review cites evidence as
 * {claim, url, excerpt}, and the excerpt must be on the page. This module turns
 * fetched bytes into text and checks the excerpt against it; fetching and
 * caching live in the adapters. No I/O, no configuration read.
 */
export { normalizeForMatch } from './normalize.js';
export {
  locateInPage,
  matchExcerpt,
  matchInPage,
  type MatchOptions,
  type MatchReason,
  type MatchResult,
  type PageLocation,
  type PageMatch,
} from './match.js';
export { normalizeMarked, type MatchText } from './marked-text.js';
export {
  ALTERED_MIN_SIMILARITY,
  closestPassage,
  findNearMiss,
  MAX_DIAGNOSED_WORDS,
  MIN_SHARED_WORDS,
  type NearMiss,
  type NearMissResult,
  type Passage,
} from './near-miss.js';
export {
  CHANGE_KINDS,
  NEAR_MISS_DETAILS,
  type ChangeKind,
  type DiffSegment,
  type NearMissDetail,
} from './near-miss-kinds.js';
export {
  htmlSources,
  matchedSources,
  plainSources,
  TEXT_SOURCES,
  type PageSources,
  type TextSource,
} from './page-sources.js';
export { decodeBody, type CharsetSource, type DecodedBody } from './charset.js';
export { htmlToText } from './html-text.js';
export { cleanPdfText, pdfToText, readPdf, type PdfText, type PdfTextOptions } from './pdf-text.js';
export { inflatedStreamBytes } from './pdf-streams.js';
export { CitationTextError, type CitationTextErrorCode } from './errors.js';
export {
  INJECTION_SOURCES,
  scanSources,
  type DocumentKind,
  type InjectionSource,
  type SourceScan,
  type SourceSpan,
} from './injection-scan.js';
export {
  encodeTextDirective,
  findTextDirective,
  passageDirective,
  textFragmentUrl,
  type TextDirective,
} from './text-fragment.js';
export { pageTextDigest } from './text-digest.js';
export { recheckOutcome, RECHECK_OUTCOMES, type CheckedCitation, type RecheckOutcome } from './recheck.js';
