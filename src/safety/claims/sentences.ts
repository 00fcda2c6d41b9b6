/**
 * A claim split into sentences: a judge asked of a long claim at once tends
 * to call it supported when its first half is, so each sentence is judged on
 * its own against the passage, as fact-checking judges do (one claim
 * sentence against one document chunk).
 */

/**
 * Words that end with a full stop without ending a sentence: abbreviations
 * common in scientific prose. Compared lower-case, without the stop.
 */
const ABBREVIATIONS = new Set([
  'al',
  'approx',
  'ca',
  'cf',
  'dr',
  'e.g',
  'eq',
  'eqs',
  'etc',
  'fig',
  'figs',
  'i.e',
  'mr',
  'mrs',
  'ms',
  'no',
  'nos',
  'prof',
  'ref',
  'refs',
  'resp',
  'sp',
  'spp',
  'st',
  'vs',
  'viz',
]);

/** A sentence end: `.`, `!` or `?` (closing quotes and brackets after it), then white space. */
const END = /[.!?]+["'\u201d\u2019)\]]*(?=\s)/g;

/**
 * The sentences of a claim, white space made single spaces. A stop after an
 * abbreviation, an initial ("J. Smith") or before a lower-case word is not a
 * sentence end; a decimal point is followed by no space, so "3.5" stays
 * whole. Line breaks end a sentence too (a list of claims).
 */
export function splitSentences(claim: string): string[] {
  const out: string[] = [];
  for (const line of claim.split(/\n\s*/)) {
    const text = line.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    let from = 0;
    for (const m of text.matchAll(END)) {
      const at = m.index + m[0].length;
      const before = /(\S+)$/.exec(text.slice(from, m.index + 1))?.[1] ?? '';
      const word = before
        .replace(/^["'([\u201c\u2018]+/, '')
        .replace(/[.!?]+$/, '')
        .toLowerCase();
      const next = text.slice(at).trimStart();
      if (m[0].startsWith('.') && (ABBREVIATIONS.has(word) || /^[a-z]$/i.test(word))) continue;
      if (/^[a-z]/.test(next)) continue;
      out.push(text.slice(from, at).trim());
      from = at;
    }
    const rest = text.slice(from).trim();
    if (rest !== '') out.push(rest);
  }
  return out;
}
