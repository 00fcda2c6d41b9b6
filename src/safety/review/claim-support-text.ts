/**
 * The review page's words for the claim support of an ok citation
 * (docs/citations.md#claim-support). The codes (`supported`, `unclear`,
 * `no_api_key`, ...) stay stable for programs; these words are for people,
 * and may be improved freely.
 *
 * The review page's script imports this module, so it imports nothing but
 * types: it must stay free of zod and of Node.
 */
import type { ClaimDegradedReason, ClaimSupport, ClaimVerdict } from '../claims/verdict.js';

/** The badge of a verdict. */
export const CLAIM_BADGES: Record<ClaimVerdict, string> = {
  supported: 'supports the claim',
  partially_supported: 'partly supports the claim',
  not_supported: 'does not support the claim',
  contradicted: 'contradicts the claim',
  unclear: 'support unclear',
};

const VERDICT_TEXT: Record<ClaimVerdict, string> = {
  supported: 'The page text around the excerpt supports every sentence of the claim.',
  partially_supported: 'The page text around the excerpt supports part of the claim, not all of it.',
  not_supported: 'The page text around the excerpt does not state the claim.',
  contradicted: 'The page text around the excerpt says otherwise than the claim.',
  unclear: 'No judgement could be had: the claim is not taken as supported.',
};

const REASON_TEXT: Record<ClaimDegradedReason, string> = {
  no_api_key: 'no API key is configured',
  timeout: 'the judge did not answer in time',
  connection_error: 'the judge could not be reached',
  server_error: 'the judge failed',
  overloaded: 'the judge was overloaded',
  rate_limited: 'the judge was rate limited',
  invalid_response: 'the judge sent no answer it could read',
  malformed_output: 'the judge’s answer was malformed',
  multiple_assessments: 'the judge gave more than one answer',
  unexpected_stop: 'the judge’s answer was cut short',
  bad_request: 'the judge refused the request',
  auth_error: 'the API key was refused',
  refusal: 'the judge would not answer',
  claim_too_long: 'the claim has more sentences than are judged',
  empty_claim: 'the claim is empty',
};

/** One line: what the verdict means, and why when it is degraded. */
export function claimSupportText(support: Pick<ClaimSupport, 'verdict' | 'degraded' | 'reason'>): string {
  const why = support.degraded && support.reason !== undefined ? ` (${REASON_TEXT[support.reason]})` : '';
  return `${VERDICT_TEXT[support.verdict]}${why}`;
}
