/**
 * From a URL to the text a reader sees, normalised for matching: fetch (with
 * every SSRF guard), then extract the text by content type in a parsing
 * thread (decoding, HTML or PDF parsing, normalisation: see extract.ts and
 * parse-pool.ts). The result is what the page cache stores.
 */
import { fetchPage, type FetchOptions } from '../fetcher/fetch-page.js';
import { pageTextDigest, type MatchText, type PageSources, type SourceScan } from '../safety/citations/index.js';
import { isReadable, mediaType, type Extraction } from './extract.js';

/**
 * The version of the shape of a page's text, kept in the cache with it. A
 * cached text of another version is fetched again: version 1 had no gaps, and
 * an excerpt whose spacing differs at an element boundary would be reported
 * not found for as long as it stayed cached; version 2 had no optional spans
 * (an excerpt that leaves out a formula would be reported not found too) and
 * no injection scan (a page cached without one would never be scanned);
 * version 3's scan read neither the markup texts nor a UTF-7 reading
 * (page-sources.ts), and a page cached with it would never be scanned there;
 * version 4's scan had no span (SourceScan.span: where the attack is), and
 * a suspected page cached with it would be reported without one; version 5
 * left out the article of a page streamed in hidden blocks (streamed-html.ts)
 * and held a tooltip's text as required, so an excerpt of either page would
 * be reported not found for as long as it stayed cached; version 6 had no
 * provenance (HTTP status, fetch time, text digest), and a review citing a
 * page cached with it would be recorded without the page's.
 */
export const PAGE_TEXT_VERSION = 7;

export type PageText =
  | {
      ok: true;
      v: typeof PAGE_TEXT_VERSION;
      /** The visible text, then the JSON-LD text, normalised (PageSources.text.text). */
      text: string;
      /** PageSources.text.gaps */
      gaps?: number[];
      /** PageSources.text.hyphens */
      hyphens?: number[];
      /** PageSources.text.optional */
      optional?: number[];
      /** PageSources.jsonLdAt */
      jsonLdAt?: number;
      /** PageSources.script */
      script?: MatchText;
      contentType: string;
      finalUrl: string;
      /** The HTTP status of the answer read (a 2xx). */
      status: number;
      /** When the answer was read (ISO 8601): a page from the cache was fetched then, not when it is cited. */
      fetchedAt: string;
      /** The SHA-256 of the texts an excerpt is matched in (recheck.ts pageTextDigest), for a recheck to compare. */
      textSha256: string;
      wireBytes: number;
      /** True when only part of the document was read (a PDF past `citations.pdf_max_pages`). */
      truncated?: boolean;
      /** The injection scan of the texts, made once with them (injection-scan.ts); absent when it did not finish. */
      scan?: SourceScan;
      /** Why there is no scan (too_slow, too_large, crashed). */
      scanFailed?: string;
    }
  | {
      ok: false;
      reason: string;
      detail: string;
      /** The HTTP status of the final answer, when one came. */
      status?: number;
      /** When the fetch ended (absent in a failure cached before it was kept). */
      fetchedAt?: string;
    };

/** The texts of a page read from its PageText, for the matcher. */
export function pageSources(page: PageText & { ok: true }): PageSources {
  const text: MatchText = { text: page.text };
  if (page.gaps !== undefined) text.gaps = page.gaps;
  if (page.hyphens !== undefined) text.hyphens = page.hyphens;
  if (page.optional !== undefined) text.optional = page.optional;
  return {
    text,
    ...(page.jsonLdAt !== undefined ? { jsonLdAt: page.jsonLdAt } : {}),
    ...(page.script !== undefined ? { script: page.script } : {}),
  };
}

/** What turns a fetched body into text: the parsing pool, in the service. */
export interface DocumentReader {
  /** Takes `body` (its buffer may be moved). Rejects only when the reader is closed. */
  extract(body: Uint8Array, contentType: string | undefined): Promise<Extraction>;
}

export async function fetchPageText(url: string, options: FetchOptions, reader: DocumentReader): Promise<PageText> {
  const fetched = await fetchPage(url, options);
  const fetchedAt = new Date().toISOString();
  if (!fetched.ok) {
    return {
      ok: false,
      reason: fetched.reason,
      detail: fetched.detail,
      ...(fetched.status !== undefined ? { status: fetched.status } : {}),
      fetchedAt,
    };
  }
  const answered = { status: fetched.status, fetchedAt };
  // Refused here without a thread: the media type alone tells.
  if (!isReadable(fetched.contentType)) {
    return {
      ok: false,
      reason: 'unsupported_content_type',
      detail: `content type ${mediaType(fetched.contentType) || '(none)'} is not HTML, plain text or PDF`,
      ...answered,
    };
  }
  const extracted = await reader.extract(fetched.body, fetched.contentType);
  if (!extracted.ok) return { ok: false, reason: extracted.reason, detail: extracted.detail, ...answered };
  const { text, jsonLdAt, script } = extracted.sources;
  return {
    ok: true,
    v: PAGE_TEXT_VERSION,
    text: text.text,
    ...(text.gaps !== undefined ? { gaps: text.gaps } : {}),
    ...(text.hyphens !== undefined ? { hyphens: text.hyphens } : {}),
    ...(text.optional !== undefined ? { optional: text.optional } : {}),
    ...(jsonLdAt !== undefined ? { jsonLdAt } : {}),
    ...(script !== undefined ? { script } : {}),
    contentType: mediaType(fetched.contentType),
    finalUrl: fetched.finalUrl,
    ...answered,
    textSha256: pageTextDigest(text.text, script?.text),
    wireBytes: fetched.wireBytes,
    ...(extracted.truncated ? { truncated: true } : {}),
    ...(extracted.scan !== undefined ? { scan: extracted.scan } : {}),
    ...(extracted.scanFailed !== undefined ? { scanFailed: extracted.scanFailed } : {}),
  };
}
