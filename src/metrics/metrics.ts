/**
 * The service's metrics, on a registry of its own. Names follow Prometheus
 * practice: a `cosci_safety_` prefix, base units, `_total` only on counters,
 * and no unbounded label (never a job or hypothesis id).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { KILL_REASONS, PARSE_OUTCOMES } from '../citations/parse-pool.js';
import { INJECTION_SOURCES } from '../safety/citations/injection-sources.js';

export interface Metrics {
  registry: Registry;
  jobs: Counter<'queue' | 'outcome'>;
  jobDuration: Histogram<'queue'>;
  classifications: Counter<'target' | 'action'>;
  classifierRequests: Counter<'outcome'>;
  classifierRequestDuration: Histogram<'outcome'>;
  classifierDegraded: Counter<'reason'>;
  classifierCache: Counter<'result'>;
  classifierTokens: Counter<'kind' | 'queue'>;
  events: Counter<'type'>;
  queueJobs: Gauge<'queue' | 'state'>;
  queueOldestWaiting: Gauge<'queue'>;
  queuePaused: Gauge<'queue'>;
  queueDepthExporter: Gauge;
  queueDepthStale: Gauge;
  queueDepthLastRead: Gauge;
  quotingNeutralised: Counter<'what'>;
  citations: Counter<'status' | 'reason'>;
  injectionSuspected: Counter<'source'>;
  claimSupport: Counter<'verdict' | 'reason'>;
  claimSupportRequests: Counter<'outcome'>;
  claimSupportCache: Counter<'result'>;
  reviewDeadline: Counter;
  fetchDuration: Histogram<'outcome'>;
  fetchCache: Counter<'result'>;
  fetchBytes: Counter;
  parseTasks: Counter<'outcome'>;
  parseKills: Counter<'reason'>;
  parseQueueWait: Histogram;
  parseThreads: Gauge<'state'>;
  reviewDecisions: Counter<'decision'>;
  reviewApiRequests: Counter<'outcome'>;
  reports: Counter<'outcome'>;
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'cosci_safety_' });
  const registers = [registry];
  return {
    registry,
    jobs: new Counter({
      name: 'cosci_safety_jobs_total',
      help: 'Job attempts finished, by queue and outcome (completed, failed; a retried job counts each failed attempt).',
      labelNames: ['queue', 'outcome'],
      registers,
    }),
    jobDuration: new Histogram({
      name: 'cosci_safety_job_duration_seconds',
      help: 'Time from a job being taken to it finishing.',
      labelNames: ['queue'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    classifications: new Counter({
      name: 'cosci_safety_classifications_total',
      help: 'Verdicts reached, by target (hypothesis, goal, report) and action.',
      labelNames: ['target', 'action'],
      registers,
    }),
    classifierRequests: new Counter({
      name: 'cosci_safety_classifier_requests_total',
      help: 'Requests to the classifier model, by outcome (ok, refusal, rate_limited, overloaded, server_error, timeout, ...).',
      labelNames: ['outcome'],
      registers,
    }),
    classifierRequestDuration: new Histogram({
      name: 'cosci_safety_classifier_request_duration_seconds',
      help: 'Duration of one classifier request.',
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
      registers,
    }),
    classifierDegraded: new Counter({
      name: 'cosci_safety_classifier_degraded_total',
      help: 'Degraded verdicts (not a clean classification), by reason.',
      labelNames: ['reason'],
      registers,
    }),
    classifierCache: new Counter({
      name: 'cosci_safety_classifier_cache_total',
      help: 'Assessment cache lookups, by result (hit, miss).',
      labelNames: ['result'],
      registers,
    }),
    classifierTokens: new Counter({
      name: 'cosci_safety_classifier_tokens_total',
      help: "Tokens of the model's responses as the Messages API reports them (the safety classifier's, and the claim-support judge's under queue review.recorded), by kind (input, output, cache_read, cache_write) and queue (the job's queue; cli for one-off commands).",
      labelNames: ['kind', 'queue'],
      registers,
    }),
    events: new Counter({
      name: 'cosci_safety_events_total',
      help: 'Events appended to the stream, by type (duplicates suppressed are not counted).',
      labelNames: ['type'],
      registers,
    }),
    queueJobs: new Gauge({
      name: 'cosci_safety_queue_jobs',
      help: 'Jobs in each queue by state, read from Redis at scrape time by one process per cluster.',
      labelNames: ['queue', 'state'],
      registers,
    }),
    queueOldestWaiting: new Gauge({
      name: 'cosci_safety_queue_oldest_waiting_seconds',
      help: 'Age of the oldest job waiting in each queue (0 when none), exported with the queue depth.',
      labelNames: ['queue'],
      registers,
    }),
    queuePaused: new Gauge({
      name: 'cosci_safety_queue_paused',
      help: 'Whether each queue is paused (1) or not (0), exported with the queue depth; the jobs of a paused queue count as waiting.',
      labelNames: ['queue'],
      registers,
    }),
    queueDepthExporter: new Gauge({
      name: 'cosci_safety_queue_depth_exporter',
      help: '1 when this process exports the queue-depth gauges for the cluster; exactly one process should.',
      registers,
    }),
    queueDepthStale: new Gauge({
      name: 'cosci_safety_queue_depth_stale',
      help: "1 when this process's last read of the queue depth from Redis (its lease included) failed or did not end within the scrape's bound (500 ms): the queue gauges it exports are the last values read. 0 when they were read for this scrape.",
      registers,
    }),
    queueDepthLastRead: new Gauge({
      name: 'cosci_safety_queue_depth_last_read_timestamp_seconds',
      help: "Unix time of this process's last complete read of the queue depth from Redis (of the lease alone, while another process exports the depth).",
      registers,
    }),
    quotingNeutralised: new Counter({
      name: 'cosci_safety_quoting_neutralised_total',
      help: 'What the quoting layer neutralised in classified text (tags, invisible, prefixes).',
      labelNames: ['what'],
      registers,
    }),
    citations: new Counter({
      name: 'cosci_safety_citations_total',
      help: 'Citations verified, by status (ok, unverified, fetch_failed) and reason (none when ok).',
      labelNames: ['status', 'reason'],
      registers,
    }),
    injectionSuspected: zeroed(
      new Counter({
        name: 'cosci_safety_injection_suspected_total',
        help: 'Citations whose document reads as instructions for an AI reader (score at or above safety.injection_threshold), by the text it is in: page, json_ld, pdf, script_json, markup.',
        labelNames: ['source'],
        registers,
      }),
      'source',
      INJECTION_SOURCES,
    ),
    claimSupport: new Counter({
      name: 'cosci_safety_claim_support_total',
      help: 'Claims of ok citations judged (citations.claim_support), by verdict (supported, partially_supported, not_supported, contradicted, unclear) and reason (none unless degraded).',
      labelNames: ['verdict', 'reason'],
      registers,
    }),
    claimSupportRequests: new Counter({
      name: 'cosci_safety_claim_support_requests_total',
      help: 'Requests to the claim-support judge, one per claim sentence, by outcome (ok, refusal, rate_limited, timeout, malformed_output, ...).',
      labelNames: ['outcome'],
      registers,
    }),
    // Both results from 0: a hit ratio exists from the first lookups, however few of them hit.
    claimSupportCache: zeroed(
      new Counter({
        name: 'cosci_safety_claim_support_cache_total',
        help: 'Claim-support answer cache lookups, by result (hit, miss).',
        labelNames: ['result'],
        registers,
      }),
      'result',
      ['hit', 'miss'],
    ),
    reviewDeadline: new Counter({
      name: 'cosci_safety_review_deadline_exceeded_total',
      help: 'Reviews whose deadline (citations.review_deadline_ms) passed before every citation was fetched; the citations cut are fetch_failed, review_deadline, in cosci_safety_citations_total.',
      registers,
    }),
    fetchDuration: new Histogram({
      name: 'cosci_safety_fetch_duration_seconds',
      help: 'Duration of one page fetch and text extraction, by outcome (ok or the failure reason).',
      labelNames: ['outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30],
      registers,
    }),
    fetchCache: new Counter({
      name: 'cosci_safety_fetch_cache_total',
      help: 'Page-text cache lookups: hit, miss (fetched), shared (joined a fetch in this process), waited (another worker fetched).',
      labelNames: ['result'],
      registers,
    }),
    fetchBytes: new Counter({
      name: 'cosci_safety_fetch_bytes_total',
      help: 'Bytes received on the wire by page fetches.',
      registers,
    }),
    parseTasks: zeroed(
      new Counter({
        name: 'cosci_safety_parse_tasks_total',
        help: 'Documents whose text the parsing threads extracted, by outcome: ok, unreadable, too_slow, too_large (refused by a guard or their thread ended), crashed.',
        labelNames: ['outcome'],
        registers,
      }),
      'outcome',
      PARSE_OUTCOMES,
    ),
    parseKills: zeroed(
      new Counter({
        name: 'cosci_safety_parse_thread_kills_total',
        help: 'Parsing threads ended under a document, by reason: too_slow (past parse_timeout_ms), too_large (heap limit or memory growth), crashed.',
        labelNames: ['reason'],
        registers,
      }),
      'reason',
      KILL_REASONS,
    ),
    parseQueueWait: new Histogram({
      name: 'cosci_safety_parse_queue_wait_seconds',
      help: 'Time a fetched document waited for a free parsing thread.',
      buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    parseThreads: new Gauge({
      name: 'cosci_safety_parse_threads',
      help: 'Parsing threads started, by state: busy (extracting a document) or idle.',
      labelNames: ['state'],
      registers,
    }),
    reviewDecisions: new Counter({
      name: 'cosci_safety_review_decisions_total',
      help: 'Decisions people took on held hypotheses: released or confirmed.',
      labelNames: ['decision'],
      registers,
    }),
    reviewApiRequests: new Counter({
      name: 'cosci_safety_review_api_requests_total',
      help: 'Requests to the review API and page, by outcome (ok, unauthorized, invalid, not_found, conflict, error).',
      labelNames: ['outcome'],
      registers,
    }),
    reports: new Counter({
      name: 'cosci_safety_reports_total',
      help: 'Final reports checked, by outcome: cleared, redacted, blocked, skipped (check off).',
      labelNames: ['outcome'],
      registers,
    }),
  };
}

/**
 * Starts each labelled series at 0, so that a rate over it exists before the
 * first event: a panel or alert on kills then shows 0, not "no data".
 */
function zeroed<L extends string>(counter: Counter<L>, label: L, values: readonly string[]): Counter<L> {
  for (const value of values) counter.inc({ [label]: value } as Partial<Record<L, string>>, 0);
  return counter;
}
