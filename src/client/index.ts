/**
 * `cosci-safety/client`: what an agent or a downstream service needs to talk
 * to the service over Redis: the publisher, the event consumer, and the
 * contract's zod schemas and types (docs/contract.md). Re-exports only; the
 * modules behind it are the ones the workers use, so the two cannot drift.
 */

// Publishing jobs.
export { DEFAULT_JOB_OPTIONS, Publisher, type Published, type PublisherOptions } from '../queues/publisher.js';

// What the publisher and the consumer connect with: an ioredis 5 or 6 connection, or where to open one.
export type { ClientConnection, RedisClient, RedisTarget } from '../queues/connection.js';

// Consuming events.
export {
  EventConsumer,
  EventConsumerError,
  type ConsumedEvent,
  type EventConsumerErrorCode,
  type EventConsumerOptions,
  type InvalidEntry,
} from '../events/consumer.js';

// Queues: one map from queue name to payload and result.
export {
  QUEUE_NAMES,
  QUEUES,
  parsePayload,
  type PayloadInputOf,
  type PayloadOf,
  type QueueName,
  type ResultOf,
} from '../contracts/queues.js';

// What a job id and revision name: their content (docs/contract.md#a-revision-is-its-content).
export { contentDigest } from '../contracts/content.js';

// Payloads, and the job ids that make publishing idempotent.
export {
  EvidenceSchema,
  GoalSubmittedSchema,
  HypothesisSavedSchema,
  IdSchema,
  MAX_EVIDENCE,
  MAX_EXCERPT_CHARS,
  MAX_REPORT_SECTIONS,
  MAX_TEXT_CHARS,
  MAX_URL_CHARS,
  PAYLOAD_SCHEMAS,
  ReportFinalizedSchema,
  ReportSectionSchema,
  ReviewRecordedSchema,
  goalJobId,
  hypothesisJobId,
  reportJobId,
  reviewJobId,
  type Evidence,
  type GoalSubmitted,
  type GoalSubmittedInput,
  type HypothesisSaved,
  type HypothesisSavedInput,
  type ReportFinalized,
  type ReportFinalizedInput,
  type ReviewRecorded,
  type ReviewRecordedInput,
} from '../contracts/payloads.js';

// Results: what a job returns and the stores keep.
export {
  CitationLocationSchema,
  CitationResultSchema,
  GoalResultSchema,
  HypothesisResultSchema,
  PageProvenanceSchema,
  RedactionSchema,
  RESULT_SCHEMAS,
  ReportResultSchema,
  ReviewVerificationSchema,
  UrlSummarySchema,
  type CitationLocation,
  type CitationResult,
  type GoalResult,
  type HypothesisResult,
  type PageProvenance,
  type ReportResult,
  type ReviewVerification,
  type UrlSummary,
} from '../contracts/results.js';

// What a result and a citation_unverified event say of an excerpt not on its page (docs/citations.md#near-misses).
export {
  DiffSegmentSchema,
  NearMissDetailSchema,
  NearMissSchema,
  type DiffSegmentData,
  type NearMissData,
} from '../contracts/near-miss.js';
export {
  CHANGE_KINDS,
  NEAR_MISS_DETAILS,
  type ChangeKind,
  type NearMissDetail,
} from '../safety/citations/near-miss-kinds.js';

// Whether an ok citation's passage supports its claim, in a result and a claim_unsupported event (docs/citations.md#claim-support).
export {
  CLAIM_DEGRADED_REASONS,
  CLAIM_VERDICTS,
  ClaimSupportSchema,
  SUPPORT_LEVELS,
  UNSUPPORTED_VERDICTS,
  type ClaimDegradedReason,
  type ClaimSupport,
  type ClaimVerdict,
  type SentenceSupport,
  type SupportLevel,
  type UnsupportedVerdict,
} from '../safety/claims/verdict.js';

// Verdicts and review states, which results and events carry.
export {
  ACTIONS,
  DEGRADED_REASONS,
  VerdictSchema,
  type Action,
  type DegradedReason,
  type Verdict,
} from '../safety/classification/verdict.js';
export { REVIEW_STATES, type ReviewState } from '../safety/review/decision.js';

// Events: one map from event type to its data.
export {
  CITATION_STATUSES,
  CONFLICT_TARGETS,
  ClassifierDegradedDataSchema,
  CitationRecheckedDataSchema,
  CitationUnverifiedDataSchema,
  ClaimUnsupportedDataSchema,
  EVENT_SCHEMAS,
  EVENT_TYPES,
  GoalEventDataSchema,
  HypothesisDecisionDataSchema,
  HypothesisEventDataSchema,
  REPORT_OUTCOMES,
  ReportEventDataSchema,
  ReviewRecheckedDataSchema,
  ReviewVerifiedDataSchema,
  RevisionConflictDataSchema,
  type CitationRecheckedData,
  type CitationStatus,
  type CitationUnverifiedData,
  type ClaimUnsupportedData,
  type ClassifierDegradedData,
  type EventDataOf,
  type EventType,
  type GoalEventData,
  type HypothesisDecisionData,
  type HypothesisEventData,
  type ReportEventData,
  type ReportOutcome,
  type ReviewRecheckedData,
  type ReviewVerifiedData,
  type RevisionConflictData,
} from '../contracts/events.js';

// A recheck of a review's evidence (`cosci-safety verify --recheck`): what became of each citation.
export { RECHECK_OUTCOMES, type RecheckOutcome } from '../safety/citations/recheck.js';
export {
  CitationRecheckSchema,
  ReviewRecheckSchema,
  type CitationRecheck,
  type ReviewRecheck,
} from '../contracts/recheck.js';

// Errors, matched by `code`.
export { CosciError, PayloadError, RevisionConflictError, type ErrorCode } from '../errors.js';
