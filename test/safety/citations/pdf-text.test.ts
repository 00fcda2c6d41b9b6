import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CitationTextError, cleanPdfText, pdfToText } from '../../../src/safety/citations/index.js';
import { buildPdf } from '../../support/pdf.js';

async function pdfError(bytes: Uint8Array): Promise<CitationTextError> {
  const error = await pdfToText(bytes).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(CitationTextError);
  return error as CitationTextError;
}

describe('pdfToText', () => {
  it('extracts the text of each line', async () => {
    const text = await pdfToText(buildPdf([['Results were significant (p = 0.03).', 'A second line.']]));
    expect(text).toContain('Results were significant (p = 0.03).');
    expect(text).toContain('A second line.');
    expect(text.indexOf('Results')).toBeLessThan(text.indexOf('A second'));
  });

  it('reads ligature glyphs as their letters', async () => {
    // The PDF holds the StandardEncoding fi and fl glyphs (octal 256 and 257).
    const text = await pdfToText(buildPdf([['We \uFB01nd the \uFB02ow rate.']]));
    expect(text).toContain('We find the flow rate.');
    expect(text).not.toMatch(/[\uFB00-\uFB06]/);
  });

  it('joins a word hyphenated across lines and keeps hyphens inside a line', async () => {
    const text = await pdfToText(buildPdf([['The pro-', 'tein is well-known and binds.']]));
    expect(text).toContain('The protein is well-known and binds.');
  });

  it('reads every page, or the first maxPages', async () => {
    const pdf = buildPdf([['Page one text.'], ['Page two text.'], ['Page three text.']]);
    const all = await pdfToText(pdf);
    expect(all).toContain('Page one text.');
    expect(all).toContain('Page three text.');
    const two = await pdfToText(pdf, { maxPages: 2 });
    expect(two).toContain('Page two text.');
    expect(two).not.toContain('Page three');
  });

  it('leaves the caller bytes intact', async () => {
    const pdf = buildPdf([['Unchanged.']]);
    const copy = pdf.slice();
    await pdfToText(pdf);
    expect(pdf.byteLength).toBe(copy.byteLength);
    expect(Buffer.from(pdf).equals(Buffer.from(copy))).toBe(true);
  });

  it('fails with PDF_INVALID on bytes that are not a PDF', async () => {
    for (const bytes of [new Uint8Array(0), new Uint8Array(Buffer.from('<html>not a pdf</html>'))]) {
      const error = await pdfError(bytes);
      expect(error.code).toBe('PDF_INVALID');
      expect(error.message).toMatch(/PDF/);
    }
  });

  it('fails with PDF_INVALID on a truncated PDF', async () => {
    const pdf = buildPdf([['Some text.']]);
    expect((await pdfError(pdf.subarray(0, 40))).code).toBe('PDF_INVALID');
  });

  it('rejects a maxPages that is not a positive integer', async () => {
    const pdf = buildPdf([['x']]);
    for (const maxPages of [0, -1, 2.5]) {
      const error = await pdfToText(pdf, { maxPages }).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(CitationTextError);
      expect((error as CitationTextError).code).toBe('BAD_OPTION');
    }
  });

  it('prints nothing on stderr when imported or used', () => {
    const script = [
      "const { pdfToText } = await import('./src/safety/citations/index.ts');",
      "const { buildPdf } = await import('./test/support/pdf.ts');",
      "const text = await pdfToText(buildPdf([['Quiet.']]));",
      "if (!text.includes('Quiet.')) throw new Error('no text');",
      "process.stdout.write('done');",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: process.cwd(),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stdout).toBe('done');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});

describe('cleanPdfText', () => {
  it('expands every ligature', () => {
    expect(cleanPdfText('\uFB00 \uFB01 \uFB02 \uFB03 \uFB04 \uFB05 \uFB06')).toBe('ff fi fl ffi ffl st st');
    expect(cleanPdfText('e\uFB03cient re\uFB02ection')).toBe('efficient reflection');
  });

  it('joins words hyphenated at a line end', () => {
    expect(cleanPdfText('pro-\ntein')).toBe('protein');
    expect(cleanPdfText('pro- \n  tein')).toBe('protein');
    expect(cleanPdfText('pro-\r\ntein')).toBe('protein');
    expect(cleanPdfText('pro\u00AD\ntein')).toBe('protein');
    expect(cleanPdfText('na\u00EFve-\n\u00E9t\u00E9')).toBe('na\u00EFve\u00E9t\u00E9');
  });

  it('keeps hyphens inside a line and hyphens before a capital or a digit', () => {
    expect(cleanPdfText('well-known results')).toBe('well-known results');
    expect(cleanPdfText('COVID-\n19 cases')).toBe('COVID-19 cases');
    expect(cleanPdfText('Smith-\nJones')).toBe('Smith-Jones');
  });

  it('leaves a dash after a space and other line breaks alone', () => {
    expect(cleanPdfText('item -\nnext')).toBe('item -\nnext');
    expect(cleanPdfText('end of line\nnext line')).toBe('end of line\nnext line');
  });
});
