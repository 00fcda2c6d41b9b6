/**
 * Reason codes in words, for the person reviewing a held hypothesis: why a
 * cited excerpt was not verified, and why a verdict is degraded. The codes
 * stay stable for programs (docs/citations.md, docs/classifier.md); these
 * words are for people, and may be improved freely.
 *
 * The review page's script imports this module too, so it imports nothing
 * but types: it must stay free of zod and of Node.
 */
import type { DegradedReason } from '../classification/verdict.js';

const NOT_FETCHED = 'page could not be fetched';

/** Citation reasons (src/citations/verifier.ts, src/fetcher/fetch-page.ts, the parsing threads). */
const CITATION_REASONS: Record<string, string> = {
  excerpt_not_found: 'excerpt not found on the page',
  excerpt_not_in_pages_read:
    'excerpt not found in the pages of the document that were read (a long document is read only in part)',
  excerpt_empty: 'the excerpt is empty',
  url_not_seen: 'the reviewing agent never fetched this URL, so it was not checked',
  invalid_url: `${NOT_FETCHED}: not a valid URL`,
  unsupported_scheme: `${NOT_FETCHED}: only http and https addresses are fetched`,
  blocked_address: `${NOT_FETCHED}: the address is private or reserved, and is never fetched`,
  dns_error: `${NOT_FETCHED}: DNS error (the host name did not resolve)`,
  connection_error: `${NOT_FETCHED}: the connection failed`,
  timeout: `${NOT_FETCHED}: it took too long (timeout)`,
  too_large: `${NOT_FETCHED}: it is larger than the size limit`,
  too_many_redirects: `${NOT_FETCHED}: too many redirects`,
  redirect_loop: `${NOT_FETCHED}: the redirects loop`,
  unsupported_encoding: `${NOT_FETCHED}: its compression is not supported`,
  unsupported_content_type: 'the page is not HTML, text or PDF, so it cannot be read',
  unreadable_content: 'the document could not be read (damaged or encrypted)',
  content_too_slow: 'the document took too long to read',
  content_too_large: 'the document is too large to read',
  review_deadline: `${NOT_FETCHED}: the review's time ran out before it was (review deadline)`,
};

/** Reason phrases of the HTTP statuses a cited page most often answers with. */
const HTTP_STATUS: Record<number, string> = {
  400: 'bad request',
  401: 'login required',
  403: 'forbidden',
  404: 'not found',
  410: 'gone',
  429: 'too many requests',
  451: 'unavailable for legal reasons',
  500: 'server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
};

/** Why a citation is not ok, in words; an unknown code is shown as it is, never dropped. */
export function citationReasonText(status: string, reason?: string): string {
  if (status === 'ok') return 'excerpt found on the page';
  if (reason === undefined || reason === '') return status === 'fetch_failed' ? NOT_FETCHED : 'not verified';
  const known = CITATION_REASONS[reason];
  if (known !== undefined) return known;
  const http = /^http_(\d{3})$/.exec(reason);
  if (http) {
    const code = Number(http[1]);
    const phrase = HTTP_STATUS[code];
    return `${NOT_FETCHED}: the server answered HTTP ${code}${phrase ? ` (${phrase})` : ''}`;
  }
  return `${status === 'fetch_failed' ? NOT_FETCHED : 'not verified'} (${reason})`;
}

/** Why a verdict is degraded, in words (DEGRADED_REASONS, src/safety/classification/verdict.ts). */
const DEGRADED: Record<DegradedReason, string> = {
  classifier_disabled: 'the classifier is turned off',
  no_api_key: 'no model API key is configured',
  timeout: 'the classifier timed out',
  connection_error: 'the model service could not be reached',
  server_error: 'the model service failed',
  overloaded: 'the model service was overloaded',
  rate_limited: 'the model service kept refusing requests (rate limit)',
  invalid_response: 'the model service answered with something other than an answer',
  malformed_output: "the model's answer could not be read",
  multiple_assessments: 'the model gave more than one assessment: the most severe was kept',
  unexpected_stop: "the model's answer was cut short or did not end as asked",
  bad_request: 'the model service refused the request',
  auth_error: 'the model API key was refused',
  text_too_long: 'the text is longer than the classifier reads: only its first part was classified',
};

export function degradedReasonText(reason?: string): string {
  if (reason === undefined) return 'the classification failed';
  return (DEGRADED as Record<string, string>)[reason] ?? `the classification failed (${reason})`;
}
