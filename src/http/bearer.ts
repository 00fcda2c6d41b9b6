/**
 * The bearer-token check of the review API (RFC 6750 section 2.1).
 *
 * Both the configured token and the presented one are hashed with SHA-256
 * before `timingSafeEqual`: the buffers compared are then always 32 bytes, so
 * neither the time taken nor an early length mismatch tells a caller how long
 * the token is or how much of a guess was right.
 * https://nodejs.org/api/crypto.html#cryptotimingsafeequala-b
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** `missing`: no credentials at all; `invalid`: credentials that are not the token. */
export type BearerResult = 'ok' | 'missing' | 'invalid';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** The `Bearer` scheme is case-insensitive; one or more spaces separate it from the token. */
const BEARER = /^Bearer +(\S+) *$/i;

export function createBearerCheck(token: string): (authorization: string | undefined) => BearerResult {
  const expected = digest(token);
  return (authorization) => {
    if (authorization === undefined || authorization === '') return 'missing';
    const presented = BEARER.exec(authorization)?.[1];
    if (presented === undefined) return 'invalid';
    return timingSafeEqual(digest(presented), expected) ? 'ok' : 'invalid';
  };
}
