/**
 * Stable error codes of the citation text layer. Callers match on `code`, never
 * on the message.
 *
 * - `PDF_INVALID`: the bytes are not a PDF pdf.js can read (damaged, truncated,
 *   encrypted, or not a PDF at all). Retrying the same bytes cannot help.
 * - `HTML_TOO_DEEP`: the page nests elements so deeply that parsing it would
 *   take quadratic time (an attack, or a broken generator); it is not parsed.
 * - `PDF_TOO_LARGE`: the PDF's compressed streams inflate past the bound it
 *   was read with (a decompression bomb, or a document too big to read); it
 *   is not read.
 * - `TEXT_TOO_LONG`: the document's text runs past the bound it was read with.
 * - `BAD_OPTION`: an option is out of its range (a programming error).
 */
import { CosciError } from '../../errors.js';

export type CitationTextErrorCode = 'PDF_INVALID' | 'HTML_TOO_DEEP' | 'PDF_TOO_LARGE' | 'TEXT_TOO_LONG' | 'BAD_OPTION';

export class CitationTextError extends CosciError {
  override readonly name = 'CitationTextError';
  declare readonly code: CitationTextErrorCode;
  constructor(code: CitationTextErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
