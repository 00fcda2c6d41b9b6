/**
 * Errors of the web fetcher. Network failures never surface as errors from
 * `fetchPage` (they are outcomes with a reason); these are for the connection
 * guard, which must fail the socket, and for programming mistakes.
 */
import { errors } from 'undici';
import { CosciError } from '../errors.js';
import type { AddressClass } from './address.js';

/** Stable error codes of the fetcher. */
export type FetcherErrorCode = 'CITATION_BLOCKED_ADDRESS' | 'CITATION_BAD_OPTIONS';

export class FetcherError extends CosciError {
  override name = 'FetcherError';
  declare readonly code: FetcherErrorCode;
  constructor(code: FetcherErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/**
 * A host name resolved to at least one address that may not be fetched.
 * Raised inside the DNS lookup of a connection, so undici fails the request
 * with it before any socket is opened.
 */
export class BlockedAddressError extends FetcherError {
  override name = 'BlockedAddressError';
  constructor(
    readonly hostname: string,
    /** Every refused address with its class; the public ones are not listed. */
    readonly refused: ReadonlyArray<{ address: string; kind: Exclude<AddressClass, 'public'> }>,
    /** The port the connection was for, and a note to end the message with. */
    context: { port?: number; note?: string } = {},
  ) {
    const list = refused.map((r) => `${r.address} (${r.kind})`).join(', ');
    const where = context.port === undefined ? hostname : `${hostname}:${context.port}`;
    super('CITATION_BLOCKED_ADDRESS', `${where} resolves to a non-public address: ${list}${context.note ?? ''}`);
  }
}

export type NetworkFailure = 'blocked_address' | 'dns_error' | 'connection_error' | 'timeout';

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

// getaddrinfo (ENOTFOUND, EAI_*) and c-ares (ENODATA, ESERVFAIL, ETIMEOUT) failures.
const DNS_CODES = new Set(['ENOTFOUND', 'ENODATA', 'ESERVFAIL', 'ETIMEOUT']);

// Mistakes of the caller, not of the network: an invalid option, or a
// dispatcher that was closed under the request. These are thrown.
const PROGRAMMING_CODES = new Set([
  'UND_ERR_INVALID_ARG',
  'UND_ERR_INVALID_RETURN_VALUE',
  'UND_ERR_NOT_SUPPORTED',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
  'ERR_INVALID_ARG_TYPE',
  'ERR_INVALID_ARG_VALUE',
  'ERR_INVALID_IP_ADDRESS',
]);

function messageOf(err: unknown): string {
  // Node's AggregateError for the address-family race has an empty message.
  if (err instanceof AggregateError && err.message === '') return err.errors.map(messageOf).join('; ');
  return err instanceof Error ? err.message : String(err);
}

function codeOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // net.connect's address-family race fails with an AggregateError of each attempt.
  if (err instanceof AggregateError) return codeOf(err.errors[0]);
  return undefined;
}

/**
 * Names a failure thrown by undici or the socket; undefined when the error
 * is a programming error, which the caller rethrows. Unknown errors that
 * carry a code (TLS, resets, HTTP parse errors) are connection errors: the
 * server or the path to it misbehaved.
 */
export function networkFailure(err: unknown): { reason: NetworkFailure; detail: string } | undefined {
  const code = codeOf(err);
  const message = messageOf(err);
  if (code === 'CITATION_BLOCKED_ADDRESS') return { reason: 'blocked_address', detail: message };
  if (code === undefined) {
    // An HTTPParserError has no code when llhttp gave none: the server sent garbage.
    return err instanceof errors.HTTPParserError ? { reason: 'connection_error', detail: message } : undefined;
  }
  if (PROGRAMMING_CODES.has(code)) return undefined;
  if (TIMEOUT_CODES.has(code)) return { reason: 'timeout', detail: `${code}: ${message}` };
  if (DNS_CODES.has(code) || code.startsWith('EAI_')) return { reason: 'dns_error', detail: `${code}: ${message}` };
  return { reason: 'connection_error', detail: `${code}: ${message}` };
}
