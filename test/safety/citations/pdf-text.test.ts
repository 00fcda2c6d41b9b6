import { spawnSync } from 'node:child_process';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  CitationTextError,
  cleanPdfText,
  inflatedStreamBytes,
  pdfToText,
  readPdf,
} from '../../../src/safety/citations/index.js';
import { buildPdf, deflateBomb, pdfWithContentStream } from '../../support/pdf.js';

const MiB = 1024 * 1024;

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

  it('rejects limits that are not positive integers', async () => {
    const pdf = buildPdf([['x']]);
    for (const bad of [0, -1, 2.5]) {
      for (const key of ['maxPages', 'maxDecodedBytes', 'maxTextChars']) {
        const error = await pdfToText(pdf, { [key]: bad }).catch((err: unknown) => err);
        expect(error).toBeInstanceOf(CitationTextError);
        expect((error as CitationTextError).code).toBe('BAD_OPTION');
      }
    }
  });

  it('says how many pages it read of how many', async () => {
    const pdf = buildPdf([['One.'], ['Two.'], ['Three.']]);
    expect(await readPdf(pdf, { maxPages: 2 })).toMatchObject({ pages: 3, pagesRead: 2 });
    expect(await readPdf(pdf)).toMatchObject({ pages: 3, pagesRead: 3 });
  });

  it('reads compressed content streams, once or twice deflated', async () => {
    const content = Buffer.from('BT /F1 12 Tf 72 720 Td (Deflated text.) Tj ET');
    const once = pdfWithContentStream(zlib.deflateSync(content), ['FlateDecode']);
    expect(await pdfToText(once, { maxDecodedBytes: 1024 })).toContain('Deflated text.');
    const twice = pdfWithContentStream(zlib.deflateSync(zlib.deflateSync(content)), ['FlateDecode', 'FlateDecode']);
    expect(await pdfToText(twice, { maxDecodedBytes: 1024 })).toContain('Deflated text.');
  });

  it('refuses a decompression bomb with PDF_TOO_LARGE before reading it, in bounded time', async () => {
    // 2 MB on the wire, 2 GiB of spaces once inflated: pdf.js alone would hold gigabytes.
    const bomb = pdfWithContentStream(deflateBomb(2048 * MiB), ['FlateDecode']);
    expect(bomb.length).toBeLessThan(3 * MiB);
    const started = performance.now();
    const error = await readPdf(bomb, { maxDecodedBytes: 64 * MiB }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(CitationTextError);
    expect((error as CitationTextError).code).toBe('PDF_TOO_LARGE');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('stops with TEXT_TOO_LONG once the text passes maxTextChars', async () => {
    const pdf = buildPdf(Array.from({ length: 20 }, (_, i) => [`Page ${i} says something of some length.`]));
    const error = await readPdf(pdf, { maxTextChars: 100 }).catch((err: unknown) => err);
    expect((error as CitationTextError).code).toBe('TEXT_TOO_LONG');
    expect((await readPdf(pdf, { maxTextChars: 10_000 })).pagesRead).toBe(20);
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

describe('inflatedStreamBytes', () => {
  const content = Buffer.from('BT /F1 12 Tf 72 720 Td (Some text.) Tj ET');

  it('counts nothing in a PDF without compressed streams', () => {
    expect(inflatedStreamBytes(buildPdf([['Plain.'], ['Text.']]), 1000)).toBe(0);
  });

  it('counts what each deflated stream inflates to, every layer of it', () => {
    expect(inflatedStreamBytes(pdfWithContentStream(zlib.deflateSync(content), ['FlateDecode']), 1000)).toBe(
      content.length,
    );
    const inner = zlib.deflateSync(content);
    const twice = pdfWithContentStream(zlib.deflateSync(inner), ['FlateDecode', 'FlateDecode']);
    expect(inflatedStreamBytes(twice, 1000)).toBe(inner.length + content.length);
  });

  it('leaves out image XObjects, which text extraction never decodes', () => {
    const pixels = zlib.deflateSync(Buffer.alloc(4 * MiB));
    const image = Buffer.concat([
      Buffer.from(
        `%PDF-1.4\n1 0 obj\n<< /Type /XObject /Subtype /Image /Width 1024 /Height 4096 /BitsPerComponent 8 /ColorSpace /DeviceGray /Filter /FlateDecode /Length ${pixels.length} >>\nstream\n`,
      ),
      pixels,
      Buffer.from('\nendstream\nendobj\n'),
    ]);
    expect(inflatedStreamBytes(image, MiB)).toBe(0);
  });

  it('stops past the limit, whatever the bomb holds', () => {
    const bomb = pdfWithContentStream(deflateBomb(1024 * MiB), ['FlateDecode']);
    const started = performance.now();
    expect(inflatedStreamBytes(bomb, 8 * MiB)).toBeGreaterThan(8 * MiB);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
