/**
 * From the bytes of a fetched document to the normalised text an excerpt is
 * looked up in, by media type, within the bounds of the configuration; and
 * the reasons a document yields no text. This is what a parsing thread runs
 * (parse-thread.ts): decoding, HTML and PDF parsing and normalisation are all
 * CPU-bound and their cost is set by the document, so none of them runs on
 * the worker's event loop.
 */
import {
  CitationTextError,
  decodeBody,
  htmlSources,
  plainSources,
  readPdf,
  type CitationTextErrorCode,
  type PageSources,
  type SourceScan,
} from '../safety/citations/index.js';

/**
 * Why a document gave no text, as a citation's `fetch_failed` reason:
 *
 * - `unsupported_content_type`: not HTML, plain text or PDF;
 * - `unreadable_content`: not a document the parsers can read (a damaged or
 *   encrypted PDF), or the parsing thread failed on it;
 * - `content_too_slow`: reading it takes longer than `citations.parse_timeout_ms`
 *   of its thread's CPU time (parse-pool.ts),
 *   or it is built to (HTML nested so that parsing it is quadratic, refused
 *   before parsing);
 * - `content_too_large`: reading it needs more memory than its thread may use
 *   (`citations.parse_max_heap_mb`), or it is built to (a PDF whose streams
 *   inflate past `citations.pdf_max_decoded_bytes`, text longer than
 *   `citations.max_decoded_bytes`).
 */
export type ExtractFailure =
  'unsupported_content_type' | 'unreadable_content' | 'content_too_slow' | 'content_too_large';

export type Extraction =
  | {
      ok: true;
      /** The texts to match excerpts in, normalised, with their gaps (page-sources.ts). */
      sources: PageSources;
      /** True when only part of the document was read (a PDF past `pdf_max_pages`). */
      truncated: boolean;
      /** The injection scan of its texts (parse-thread.ts); absent when the scan did not finish. */
      scan?: SourceScan;
      /** Why there is no scan: its thread was ended under it (too_slow, too_large, crashed). */
      scanFailed?: string;
    }
  | { ok: false; reason: ExtractFailure; detail: string };

/** Bounds on one document, from the `citations` configuration. */
export interface DocumentLimits {
  /** @see `citations.pdf_max_pages` */
  pdfMaxPages: number;
  /** @see `citations.pdf_max_decoded_bytes` */
  pdfMaxDecodedBytes: number;
  /** Characters of text at most: `citations.max_decoded_bytes`, the bound on an HTML page's bytes. */
  maxTextChars: number;
}

const HTML = new Set(['text/html', 'application/xhtml+xml']);
const READABLE = new Set([...HTML, 'text/plain', 'application/pdf']);

/** The media type of a Content-Type header, lower case, without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Whether a document of this Content-Type can give text (HTML, plain text, PDF). */
export function isReadable(contentType: string | undefined): boolean {
  return READABLE.has(mediaType(contentType));
}

const FAILURE_OF: Record<CitationTextErrorCode, ExtractFailure> = {
  PDF_INVALID: 'unreadable_content',
  HTML_TOO_DEEP: 'content_too_slow',
  PDF_TOO_LARGE: 'content_too_large',
  TEXT_TOO_LONG: 'content_too_large',
  BAD_OPTION: 'unreadable_content',
};

/**
 * The texts of a document that declares UTF-7, read as UTF-7 too, for the
 * injection scan (page-sources.ts). A UTF-7 reading that cannot be parsed
 * (nested too deeply) leaves the document's texts as they are.
 */
function withUtf7(sources: PageSources, read: () => PageSources): PageSources {
  try {
    return { ...sources, utf7: read() };
  } catch (err) {
    if (err instanceof CitationTextError) return sources;
    throw err;
  }
}

/**
 * The texts of a document: HTML without markup (and with its JSON-LD article
 * text, and apart the text of its scripts' JSON), plain text as it is, a
 * PDF's first `pdfMaxPages` pages; decoded in the document's real charset
 * and normalised, with the places where a quote's spacing may differ
 * (marked-text.ts). Never throws for a document, whatever its bytes.
 */
export async function extractDocument(
  body: Uint8Array,
  contentType: string | undefined,
  limits: DocumentLimits,
): Promise<Extraction> {
  const type = mediaType(contentType);
  try {
    let sources: PageSources;
    let truncated = false;
    if (HTML.has(type)) {
      const decoded = decodeBody(body, contentType);
      sources = htmlSources(decoded.text);
      if (decoded.utf7 !== undefined) sources = withUtf7(sources, () => htmlSources(decoded.utf7!));
    } else if (type === 'text/plain') {
      const decoded = decodeBody(body, contentType);
      sources = plainSources(decoded.text);
      if (decoded.utf7 !== undefined) sources = withUtf7(sources, () => plainSources(decoded.utf7!));
    } else if (type === 'application/pdf') {
      const pdf = await readPdf(body, {
        maxPages: limits.pdfMaxPages,
        maxDecodedBytes: limits.pdfMaxDecodedBytes,
        maxTextChars: limits.maxTextChars,
      });
      sources = plainSources(pdf.text);
      truncated = pdf.pagesRead < pdf.pages;
    } else {
      return {
        ok: false,
        reason: 'unsupported_content_type',
        detail: `content type ${type || '(none)'} is not HTML, plain text or PDF`,
      };
    }
    return { ok: true, sources, truncated };
  } catch (err) {
    if (err instanceof CitationTextError) return { ok: false, reason: FAILURE_OF[err.code], detail: err.message };
    return { ok: false, reason: 'unreadable_content', detail: err instanceof Error ? err.message : String(err) };
  }
}
