/**
 * How the injection detector cuts the normalised view into words, and hashes
 * them: shared by its pass (../injection/scan.ts) and its rules
 * (../injection/rules.ts), whose triggers are words cut and hashed the same
 * way.
 *
 * A word is a run of ASCII letters and digits or of letters of other
 * alphabets (the view folds lookalikes to ASCII, so a Cyrillic word may hold
 * both); each CJK character is a word of its own, as those scripts do not
 * space their words.
 */

export const FNV = 0x811c9dc5 | 0;
export const PRIME = 16777619;
/** Hashes are kept to 30 bits: V8 stores such integers unboxed, which keeps the pass free of allocation. */
export const SMALL = 0x3fffffff;

/** 1 for ASCII letters (the view's are capitals) and digits. */
export const ASCII_WORD = new Uint8Array(128);
for (let c = 0x41; c <= 0x5a; c++) ASCII_WORD[c] = 1;
for (let c = 0x30; c <= 0x39; c++) ASCII_WORD[c] = 1;

/** Characters above ASCII that separate words: Latin-1 punctuation, spaces and the punctuation blocks. */
export function isSeparator(c: number): boolean {
  return (
    c < 0xc0 ||
    (c >= 0x2000 && c <= 0x2bff) ||
    (c >= 0x3000 && c <= 0x303f) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff20) ||
    c === 0x0589 ||
    c === 0x060c ||
    c === 0x061f ||
    c === 0x06d4
  );
}

/**
 * Characters of scripts that do not space their words, each read as a word
 * of its own: kana, ideographs, Hangul syllables and jamo, and Thai, Lao,
 * Khmer and Myanmar (whose phrases run together between spaces).
 */
export function isCjk(c: number): boolean {
  return (
    (c >= 0x0e00 && c <= 0x0eff) ||
    (c >= 0x1000 && c <= 0x109f) ||
    (c >= 0x1780 && c <= 0x17ff) ||
    (c >= 0x3040 && c <= 0x30ff) ||
    (c >= 0x3400 && c <= 0x9fff) ||
    (c >= 0xac00 && c <= 0xd7af) ||
    (c >= 0x1100 && c <= 0x11ff)
  );
}

/** A unit that belongs to a word of several units. */
export function isWordUnit(c: number): boolean {
  return c < 128 ? ASCII_WORD[c] === 1 : !isSeparator(c) && !isCjk(c);
}

/** The words of a folded text, as the pass cuts them: runs of word units, and each CJK character alone. */
export function cutWords(folded: string, limit = Infinity): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < folded.length && words.length < limit) {
    const c = folded.charCodeAt(i);
    if (isCjk(c)) {
      words.push(folded[i]!);
      i++;
    } else if (isWordUnit(c)) {
      const from = i;
      while (i < folded.length && isWordUnit(folded.charCodeAt(i))) i++;
      words.push(folded.slice(from, i));
    } else i++;
  }
  return words;
}

/** The first two words of a folded text, as the pass cuts them (either may be missing). */
export function firstWords(folded: string): [string | undefined, string | undefined] {
  const [a, b] = cutWords(folded, 2);
  return [a, b];
}

/** The hash of a word, as the pass computes it. */
export function wordHash(word: string): number {
  let h = FNV;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), PRIME);
  return h & SMALL;
}
