/**
 * The exit codes of every command, in one table (docs/cli.md#exit-codes).
 * A script branches on the code: 0 may go on; 1 must change its request; 2
 * must change its command line; 3 and 4 must not use what it asked about
 * (blocked for good, or held for a person); 5 may try again later; 130 was
 * stopped by a signal, and 141 lost its reader, before the command's answer.
 */
import type { ReviewRecheck } from '../contracts/recheck.js';
import type { CitationResult, ReportResult } from '../contracts/results.js';
import type { ErrorCode } from '../errors.js';
import type { Action } from '../safety/classification/verdict.js';

export const EXIT = {
  /** Allow or warn; a job published; a decision recorded; help printed. */
  ok: 0,
  /** The request was refused: bad input, a configuration or a review request the service refused. */
  refused: 1,
  /** The command line is wrong: an unknown command or option, a missing argument. */
  usage: 2,
  /** The verdict blocks it. */
  blocked: 3,
  /**
   * Held: quarantined (a degraded verdict is, by default), a report that may not be published, an unverified citation,
   * a text suspected of carrying instructions for an AI reader (`scan`).
   */
  held: 4,
  /** Nothing was decided: Redis or a page could not be reached, or no result came in time. Try again later. */
  unavailable: 5,
  /**
   * Stopped by Ctrl-C (SIGINT) or SIGTERM while waiting: `submit --wait` has
   * printed the job, which goes on without it, and how to read its result.
   * 128 + SIGINT, as a shell reports a program Ctrl-C ended.
   */
  interrupted: 130,
  /**
   * The reader of stdout went away before the command had printed all
   * (`| head -1`): it ends at once, quietly. 128 + SIGPIPE, as a shell
   * reports a program a closed pipe ended.
   */
  output_closed: 141,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Every error code, decided; a new code does not compile until it is placed here. */
const BY_CODE: Record<ErrorCode, ExitCode> = {
  USAGE: EXIT.usage,
  // What the caller gave, or what the service refused to do with it.
  CONFIG_INVALID: EXIT.refused,
  CONFIG_NOT_FOUND: EXIT.refused,
  INPUT_UNREADABLE: EXIT.refused,
  INPUT_EMPTY: EXIT.refused,
  // Set ANTHROPIC_API_KEY: a measurement of the model needs the model.
  NO_API_KEY: EXIT.refused,
  PAYLOAD_INVALID: EXIT.refused,
  // Publish the new content as a new revision.
  REVISION_CONFLICT: EXIT.refused,
  PORT_UNAVAILABLE: EXIT.refused,
  // The machine must change: install redis-server, then the same command starts.
  REDIS_SERVER_MISSING: EXIT.refused,
  REVIEW_INVALID: EXIT.refused,
  REVIEW_NOT_FOUND: EXIT.refused,
  REVIEW_NOT_HELD: EXIT.refused,
  REVIEW_ALREADY_DECIDED: EXIT.refused,
  REVIEW_CLAIMED: EXIT.refused,
  QUOTING_BAD_ID: EXIT.refused,
  QUOTING_BAD_KEY: EXIT.refused,
  QUOTING_BAD_INPUT: EXIT.refused,
  CITATION_BLOCKED_ADDRESS: EXIT.refused,
  CITATION_BAD_OPTIONS: EXIT.refused,
  BAD_OPTION: EXIT.refused,
  PDF_INVALID: EXIT.refused,
  PDF_TOO_LARGE: EXIT.refused,
  HTML_TOO_DEEP: EXIT.refused,
  TEXT_TOO_LONG: EXIT.refused,
  EVENT_INVALID: EXIT.refused,
  EVENT_HANDLER_FAILED: EXIT.refused,
  CLASSIFIER_BAD_REQUEST: EXIT.refused,
  CLASSIFIER_AUTH: EXIT.refused,
  // A bug: trying again gives the same.
  INJECTION_MODEL_MISMATCH: EXIT.refused,
  INTERNAL: EXIT.refused,
  // Nothing was decided; the same command may well succeed later.
  REDIS_UNAVAILABLE: EXIT.unavailable,
  REVIEW_UNAVAILABLE: EXIT.unavailable,
  PUBLISH_FAILED: EXIT.unavailable,
  WAIT_TIMEOUT: EXIT.unavailable,
  EVENT_READ_FAILED: EXIT.unavailable,
  JOB_ABORTED: EXIT.unavailable,
  PARSE_POOL_CLOSED: EXIT.unavailable,
  CLASSIFIER_RATE_LIMITED: EXIT.unavailable,
  CLASSIFIER_OVERLOADED: EXIT.unavailable,
  CLASSIFIER_SERVER_ERROR: EXIT.unavailable,
  CLASSIFIER_TIMEOUT: EXIT.unavailable,
  CLASSIFIER_CONNECTION: EXIT.unavailable,
  CLASSIFIER_INVALID_RESPONSE: EXIT.unavailable,
  CLASSIFIER_MALFORMED_OUTPUT: EXIT.unavailable,
  CLASSIFIER_MULTIPLE_CALLS: EXIT.unavailable,
  CLASSIFIER_UNEXPECTED_STOP: EXIT.unavailable,
  CLASSIFIER_ABORTED: EXIT.unavailable,
  // The user stopped the command; what it submitted goes on.
  INTERRUPTED: EXIT.interrupted,
};

export function exitCodeOfError(code: ErrorCode): ExitCode {
  return BY_CODE[code];
}

/**
 * A verdict's action. A degraded verdict (no API key, the model out of
 * reach) takes `safety.classifier_on_error`, quarantine by default, so it is
 * held like any quarantined text: nothing passes as safe unclassified.
 */
export function exitCodeOfAction(action: Action): ExitCode {
  switch (action) {
    case 'allow':
    case 'warn':
      return EXIT.ok;
    case 'quarantine':
      return EXIT.held;
    case 'block':
      return EXIT.blocked;
  }
}

/** A final report's check: blocked when its own verdict blocks, held whenever it may not be published. */
export function exitCodeOfReport(result: Pick<ReportResult, 'publishable' | 'verdict'>): ExitCode {
  if (result.verdict?.action === 'block') return EXIT.blocked;
  return result.publishable ? EXIT.ok : EXIT.held;
}

// Fetches the verifier refused to make: the URL itself is the problem.
const REFUSED_FETCHES = new Set(['blocked_address', 'invalid_url', 'unsupported_scheme']);

/**
 * A one-off citation check: an excerpt not on the page is held (the worker
 * flags it `citation_unverified` for a person); a URL the verifier refuses to
 * fetch is a refused request; a page that could not be read leaves the
 * question open (5: it may be readable later).
 */
export function exitCodeOfCitation(result: Pick<CitationResult, 'status' | 'reason'>): ExitCode {
  switch (result.status) {
    case 'ok':
      return EXIT.ok;
    case 'unverified':
      return EXIT.held;
    case 'fetch_failed':
      return REFUSED_FETCHES.has(result.reason ?? '') ? EXIT.refused : EXIT.unavailable;
  }
}

/**
 * Fetch failures that say nothing of the page: it was not reached, and may be
 * later. Any other (`http_404`, `http_410`, a page that is no longer a
 * document) is the page's answer.
 */
function unreached(reason: string | undefined): boolean {
  return (
    reason === 'timeout' ||
    reason === 'connection_error' ||
    reason === 'dns_error' ||
    reason === 'review_deadline' ||
    reason === 'content_too_slow' ||
    /^http_(429|5\d\d)$/.test(reason ?? '')
  );
}

/**
 * A recheck of a review's evidence: held (4) when an excerpt that was on its
 * page is gone (not on the page now, or the page answers that it is not
 * there), as an unverified citation is; unavailable (5) when the only ones
 * gone are on pages not reached now, which may be later; else ok. Citations
 * that were not ok when verified do not count here.
 */
export function exitCodeOfRecheck(report: Pick<ReviewRecheck, 'results'>): ExitCode {
  const lost = report.results.filter((r) => r.was === 'ok' && r.outcome === 'gone');
  if (lost.some((r) => !(r.status === 'fetch_failed' && unreached(r.reason)))) return EXIT.held;
  return lost.length > 0 ? EXIT.unavailable : EXIT.ok;
}
