/**
 * Invisible characters: the carriers of "ASCII smuggling" and of tag names split
 * so that a plain regex misses them.
 *
 * The set is every Default_Ignorable_Code_Point (zero-width characters, bidi
 * controls, variation selectors, the Unicode Tag block U+E0000–E007F, Hangul
 * fillers, soft hyphen, ...), every other format character (General_Category Cf,
 * e.g. U+0600 ARABIC NUMBER SIGN, U+FFF9 interlinear annotation anchors) and the
 * C0/C1 control characters except tab and the line terminators (LF, VT, FF,
 * CR, NEL): those stay, and prefix detection reads each as a line break, so a
 * role prefix after one is marked rather than glued to the line before it.
 * See https://embracethered.com/blog/posts/2024/hiding-and-finding-text-with-unicode-tags/
 */

/**
 * The string of the first `length` code units of `units`, in chunks (the
 * arguments of String.fromCharCode go on the stack). Not Node's Buffer: this
 * module is also read where there is no Buffer (the review page's script shares
 * the citation text rules); and not a TextDecoder, which writes U+FFFD for a
 * lone surrogate, the mark the citation text uses for an element boundary
 * (../citations/marked-text.ts), and drops a leading byte-order mark.
 */
function fromCodeUnits(units: Uint16Array, length: number): string {
  let text = '';
  for (let a = 0; a < length; a += 8192) {
    text += String.fromCharCode.apply(null, units.subarray(a, Math.min(length, a + 8192)) as unknown as number[]);
  }
  return text;
}
const INVISIBLE_CLASS = String.raw`\p{Default_Ignorable_Code_Point}\p{Cf}\u0000-\u0008\u000E-\u001F\u007F-\u0084\u0086-\u009F`;

/** Matches one run of invisible characters. */
export const INVISIBLE_RUN = new RegExp(`[${INVISIBLE_CLASS}]+`, 'gu');

const INVISIBLE_ONE = new RegExp(`^[${INVISIBLE_CLASS}]$`, 'u');

// The answer per BMP code point, filled on first use (0 = not known yet, 1 = visible, 2 = invisible):
// the normaliser asks once per character, and a regex test per call was most of its cost on such text.
const bmpInvisible = new Uint8Array(0x10000);

/** True when the code point is one the quoting layer removes. */
export function isInvisibleCodePoint(cp: number): boolean {
  if (cp >= 0x20 && cp < 0x7f) return false;
  if (cp >= 0x09 && cp <= 0x0d) return false;
  if (cp < 0x10000) {
    let known = bmpInvisible[cp]!;
    if (known === 0) bmpInvisible[cp] = known = INVISIBLE_ONE.test(String.fromCodePoint(cp)) ? 2 : 1;
    return known === 2;
  }
  // The Unicode Tag block and the variation selectors supplement, the common astral cases.
  if ((cp >= 0xe0000 && cp <= 0xe007f) || (cp >= 0xe0100 && cp <= 0xe01ef)) return true;
  return INVISIBLE_ONE.test(String.fromCodePoint(cp));
}

export interface InvisibleRemoval {
  text: string;
  /** Number of code points removed. */
  removed: number;
}

/**
 * Removes every invisible character and counts the code points removed. A
 * loop over code units with the cached answer, copying into a typed array
 * once the first one is found: a regex replace with a counting callback cost
 * several times more on text full of them.
 */
export function removeInvisible(text: string): InvisibleRemoval {
  const n = text.length;
  let removed = 0;
  let out: Uint16Array | undefined;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) {
      if (out !== undefined) out[k++] = c;
      continue;
    }
    let cp = c;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = (c - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    if (isInvisibleCodePoint(cp)) {
      if (out === undefined) {
        out = new Uint16Array(n);
        for (; k < i; k++) out[k] = text.charCodeAt(k);
      }
      removed++;
    } else if (out !== undefined) {
      out[k++] = c;
      if (width === 2) out[k++] = text.charCodeAt(i + 1);
    }
    i += width - 1;
  }
  if (out === undefined) return { text, removed };
  return { text: fromCodeUnits(out, k), removed };
}
