/**
 * From a URL to the text a reader sees, normalised for matching: fetch (with
 * every SSRF guard), decode in the body's real charset, extract text by
 * content type. The result is what the page cache stores.
 */
import { decodeBody, htmlToText, normalizeForMatch, pdfToText } from '../safety/citations/index.js';
import { fetchPage, type FetchOptions } from '../fetcher/fetch-page.js';

export type PageText =
  | { ok: true; text: string; contentType: string; finalUrl: string; wireBytes: number }
  | { ok: false; reason: string; detail: string };

const HTML = new Set(['text/html', 'application/xhtml+xml']);

/** The media type of a Content-Type header, lower case, without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Extracts the text of a fetched body by its media type; undefined for a type we do not read. */
export async function extractText(body: Uint8Array, contentType: string | undefined): Promise<string | undefined> {
  const type = mediaType(contentType);
  if (HTML.has(type)) return htmlToText(decodeBody(body, contentType).text);
  if (type === 'text/plain') return decodeBody(body, contentType).text;
  if (type === 'application/pdf') return pdfToText(body);
  return undefined;
}

export async function fetchPageText(url: string, options: FetchOptions): Promise<PageText> {
  const fetched = await fetchPage(url, options);
  if (!fetched.ok) return { ok: false, reason: fetched.reason, detail: fetched.detail };
  let text: string | undefined;
  try {
    text = await extractText(fetched.body, fetched.contentType);
  } catch (err) {
    return { ok: false, reason: 'unreadable_content', detail: (err as Error).message };
  }
  if (text === undefined) {
    return {
      ok: false,
      reason: 'unsupported_content_type',
      detail: `content type ${mediaType(fetched.contentType) || '(none)'} is not HTML, plain text or PDF`,
    };
  }
  return {
    ok: true,
    text: normalizeForMatch(text),
    contentType: mediaType(fetched.contentType),
    finalUrl: fetched.finalUrl,
    wireBytes: fetched.wireBytes,
  };
}
