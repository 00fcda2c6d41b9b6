/**
 * The detector's single pass over the normalised view. One walk of the view
 * does three things at once:
 *
 * - it cuts the view into words (runs of ASCII letters and digits, runs of
 *   letters of other alphabets, and each CJK character alone) and feeds their
 *   hashed unigrams and bigrams to the linear model (model.ts), in windows of
 *   WINDOW_TOKENS words that overlap by half;
 * - at each word or character where some rule can begin (a rule's triggers,
 *   rules.ts), it tries that rule there and only there, as a sticky regex: a
 *   text is not searched once per rule, and most words trigger nothing;
 * - it finds runs of base64 and of binary bytes, and questions.
 *
 * Each rule attempt is bounded (the patterns have bounded gaps), and an
 * attempt inside a rule's last match is skipped, so the pass is linear.
 */
import {
  FNV as FNV_BASIS,
  PRIME as FNV_PRIME,
  SMALL as LOW_BITS,
  isCjk as cjk,
  isSeparator as separator,
  wordHash,
} from '../text/words.js';

// Local copies: V8 optimises a module's own constants better than imported bindings in the hot loop below.
const FNV = FNV_BASIS;
const PRIME = FNV_PRIME;
const SMALL = LOW_BITS;
const isCjk = cjk;
const isSeparator = separator;
import {
  ENCODED_WEIGHT,
  QUESTION_WEIGHT,
  RULES,
  SQUASHED_PHRASES,
  RULE_SIGNAL_KINDS,
  type RuleSignalKind,
} from './rules.js';

/** A window of the model: this many words, a new one every WINDOW_TOKENS / 2 words. */
export const WINDOW_TOKENS = 64;
/**
 * A text's logit is its best window's less LENGTH_PENALTY times the log of
 * its number of windows: a long text has many windows, and the best of many
 * benign windows scores higher than one; this keeps the false-positive rate
 * of a long page near that of a sentence (see docs/quoting.md, Limits).
 */
export const LENGTH_PENALTY = 4;
const STRIDE = WINDOW_TOKENS / 2;

/** Hashed features live in [0, HASHED); one feature per signal kind after them. */
export const HASHED = 1 << 16;
export const FEATURES = HASHED + RULE_SIGNAL_KINDS.length;

export interface ViewSignal {
  kind: RuleSignalKind;
  from: number;
  to: number;
  weight: number;
}

/** The model's weights, and an optional record of each window's features (for training). */
export interface ModelInput {
  /** The hashed word features' weights (times scale); read at random, so kept small (bytes). */
  weights: Float32Array | Int8Array;
  scale: number;
  /** The signal kinds' weights, in the order of RULE_SIGNAL_KINDS (a few large values, kept exact). */
  kinds: Float64Array;
  bias: number;
  /** Called with each window's feature indices (with repeats) when given. */
  record?: (features: number[]) => void;
}

export interface ScanResult {
  signals: ViewSignal[];
  /** The best window's logit less the length penalty, or -Infinity for a text without words. */
  logit: number;
  /** Where the best window's words are in the view: from its first word's start to its last word's end. */
  window: { from: number; to: number };
}

const KIND_INDEX = new Map<RuleSignalKind, number>(RULE_SIGNAL_KINDS.map((k, i) => [k, i]));

const NUMBER = wordHash('#NUMBER');
const SENTENCE = wordHash('#SENTENCE');
const QUESTION_MARK = wordHash('?');
const COLON = wordHash(':');
const EXCLAMATION = wordHash('!');

function bigram(a: number, b: number): number {
  return Math.imul(a ^ Math.imul(b, 0x9e3779b1 | 0), PRIME) & SMALL;
}

// ---------------------------------------------------------------- triggers

/** Rule indices by the hash of the word they may begin with. */
const byWord = new Map<number, number[]>();
/** The same, for rules whose words count only where a sentence may open. */
const byOpeningWord = new Map<number, number[]>();
/** Rule indices by the bigram hash of the two words they may begin with. */
const byPair = new Map<number, number[]>();
/** Bit sets over the low bits of word hashes: words that may trigger a rule alone, and first words of pairs. */
const BITS_MASK = (1 << 16) - 1;
const FIRST_BITS = new Int32Array(1 << 11);
const HEAD_BITS = new Int32Array(1 << 11);
function setBit(bits: Int32Array, h: number): void {
  bits[(h & BITS_MASK) >> 5]! |= 1 << (h & 31);
}
/** Rule indices by the hash of a word that is a whole match of theirs. */
const byWordWhole = new Map<number, number[]>();
/** Rule indices by the character they may begin with. */
const byChar = new Map<number, number[]>();
/** Rules tried at the start of each line. */
const atLine: number[] = [];
/** Characters that trigger only at the start of a run of such characters, so that a long run costs one attempt. */
const RUN_CHARS = new Set([0x2d, 0x3d, 0x2a, 0x23]);
/**
 * Classes of ASCII units, as bits: a unit of a word; a digit; 0 or 1; a base64
 * unit; a unit after which a sentence may open (see the imperative rule's
 * look-behind); a hexadecimal digit.
 */
const WORD = 1;
const DIGIT = 2;
const BIN = 4;
const B64 = 8;
const OPENER = 16;
const HEX = 32;
const CLASS = new Uint8Array(128);
for (let c = 0x41; c <= 0x5a; c++) CLASS[c] = WORD | B64 | (c <= 0x46 ? HEX : 0);
for (let c = 0x30; c <= 0x39; c++) CLASS[c] = WORD | B64 | DIGIT | HEX | (c <= 0x31 ? BIN : 0);
for (const c of '.!?:;"\'*>-)]\n') CLASS[c.charCodeAt(0)] = OPENER;

function add<K>(map: Map<K, number[]>, key: K, rule: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [rule]);
  else if (!list.includes(rule)) list.push(rule);
}
RULES.forEach((rule, r) => {
  const whole = new Set(rule.starts.single ?? []);
  for (const w of rule.starts.words ?? []) {
    const [a, b] = w.split(' ');
    if (b !== undefined) {
      add(byPair, bigram(wordHash(a!), wordHash(b)), r);
      setBit(HEAD_BITS, wordHash(a!));
    } else {
      add(whole.has(w) ? byWordWhole : rule.starts.sentence === true ? byOpeningWord : byWord, wordHash(w), r);
      setBit(FIRST_BITS, wordHash(w));
    }
  }
  for (const c of rule.starts.chars ?? []) add(byChar, c.charCodeAt(0), r);
  if (rule.starts.line === true) atLine.push(r);
});
/**
 * Whether any rule that a punctuation character triggers can match with `next`
 * after it: `<|`, `<<`, `</` or `<` and a letter; `[` and a letter or `/`;
 * `"` and a letter; `![`. Text with a `<` every few characters
 * would otherwise try three patterns at each.
 */
function mayFollow(c: number, next: number): boolean {
  const letter = next >= 0x41 && next <= 0x5a;
  switch (c) {
    case 0x3c:
      return letter || next === 0x7c || next === 0x3c || next === 0x2f;
    case 0x5b:
      return letter || next === 0x2f;
    case 0x22:
      return letter;
    case 0x21:
      return next === 0x5b;
    default:
      return true;
  }
}
/** The marks a role label may follow at the start of a line, and the units it may then begin with (`[` and the first letters of its names). */
const LINE_MARK = new Uint8Array(128);
for (const c of ' \t\r\n>*#"\'-') LINE_MARK[c.charCodeAt(0)] = 1;
const LINE_FIRST = new Uint8Array(128);
for (const c of '[SAUHDBCGMO') LINE_FIRST[c.charCodeAt(0)] = 1;
/** Whether a line rule can match at `at`: after at most four marks, a unit it may begin with. */
function lineMayOpen(view: string, at: number): boolean {
  const end = Math.min(view.length, at + 5);
  for (let k = at; k < end; k++) {
    const c = view.charCodeAt(k);
    if (c >= 128) return false;
    if (LINE_FIRST[c] === 1) return true;
    if (LINE_MARK[c] !== 1) return false;
  }
  return false;
}
const charTrigger = new Uint8Array(0x10000);
for (const c of byChar.keys()) charTrigger[c] = 1;

const ENCODED_MIN = 40;
/** One-letter words in a row that call for the squashed reading of the run and the words before it (`I g n o r e`). */
const SPACED_RUN = 6;
/** The longest span a rule can match (the patterns' gaps are bounded well below this). */
const MAX_SPAN = 512;
/** Units kept before a rule's start for its look-behind: more than the imperative's look-behind can reach, so the slice's start never reads as a line's start. */
const BACK = 16;

/**
 * The model's state in the pass: two overlapping windows, in typed arrays
 * and plain functions (no closures), which keeps the per-word work small.
 */
class Windows {
  /** logit of window 0 and 1, then the best closed window's. */
  readonly logit = new Float64Array(3);
  /** words in window 0 and 1, signal kinds seen in each (bit sets), words so far, previous word's hash. */
  readonly n = new Int32Array(7);
  /** In the view: the first word's start of window 0 and 1, the best closed window's from and to, the last word's end. */
  readonly at = new Int32Array(5);
  weights: Float32Array | Int8Array = new Int8Array(HASHED);
  scale = 0;
  kinds: Float64Array = new Float64Array(RULE_SIGNAL_KINDS.length);
  bias = 0;
  record: ((features: number[]) => void) | undefined;
  feats: number[][] | undefined;

  /** Ready for a new text: the pass reuses one Windows, as allocating per text costs more than short texts do. */
  reset(model: ModelInput): void {
    this.weights = model.weights;
    this.scale = model.scale;
    this.kinds = model.kinds;
    this.bias = model.bias;
    this.record = model.record;
    this.logit[0] = this.logit[1] = model.bias;
    this.logit[2] = -Infinity;
    this.n.fill(0);
    this.at.fill(0);
    this.n[PREV] = SENTENCE;
    this.feats = model.record === undefined ? undefined : [[], []];
  }
}
const TOKENS = 4;
const PREV = 5;
/** Windows closed with at least one word. */
const CLOSED = 6;

function addFeature(w: Windows, f: number): void {
  const x = w.weights[f]! * w.scale;
  w.logit[0]! += x;
  w.logit[1]! += x;
  if (w.feats !== undefined) {
    w.feats[0]!.push(f);
    w.feats[1]!.push(f);
  }
}

function closeWindow(w: Windows, slot: number): void {
  if (w.n[slot]! > 0) {
    w.n[CLOSED]!++;
    if (w.logit[slot]! > w.logit[2]!) {
      w.logit[2] = w.logit[slot]!;
      w.at[2] = w.at[slot]!;
      w.at[3] = w.at[4]!;
    }
    if (w.feats !== undefined) w.record!(w.feats[slot]!);
  }
  w.logit[slot] = w.bias;
  w.n[slot] = 0;
  w.n[2 + slot] = 0;
  if (w.feats !== undefined) w.feats[slot] = [];
}

function addToken(w: Windows, h: number, from: number, to: number): void {
  const t = w.n[TOKENS]!;
  if (t > 0 && t % STRIDE === 0) closeWindow(w, (t / STRIDE) & 1);
  if (w.n[0] === 0) w.at[0] = from;
  if (w.n[1] === 0) w.at[1] = from;
  w.at[4] = to;
  w.n[TOKENS] = t + 1;
  w.n[0]!++;
  w.n[1]!++;
  addFeature(w, h % HASHED);
  addFeature(w, bigram(w.n[PREV]!, h) % HASHED);
  w.n[PREV] = h;
}

function addKind(w: Windows, kind: number): void {
  const bit = 1 << kind;
  const f = HASHED + kind;
  const x = w.kinds[kind]!;
  for (let s = 0; s < 2; s++) {
    if ((w.n[2 + s]! & bit) === 0) {
      w.n[2 + s]! |= bit;
      w.logit[s]! += x;
      if (w.feats !== undefined) w.feats[s]!.push(f);
    }
  }
}

export class Pass {
  found: ViewSignal[] = [];
  readonly lastEnd = new Int32Array(RULES.length);
  prevWord = 0;
  prevStart = -1;
  squashedEnd = 0;
  view = '';
  readonly w = new Windows();

  reset(view: string, model: ModelInput): void {
    this.found = [];
    this.lastEnd.fill(0);
    this.prevWord = 0;
    this.prevStart = -1;
    this.squashedEnd = 0;
    this.view = view;
    this.w.reset(model);
  }

  signal(kind: RuleSignalKind, from: number, to: number, weight: number): void {
    this.found.push({ kind, from, to, weight });
    addKind(this.w, KIND_INDEX.get(kind)!);
  }

  attempt(r: number, at: number): void {
    if (at < this.lastEnd[r]!) return;
    const rule = RULES[r]!;
    const re = rule.pattern;
    // On a bounded slice: V8 runs a sticky regex on a long string far more slowly than on a short one.
    // BACK units before `at` stay in the slice for the patterns' look-behinds.
    const from = at > BACK ? at - BACK : 0;
    re.lastIndex = at - from;
    const m = re.exec(this.view.slice(from, at + MAX_SPAN));
    if (m === null || m[0].length === 0) return;
    if (rule.accept !== undefined && !rule.accept(m[0])) return;
    const lead = m[1] === undefined ? 0 : m[0].length - m[1].length;
    this.lastEnd[r] = at + m[0].length;
    this.signal(rule.kind, at + lead, at + m[0].length, rule.weight);
  }

  /** A word that is a whole match of rule r. */
  whole(r: number, from: number, to: number): void {
    if (from < this.lastEnd[r]!) return;
    const rule = RULES[r]!;
    this.lastEnd[r] = to;
    this.signal(rule.kind, from, to, rule.weight);
  }

  /** The word [from, to) with hash h: the rules it triggers, alone or as the second of a pair. */
  word(h: number, from: number, to: number, opening: boolean): void {
    // Most words trigger nothing: a bit set answers that before any map is read.
    if ((FIRST_BITS[(h & BITS_MASK) >> 5]! & (1 << (h & 31))) !== 0) {
      let rules = byWord.get(h);
      if (rules !== undefined) this.attemptAll(rules, from);
      if (opening) {
        rules = byOpeningWord.get(h);
        if (rules !== undefined) this.attemptAll(rules, from);
      }
      rules = byWordWhole.get(h);
      if (rules !== undefined) for (let k = 0; k < rules.length; k++) this.whole(rules[k]!, from, to);
    }
    if (this.prevStart >= 0 && (HEAD_BITS[(this.prevWord & BITS_MASK) >> 5]! & (1 << (this.prevWord & 31))) !== 0) {
      const rules = byPair.get(bigram(this.prevWord, h));
      if (rules !== undefined) this.attemptAll(rules, this.prevStart);
    }
    this.prevWord = h;
    this.prevStart = from;
  }

  attemptAll(rules: readonly number[], at: number): void {
    for (let k = 0; k < rules.length; k++) this.attempt(rules[k]!, at);
  }
}

const PASS = new Pass();

/** The pass over `view`, scored by `model`. */
export function scanView(view: string, model: ModelInput): ScanResult {
  const n = view.length;
  // One pass object for every text; the pass is synchronous and calls nothing that could re-enter it.
  const pass = PASS;
  pass.reset(view, model);
  const w = pass.w;

  // One-letter words in a row.
  let letters = 0;
  let lettersFrom = 0;
  let lettersTo = 0;
  /** Whether a sentence may open at the next word. */
  let opening = true;
  // Base64 run state: letters, digits, + and /; a run of ENCODED_MIN or more with a digit.
  let b64From = 0;
  let b64Digit = false;

  pass.attemptAll(atLine, 0);
  let i = 0;
  while (i < n) {
    let c = view.charCodeAt(i);
    let cls = c < 128 ? CLASS[c]! : isSeparator(c) || isCjk(c) ? 0 : WORD;
    if ((cls & WORD) !== 0) {
      // A whole word in a tight loop.
      const from = i;
      let h = FNV;
      let all = DIGIT | BIN | B64 | HEX;
      let any = 0;
      do {
        h = Math.imul(h ^ c, PRIME);
        all &= cls;
        any |= cls;
        if (++i === n) break;
        c = view.charCodeAt(i);
        cls = c < 128 ? CLASS[c]! : isSeparator(c) || isCjk(c) ? 0 : WORD;
      } while ((cls & WORD) !== 0);
      const length = i - from;
      const hw = h & SMALL;
      addToken(w, (all & DIGIT) !== 0 ? NUMBER : hw, from, i);
      if ((all & B64) === 0) {
        // A letter of another alphabet ends a base64 run.
        endBase64(pass, b64From, from, b64Digit);
        b64From = i;
        b64Digit = false;
      } else if ((any & DIGIT) !== 0) b64Digit = true;
      if (length >= JOINED_MIN && JOINED_HEAD.test(view.slice(from, i)))
        findSquashed(pass, Math.max(0, from - JOINED_BEFORE), Math.min(n, i + JOINED_AFTER));
      if (length === 1) {
        if (letters++ === 0) lettersFrom = from;
        lettersTo = i;
      } else {
        if (letters >= SPACED_RUN) findSquashed(pass, Math.max(0, lettersFrom - JOINED_BEFORE), Math.min(n, i));
        letters = 0;
      }
      pass.word(hw, from, i, opening);
      opening = false;
      if ((all & BIN) !== 0 && length === 8) pass.attempt(BINARY_RULE, from);
      else if ((all & HEX) !== 0 && length === 2 && hexByteFollows(view, i)) pass.attempt(HEX_RULE, from);
      continue;
    }
    // Not a word unit.
    if (c !== 0x2b && c !== 0x2f) {
      endBase64(pass, b64From, i, b64Digit);
      b64From = i + 1;
      b64Digit = false;
    }
    if (c === 0x20) {
      i++;
      continue;
    }
    if (c >= 128) {
      if (isCjk(c)) {
        const hc = Math.imul(FNV ^ c, PRIME) & SMALL;
        addToken(w, hc, i, i + 1);
        pass.word(hc, i, i + 1, opening);
        opening = false;
      }
      i++;
      continue;
    }
    if ((cls & OPENER) !== 0) opening = true;
    if (charTrigger[c] === 1) {
      // A run of `-`, `=`, `*` or `#` is tried once, at its start, and only when it is three long.
      if (!RUN_CHARS.has(c)) {
        if (mayFollow(c, i + 1 < n ? view.charCodeAt(i + 1) : 0)) pass.attemptAll(byChar.get(c)!, i);
      } else if (
        (i === 0 || !RUN_CHARS.has(view.charCodeAt(i - 1))) &&
        RUN_CHARS.has(view.charCodeAt(i + 1)) &&
        RUN_CHARS.has(view.charCodeAt(i + 2))
      )
        pass.attemptAll(byChar.get(c)!, i);
    }
    if (c === 0x0a) {
      w.n[PREV] = SENTENCE;
      if (lineMayOpen(view, i + 1)) pass.attemptAll(atLine, i + 1);
    } else if (c === 0x2e || c === 0x3b) {
      w.n[PREV] = SENTENCE;
    } else if (c === 0x3f || c === 0x061f) {
      // `?`, and the Arabic question mark (the view folds fullwidth and other forms to `?`).
      addToken(w, QUESTION_MARK, i, i + 1);
      w.n[PREV] = SENTENCE;
      question(pass, i);
    } else if (c === 0x21) {
      addToken(w, EXCLAMATION, i, i + 1);
      w.n[PREV] = SENTENCE;
    } else if (c === 0x3a) {
      addToken(w, COLON, i, i + 1);
    }
    i++;
  }
  endBase64(pass, b64From, n, b64Digit);
  if (letters >= SPACED_RUN) findSquashed(pass, Math.max(0, lettersFrom - JOINED_BEFORE), Math.min(n, lettersTo));
  closeWindow(w, 0);
  closeWindow(w, 1);
  const windows = w.n[CLOSED]!;
  const logit = windows === 0 ? -Infinity : w.logit[2]! - LENGTH_PENALTY * Math.log(windows);
  const result = { signals: pass.found, logit, window: { from: w.at[2]!, to: w.at[3]! } };
  pass.view = '';
  return result;
}

function endBase64(pass: Pass, from: number, to: number, digit: boolean): void {
  if (digit && to - from >= ENCODED_MIN) pass.signal('encoded_payload', from, to, ENCODED_WEIGHT);
}

/** A word at least this long may be words run together (by a removed space or separator): `IGNOREPREVIOUS`. */
const JOINED_MIN = 11;
/** Around such a word, this much of the view is read with everything but letters removed. */
const JOINED_BEFORE = 32;
const JOINED_AFTER = 48;
/** The first word of each squashed phrase: a long word without one cannot be part of a phrase's joined form. */
const JOINED_HEAD = new RegExp([...new Set(SQUASHED_PHRASES.map((p) => p.head))].join('|'));

/**
 * Phrases read on `view` [from, to) with everything but letters removed, so
 * that `I g n o r e  p r e v i o u s` or `IGNOREPREVIOUS INSTRUCTIONS` is read
 * too (SQUASHED_PHRASES, rules.ts).
 */
export function findSquashed(pass: Pass, from: number, to: number): void {
  const view = pass.view;
  const at: number[] = [];
  let letters = '';
  for (let i = from; i < to; i++) {
    const c = view.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) {
      at.push(i);
      letters += view[i];
    }
  }
  if (at.length === 0) return;
  for (const { key, weight } of SQUASHED_PHRASES) {
    let i = letters.indexOf(key);
    while (i !== -1) {
      const start = at[i]!;
      if (start >= pass.squashedEnd) {
        pass.squashedEnd = at[i + key.length - 1]! + 1;
        pass.signal('spaced_phrase', start, pass.squashedEnd, weight);
      }
      i = letters.indexOf(key, i + key.length);
    }
  }
}

/** Whether another two-digit hexadecimal word follows at `i` (" 6D "): "be" and "ad" in prose are not tried as bytes. */
function hexByteFollows(view: string, i: number): boolean {
  const c = view.charCodeAt(i);
  if (c !== 0x20 && c !== 0x09) return false;
  const a = view.charCodeAt(i + 1);
  const b = view.charCodeAt(i + 2);
  return a < 128 && b < 128 && (CLASS[a]! & HEX) !== 0 && (CLASS[b]! & HEX) !== 0;
}

/** The encoded-bytes rules: tried at each word of eight binary digits, and of two hexadecimal digits. */
const BINARY_RULE = RULES.findIndex((r) => r.starts.encoded === 'binary');
const HEX_RULE = RULES.findIndex((r) => r.starts.encoded === 'hex');

/**
 * A question: what a user asks an assistant, rare in the body of a paper.
 * From the `?` back to the start of its sentence, at most QUESTION_SPAN units.
 */
const QUESTION_SPAN = 240;
function question(pass: Pass, q: number): void {
  const view = pass.view;
  let from = q;
  const stop = Math.max(0, q - QUESTION_SPAN);
  while (from > stop) {
    const c = view.charCodeAt(from - 1);
    if (c === 0x2e || c === 0x21 || c === 0x3f || c === 0x0a || c === 0xbf || c === 0x061f) break;
    from--;
  }
  // A lone `?` in a URL or a table cell is no question: the sentence needs a few words.
  if (q - from >= 6 && view.charCodeAt(q - 1) !== 0x3f) pass.signal('question', from, q + 1, QUESTION_WEIGHT);
}
