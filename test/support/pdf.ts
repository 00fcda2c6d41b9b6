/**
 * A minimal PDF writer for tests: pages of text lines in the standard Helvetica
 * font (no embedded font, no compression), with a correct cross-reference
 * table, so that pdf.js reads it without repairs; and hostile PDFs built on
 * it (a content stream given raw, a decompression bomb).
 *
 * Helvetica is used with its built-in StandardEncoding, where the ligature
 * glyphs fi and fl sit at octal 256 and 257: `ﬁ` and `ﬂ` in a line are written
 * as those codes, so the PDF really holds ligature glyphs.
 */
import zlib from 'node:zlib';

const STANDARD_ENCODING: Record<string, string> = { '\uFB01': '\\256', '\uFB02': '\\257' };

/** A line of text as a PDF string literal body. */
function pdfString(line: string): string {
  let out = '';
  for (const ch of line) {
    const code = STANDARD_ENCODING[ch];
    if (code !== undefined) out += code;
    else if (ch === '\\' || ch === '(' || ch === ')') out += `\\${ch}`;
    else if (ch >= ' ' && ch <= '~') out += ch;
    else throw new Error(`test PDF writer: no StandardEncoding code for ${JSON.stringify(ch)}`);
  }
  return out;
}

/** A PDF with one page per entry of `pages`, each a list of lines, 14 points apart. */
export function buildPdf(pages: string[][]): Uint8Array {
  return writePdf(
    pages.map((lines) => {
      const text = lines.map((l) => `(${pdfString(l)}) Tj T*`).join('\n');
      return Buffer.from(`BT /F1 12 Tf 14 TL 72 720 Td\n${text}\nET`, 'latin1');
    }),
  );
}

/**
 * A one-page PDF whose content stream is `data` as given, declared with the
 * filters (in the order a reader applies them, e.g. `['FlateDecode']`).
 */
export function pdfWithContentStream(data: Uint8Array, filters: string[]): Uint8Array {
  return writePdf([data], filters);
}

/**
 * A zlib stream that inflates to `size` bytes of `byte` (a decompression
 * bomb), built in milliseconds: one deflated block of 16 MiB ending with a
 * full flush, so it depends on nothing before it, repeated, then an empty
 * final block and the Adler-32 of the whole. About 16 KiB per 16 MiB.
 */
export function deflateBomb(size: number, byte = 0x20): Uint8Array {
  const CHUNK = 16 * 1024 * 1024;
  if (size % CHUNK !== 0) throw new Error('deflateBomb: size must be a multiple of 16 MiB');
  const block = zlib.deflateRawSync(Buffer.alloc(CHUNK, byte), {
    level: 9,
    finishFlush: zlib.constants.Z_FULL_FLUSH,
  });
  const last = zlib.deflateRawSync(Buffer.alloc(0));
  // Adler-32 of `size` bytes equal to `byte`: a = 1 + n·byte, b = n + byte·n(n+1)/2, both mod 65521.
  const n = BigInt(size);
  const b8 = BigInt(byte);
  const a = (1n + n * b8) % 65521n;
  const b = (n + (b8 * n * (n + 1n)) / 2n) % 65521n;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number((b << 16n) | a));
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array<Buffer>(size / CHUNK).fill(block), last, adler]);
}

/** Pages with the given content streams (raw bytes), Helvetica as /F1, and a correct cross-reference table. */
function writePdf(contents: Uint8Array[], filters: string[] = []): Uint8Array {
  const objects: Buffer[] = [];
  const add = (body: string | Buffer): number => objects.push(Buffer.from(body as string, 'latin1')); // numbered from 1
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // the page tree, filled in below once the kids are known
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const filter = filters.length > 0 ? ` /Filter [${filters.map((f) => `/${f}`).join(' ')}]` : '';
  const kids: number[] = [];
  for (const content of contents) {
    const stream = add(
      Buffer.concat([
        Buffer.from(`<< /Length ${content.length}${filter} >>\nstream\n`, 'latin1'),
        content,
        Buffer.from('\nendstream', 'latin1'),
      ]),
    );
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${stream} 0 R ` +
          `/Resources << /Font << /F1 ${font} 0 R >> >> >>`,
      ),
    );
  }
  objects[1] = Buffer.from(
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`,
    'latin1',
  );

  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(chunk);
    length += chunk.length;
  });
  let tail = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) tail += `${String(offset).padStart(10, '0')} 00000 n \n`;
  tail += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(tail, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}
