/**
 * Layer 3: every piece of evidence a review cites is fetched, and the quoted
 * excerpt must be on the page. Checks the citations of one review
 * concurrently, with a per-host limit shared fairly with the other reviews
 * of the worker; URLs the agent did not fetch are unverified without a
 * fetch. A review has a deadline: the citations it has not fetched by then
 * are fetch_failed, `review_deadline`, and the review ends with the rest.
 */
import { setMaxListeners } from 'node:events';
import type { CitationStatus } from '../contracts/events.js';
import { CosciError } from '../errors.js';
import type { Evidence } from '../contracts/payloads.js';
import type {
  CitationLocation,
  CitationResult,
  PageProvenance,
  SourceInjection,
  UrlSummary,
} from '../contracts/results.js';
import type { FetchOptions } from '../fetcher/fetch-page.js';
import type { HostLimiter } from '../fetcher/fetch-page.js';
import {
  findNearMiss,
  locateInPage,
  passageDirective,
  textFragmentUrl,
  type PageLocation,
  type PageSources,
} from '../safety/citations/index.js';
import { DEFAULT_INJECTION_THRESHOLD } from '../safety/injection/index.js';
import type { ClaimSupportChecker } from './claim-support.js';
import type { PageCache } from './page-cache.js';
import { fetchPageText, pageSources, type DocumentReader, type PageText } from './page-text.js';
import { untilAborted } from './until-aborted.js';

export interface VerifierOptions {
  fetchOptions: FetchOptions;
  /** Extracts the text of fetched documents, off the event loop (the parsing pool). */
  reader: DocumentReader;
  hostLimiter: HostLimiter;
  /** Citations of one review checked at once. */
  concurrency: number;
  /**
   * Time from the start of a review's check after which the citations not
   * yet fetched (waiting or in flight) are fetch_failed, {@link REVIEW_DEADLINE}.
   * @see `citations.review_deadline_ms`
   */
  deadlineMs: number;
  /** 0: the whole excerpt; n > 0: only its first n characters (the old rule). */
  prefixChars: number;
  cache?: PageCache | undefined;
  /**
   * Injection score from which a cited document is reported as suspected: `safety.injection_threshold`.
   * @defaultValue DEFAULT_INJECTION_THRESHOLD
   */
  injectionThreshold?: number;
  /**
   * Judges whether the passage of each `ok` excerpt supports its claim
   * (docs/citations.md#claim-support); absent when `citations.claim_support` is off.
   */
  claimSupport?: ClaimSupportChecker | undefined;
  /** For metrics. */
  onFetch?: (page: PageText, seconds: number) => void;
}

/** A review's citations checked, and the pages they were checked against. */
export interface Verification {
  results: CitationResult[];
  /** Each page fetched (or read from the page cache), by the URL as cited. */
  pages: Record<string, PageProvenance>;
}

export interface Verifier {
  verify(evidence: Evidence[], seenUrls?: string[], signal?: AbortSignal): Promise<CitationResult[]>;
  /** {@link Verifier.verify}, with the provenance of the pages. */
  verifyWithPages(evidence: Evidence[], seenUrls?: string[], signal?: AbortSignal): Promise<Verification>;
}

/** The URL as the seen-list check compares it: parsed, without its fragment. */
export function canonicalUrl(raw: string): string {
  try {
    const url = new URL(raw.trim());
    url.hash = '';
    return url.href;
  } catch {
    return raw.trim();
  }
}

function hostOf(raw: string): string {
  try {
    return new URL(raw).host.toLowerCase();
  } catch {
    return '';
  }
}

function withoutFragment(raw: string): string {
  try {
    const url = new URL(raw);
    url.hash = '';
    return url.href;
  } catch {
    return raw;
  }
}

/** Fetches refused before any request: the URL was never fetched, and has no page to keep. */
const NOT_FETCHED = new Set(['invalid_url', 'unsupported_scheme', 'blocked_address']);

/**
 * What a review keeps of a page it was checked against: its answer, when it
 * was fetched, and its text's digest. A failure cached before fetch times
 * were kept has no time, and is left out.
 */
function provenanceOf(page: PageText): PageProvenance | undefined {
  if (!page.ok) {
    if (page.fetchedAt === undefined || NOT_FETCHED.has(page.reason)) return undefined;
    return {
      ...(page.status !== undefined ? { status: page.status } : {}),
      fetchedAt: page.fetchedAt,
      reason: page.reason,
    };
  }
  return {
    finalUrl: withoutFragment(page.finalUrl),
    status: page.status,
    contentType: page.contentType,
    fetchedAt: page.fetchedAt,
    textSha256: page.textSha256,
    textVersion: page.v,
  };
}

/**
 * Where the excerpt is, and the link that opens the page there: the page's
 * URL after redirects, with the fragment of the URL as cited (the page cache
 * keeps one page for every fragment), and a text directive from the page's
 * text. The JSON-LD text is not shown by the page: no link into it.
 */
function locationOf(
  cited: string,
  page: PageText & { ok: true },
  sources: PageSources,
  at: PageLocation & { found: true },
): CitationLocation {
  const location: CitationLocation = { start: at.start, end: at.end };
  if (at.source === 'json_ld') return location;
  const text = at.source === 'script_json' ? sources.script : sources.text;
  const directive = text === undefined ? undefined : passageDirective(text, at.start, at.end);
  if (directive === undefined) return location;
  let base: string;
  try {
    const url = new URL(page.finalUrl);
    url.hash = new URL(cited.trim()).hash;
    base = url.href;
  } catch {
    return location;
  }
  const link = textFragmentUrl(base, directive);
  return link === undefined ? location : { ...location, textFragmentUrl: link };
}

const SEVERITY: Record<CitationStatus, number> = { ok: 0, unverified: 1, fetch_failed: 2 };

/** The research system's summary keyed by URL; a URL cited twice shows its worst result. */
export function summarize(results: CitationResult[]): Record<string, UrlSummary> {
  const out: Record<string, UrlSummary> = {};
  for (const r of results) {
    const current = out[r.url];
    if (!current || SEVERITY[r.status] > SEVERITY[current.status])
      out[r.url] = { status: r.status, excerpt_len: r.excerptLen };
  }
  return out;
}

export function countByStatus(results: CitationResult[]): Record<CitationStatus, number> {
  const counts: Record<CitationStatus, number> = { ok: 0, unverified: 0, fetch_failed: 0 };
  for (const r of results) counts[r.status]++;
  return counts;
}

/** The reason of a citation not fetched before its review's deadline. */
export const REVIEW_DEADLINE = 'review_deadline';

const stopped = () => new CosciError('JOB_ABORTED', 'citation check stopped: the worker is shutting down');

export function createVerifier(options: VerifierOptions): Verifier {
  if (!Number.isInteger(options.deadlineMs) || options.deadlineMs < 1) {
    throw new RangeError(`deadlineMs must be a positive integer, got ${options.deadlineMs}`);
  }
  const injectionThreshold = options.injectionThreshold ?? DEFAULT_INJECTION_THRESHOLD;
  // One PageSources per page text: the entries of a review that share a page
  // (through the cache's single flight) share what the matcher builds for it.
  const sourcesOfPage = new WeakMap<PageText, PageSources>();
  const sourcesOf = (page: PageText & { ok: true }): PageSources => {
    let sources = sourcesOfPage.get(page);
    if (sources === undefined) sourcesOfPage.set(page, (sources = pageSources(page)));
    return sources;
  };

  /**
   * The page, fetched in the turns of `review` at the host limiter. `signal`
   * ends the review's wait (shutdown, or the deadline); the fetch itself is
   * stopped, and its host slot freed, once no review waits for it (the page
   * cache shares one fetch between the reviews that cite a URL).
   */
  const loadPage = (url: string, review: object, signal: AbortSignal): Promise<PageText> => {
    const fetch = (load: AbortSignal) =>
      options.hostLimiter.run(
        hostOf(url),
        async () => {
          const started = performance.now();
          // An abort cuts a slow page short: fetchPage then rejects, so the
          // page cache stores nothing for it.
          const page = await fetchPageText(url, { ...options.fetchOptions, signal: load }, options.reader);
          options.onFetch?.(page, (performance.now() - started) / 1000);
          return page;
        },
        { owner: review, signal: load },
      );
    // The cache is keyed by the URL as cited, fragment removed.
    const loading = options.cache ? options.cache.get(canonicalUrl(url), fetch, signal) : fetch(signal);
    // The review stops waiting at the signal whatever the load does (a document being parsed goes on).
    return untilAborted(loading, signal);
  };

  /** The page's scan, reported when it reaches the threshold; the citation's status is the excerpt check's alone. */
  const injectionOf = (page: PageText & { ok: true }): { injection: SourceInjection } | undefined => {
    const scan = page.scan;
    // As the detector decides: a text with no signal is never suspected, whatever the threshold.
    if (scan === undefined || scan.kinds.length === 0 || scan.score < injectionThreshold) return undefined;
    return { injection: { ...scan, threshold: injectionThreshold } };
  };

  interface Review {
    seen: Set<string> | undefined;
    /** Aborts at shutdown or at the deadline, whichever comes first. */
    signal: AbortSignal;
    /** Set when the deadline has passed. */
    late: boolean;
    shutdown: AbortSignal | undefined;
    /** By the URL as cited: a Map, since a cited URL is any string (`__proto__` too). */
    pages: Map<string, PageProvenance>;
  }

  async function check(e: Evidence, index: number, review: Review): Promise<CitationResult> {
    const base = { index, url: e.url, excerptLen: e.excerpt.length };
    const fail = (status: CitationStatus, reason: string): CitationResult => ({
      ...base,
      status,
      reason,
      citation_unverified: true,
    });
    if (review.seen && !review.seen.has(canonicalUrl(e.url))) return fail('unverified', 'url_not_seen');
    // Past the deadline nothing more is loaded, not even from the cache:
    // what the deadline cuts does not depend on what happens to be cached.
    if (review.late) return fail('fetch_failed', REVIEW_DEADLINE);
    let page: PageText;
    try {
      page = await loadPage(e.url, review, review.signal);
    } catch (err) {
      // Shutdown wins over the deadline: the job goes back to the queue.
      if (review.late && !review.shutdown?.aborted) return fail('fetch_failed', REVIEW_DEADLINE);
      throw err;
    }
    const provenance = provenanceOf(page);
    if (provenance !== undefined) review.pages.set(e.url, provenance);
    if (!page.ok) return fail('fetch_failed', page.reason);
    const injection = injectionOf(page);
    const sources = sourcesOf(page);
    const matchOptions = options.prefixChars > 0 ? { prefixChars: options.prefixChars } : undefined;
    const match = locateInPage(sources, e.excerpt, matchOptions);
    if (!match.found) {
      // What the page holds closest to it, for the person checking the evidence; the status stays unverified.
      const near = match.reason === 'excerpt_not_found' ? findNearMiss(sources, e.excerpt, matchOptions) : undefined;
      // Not on the pages read is not "not in the document" when pages were left unread.
      return {
        ...fail(
          'unverified',
          page.truncated && match.reason === 'excerpt_not_found' ? 'excerpt_not_in_pages_read' : match.reason,
        ),
        ...near,
        ...injection,
      };
    }
    return {
      ...base,
      status: 'ok',
      source: match.source,
      citation_unverified: false,
      ...injection,
      location: locationOf(e.url, page, sources, match),
      ...(await claimSupportOf(e, sources, match, review)),
    };
  }

  /**
   * The judge's reading of the claim against the text the excerpt was found
   * in. It is not cut by the review's deadline, which bounds fetches: its
   * calls are bounded by the model's timeout and retries, and a shutdown
   * ends them (the job goes back to the queue).
   */
  async function claimSupportOf(
    e: Evidence,
    sources: PageSources,
    at: PageLocation & { found: true },
    review: Review,
  ): Promise<Pick<CitationResult, 'claimSupport'>> {
    const checker = options.claimSupport;
    const text = at.source === 'script_json' ? sources.script?.text : sources.text.text;
    if (checker === undefined || text === undefined) return {};
    const claimSupport = await checker.check(
      { claim: e.claim, excerpt: e.excerpt, text, start: at.start, end: at.end },
      review.shutdown,
    );
    return { claimSupport };
  }

  const verifier: Verifier = {
    async verify(evidence, seenUrls, signal) {
      return (await verifier.verifyWithPages(evidence, seenUrls, signal)).results;
    },
    async verifyWithPages(evidence, seenUrls, signal) {
      const seen = seenUrls ? new Set(seenUrls.map(canonicalUrl)) : undefined;
      // The review's own signal, linked to the shutdown signal by hand and
      // unlinked at the end: AbortSignal.any keeps what it makes from a
      // long-lived signal alive on some Node versions (nodejs/node#55351).
      const controller = new AbortController();
      // Each citation waiting listens to it: many, by design.
      setMaxListeners(0, controller.signal);
      const review: Review = { seen, signal: controller.signal, late: false, shutdown: signal, pages: new Map() };
      const timer = setTimeout(() => {
        review.late = true;
        controller.abort(new Error(`review deadline of ${options.deadlineMs} ms passed`));
      }, options.deadlineMs);
      const onShutdown = () => controller.abort(signal?.reason);
      signal?.addEventListener('abort', onShutdown, { once: true });
      const results = new Array<CitationResult>(evidence.length);
      let next = 0;
      const worker = async () => {
        while (next < evidence.length) {
          // Shutdown: the job goes back to the queue (src/failure.ts) and
          // is verified afresh; nothing of this run is stored.
          if (signal?.aborted) throw stopped();
          const i = next++;
          try {
            results[i] = await check(evidence[i]!, i, review);
          } catch (err) {
            throw signal?.aborted ? stopped() : err;
          }
        }
      };
      try {
        await Promise.all(Array.from({ length: Math.min(options.concurrency, evidence.length) }, worker));
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onShutdown);
      }
      // A shutdown while the last citations were cut by the deadline still
      // sends the job back: its next run has a whole deadline of its own.
      if (signal?.aborted) throw stopped();
      return { results, pages: Object.fromEntries(review.pages) };
    },
  };
  return verifier;
}
