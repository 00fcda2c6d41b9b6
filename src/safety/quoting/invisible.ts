/**
 * Invisible characters: the carriers of "ASCII smuggling" and of tag names split
 * so that a plain regex misses them.
 *
 * The set is every Default_Ignorable_Code_Point (zero-width characters, bidi
 * controls, variation selectors, the Unicode Tag block U+E0000–E007F, Hangul
 * fillers, soft hyphen, ...), every other format character (General_Category Cf,
 * e.g. U+0600 ARABIC NUMBER SIGN, U+FFF9 interlinear annotation anchors) and the
 * C0/C1 control characters except tab, line feed and carriage return.
 * See https://embracethered.com/blog/posts/2024/hiding-and-finding-text-with-unicode-tags/
 */
const INVISIBLE_CLASS = String.raw`\p{Default_Ignorable_Code_Point}\p{Cf}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F`;

/** Matches one run of invisible characters. */
export const INVISIBLE_RUN = new RegExp(`[${INVISIBLE_CLASS}]+`, 'gu');

const INVISIBLE_ONE = new RegExp(`^[${INVISIBLE_CLASS}]$`, 'u');

/** True when the code point is one the quoting layer removes. */
export function isInvisibleCodePoint(cp: number): boolean {
  if (cp >= 0x20 && cp < 0x7f) return false;
  if (cp === 0x09 || cp === 0x0a || cp === 0x0d) return false;
  return INVISIBLE_ONE.test(String.fromCodePoint(cp));
}

export interface InvisibleRemoval {
  text: string;
  /** Number of code points removed. */
  removed: number;
}

/** Removes every invisible character and counts the code points removed. */
export function removeInvisible(text: string): InvisibleRemoval {
  let removed = 0;
  const out = text.replace(INVISIBLE_RUN, (run) => {
    // A run of astral characters (the Tag block) holds two code units each.
    for (const _ of run) removed++;
    return '';
  });
  return { text: out, removed };
}
