/**
 * Folding of characters that a reader, human or model, takes for another one.
 * Used only on the normalised view that tag detection reads; the quoted output
 * keeps the original characters.
 */

/** Brackets a model may read as `<` or `>` (after NFKD, which already maps the fullwidth and small forms). */
const OPEN_BRACKETS = '<‹⟨〈〈«《❮❬❰˂ᐸ⧼≮⦉⟪';
const CLOSE_BRACKETS = '>›⟩〉〉»》❯❭❱˃ᐳ⧽≯⦊⟫';

/**
 * Letters from other scripts that look like Latin capitals (or like the Latin
 * lower-case letter whose capital is given). Cyrillic, Greek, Latin small
 * capitals and IPA, Cherokee, and a few others; a subset of Unicode's
 * confusables.txt restricted to what can spell our tag names and the
 * dangerous prefixes.
 */
const LETTER_PAIRS: Array<[string, string]> = [
  // Cyrillic
  ['АаӐӑӒӓ', 'A'],
  ['ВвЬ', 'B'],
  ['СсϹϲ', 'C'],
  ['ԀԁꓒꓓⅮⅾ', 'D'],
  ['ЕеЁёЄєӖӗ', 'E'],
  ['ԌԍꓖɢƓ', 'G'],
  ['НнҢңҤҥҺһӇӈӉӊ', 'H'],
  ['ІіЇїӀӏ', 'I'],
  ['Јј', 'J'],
  ['КкҚқҜҝҞҟҠҡӃӄ', 'K'],
  ['Ӆӆ', 'L'],
  ['МмӍӎ', 'M'],
  ['ОоӦӧӨөѲѳ', 'O'],
  ['РрҎҏ', 'P'],
  ['Ԛԛ', 'Q'],
  ['ЅѕꓢꜱƧ', 'S'],
  ['ТтҬҭ', 'T'],
  ['УуҮүҰұЎў', 'Y'],
  ['ХхҲҳӼӽӾӿ', 'X'],
  ['Ԝԝ', 'W'],
  ['Ԍ', 'G'],
  ['Ӡӡ', '3'],
  // Greek
  ['ΑαΆά', 'A'],
  ['Ββϐ', 'B'],
  ['ΕεΈέϵ', 'E'],
  ['Ζζ', 'Z'],
  ['ΗΉ', 'H'],
  ['ΙιΊίϊΐ', 'I'],
  ['ΚκϏϗ', 'K'],
  ['Μ', 'M'],
  ['Ν', 'N'],
  ['ΟοΌόσ', 'O'],
  ['Ρρϱ', 'P'],
  ['Ττ', 'T'],
  ['ΥυΎύϒ', 'Y'],
  ['Χχ', 'X'],
  ['ν', 'V'],
  ['η', 'N'],
  ['ϳ', 'J'],
  // Latin small capitals and IPA letters
  ['ᴀ', 'A'],
  ['ʙ', 'B'],
  ['ᴄ', 'C'],
  ['ᴅ', 'D'],
  ['ᴇ', 'E'],
  ['ɢ', 'G'],
  ['ʜ', 'H'],
  ['ɪɩ', 'I'],
  ['ᴊ', 'J'],
  ['ᴋ', 'K'],
  ['ʟ', 'L'],
  ['ᴍ', 'M'],
  ['ɴ', 'N'],
  ['ᴏ', 'O'],
  ['ᴘ', 'P'],
  ['ʀ', 'R'],
  ['ᴛ', 'T'],
  ['ᴜ', 'U'],
  ['ᴠ', 'V'],
  ['ᴡ', 'W'],
  ['ʏ', 'Y'],
  ['ᴢ', 'Z'],
  ['ɡ', 'G'],
  ['ı', 'I'],
  ['ȷ', 'J'],
  ['ſ', 'S'],
  // Cherokee and Lisu capitals
  ['Ꭺꓮ', 'A'],
  ['Ᏼꓐ', 'B'],
  ['Ꮯꓚ', 'C'],
  ['Ꭰꓓ', 'D'],
  ['Ꭼꓰ', 'E'],
  ['Ꮐꓖ', 'G'],
  ['Ꮋꓧ', 'H'],
  ['Ꮖꓲ', 'I'],
  ['Ꭻꓙ', 'J'],
  ['Ꮶꓗ', 'K'],
  ['Ꮮꓡ', 'L'],
  ['Ꮇꓟ', 'M'],
  ['ꓠ', 'N'],
  ['ꓳ', 'O'],
  ['Ꮲꓑ', 'P'],
  ['Ꭱꓣ', 'R'],
  ['Ꮪꓢ', 'S'],
  ['Ꭲꓔ', 'T'],
  ['ꓴ', 'U'],
  ['Ꮩꓦ', 'V'],
  ['Ꮃꓪ', 'W'],
  ['ꓫ', 'X'],
  ['ꓬ', 'Y'],
  ['Ꮓꓜ', 'Z'],
  // Other separators a model reads as an underscore or a slash
  ['＿‗', '_'],
  ['⁄∕⧸／', '/'],
  ['∖⧵＼', '\\'],
  ['ǀ∣｜', '|'],
];

const FOLD = new Map<number, string>();
for (const [chars, to] of LETTER_PAIRS) {
  for (const ch of chars) FOLD.set(ch.codePointAt(0)!, to);
}
for (const ch of OPEN_BRACKETS) FOLD.set(ch.codePointAt(0)!, '<');
for (const ch of CLOSE_BRACKETS) FOLD.set(ch.codePointAt(0)!, '>');

/** Characters in the original text that may start a tag once folded. */
export const OPEN_BRACKET_CHARS = OPEN_BRACKETS + '\uFF1C\uFE64\u2329\uFE3D\uFE3F';

/**
 * Folds one already-decomposed, mark-free character: a confusable letter or
 * bracket to its Latin/ASCII form, anything else to upper case.
 */
export function foldChar(ch: string): string {
  const folded = FOLD.get(ch.codePointAt(0)!);
  if (folded !== undefined) return folded;
  const upper = ch.toUpperCase();
  if (upper.length === ch.length) {
    const again = FOLD.get(upper.codePointAt(0)!);
    if (again !== undefined) return again;
  }
  return upper;
}
