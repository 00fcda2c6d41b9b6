/**
 * Folding of characters that a reader, human or model, takes for another one.
 * Used only on the normalised view that quoting's tag and prefix detection
 * and the injection detector read; the quoted output keeps the original
 * characters.
 *
 * The letters, digits and marks come from Unicode's confusables data
 * (confusables-data.ts, generated from UTS #39 confusables.txt by
 * scripts/generate-confusables.ts). A few additions below cover what that
 * data does not: brackets a model reads as `<` or `>` though they do not look
 * the same, and letters that it maps to no ASCII letter (small capitals, which
 * are prototypes of their own there, and Cyrillic letters with a tail or hook).
 */
import { CONFUSABLE_ROWS } from './confusables-data.js';

/** Brackets a model may read as `<` or `>` beyond the data (after NFKD, which already maps the fullwidth and small forms). */
const OPEN_BRACKETS = '<‹⟨〈〈«《❮❬❰˂ᐸ⧼≮⦉⟪';
const CLOSE_BRACKETS = '>›⟩〉〉»》❯❭❱˃ᐳ⧽≯⦊⟫';

/** Letters the data maps to nothing in ASCII, read as the Latin capital given. */
const ADDED: Array<[string, string]> = [
  // Latin small capitals (prototypes of their own in the data)
  ['ᴀ', 'A'],
  ['ʙ', 'B'],
  ['ᴅ', 'D'],
  ['ᴇ', 'E'],
  ['ɢ', 'G'],
  ['ʜ', 'H'],
  ['ᴊ', 'J'],
  ['ᴋ', 'K'],
  ['ʟ', 'L'],
  ['ᴍ', 'M'],
  ['ɴ', 'N'],
  ['ᴘ', 'P'],
  ['ʀ', 'R'],
  ['ᴛ', 'T'],
  ['ȷ', 'J'],
  ['ꜰ', 'F'],
  ['ꞯ', 'Q'],
  // reversed letters, as faux-Cyrillic spells them
  ['ᴎ', 'N'],
  ['ᴙ', 'R'],
  // Cyrillic and Greek letters with a tail, hook or descender
  ['Ԁ', 'D'],
  ['Єє', 'E'],
  ['Ɠ', 'G'],
  ['ҤҥҺ', 'H'],
  ['ҜҝҠҡӃӄϏϗ', 'K'],
  ['Ӆӆ', 'L'],
  ['Ҏҏ', 'P'],
  ['Ԛ', 'Q'],
  ['ӼӽӾӿ', 'X'],
  ['Ꮖ', 'I'],
  ['‗', '_'],
];

/**
 * Where the reading of the data is set aside. The data maps all of these to
 * `l`, which the generated table reads as `I`: the Latin l-letters with a
 * stroke, belt or bar read as `L`, and the vertical strokes that stand for a
 * pipe in chat-template tokens (`<ǀim_startǀ>`) as `|`.
 */
const OVERRIDES: Array<[string, string]> = [
  ['łŁɫɭƚ', 'L'],
  ['ǀ∣', '|'],
];

/**
 * Enclosed and boxed letters and digits that neither NFKD nor the data fold:
 * negative circled and negative squared letters (U+1F150-1F169,
 * U+1F170-1F189), regional indicators (U+1F1E6-1F1FF, shown as boxed letters
 * when unpaired), dingbat and double circled digits. Parenthesised letters
 * (U+249C-24B5, U+1F110-1F129) do decompose, to `(A)`: read as the letter
 * alone, so that `<⒰⒩⒯...` reads as `<UNT...`, not `<(U)(N)(T)...`.
 */
function enclosedForms(): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  const letters = (from: number): void => {
    for (let i = 0; i < 26; i++) out.push([from + i, String.fromCharCode(0x41 + i)]);
  };
  for (const from of [0x1f150, 0x1f170, 0x1f1e6, 0x249c, 0x1f110]) letters(from);
  const digits = (from: number, first: number, count: number): void => {
    for (let i = 0; i < count; i++) out.push([from + i, String(first + i)]);
  };
  // ❶-❿, ➀-➉, ➊-➓ (1-10 each), ⓫-⓴ (11-20), ⓵-⓾ (1-10), ⓿ and 🄋 🄌 (0).
  for (const from of [0x2776, 0x2780, 0x278a]) digits(from, 1, 10);
  digits(0x24eb, 11, 10);
  digits(0x24f5, 1, 10);
  for (const zero of [0x24ff, 0x1f10b, 0x1f10c]) out.push([zero, '0']);
  // 🄪 〔S〕, 🆊 crossed P, and the negative squared pairs 🆋-🆏.
  out.push([0x1f12a, 'S'], [0x1f18a, 'P'], [0x1f18b, 'IC'], [0x1f18c, 'PA'], [0x1f18d, 'SA'], [0x1f18e, 'AB']);
  out.push([0x1f18f, 'WC']);
  return out;
}

const FOLD = new Map<number, string>();
for (const [chars, to] of ADDED) for (const ch of chars) FOLD.set(ch.codePointAt(0)!, to);
for (const [cp, to] of enclosedForms()) FOLD.set(cp, to);
for (const ch of OPEN_BRACKETS) FOLD.set(ch.codePointAt(0)!, '<');
for (const ch of CLOSE_BRACKETS) FOLD.set(ch.codePointAt(0)!, '>');
for (const [to, chars] of CONFUSABLE_ROWS) for (const ch of chars) FOLD.set(ch.codePointAt(0)!, to);
for (const [chars, to] of OVERRIDES) for (const ch of chars) FOLD.set(ch.codePointAt(0)!, to);

/**
 * Characters in the original text that may start a tag once folded: every
 * character the table folds to `<`, and those NFKD maps to `<` or to one of
 * them (a test checks every code point of Unicode against this list).
 */
export const OPEN_BRACKET_CHARS: string =
  [...FOLD]
    .filter(([, to]) => to === '<')
    .map(([cp]) => String.fromCodePoint(cp))
    .join('') + '\uFF1C\uFE64\u2329\uFE3D\uFE3F';

/** The fold of one code point as the table gives it, before any decomposition; undefined when it has none. */
export function tableFold(cp: number): string | undefined {
  return FOLD.get(cp);
}

/**
 * Folds one already-decomposed character: a confusable letter, digit or mark
 * to its ASCII form, anything else to upper case.
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
