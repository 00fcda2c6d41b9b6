/**
 * From a URL to the text a reader sees, normalised for matching: fetch (with
 * every SSRF guard), then extract the text by content type in a parsing
 * thread (decoding, HTML or PDF parsing, normalisation: see extract.ts and
 * parse-pool.ts). The result is what the page cache stores.
 */
import { fetchPage, type FetchOptions } from '../fetcher/fetch-page.js';
import { isReadable, mediaType, type Extraction } from './extract.js';

export type PageText =
  | {
      ok: true;
      text: string;
      contentType: string;
      finalUrl: string;
      wireBytes: number;
      /** True when only part of the document was read (a PDF past `citations.pdf_max_pages`). */
      truncated?: boolean;
    }
  | { ok: false; reason: string; detail: string };

/** What turns a fetched body into text: the parsing pool, in the service. */
export interface DocumentReader {
  /** Takes `body` (its buffer may be moved). Rejects only when the reader is closed. */
  extract(body: Uint8Array, contentType: string | undefined): Promise<Extraction>;
}

export async function fetchPageText(url: string, options: FetchOptions, reader: DocumentReader): Promise<PageText> {
  const fetched = await fetchPage(url, options);
  if (!fetched.ok) return { ok: false, reason: fetched.reason, detail: fetched.detail };
  // Refused here without a thread: the media type alone tells.
  if (!isReadable(fetched.contentType)) {
    return {
      ok: false,
      reason: 'unsupported_content_type',
      detail: `content type ${mediaType(fetched.contentType) || '(none)'} is not HTML, plain text or PDF`,
    };
  }
  const extracted = await reader.extract(fetched.body, fetched.contentType);
  if (!extracted.ok) return { ok: false, reason: extracted.reason, detail: extracted.detail };
  return {
    ok: true,
    text: extracted.text,
    contentType: mediaType(fetched.contentType),
    finalUrl: fetched.finalUrl,
    wireBytes: fetched.wireBytes,
    ...(extracted.truncated ? { truncated: true } : {}),
  };
}
