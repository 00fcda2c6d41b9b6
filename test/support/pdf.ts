/**
 * A minimal PDF writer for tests: pages of text lines in the standard Helvetica
 * font (no embedded font, no compression), with a correct cross-reference
 * table, so that pdf.js reads it without repairs.
 *
 * Helvetica is used with its built-in StandardEncoding, where the ligature
 * glyphs fi and fl sit at octal 256 and 257: `ﬁ` and `ﬂ` in a line are written
 * as those codes, so the PDF really holds ligature glyphs.
 */
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
  const objects: string[] = [];
  const add = (body: string): number => objects.push(body); // object numbers start at 1
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // the page tree, filled in below once the kids are known
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const kids: number[] = [];
  for (const lines of pages) {
    const text = lines.map((l) => `(${pdfString(l)}) Tj T*`).join('\n');
    const content = `BT /F1 12 Tf 14 TL 72 720 Td\n${text}\nET`;
    const stream = add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${stream} 0 R ` +
          `/Resources << /Font << /F1 ${font} 0 R >> >> >>`,
      ),
    );
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;

  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // Every character is ASCII, so string offsets are byte offsets.
  return new Uint8Array(Buffer.from(pdf, 'latin1'));
}
