/**
 * Instructions hidden in simple encodings, decoded so the detector can read
 * them with the rules it reads plain text with: ROT13, leetspeak, pig latin,
 * Morse, base64, bytes in hexadecimal and reversed text. (Letters spelt with
 * separators, `I-G-N-O-R-E`, the detector reads itself.)
 *
 * The input is the detector's normalised view (text/normalized-view.ts):
 * ASCII letters are capitals there, so the decoded text is folded the same
 * way. A segment's `from` and `to` are offsets of the encoded run in the view.
 *
 * Decoding is tried only where the text shows the encoding, and kept only
 * where the decoding reads as text, so that prose, code, URLs, DNA, formulas,
 * hashes and ids give nothing:
 * - ROT13 and reversed text: words that are the ROT13 (or the reversal) of
 *   a common English word (COMMON_WORDS), one lookup a word, which also says
 *   whether the word is common as written; a run of them is kept where most
 *   of its words decode to common words and few were common as written.
 * - Leetspeak: a word with letters and digits (or `@`, `$`) mixed; kept where
 *   such words decode to common words (`1GN0R3` is IGNORE, `H2O` nothing).
 * - Pig latin: words that begin with a vowel and end in AY (what every pig
 *   latin word does; `TODAY`, `PLAY`, `MONDAY` do not begin with a vowel);
 *   kept where three or more in a row decode to common words.
 * - Morse: a run of `.` and `-` groups, with spaces, `/` or `|` between.
 * - Base64 and hexadecimal: a long run of their alphabet with a digit; kept
 *   where the bytes are text (printable ASCII, mostly letters and spaces,
 *   with words). The view has lost base64's case: the case of its letters
 *   is chosen to make the likeliest English bytes (decodeBase64), which a
 *   dynamic programme over its groups of four finds in linear time.
 *
 * The work is linear in the view: one pass cuts it into words and finds the
 * base64 and Morse runs, a second walks the words, and each run is decoded
 * once, in pieces of at most MAX_SEGMENT_CHARS. Prose costs one hash lookup
 * a word and a few tests of flags gathered as the word was read.
 */
import { foldText } from '../text/normalized-view.js';
import { COMMON_WORDS } from './common-words.js';
import { isSeparator } from '../text/words.js';

export type Encoding = 'rot13' | 'leet' | 'pig_latin' | 'morse' | 'base64' | 'hex' | 'reversed';

export interface DecodedSegment {
  encoding: Encoding;
  /** Start of the encoded run in the view. */
  from: number;
  /** End of the encoded run in the view (exclusive). */
  to: number;
  /** The decoded text, folded to capitals as the view is. */
  text: string;
}

/** No segment spans more of the view than this: longer runs are cut into segments of at most this length. */
export const MAX_SEGMENT_CHARS = 2000;
/** At most this many segments for a text: decoding stops there. */
export const MAX_SEGMENTS = 64;

/** Words further apart than this (punctuation and spaces between) are not one run. */
const MAX_GAP = 6;

// ---------------------------------------------------------------------------
// Common words, by hash: a word's hash (a polynomial in its capitals) looks
// up at once whether it is a common word, the ROT13 of one, or the reversal
// of one, so that ROT13 and reversed text cost prose one lookup a word.

const P = 0x01000193;
const KNOWN = 1;
/** The ROT13 of a common word (GUR is THE). */
const ROT_HIT = 2;
/** The reversal of a common word (EHT is THE). */
const REV_HIT = 4;

const TABLE_SIZE = 4096;
const TABLE_MASK = TABLE_SIZE - 1;
const tableKeys = new Int32Array(TABLE_SIZE);
const tableFlags = new Uint8Array(TABLE_SIZE);

function slot(h: number): number {
  return (h ^ (h >>> 12)) & TABLE_MASK;
}

function lookup(h: number): number {
  let s = slot(h);
  for (;;) {
    const f = tableFlags[s]!;
    if (f === 0) return 0;
    if (tableKeys[s] === h) return f;
    s = (s + 1) & TABLE_MASK;
  }
}

function insert(word: string, flag: number): void {
  const h = hashOf(word);
  let s = slot(h);
  while (tableFlags[s] !== 0 && tableKeys[s] !== h) s = (s + 1) & TABLE_MASK;
  tableKeys[s] = h;
  tableFlags[s]! |= flag;
}

function hashOf(word: string): number {
  let h = 0;
  for (let i = 0; i < word.length; i++) h = (Math.imul(h, P) + word.charCodeAt(i)) | 0;
  return h;
}

function rot13Char(u: number): number {
  return u >= 0x41 && u <= 0x5a ? ((u - 0x41 + 13) % 26) + 0x41 : u;
}

function rot13(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += String.fromCharCode(rot13Char(upper(s.charCodeAt(i))));
  return out;
}

function upper(c: number): number {
  return c >= 0x61 && c <= 0x7a ? c - 32 : c;
}

for (const word of COMMON_WORDS) {
  insert(word, KNOWN);
  insert(rot13(word), ROT_HIT);
  insert([...word].reverse().join(''), REV_HIT);
}

function isKnown(word: string): boolean {
  return (lookup(hashOf(word)) & KNOWN) !== 0;
}

// ---------------------------------------------------------------------------
// Character classes of the first pass.

/** A word is a run of ASCII letters, digits and the leetspeak symbols `@` and `$`. */
const LETTER = 1;
const DIGIT = 2;
const SYMBOL = 4;
const CLASS = new Uint8Array(128);
for (let c = 0x41; c <= 0x5a; c++) CLASS[c] = CLASS[c + 32] = LETTER;
for (let c = 0x30; c <= 0x39; c++) CLASS[c] = DIGIT;
CLASS[0x40] = CLASS[0x24] = SYMBOL;

/** Word flags, beside LETTER, DIGIT and SYMBOL. */
const NOT_HEX = 8;
const VOWEL_START = 16;
const AY_END = 32;
/** CLASS and, for a letter after F and a symbol, NOT_HEX: what a word's flags gather from each of its characters. */
const WORD_FLAGS = new Uint8Array(128);
for (let c = 0; c < 128; c++)
  WORD_FLAGS[c] = CLASS[c]! | ((CLASS[c] === LETTER && (c & 0xdf) > 0x46) || CLASS[c] === SYMBOL ? NOT_HEX : 0);
/** A `0X` prefix, as in 0x69. */
const HEX_PREFIX = 64;
/**
 * Joined to a letter of another alphabet (`3AЧEM`, where the view has folded
 * a Cyrillic lookalike to ASCII): a piece of a word, read as no word.
 */
const FOREIGN = 128;

const VOWELS = new Uint8Array(128);
for (const ch of 'AEIOUY') VOWELS[ch.charCodeAt(0)] = 1;

/** The characters of base64 (standard and URL-safe) that are not letters or digits: `+ / - _`. */
const B64 = new Uint8Array(128);
B64[0x2b] = B64[0x2f] = B64[0x2d] = B64[0x5f] = 1;

/**
 * The most `+ / - _` a base64 run of text may hold. They are the values 62
 * and 63, which in base64 of ASCII text come only as the last character of
 * a group, for a `>`, `~`, `?` or DEL: rare. A path, a URL or a hyphenated
 * chemical name has many; such a run is no base64 of text, and is not decoded.
 */
function maxMarks(length: number): number {
  return 1 + (length >> 5);
}
/** A run of base64 shorter than this is left alone: 12 bytes, a short sentence. */
const B64_MIN = 16;

const DOT = 1;
const DASH = 2;
const SPACE = 3;
const WORD_BREAK = 4;
/** Morse marks and what separates them; a few dashes and dots above ASCII read as - and `.`. */
function morseClass(c: number): number {
  switch (c) {
    case 0x2e:
    case 0xb7:
    case 0x2022:
      return DOT;
    case 0x2d:
    case 0x5f:
    case 0x2013:
    case 0x2014:
    case 0x2212:
      return DASH;
    case 0x20:
    case 0x09:
      return SPACE;
    case 0x2f:
    case 0x7c:
    case 0x0a:
      return WORD_BREAK;
    default:
      return 0;
  }
}
const MORSE_ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) MORSE_ASCII[c] = morseClass(c);
/** Fewer Morse letters than this is no message (`- - -` is a rule, `...` an ellipsis). */
const MORSE_MIN = 4;

// ---------------------------------------------------------------------------
// The words of the view, kept in typed arrays reused from text to text.

let cap = 0;
let wFrom = new Int32Array(0);
let wTo = new Int32Array(0);
let wHash = new Int32Array(0);
let wFlags = new Uint8Array(0);
let wKnown = new Uint8Array(0);

function ensure(n: number): void {
  if (n <= cap) return;
  const next = Math.max(n, cap * 2, 1024);
  const grow = <T extends Int32Array | Uint8Array>(a: T, make: (k: number) => T): T => {
    const b = make(next);
    b.set(a);
    return b;
  };
  wFrom = grow(wFrom, (k) => new Int32Array(k));
  wTo = grow(wTo, (k) => new Int32Array(k));
  wHash = grow(wHash, (k) => new Int32Array(k));
  wFlags = grow(wFlags, (k) => new Uint8Array(k));
  // Filled by pass 2, after pass 1 has made all the room it needs: nothing to keep.
  wKnown = new Uint8Array(next);
  cap = next;
}

/** Word arrays larger than this (about 16 bytes a word) are let go after the text. */
const RETAINED_WORDS = 1 << 19;

function release(): void {
  cap = 0;
  wFrom = wTo = wHash = new Int32Array(0);
  wFlags = wKnown = new Uint8Array(0);
}

/** A word of letters alone, not joined to another alphabet. */
function letterOnly(j: number): boolean {
  return (wFlags[j]! & (DIGIT | SYMBOL | FOREIGN)) === 0;
}

/** Segments found so far, and whether the cap is reached. */
class Found {
  readonly segments: DecodedSegment[] = [];
  constructor(readonly view: string) {}
  get full(): boolean {
    return this.segments.length >= MAX_SEGMENTS;
  }
  add(encoding: Encoding, from: number, to: number, text: string): void {
    if (!this.full) this.segments.push({ encoding, from, to, text });
  }
}

/**
 * The encoded runs of `view` (the normalised view of a text), each with its
 * decoded text. Ordered by `from` (then `to`); at most MAX_SEGMENTS, each
 * at most MAX_SEGMENT_CHARS of the view. Runs of different encodings may
 * overlap.
 */
export function decodedSegments(view: string): DecodedSegment[] {
  const n = view.length;
  // Room for the words of ordinary text (one in six characters or so); more is made as needed.
  ensure(Math.min(Math.ceil(n / 5) + 16, RETAINED_WORDS));
  const found = new Found(view);
  const b64Runs: number[] = [];
  const morseRuns: number[] = [];

  const words = cutWords(view, b64Runs, morseRuns);

  // Pass 2: the words.
  const rot = new Run('rot13');
  const rev = new Run('reversed');
  let leetFirst = -1;
  let leetLast = -1;
  let leetCount = 0;
  let pigFirst = -1;
  let pigLast = -1;
  let pigCount = 0;
  let hexFirst = -1;
  let hexDigits = 0;
  let hexDecimal = false;
  for (let j = 0; j < words && !found.full; j++) {
    const f = wFlags[j]!;
    const from = wFrom[j]!;
    const to = wTo[j]!;
    const plain = (f & (DIGIT | SYMBOL | FOREIGN)) === 0;
    const known = plain ? lookup(wHash[j]!) : 0;
    wKnown[j] = known & KNOWN;
    const far = j > 0 && from - wTo[j - 1]! > MAX_GAP;

    // ROT13 and reversed text. A common word of three letters or more (that
    // is not also the ROT13 or reversal of one, as OR is of BE) ends a run.
    if (far) {
      rot.close(found);
      rev.close(found);
    }
    if (plain) {
      if (known === KNOWN && to - from >= 3) {
        rot.close(found);
        rev.close(found);
      } else {
        if ((known & ROT_HIT) !== 0) rot.hit(found, j);
        else if (rot.first >= 0) rot.miss(found, known & KNOWN);
        if ((known & REV_HIT) !== 0) rev.hit(found, j);
        else if (rev.first >= 0) rev.miss(found, known & KNOWN);
      }
    }

    // Leetspeak: words that mix letters with digits or symbols.
    if ((f & (LETTER | FOREIGN)) === LETTER && (f & (DIGIT | SYMBOL)) !== 0 && !isQuantity(view, from, to)) {
      if (leetFirst >= 0 && (j - leetLast > 4 || far || to - wFrom[leetFirst]! > MAX_SEGMENT_CHARS)) {
        tryLeet(found, leetFirst, leetLast, leetCount, words);
        leetFirst = -1;
      }
      if (leetFirst < 0) {
        leetFirst = j;
        leetCount = 0;
      }
      leetLast = j;
      leetCount++;
    }

    // Pig latin: words that begin with a vowel and end in AY.
    if (plain && (f & (VOWEL_START | AY_END)) === (VOWEL_START | AY_END) && to - from >= 3) {
      if (pigFirst >= 0 && (j - pigLast > 2 || far || to - wFrom[pigFirst]! > MAX_SEGMENT_CHARS)) {
        tryPigLatin(found, pigFirst, pigLast, pigCount);
        pigFirst = -1;
      }
      if (pigFirst < 0) {
        pigFirst = j;
        pigCount = 0;
      }
      pigLast = j;
      pigCount++;
    }

    // Hexadecimal: words of hex digits, each of an even number (0x69 counts as 69).
    const hexWord = (f & NOT_HEX) === 0 && (to - from) % 2 === 0 && to - from >= 2;
    if (hexFirst >= 0 && (!hexWord || from - wTo[j - 1]! > 3 || to - wFrom[hexFirst]! > MAX_SEGMENT_CHARS)) {
      if (hexDigits >= 12 && hexDecimal) tryHex(found, hexFirst, j);
      hexFirst = -1;
    }
    if (hexWord) {
      if (hexFirst < 0) {
        hexFirst = j;
        hexDigits = 0;
        hexDecimal = false;
      }
      hexDigits += to - from;
      if ((f & DIGIT) !== 0) hexDecimal = true;
    }
  }
  if (!found.full) {
    rot.close(found);
    rev.close(found);
    if (leetFirst >= 0) tryLeet(found, leetFirst, leetLast, leetCount, words);
    if (pigFirst >= 0) tryPigLatin(found, pigFirst, pigLast, pigCount);
    if (hexFirst >= 0 && hexDigits >= 12 && hexDecimal) tryHex(found, hexFirst, words);
  }
  for (let r = 0; r < b64Runs.length && !found.full; r += 2) tryBase64(found, b64Runs[r]!, b64Runs[r + 1]!);
  for (let r = 0; r < morseRuns.length && !found.full; r += 2) tryMorse(found, morseRuns[r]!, morseRuns[r + 1]!);

  // A very long text's words are not kept from one text to the next.
  if (cap > RETAINED_WORDS) release();
  return found.segments.sort((a, b) => a.from - b.from || a.to - b.to).slice(0, MAX_SEGMENTS);
}

/**
 * Pass 1: cuts the view into words (wFrom, wTo, wHash, wFlags) and finds the
 * base64 and Morse runs, as [from, to) pairs pushed on the arrays given. A
 * word is read in a tight loop (a word's hash is of its characters with bit
 * 5 cleared, which for letters is their capital); base64 and Morse are
 * followed at the characters between words. Returns the number of words.
 */
function cutWords(view: string, b64Runs: number[], morseRuns: number[]): number {
  const n = view.length;
  let words = 0;
  let b64From = -1;
  let b64Digit = false;
  let b64Marks = 0;
  let mFrom = -1;
  let mTo = -1;
  let mGroups = 0;
  let mInGroup = false;
  let mMarks = 0;
  let before = 0;
  let i = 0;
  while (i < n) {
    let c = view.charCodeAt(i);
    if (c < 128 && CLASS[c] !== 0) {
      const from = i;
      let h = 0;
      let flags = before >= 128 && !isSeparator(before) ? FOREIGN : 0;
      for (;;) {
        flags |= WORD_FLAGS[c]!;
        h = (Math.imul(h, P) + (c & 0xdf)) | 0;
        if (++i === n) break;
        c = view.charCodeAt(i);
        if (c >= 128 || CLASS[c] === 0) break;
      }
      // Pig latin's mark: AY at the end of a word that begins with a vowel.
      if (
        (view.charCodeAt(i - 1) & 0xdf) === 0x59 &&
        i - from >= 3 &&
        (view.charCodeAt(i - 2) & 0xdf) === 0x41 &&
        VOWELS[view.charCodeAt(from) & 0xdf] === 1
      )
        flags |= AY_END | VOWEL_START;
      if ((flags & NOT_HEX) !== 0 && isHexWithPrefix(view, from, i)) flags = (flags & ~NOT_HEX) | HEX_PREFIX;
      if (i < n && c >= 128 && !isSeparator(c)) flags |= FOREIGN;
      if (words === cap) ensure(words + 1);
      wFrom[words] = from;
      wTo[words] = i;
      wHash[words] = h;
      wFlags[words] = flags;
      words++;
      // A word goes on a base64 run, unless it holds `@` or `$`; it ends a Morse run.
      if ((flags & SYMBOL) !== 0) {
        if (b64From >= 0 && b64Digit && from - b64From >= B64_MIN && b64Marks <= maxMarks(from - b64From))
          b64Runs.push(b64From, from);
        b64From = -1;
      } else {
        if (b64From < 0) {
          b64From = from;
          b64Digit = false;
          b64Marks = 0;
        }
        if ((flags & DIGIT) !== 0) b64Digit = true;
      }
      if (mFrom >= 0) {
        if (mGroups >= MORSE_MIN && mMarks === (DOT | DASH)) morseRuns.push(mFrom, mTo);
        mFrom = -1;
      }
      before = i < n ? c : 0;
      continue;
    }
    before = c;
    if (c === 0x20) {
      // The commonest character between words: it ends a base64 run, and separates Morse letters.
      if (b64From >= 0) {
        if (b64Digit && i - b64From >= B64_MIN && b64Marks <= maxMarks(i - b64From)) b64Runs.push(b64From, i);
        b64From = -1;
      }
      mInGroup = false;
      i++;
      continue;
    }
    // Between words: `+ / - _` go on a base64 run, anything else ends it.
    if (c < 128 && B64[c] !== 0) {
      if (b64From < 0) {
        b64From = i;
        b64Digit = false;
        b64Marks = 0;
      }
      b64Marks++;
    } else if (b64From >= 0) {
      if (b64Digit && i - b64From >= B64_MIN && b64Marks <= maxMarks(i - b64From)) b64Runs.push(b64From, i);
      b64From = -1;
    }
    const m = c < 128 ? MORSE_ASCII[c]! : morseClass(c);
    if (m === DOT || m === DASH) {
      if (mFrom < 0) {
        mFrom = i;
        mGroups = 0;
        mMarks = 0;
        mInGroup = false;
      }
      if (!mInGroup) {
        mGroups++;
        mInGroup = true;
      }
      mMarks |= m;
      mTo = i + 1;
    } else if (mFrom >= 0) {
      if (m !== 0) mInGroup = false;
      else {
        if (mGroups >= MORSE_MIN && mMarks === (DOT | DASH)) morseRuns.push(mFrom, mTo);
        mFrom = -1;
      }
    }
    i++;
  }
  if (b64From >= 0 && b64Digit && n - b64From >= B64_MIN && b64Marks <= maxMarks(n - b64From)) b64Runs.push(b64From, n);
  if (mFrom >= 0 && mGroups >= MORSE_MIN && mMarks === (DOT | DASH)) morseRuns.push(mFrom, mTo);
  return words;
}

/** `0X` then hex digits, as in 0x69. */
function isHexWithPrefix(view: string, from: number, to: number): boolean {
  if (to - from < 3 || view.charCodeAt(from) !== 0x30 || (view.charCodeAt(from + 1) & 0xdf) !== 0x58) return false;
  for (let i = from + 2; i < to; i++) if (hexValue(view.charCodeAt(i)) < 0) return false;
  return true;
}

// ---------------------------------------------------------------------------
// ROT13 and reversed text.

/**
 * A run of words that decode (by ROT13, or reversed) to common words, with
 * up to two other words between, followed word by word. It is kept when it
 * reads as English and the words as written did not: at least three decoded
 * words (or two with nothing between), three in five of the run's words, and
 * two in five more than were common as written; and of them at least two
 * different words of three letters or more, ten letters together, since
 * short words meet by chance (`N,N,N` is A,A,A in ROT13, `ERA A ... NA`
 * reversed is ARE A ... AN).
 */
class Run {
  first = -1;
  lastHit = -1;
  n = 0;
  hits = 0;
  plainHits = 0;
  longHits = 0;
  letters = 0;
  firstLong = 0;
  distinct = false;
  pending = 0;
  pendingPlain = 0;

  constructor(readonly encoding: 'rot13' | 'reversed') {}

  hit(found: Found, j: number): void {
    if (this.first >= 0 && wTo[j]! - wFrom[this.first]! > MAX_SEGMENT_CHARS) this.close(found);
    if (this.first < 0) {
      this.first = j;
      this.n = this.hits = this.plainHits = this.longHits = this.letters = this.pending = this.pendingPlain = 0;
      this.distinct = false;
    }
    this.n += this.pending + 1;
    this.plainHits += this.pendingPlain + wKnown[j]!;
    this.pending = this.pendingPlain = 0;
    this.hits++;
    const length = wTo[j]! - wFrom[j]!;
    if (length >= 3) {
      if (this.longHits++ === 0) this.firstLong = wHash[j]!;
      else if (wHash[j] !== this.firstLong) this.distinct = true;
      this.letters += length;
    }
    this.lastHit = j;
  }

  miss(found: Found, known: number): void {
    this.pending++;
    this.pendingPlain += known;
    if (this.pending > 2) this.close(found);
  }

  close(found: Found): void {
    if (this.first < 0) return;
    const { hits, n } = this;
    if (
      (hits >= 3 || (hits === 2 && n === 2)) &&
      hits >= 0.6 * n &&
      hits - this.plainHits >= 0.4 * n &&
      this.longHits >= 2 &&
      this.distinct &&
      this.letters >= 10
    )
      emitStretch(found, this.encoding, wFrom[this.first]!, wTo[this.lastHit]!);
    this.first = -1;
  }
}

function emitStretch(found: Found, encoding: 'rot13' | 'reversed', from: number, to: number): void {
  const run = found.view.slice(from, to);
  // Reversed by code point, so a character outside the BMP between the words stays whole.
  const text = encoding === 'rot13' ? rot13(run) : Array.from(run.toUpperCase()).reverse().join('');
  found.add(encoding, from, to, text);
}

// ---------------------------------------------------------------------------
// Leetspeak.

/** What a leetspeak character stands for; `1` is I or L, tried both ways. */
const LEET = new Uint8Array(128);
for (const [ch, letter] of [
  ['0', 'O'],
  ['1', 'I'],
  ['2', 'Z'],
  ['3', 'E'],
  ['4', 'A'],
  ['5', 'S'],
  ['6', 'G'],
  ['7', 'T'],
  ['8', 'B'],
  ['9', 'G'],
  ['@', 'A'],
  ['$', 'S'],
] as const)
  LEET[ch.charCodeAt(0)] = letter.charCodeAt(0);
/**
 * A number with its unit, `10NG`, `25MG`, `100ML`: two digits or more, then
 * letters only. (One digit may be leetspeak: `4LL`.)
 */
function isQuantity(view: string, from: number, to: number): boolean {
  let i = from;
  while (i < to && CLASS[view.charCodeAt(i)] === DIGIT) i++;
  if (i - from < 2) return false;
  for (; i < to; i++) if (CLASS[view.charCodeAt(i)] !== LETTER) return false;
  return true;
}

/** Of a word's ones, this many are tried as both I and L (8 readings); the rest read I. */
const LEET_AMBIGUOUS = 3;

/** No common word is longer than this: a longer leetspeak word (a hash, an id) is not read. */
const LONGEST_WORD = COMMON_WORDS.reduce((m, w) => Math.max(m, w.length), 0);

/** A leetspeak character's letter, or the letter itself in capitals. */
function leetLetter(c: number): number {
  return c < 128 && LEET[c]! !== 0 ? LEET[c]! : upper(c);
}

/**
 * Whether some reading of the leetspeak word view[from, to) (each of its
 * first LEET_AMBIGUOUS ones as I or as L) is a common word of three letters
 * or more (`T0` may be TO, but so may a time in a protocol); the mask of the
 * ones read as L, or -1. Hashed, so a word that reads as nothing costs no string.
 */
function readLeet(view: string, from: number, to: number): number {
  if (to - from < 3 || to - from > LONGEST_WORD) return -1;
  let ones = 0;
  for (let i = from; i < to && ones < LEET_AMBIGUOUS; i++) if (view.charCodeAt(i) === 0x31) ones++;
  for (let mask = 0; mask < 1 << ones; mask++) {
    let h = 0;
    let one = 0;
    for (let i = from; i < to; i++) {
      const c = view.charCodeAt(i);
      let u = leetLetter(c);
      if (c === 0x31) {
        if (one < LEET_AMBIGUOUS && ((mask >> one) & 1) === 1) u = 0x4c;
        one++;
      }
      h = (Math.imul(h, P) + u) | 0;
    }
    if ((lookup(h) & KNOWN) !== 0) return mask;
  }
  return -1;
}

/** The text of a leetspeak word read with the ones of `mask` as L (-1: all as I). */
function leetText(view: string, from: number, to: number, mask: number): string {
  let out = '';
  let one = 0;
  for (let i = from; i < to; i++) {
    const c = view.charCodeAt(i);
    let u = leetLetter(c);
    if (c === 0x31) {
      if (one < LEET_AMBIGUOUS && mask > 0 && ((mask >> one) & 1) === 1) u = 0x4c;
      one++;
    }
    out += String.fromCharCode(u);
  }
  return out;
}

/**
 * Words [first, last] hold `count` leetspeak words (letters mixed with
 * digits). Kept when two or more of them read as common words (two
 * different ones at least), and three in
 * five of them do, and with the plain words between three in five words of
 * the run are common; a single leetspeak word is kept when it has two
 * leetspeak characters or more and reads as a common word of four letters or
 * more (`1GN0R3`; not `H2O`, `CO2`, `X1`, `MP3`). The segment takes in up to
 * three plain words each side, so that "1gn0r3 all previous instructions"
 * reads whole.
 */
function tryLeet(found: Found, first: number, last: number, count: number, words: number): void {
  const view = found.view;
  if (count === 1) {
    if (wTo[first]! - wFrom[first]! > LONGEST_WORD) return;
    let leetChars = 0;
    for (let i = wFrom[first]!; i < wTo[first]!; i++) if (CLASS[view.charCodeAt(i)] !== LETTER) leetChars++;
    const letters = wTo[first]! - wFrom[first]! - leetChars;
    if (leetChars < 2 || letters < 2 || wTo[first]! - wFrom[first]! < 4) return;
  }
  // The ones-as-L mask of each leetspeak word's reading (-1: none is common); the text is made only for a kept run.
  const masks = new Map<number, number>();
  const distinct = new Set<string>();
  let leet = 0;
  let leetKnown = 0;
  let wordsWithLetters = 0;
  let common = 0;
  for (let j = first; j <= last; j++) {
    const f = wFlags[j]!;
    if ((f & (LETTER | FOREIGN)) !== LETTER || isQuantity(view, wFrom[j]!, wTo[j]!)) continue;
    wordsWithLetters++;
    if (letterOnly(j)) {
      common += wKnown[j]!;
      continue;
    }
    leet++;
    const mask = readLeet(view, wFrom[j]!, wTo[j]!);
    masks.set(j, mask);
    if (mask >= 0) {
      distinct.add(leetText(view, wFrom[j]!, wTo[j]!, mask));
      leetKnown++;
      common++;
    }
  }
  const ok =
    count === 1
      ? leetKnown === 1
      : leetKnown >= 2 && distinct.size >= 2 && leetKnown >= 0.6 * leet && common >= 0.6 * wordsWithLetters;
  if (!ok) return;
  // Take in plain words on each side.
  let a = first;
  for (let s = 0; s < 3 && a > 0 && letterOnly(a - 1) && wFrom[a]! - wTo[a - 1]! <= MAX_GAP; s++) a--;
  let b = last;
  for (let s = 0; s < 3 && b + 1 < words && letterOnly(b + 1) && wFrom[b + 1]! - wTo[b]! <= MAX_GAP; s++) b++;
  const from = wFrom[a]!;
  const to = wTo[b]!;
  if (to - from > MAX_SEGMENT_CHARS) return;
  let text = '';
  let at = from;
  for (let j = a; j <= b; j++) {
    text += view.slice(at, wFrom[j]!).toUpperCase();
    const mask = masks.get(j);
    const word = view.slice(wFrom[j]!, wTo[j]!).toUpperCase();
    // A lone 1 or 4 between leetspeak words is I or A.
    if (mask !== undefined) text += leetText(view, wFrom[j]!, wTo[j]!, mask);
    else text += j > first && j < last && (word === '1' || word === '4') ? (word === '1' ? 'I' : 'A') : word;
    at = wTo[j]!;
  }
  found.add('leet', from, to, text);
}

// ---------------------------------------------------------------------------
// Pig latin.

function isVowel(u: number): boolean {
  return u === 0x41 || u === 0x45 || u === 0x49 || u === 0x4f || u === 0x55;
}

/**
 * The English word a pig latin word stands for. A word that began with a
 * vowel took WAY, YAY or HAY (IGNOREWAY); one that began with consonants
 * moved them to its end before AY (EVIOUSPRAY is PREVIOUS, ESTIONQUAY is
 * QUESTION). The readings are tried in that order and the first common word
 * wins; failing that, the first reading.
 */
function readPigLatin(word: string): { word: string; known: boolean } {
  const stem = word.slice(0, -2);
  const readings: string[] = [];
  const end = stem.charCodeAt(stem.length - 1);
  if (stem.length >= 2 && (end === 0x57 || end === 0x59 || end === 0x48)) readings.push(stem.slice(0, -1));
  for (let k = 1; k <= 4 && k < stem.length; k++) {
    const c = stem.charCodeAt(stem.length - k);
    // The U of QU moves with its Q; any other vowel ends the consonants.
    if (isVowel(c) && !(c === 0x55 && stem.charCodeAt(stem.length - k - 1) === 0x51)) break;
    readings.push(stem.slice(stem.length - k) + stem.slice(0, stem.length - k));
  }
  readings.push(stem);
  for (const r of readings) if (r.length > 0 && isKnown(r)) return { word: r, known: true };
  return { word: readings[0]!, known: false };
}

/**
 * Words [first, last] hold `count` pig latin words. Kept when three or more
 * read as common words, three in five of them do, and two in five more than
 * were common as written (AWAY is common, and is also pig latin for A); or
 * two that both read as common words and make twelve letters or more; and
 * of two different words at least (EBAY EBAY EBAY is not BE BE BE).
 */
function tryPigLatin(found: Found, first: number, last: number, count: number): void {
  if (count < 2) return;
  const view = found.view;
  const readings = new Map<number, string>();
  const distinct = new Set<string>();
  let known = 0;
  let plainKnown = 0;
  let letters = 0;
  for (let j = first; j <= last; j++) {
    const f = wFlags[j]!;
    if (!letterOnly(j) || (f & (VOWEL_START | AY_END)) !== (VOWEL_START | AY_END) || wTo[j]! - wFrom[j]! < 3) continue;
    const reading = readPigLatin(view.slice(wFrom[j]!, wTo[j]!).toUpperCase());
    readings.set(j, reading.word);
    if (reading.known) {
      known++;
      distinct.add(reading.word);
    }
    plainKnown += wKnown[j]!;
    letters += reading.word.length;
  }
  const ok =
    distinct.size >= 2 &&
    ((known >= 3 && known >= 0.6 * count && known - plainKnown >= 0.4 * count) ||
      (count === 2 && known === 2 && plainKnown === 0 && letters >= 12));
  if (!ok) return;
  const from = wFrom[first]!;
  const to = wTo[last]!;
  let text = '';
  let at = from;
  for (let j = first; j <= last; j++) {
    text += view.slice(at, wFrom[j]!).toUpperCase();
    text += readings.get(j) ?? view.slice(wFrom[j]!, wTo[j]!).toUpperCase();
    at = wTo[j]!;
  }
  found.add('pig_latin', from, to, text);
}

// ---------------------------------------------------------------------------
// Bytes: hexadecimal and base64.

const utf8 = new TextDecoder('utf-8');

function isPrintable(b: number): boolean {
  return (b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d;
}

function isAsciiLetter(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);
}

/**
 * Whether decoded bytes are text: nearly all printable ASCII, mostly letters
 * and spaces, and words: a common word, or three words or more. A hash, an
 * image, a key or a row of numbers decodes to bytes that are not.
 */
function isText(bytes: Uint8Array): boolean {
  const n = bytes.length;
  if (n < 4) return false;
  let printable = 0;
  let letters = 0;
  let spaces = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (isPrintable(b)) printable++;
    if (isAsciiLetter(b)) letters++;
    else if (b === 0x20) spaces++;
  }
  if (printable < 0.95 * n || letters + spaces < 0.7 * n || letters < 4) return false;
  let word = '';
  let wordsSeen = 0;
  for (let i = 0; i <= n; i++) {
    const b = i < n ? bytes[i]! : 0;
    if (isAsciiLetter(b)) word += String.fromCharCode(upper(b));
    else if (word.length > 0) {
      if (word.length >= 3 && isKnown(word)) return true;
      if (word.length >= 2) wordsSeen++;
      word = '';
    }
  }
  return wordsSeen >= 3 && spaces >= 2;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const u = upper(c);
  return u >= 0x41 && u <= 0x46 ? u - 0x41 + 10 : -1;
}

/**
 * Words [a, b) are hex digits (or 0x and hex digits), an even number each.
 * Decoding stops once more than one byte in twenty is not printable: a
 * digest or a key is rejected in a few bytes.
 */
function tryHex(found: Found, a: number, b: number): void {
  const view = found.view;
  let digits = 0;
  for (let j = a; j < b; j++) digits += wTo[j]! - wFrom[j]!;
  const bytes = new Uint8Array(digits >> 1);
  let k = 0;
  let unprintable = 0;
  for (let j = a; j < b; j++) {
    let i = wFrom[j]!;
    const end = wTo[j]!;
    if ((wFlags[j]! & HEX_PREFIX) !== 0) i += 2;
    for (; i + 1 < end; i += 2) {
      const byte = (hexValue(view.charCodeAt(i)) << 4) | hexValue(view.charCodeAt(i + 1));
      bytes[k++] = byte;
      if (!isPrintable(byte) && ++unprintable > 0.05 * bytes.length) return;
    }
  }
  const decoded = bytes.subarray(0, k);
  if (isText(decoded)) found.add('hex', wFrom[a]!, wTo[b - 1]!, foldText(utf8.decode(decoded)));
}

/**
 * How likely a byte is after another in English text, as a log-probability:
 * used to choose the case of the base64 letters that the view has folded.
 * The byte's kind (small letter, capital, space, digit, punctuation, other
 * printable, line break or tab, other) follows the previous byte's kind; a letter follows the
 * previous letter as letters follow each other in COMMON_WORDS, smoothed
 * towards English letter frequencies.
 */
const LOWER = 0;
const UPPER = 1;
const SPACE_KIND = 2;
const DIGIT_KIND = 3;
const PUNCT = 4;
const OTHER = 5;
const LINE = 6;
const BINARY = 7;
/** Of each kind, how many bytes share its probability (a letter's is split by the letter bigrams instead). */
const KIND_SIZE = [1, 1, 1, 10, 11, 21, 3, 158];
/** P(kind of this byte | kind of the previous byte), rows and columns in the order above. */
const KIND_NEXT = [
  [0.82, 0.004, 0.13, 0.002, 0.04, 0.003, 0.001, 1e-6],
  [0.5, 0.3, 0.1, 0.01, 0.08, 0.01, 0.001, 1e-6],
  [0.74, 0.16, 0.01, 0.03, 0.05, 0.01, 0.001, 1e-6],
  [0.07, 0.02, 0.2, 0.5, 0.2, 0.01, 0.001, 1e-6],
  [0.2, 0.08, 0.6, 0.03, 0.07, 0.02, 0.02, 1e-6],
  [0.3, 0.1, 0.3, 0.05, 0.15, 0.1, 0.001, 1e-6],
  [0.5, 0.3, 0.05, 0.05, 0.05, 0.02, 0.03, 1e-6],
  [0.3, 0.1, 0.3, 0.05, 0.15, 0.1, 0.001, 1e-6],
];
const PUNCTUATION = new Set([...'.,\'"-:;!?()'].map((ch) => ch.charCodeAt(0)));
/** English letter frequencies, A to Z. */
const LETTER_FREQ = [
  8.2, 1.5, 2.8, 4.3, 12.7, 2.2, 2, 6.1, 7, 0.15, 0.8, 4, 2.4, 6.7, 7.5, 1.9, 0.1, 6, 6.3, 9.1, 2.8, 1, 2.4, 0.15, 2,
  0.07,
];

function byteKind(b: number): number {
  if (b >= 0x61 && b <= 0x7a) return LOWER;
  if (b >= 0x41 && b <= 0x5a) return UPPER;
  if (b === 0x20) return SPACE_KIND;
  if (b >= 0x30 && b <= 0x39) return DIGIT_KIND;
  if (PUNCTUATION.has(b)) return PUNCT;
  if (b > 0x20 && b < 0x7f) return OTHER;
  if (b === 0x0a || b === 0x09 || b === 0x0d) return LINE;
  return BINARY;
}

let pairScore: Float32Array | undefined;

/** The table of log P(b | a), at [a * 256 + b]; made on first use (a base64 run is rare). */
function pairScores(): Float32Array {
  if (pairScore !== undefined) return pairScore;
  // Letter bigrams of the common words, row 26 for a word's first letter.
  const counts = new Float64Array(27 * 26);
  // How often each letter ends a word: a lone I is a word, a lone C is not.
  const ends = new Float64Array(26);
  const seen = new Float64Array(26);
  for (const word of COMMON_WORDS) {
    let prev = 26;
    for (let i = 0; i < word.length; i++) {
      const letter = word.charCodeAt(i) - 0x41;
      counts[prev * 26 + letter]!++;
      seen[letter]!++;
      prev = letter;
    }
    ends[prev]!++;
  }
  const meanEnd = ends.reduce((a, b) => a + b, 0) / seen.reduce((a, b) => a + b, 0);
  const endOdds = Array.from(ends, (e, l) => (e + meanEnd * 4) / (seen[l]! + 4));
  const total = LETTER_FREQ.reduce((a, b) => a + b, 0);
  const smoothing = 30;
  const letterNext = new Float64Array(27 * 26);
  for (let prev = 0; prev < 27; prev++) {
    let row = 0;
    for (let l = 0; l < 26; l++) row += counts[prev * 26 + l]!;
    for (let l = 0; l < 26; l++)
      letterNext[prev * 26 + l] = (counts[prev * 26 + l]! + (smoothing * LETTER_FREQ[l]!) / total) / (row + smoothing);
  }
  const table = new Float32Array(256 * 256);
  for (let a = 0; a < 256; a++) {
    const ka = byteKind(a);
    const prevLetter = ka === LOWER || ka === UPPER ? upper(a) - 0x41 : 26;
    for (let b = 0; b < 256; b++) {
      const kb = byteKind(b);
      const letter = kb === LOWER || kb === UPPER;
      let within = letter ? letterNext[prevLetter * 26 + upper(b) - 0x41]! : 1 / KIND_SIZE[kb]!;
      // After a letter, whether the word goes on or ends, against the average.
      if (prevLetter < 26)
        within *= letter ? (1 - endOdds[prevLetter]!) / (1 - meanEnd) : endOdds[prevLetter]! / meanEnd;
      table[a * 256 + b] = Math.log(KIND_NEXT[ka]![kb]! * within);
    }
  }
  return (pairScore = table);
}

/** A base64 character's value: 0-63 as written (a letter as its capital), -1 for none. */
function b64Value(c: number): number {
  const u = upper(c);
  if (u >= 0x41 && u <= 0x5a) return u - 0x41;
  if (c >= 0x30 && c <= 0x39) return c - 0x30 + 52;
  if (c === 0x2b || c === 0x2d) return 62;
  if (c === 0x2f || c === 0x5f) return 63;
  return -1;
}

/**
 * A letter alone between non-letters is nearly always the word A or I (or
 * the I of I'M): a bigram cannot see this, and without it a lone I of the
 * text decodes as often as another capital its group allows.
 */
const LONE_A_OR_I = Math.log(8);
const LONE_OTHER = -Math.log(8);
const IS_LETTER_BYTE = new Uint8Array(256);
for (let b = 0x41; b <= 0x5a; b++) IS_LETTER_BYTE[b] = IS_LETTER_BYTE[b + 32] = 1;

function lone(a: number, b: number, c: number): number {
  if (IS_LETTER_BYTE[b] === 0 || IS_LETTER_BYTE[a] === 1 || IS_LETTER_BYTE[c] === 1) return 0;
  return b === 0x41 || b === 0x61 || b === 0x49 ? LONE_A_OR_I : LONE_OTHER;
}

/** A reading of a group whose unused bits (in a last group of two or three) are not zero, as no encoder writes. */
const UNUSED_BITS = Math.log(1e-4);

/**
 * Decodes view[from, to) as base64 whose letters may each be a capital or a
 * small letter: of the up to 16 readings of each group of four, the sequence
 * that makes the likeliest text (pairScores) is found by dynamic programming
 * over the groups, as a group's bytes depend on its own four characters only
 * and the next group's score on its last two bytes only: 16 x 16 steps a group.
 */
function decodeBase64(view: string, from: number, to: number): Uint8Array {
  const pair = pairScores();
  const groups = Math.floor((to - from) / 4) + ((to - from) % 4 >= 2 ? 1 : 0);
  // Each group's readings: its bytes packed in 24 bits, -1 for a reading that does not exist.
  const readings = new Int32Array(groups * 16).fill(-1);
  const back = new Uint8Array(groups * 16);
  let score = new Float64Array(16);
  let next = new Float64Array(16);
  const v = [0, 0, 0, 0];
  let lastBytes = 3;
  for (let g = 0; g < groups; g++) {
    const at = from + g * 4;
    const size = Math.min(4, to - at);
    lastBytes = size - 1;
    let letters = 0;
    for (let q = 0; q < 4; q++) {
      const c = q < size ? view.charCodeAt(at + q) : 0x41;
      v[q] = q < size ? b64Value(c) : 0;
      const u = upper(c);
      if (q < size && u >= 0x41 && u <= 0x5a) letters |= 1 << q;
    }
    next.fill(-Infinity);
    for (let mask = 0; mask < 16; mask++) {
      // A bit set on a letter reads it small (26 more); a mask with a bit on anything else repeats another.
      if ((mask & ~letters) !== 0) continue;
      const v0 = v[0]! + (mask & 1 ? 26 : 0);
      const v1 = v[1]! + (mask & 2 ? 26 : 0);
      const v2 = v[2]! + (mask & 4 ? 26 : 0);
      const v3 = v[3]! + (mask & 8 ? 26 : 0);
      const x0 = ((v0 << 2) | (v1 >> 4)) & 0xff;
      const x1 = ((v1 << 4) | (v2 >> 2)) & 0xff;
      const x2 = ((v2 << 6) | v3) & 0xff;
      readings[g * 16 + mask] = (x0 << 16) | (x1 << 8) | x2;
      let inner = 0;
      if (size >= 3) inner += pair[x0 * 256 + x1]!;
      if (size === 4) inner += pair[x1 * 256 + x2]! + lone(x0, x1, x2);
      if ((size === 2 && (v1 & 15) !== 0) || (size === 3 && (v2 & 3) !== 0)) inner += UNUSED_BITS;
      let best = -Infinity;
      let from = 0;
      if (g === 0) best = pair[0x20 * 256 + x0]! + lone(0x20, x0, size >= 3 ? x1 : 0x20);
      else
        for (let p = 0; p < 16; p++) {
          const r = readings[(g - 1) * 16 + p]!;
          if (r < 0) continue;
          const y1 = (r >> 8) & 0xff;
          const y2 = r & 0xff;
          const s =
            score[p]! + pair[y2 * 256 + x0]! + lone(y1, y2, x0) + (size >= 3 ? lone(y2, x0, x1) : lone(y2, x0, 0x20));
          if (s > best) {
            best = s;
            from = p;
          }
        }
      next[mask] = best + inner;
      back[g * 16 + mask] = from;
    }
    [score, next] = [next, score];
  }
  const out = new Uint8Array(Math.max(0, (groups - 1) * 3 + lastBytes));
  if (groups === 0) return out;
  let state = 0;
  for (let m = 1; m < 16; m++) if (score[m]! > score[state]!) state = m;
  for (let g = groups - 1; g >= 0; g--) {
    const r = readings[g * 16 + state]!;
    const size = g === groups - 1 ? lastBytes : 3;
    const at = g * 3;
    out[at] = (r >> 16) & 0xff;
    if (size > 1) out[at + 1] = (r >> 8) & 0xff;
    if (size > 2) out[at + 2] = r & 0xff;
    state = back[g * 16 + state]!;
  }
  return out;
}

/**
 * A quick test before decoding view[from, to) in earnest: it has a letter
 * after F (a run of hex digits is hexadecimal, a digest), and nearly every
 * group of four has some reading (of its letters' case) whose three bytes
 * are printable.
 */
function mayBeText(view: string, from: number, to: number): boolean {
  let afterF = false;
  for (let i = from; i < to && !afterF; i++) {
    const u = upper(view.charCodeAt(i));
    if (u > 0x46 && u <= 0x5a) afterF = true;
  }
  if (!afterF) return false;
  let failed = 0;
  const groups = (to - from) >> 2;
  for (let g = from; g + 4 <= to; g += 4) {
    const v0 = b64Value(view.charCodeAt(g));
    const v1 = b64Value(view.charCodeAt(g + 1));
    const v2 = b64Value(view.charCodeAt(g + 2));
    const v3 = b64Value(view.charCodeAt(g + 3));
    let letters = 0;
    for (let q = 0; q < 4; q++) {
      const u = upper(view.charCodeAt(g + q));
      if (u >= 0x41 && u <= 0x5a) letters |= 1 << q;
    }
    let ok = false;
    for (let mask = 0; mask < 16 && !ok; mask++) {
      if ((mask & ~letters) !== 0) continue;
      const w0 = v0 + (mask & 1 ? 26 : 0);
      const w1 = v1 + (mask & 2 ? 26 : 0);
      const w2 = v2 + (mask & 4 ? 26 : 0);
      const w3 = v3 + (mask & 8 ? 26 : 0);
      ok =
        isPrintable(((w0 << 2) | (w1 >> 4)) & 0xff) &&
        isPrintable(((w1 << 4) | (w2 >> 2)) & 0xff) &&
        isPrintable(((w2 << 6) | w3) & 0xff);
    }
    if (!ok && ++failed > groups / 10) return false;
  }
  return true;
}

/** Of a long run, this much of each piece is decoded first: a piece whose start is not text is not decoded further. */
const B64_PROBE = 64;

/**
 * view[from, to) is a run of base64 characters with a digit, `+` or `/`.
 * It is decoded in pieces of MAX_SEGMENT_CHARS (a multiple of four, so each
 * piece starts on a group); `=` padding after it belongs to its last piece.
 */
function tryBase64(found: Found, from: number, to: number): void {
  const view = found.view;
  for (let start = from; start < to && !found.full; start += MAX_SEGMENT_CHARS) {
    const end = Math.min(to, start + MAX_SEGMENT_CHARS);
    if (end - start < B64_MIN) break;
    // Base64 of ASCII text has `+ / - _` only as the last character of a group (maxMarks).
    let misplaced = 0;
    for (let i = start; i < end; i++) if ((i - start) % 4 !== 3 && B64[view.charCodeAt(i)] === 1) misplaced++;
    if (misplaced > (end - start) >> 6) continue;
    if (!mayBeText(view, start, Math.min(end, start + B64_PROBE))) continue;
    if (end - start > B64_PROBE) {
      const probe = decodeBase64(view, start, start + B64_PROBE);
      let printable = 0;
      for (let i = 0; i < probe.length; i++) if (isPrintable(probe[i]!)) printable++;
      if (printable < 0.9 * probe.length) continue;
    }
    const bytes = decodeBase64(view, start, end);
    if (!isText(bytes)) continue;
    let stop = end;
    if (end === to)
      while (stop < view.length && stop - end < 2 && stop - start < MAX_SEGMENT_CHARS && view.charCodeAt(stop) === 0x3d)
        stop++;
    found.add('base64', start, stop, foldText(utf8.decode(bytes)));
  }
}

// ---------------------------------------------------------------------------
// Morse.

/** Morse code: a mark string and the character it stands for. */
const MORSE_CODE: ReadonlyArray<readonly [string, string]> = [
  ['.-', 'A'],
  ['-...', 'B'],
  ['-.-.', 'C'],
  ['-..', 'D'],
  ['.', 'E'],
  ['..-.', 'F'],
  ['--.', 'G'],
  ['....', 'H'],
  ['..', 'I'],
  ['.---', 'J'],
  ['-.-', 'K'],
  ['.-..', 'L'],
  ['--', 'M'],
  ['-.', 'N'],
  ['---', 'O'],
  ['.--.', 'P'],
  ['--.-', 'Q'],
  ['.-.', 'R'],
  ['...', 'S'],
  ['-', 'T'],
  ['..-', 'U'],
  ['...-', 'V'],
  ['.--', 'W'],
  ['-..-', 'X'],
  ['-.--', 'Y'],
  ['--..', 'Z'],
  ['-----', '0'],
  ['.----', '1'],
  ['..---', '2'],
  ['...--', '3'],
  ['....-', '4'],
  ['.....', '5'],
  ['-....', '6'],
  ['--...', '7'],
  ['---..', '8'],
  ['----.', '9'],
  ['.-.-.-', '.'],
  ['--..--', ','],
  ['..--..', '?'],
  ['.----.', "'"],
  ['-.-.--', '!'],
  ['-..-.', '/'],
  ['-.--.', '('],
  ['-.--.-', ')'],
  ['.-...', '&'],
  ['---...', ':'],
  ['-.-.-.', ';'],
  ['-...-', '='],
  ['.-.-.', '+'],
  ['-....-', '-'],
  ['..--.-', '_'],
  ['.-..-.', '"'],
  ['...-..-', '$'],
  ['.--.-.', '@'],
];
/** The longest Morse code above. */
const MORSE_LONGEST = 7;
/** A group as a number: a 1 bit before its marks, then a bit per mark (1 for a dash), so `.-` is 0b101. */
const MORSE_BY_BITS: Array<string | undefined> = new Array<string | undefined>(2 << MORSE_LONGEST);
for (const [code, ch] of MORSE_CODE) {
  let bits = 1;
  for (const mark of code) bits = (bits << 1) | (mark === '-' ? 1 : 0);
  MORSE_BY_BITS[bits] = ch;
}

/**
 * view[from, to) is a run of Morse marks and separators. Letters are split
 * by spaces; words by `/`, `|` or a line break, or, where there is none, by
 * gaps wider than the narrowest (three spaces and seven, as Morse times them).
 * Kept when nine in ten groups are Morse letters, of two different letters
 * or more, three of them letters of the alphabet.
 */
function tryMorse(found: Found, from: number, to: number): void {
  const view = found.view;
  for (let start = from; start < to && !found.full;) {
    let end = to;
    if (end - start > MAX_SEGMENT_CHARS) {
      end = start + MAX_SEGMENT_CHARS;
      while (end > start && morseClass(view.charCodeAt(end - 1)) <= DASH && morseClass(view.charCodeAt(end)) <= DASH)
        end--;
      if (end === start) end = start + MAX_SEGMENT_CHARS;
    }
    readMorse(found, start, end);
    start = end;
    while (start < to && morseClass(view.charCodeAt(start)) > DASH) start++;
  }
}

function readMorse(found: Found, from: number, to: number): void {
  const view = found.view;
  // Each group as bits (MORSE_BY_BITS; 0 when too long) and the gap before it: its width in spaces, or -1 for a word break.
  const groups: number[] = [];
  const gaps: number[] = [];
  let explicitBreaks = false;
  let bits = 1;
  let marks = 0;
  let gap = 0;
  for (let i = from; i <= to; i++) {
    const m = i < to ? morseClass(view.charCodeAt(i)) : SPACE;
    if (m === DOT || m === DASH) {
      if (marks === 0) gaps.push(gap);
      bits = (bits << 1) | (m === DASH ? 1 : 0);
      marks++;
      gap = 0;
    } else {
      if (marks > 0) groups.push(marks <= MORSE_LONGEST ? bits : 0);
      bits = 1;
      marks = 0;
      if (m === WORD_BREAK) {
        gap = -1;
        explicitBreaks = true;
      } else if (gap >= 0) gap++;
    }
  }
  if (groups.length < MORSE_MIN) return;
  let narrowest = Infinity;
  for (let g = 1; g < gaps.length; g++) if (gaps[g]! >= 0) narrowest = Math.min(narrowest, gaps[g]!);
  let valid = 0;
  let letters = 0;
  let first = '';
  let distinct = false;
  for (const group of groups) {
    const ch = MORSE_BY_BITS[group];
    if (ch === undefined) continue;
    valid++;
    if (ch >= 'A' && ch <= 'Z') letters++;
    if (first === '') first = ch;
    else if (ch !== first) distinct = true;
  }
  if (valid < 0.9 * groups.length || !distinct || letters < 3) return;
  let text = '';
  for (let g = 0; g < groups.length; g++) {
    const gapBefore = gaps[g]!;
    if (g > 0 && (gapBefore < 0 || (!explicitBreaks && gapBefore > narrowest))) text += ' ';
    text += MORSE_BY_BITS[groups[g]!] ?? '?';
  }
  found.add('morse', from, to, text);
}
