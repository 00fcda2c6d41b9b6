/**
 * The usage text of every command, apart from the commands themselves: help
 * needs all of it, and a command loads only its own code, so that
 * `cosci-safety quote` does not load BullMQ, the model SDK and the parsers.
 */
import { QUEUE_NAMES } from '../contracts/queues.js';

export const CLASSIFY_USAGE = `cosci-safety classify [--config FILE] [--label LABEL] [--file TEXT_FILE]
  Classifies text from --file or stdin with the configured model and prints the
  verdict as JSON. No Redis needed. Exit code 0 for allow or warn, 3 for
  block, 4 for quarantine (a degraded verdict, without an API key or with the
  model out of reach, is quarantined by default).
  --label   what the text is (hypothesis, goal, report), as the workers
            classify it; default hypothesis`;

export const DEV_USAGE = `cosci-safety dev [--config FILE] [--port N]
  Starts, on this machine, a private redis-server (found on the PATH, on a
  free port, its data in a temporary folder), the worker, and the review page
  with a token made for the run; prints the page's address, the token and
  three commands to try, and runs until Ctrl-C (or SIGTERM), which stops all
  of it and removes the folder (exit code 0). Without ANTHROPIC_API_KEY every
  verdict is degraded and held. Without redis-server on the PATH, one line
  says how to install it (REDIS_SERVER_MISSING, exit code 1).
  --port   port of the review page, /metrics, /healthz, /readyz on 127.0.0.1
           (overrides metrics.port, default 9464; 0: any free port)`;

export const EVENTS_USAGE = `cosci-safety events tail [--config FILE] [--from ID] [--count N] [--type TYPES] [--follow]
  Prints events of the stream as JSON lines: the last N (default 20), or those
  from stream id ID; with --follow, waits for new ones until interrupted.
  --type keeps only events of the given types (comma-separated, or the option
  repeated), e.g. --type hypothesis_quarantined,citation_unverified. With
  --follow, the command ends (exit code 5) if Redis goes away.`;

export const PUBLISH_USAGE = `cosci-safety publish (hypothesis | review) [--config FILE] [--file PAYLOAD.json]
  Publishes a hypothesis.saved or review.recorded job; the JSON payload comes
  from --file or stdin. Prints {"jobId", "created"}; created is false for a
  duplicate publish (the same revision with the same content). Other content
  under a revision already published is refused: REVISION_CONFLICT, exit
  code 1; publish it as a new revision.`;

export const SUBMIT_USAGE = `cosci-safety submit goal [--config FILE] (--id GOAL --text TEXT [--run-id RUN] | --file PAYLOAD.json) [--wait] [--timeout MS]
cosci-safety submit report [--config FILE] [--file PAYLOAD.json] [--wait] [--timeout MS]
  Submits a goal.submitted or report.finalized job (payload from --file or
  stdin) and prints {"jobId", "created"}. With --wait, prints the goal's
  verdict, or the report check's result (the redacted text and whether it may
  be published), and exits with the verdict's code: 0 allow or warn, 3 block,
  4 held. --timeout bounds the whole command, reaching Redis included
  (default 60000 ms); past it, exit code 5.`;

export const QUARANTINE_USAGE = `cosci-safety quarantine list [--config FILE] [--limit N] [--json]
cosci-safety quarantine show ID [--config FILE]
cosci-safety quarantine release ID --by NAME --note TEXT [--revision N] [--override-claim] [--config FILE]
cosci-safety quarantine confirm ID --by NAME --note TEXT [--revision N] [--override-claim] [--config FILE]
cosci-safety quarantine reclassify --degraded --by NAME [--note TEXT] [--limit N] [--json] [--config FILE]
  Lists the held (quarantined, blocked, or in conflict: other text published
  under a revision already judged) hypotheses, shows one as JSON (text,
  verdict, evidence status, conflicts, audit history), or records a person's
  decision on its latest revision: release lets it through, confirm keeps it
  blocked (a revision in conflict can only be confirmed). A decision is final
  for the revision, emits hypothesis_released or hypothesis_confirmed, and is
  appended to the audit stream. With --revision, the decision is refused if a
  newer revision has arrived since; one another reviewer has claimed on the
  review page is refused (REVIEW_CLAIMED) unless --override-claim is given.
  reclassify --degraded classifies the degraded held verdicts again with the
  configured key (at most --limit, 200 at most): each clean new verdict
  replaces the degraded one, with its own audit entry and events, and one
  that allows the hypothesis lets it out of the queue; a second run finds
  nothing left to do.`;

export const QUOTE_USAGE = `cosci-safety quote --id ID [--hypothesis] [--datamark]
  Reads untrusted text on stdin and prints it wrapped in boundary tags.
  --id ID         the source's id (required)
  --hypothesis    use HYPOTHESIS_TEXT tags instead of UNTRUSTED_SOURCE
  --datamark      interleave a per-call marker (spotlighting); the preamble
                  sentence that explains it is in the report
  The boundary key is COSCI_SAFETY_QUOTING_KEY (hex) when set, else random.
  The report (what was neutralised) goes to stderr as JSON.`;

export const SCAN_USAGE = `cosci-safety scan [--config FILE] [--file TEXT_FILE] [--threshold T]
  Runs the injection detector on text from --file or stdin and prints the
  detection as JSON: score (0 to 1), suspected, threshold, and the signals
  (kind, start, end, weight). No Redis, no model. Exit code 0 when the text is
  not suspected, 4 when it is (score at or above the threshold).
  --threshold T   score from which the text is suspected, 0 to 1; default
                  safety.injection_threshold of the configuration (0.7)`;

export const VERIFY_USAGE = `cosci-safety verify [--config FILE] --url URL (--excerpt TEXT | --excerpt-file FILE)
cosci-safety verify [--config FILE] --recheck REVIEW_ID [--revision N]
  Fetches URL (http or https, public addresses only unless allow-listed in
  citations.allow_private_hosts) and checks that the excerpt is on the page.
  Prints {status, reason?, excerptLen, location?, page, ...}. Exit code 0 when
  the excerpt is on the page, 4 when it is not (unverified), 1 when the URL
  may not be fetched (blocked_address, invalid_url, unsupported_scheme), 5
  when the page could not be read (timeout, connection_error, http_404, ...).
  --recheck fetches the pages of a review the worker verified again (Redis)
  and prints, per citation, what became of it: unchanged, changed_present
  (the page changed, the excerpt is still on it), gone, or present (no digest
  to compare with); emits citation_rechecked and review_rechecked. Exit code
  0 when every excerpt that was on its page still is, 4 when one is gone, 5
  when the only ones gone are on pages not reached now, 1 for a review not
  verified (REVIEW_NOT_FOUND). --revision picks a revision (default: the
  latest verified).`;

export const WORKER_USAGE = `cosci-safety worker [--config FILE] [--queues a,b] [--concurrency N] [--port N]
  Runs the classification processors against Redis until SIGTERM/SIGINT.
  Redis must be running: until it answers, the worker waits for it and
  /readyz says not ready.
  --queues        which queues this process works on (${QUEUE_NAMES.join(', ')})
  --concurrency   jobs in flight per queue
  --port          port of /metrics, /healthz, /readyz (overrides metrics.port,
                  default 9464; 0: any free port)`;
