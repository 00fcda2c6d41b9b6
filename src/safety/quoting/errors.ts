import { CosciError } from '../../errors.js';

/** Stable error codes of the quoting layer. */
export type QuotingErrorCode = 'QUOTING_BAD_ID' | 'QUOTING_BAD_KEY' | 'QUOTING_BAD_INPUT';

export class QuotingError extends CosciError {
  override readonly name = 'QuotingError';
  declare readonly code: QuotingErrorCode;
  constructor(code: QuotingErrorCode, message: string) {
    super(code, message);
  }
}
