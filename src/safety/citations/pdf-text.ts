/**
 * The text of a PDF, for excerpt matching, read with pdf.js (the legacy build,
 * the one meant for Node).
 *
 * pdf.js is loaded on first use rather than at import: it is a large module,
 * most callers of this layer only match text, and nothing it might print while
 * loading then reaches a process that never reads a PDF.
 *
 * Options: no `eval` of font programs (`isEvalSupported: false`), no system
 * font lookup and no FontFace objects (text extraction needs neither), and
 * `verbosity: 0` so that the warnings pdf.js prints for slightly damaged files
 * do not fill the log; a file pdf.js cannot read at all still fails, with
 * `PDF_INVALID`.
 */
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import { CitationTextError } from './errors.js';
import { inflatedStreamBytes } from './pdf-streams.js';

type PdfJs = typeof PdfJsModule;

let pdfjs: Promise<PdfJs> | undefined;

function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

/**
 * Loads pdf.js and the module its in-process ("fake") worker imports on the
 * first document, so that a later read pays for neither.
 */
export async function preloadPdfJs(): Promise<void> {
  await Promise.all([loadPdfJs(), import(PDF_WORKER)]);
}

/** pdf.js imports it relative to pdf.mjs, so both imports share one module. It has no type declarations. */
const PDF_WORKER: string = 'pdfjs-dist/legacy/build/pdf.worker.mjs';

export interface PdfTextOptions {
  /**
   * Read at most this many pages (from the first). A positive integer.
   * @defaultValue undefined: every page
   */
  maxPages?: number;
  /**
   * Refuse, with `PDF_TOO_LARGE` and before pdf.js reads it, a PDF whose
   * compressed streams (images left out) inflate to more than this many
   * bytes (see pdf-streams.ts). A positive integer.
   * @defaultValue undefined: no bound
   */
  maxDecodedBytes?: number;
  /**
   * Stop with `TEXT_TOO_LONG` once the text passes this many characters: a
   * font's ToUnicode map can turn each glyph into a long string. A positive
   * integer.
   * @defaultValue undefined: no bound
   */
  maxTextChars?: number;
}

/** The text of a PDF and how much of it was read. */
export interface PdfText {
  text: string;
  /** Pages in the document. */
  pages: number;
  /** Pages read: fewer than `pages` when `maxPages` cut the reading short. */
  pagesRead: number;
}

/**
 * Typographic ligatures a PDF may hold as single characters. pdf.js already
 * expands most of them; a font with its own mapping can still give them back.
 */
const LIGATURES: Record<string, string> = {
  '\uFB00': 'ff',
  '\uFB01': 'fi',
  '\uFB02': 'fl',
  '\uFB03': 'ffi',
  '\uFB04': 'ffl',
  '\uFB05': 'st',
  '\uFB06': 'st',
};
const LIGATURE = /[\uFB00-\uFB06]/g;

/**
 * A word broken at the end of a line: a letter, a hyphen (or soft hyphen), the
 * line break, and a lower-case letter next. The hyphen was put there by the
 * typesetter, so `pro-\ntein` reads `protein`. The lower-case test keeps
 * `COVID-\n19` and `Smith-\nJones` hyphenated (see below). Compounds that
 * happen to break at their own hyphen (`well-\nknown`) lose it; there is no
 * telling them apart from the text alone.
 */
const BROKEN_WORD = /(\p{L})[-\u00AD\u2010][ \t]*\r?\n[ \t]*(?=\p{Ll})/gu;
/** A hyphen at the end of a line before a capital or a digit: a real hyphen, kept, and the line joined. */
const HYPHEN_AT_EOL = /([\p{L}\p{N}])[-\u2010][ \t]*\r?\n[ \t]*(?=[\p{Lu}\p{N}])/gu;

/** Expands ligatures and joins words hyphenated across lines. Exported for its tests. */
export function cleanPdfText(text: string): string {
  return text
    .replace(LIGATURE, (c) => LIGATURES[c] ?? c)
    .replace(BROKEN_WORD, '$1')
    .replace(HYPHEN_AT_EOL, '$1-');
}

function checkLimit(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) {
    throw new CitationTextError('BAD_OPTION', `${name} must be a positive integer, got ${String(value)}`);
  }
}

/** The text of a PDF, pages separated by a line break, with the count of pages read. */
export async function readPdf(bytes: Uint8Array, options: PdfTextOptions = {}): Promise<PdfText> {
  const { maxPages, maxDecodedBytes, maxTextChars } = options;
  checkLimit('maxPages', maxPages);
  checkLimit('maxDecodedBytes', maxDecodedBytes);
  checkLimit('maxTextChars', maxTextChars);
  if (maxDecodedBytes !== undefined) {
    const inflated = inflatedStreamBytes(bytes, maxDecodedBytes);
    if (inflated > maxDecodedBytes) {
      throw new CitationTextError(
        'PDF_TOO_LARGE',
        `the PDF's compressed streams inflate to more than ${maxDecodedBytes} bytes`,
      );
    }
  }
  const { getDocument } = await loadPdfJs();
  // pdf.js takes ownership of the buffer it is given (it may transfer it to a
  // worker); a copy leaves the caller's bytes intact.
  const task = getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  });
  let doc: Awaited<typeof task.promise> | undefined;
  try {
    doc = await task.promise;
    const pages = Math.min(doc.numPages, maxPages ?? doc.numPages);
    const parts: string[] = [];
    let chars = 0;
    for (let n = 1; n <= pages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      for (const item of content.items) {
        if (!('str' in item)) continue; // marked-content boundaries carry no text
        parts.push(item.str);
        chars += item.str.length + 1;
        if (item.hasEOL) parts.push('\n');
      }
      parts.push('\n');
      page.cleanup();
      if (maxTextChars !== undefined && chars > maxTextChars) {
        throw new CitationTextError('TEXT_TOO_LONG', `the PDF's text runs past ${maxTextChars} characters`);
      }
    }
    return { text: cleanPdfText(parts.join('')), pages: doc.numPages, pagesRead: pages };
  } catch (err) {
    if (err instanceof CitationTextError) throw err;
    const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    throw new CitationTextError('PDF_INVALID', `cannot read the PDF (${reason})`, { cause: err });
  } finally {
    // Frees the document and its (fake) worker; when the document never
    // opened, the loading task holds what there is to free.
    await (doc ?? task).destroy();
  }
}

/** The text of a PDF, pages separated by a line break. */
export async function pdfToText(bytes: Uint8Array, options: PdfTextOptions = {}): Promise<string> {
  return (await readPdf(bytes, options)).text;
}
