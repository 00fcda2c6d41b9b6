/** Stable error codes of the quoting layer. */
export type QuotingErrorCode = 'QUOTING_BAD_ID' | 'QUOTING_BAD_KEY' | 'QUOTING_BAD_INPUT';

export class QuotingError extends Error {
  override readonly name = 'QuotingError';
  constructor(
    readonly code: QuotingErrorCode,
    message: string,
  ) {
    super(message);
  }
}
