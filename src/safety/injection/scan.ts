/**
 * The detector's single pass over the normalised view. One walk of the view
 * does three things at once:
 *
 * - it cuts the view into words (runs of ASCII letters and digits, runs of
 *   letters of other alphabets, and each CJK or Thai character alone), and
 *   records each word's hashed unigram and bigram, its place and its word
 *   classes (classes.ts); the presence features (rule kinds, classes, class
 *   pairs) are noted at the words they span, and bestWindow scores every
 *   window of WINDOW_SIZES words from them;
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
  cutWords,
  wordHash,
} from '../text/words.js';
import { foldText } from '../text/normalized-view.js';
import { CLASS_COUNT, CLASS_NAMES, PAIR_DISTANCE, WORD_CLASSES } from './classes.js';

// Local copies: V8 optimises a module's own constants better than imported bindings in the hot loop below.
const FNV = FNV_BASIS;
const PRIME = FNV_PRIME;
const SMALL = LOW_BITS;
const isCjk = cjk;
const isSeparator = separator;
import {
  ENCODED_WEIGHT,
  MENTIONED,
  QUESTION_WEIGHT,
  RULES,
  SQUASHED_PHRASES,
  RULE_SIGNAL_KINDS,
  type RuleSignalKind,
} from './rules.js';

/**
 * Windows of the model: a window of each size, a new one every size / 4
 * words. An attack is a few sentences inside a page of thousands of words:
 * the smallest windows find one sentence, the largest a paragraph. The text
 * scores its best window, with no penalty for its length, since the
 * threshold is set against ordinary pages' best windows (training).
 */
export const WINDOW_SIZES = [12, 24, 48] as const;

/** Hashed word features live in [0, HASHED). */
export const HASHED = 1 << 16;
/**
 * Presence features, each counted once in a window however often it occurs:
 * the rules' signal kinds, strong (a signal of at least STRONG weight, which
 * its rule says is suspect alone) then weak, so that a rule's weak reading
 * (a mention, a noun ordinary prose also uses) does not share the weight of
 * its strong one; then the word classes (classes.ts); then the ordered pairs
 * of classes whose words are at most PAIR_DISTANCE apart.
 */
export const RULE_KINDS = RULE_SIGNAL_KINDS.length;
export const STRONG = 0.7;
export const WEAK_BASE = RULE_KINDS;
export const CLASS_BASE = 2 * RULE_KINDS;
export const PAIR_BASE = CLASS_BASE + CLASS_COUNT;
export const KIND_FEATURES = PAIR_BASE + CLASS_COUNT * CLASS_COUNT;

export interface ViewSignal {
  kind: RuleSignalKind;
  from: number;
  to: number;
  weight: number;
}

/** The model's weights (model.ts), as the scoring reads them. */
export interface ModelInput {
  /** The hashed word features' weights (times scale); read at random, so kept small (bytes) in the shipped model. */
  words: Float32Array | Float64Array | Int8Array;
  scale: number;
  /** The presence features' weights, KIND_FEATURES of them (a few large values, kept exact). */
  kinds: Float64Array;
  /** One bias per window size. */
  bias: readonly number[];
}

/**
 * A text as the model reads it: its words' hashed features, where each word
 * is in the view, and the presence features found, each at the words it
 * spans. Made by readView; scored by bestWindow.
 */
export interface Reading {
  /** Words. */
  n: number;
  /** Per word: its unigram's and its bigram's feature index. */
  uni: Int32Array;
  bi: Int32Array;
  /** Per word: where it starts and ends in the view. */
  from: Int32Array;
  to: Int32Array;
  /** Presence features, in order of `at`: the feature, its first word and its last word. */
  events: number;
  feature: Int32Array;
  first: Int32Array;
  at: Int32Array;
  signals: ViewSignal[];
}

/** The best window: its logit, its size's index in WINDOW_SIZES, and its words [start, end). */
export interface WindowPick {
  logit: number;
  size: number;
  start: number;
  end: number;
}

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

/** Growable buffers of the pass's reading, reused from text to text: allocating per text costs more than short texts do. */
class Buffers {
  uni = new Int32Array(1024);
  bi = new Int32Array(1024);
  from = new Int32Array(1024);
  to = new Int32Array(1024);
  cls = new Int32Array(1024);
  n = 0;
  prev = SENTENCE;
  feature = new Int32Array(1024);
  first = new Int32Array(1024);
  at = new Int32Array(1024);
  events = 0;

  reset(): void {
    if (wordsRead > 0x3fffffff) {
      wordsRead = 0;
      LAST_AT.fill(-REPEAT_SPAN - 1);
    }
    textStart = wordsRead;
    this.n = 0;
    this.prev = SENTENCE;
    this.events = 0;
  }

  grow(): void {
    const size = this.uni.length * 2;
    for (const k of ['uni', 'bi', 'from', 'to', 'cls'] as const) {
      const next = new Int32Array(size);
      next.set(this[k]);
      this[k] = next;
    }
  }

  event(feature: number, first: number, at: number): void {
    if (this.events === this.feature.length) {
      const size = this.feature.length * 2;
      for (const k of ['feature', 'first', 'at'] as const) {
        const next = new Int32Array(size);
        next.set(this[k]);
        this[k] = next;
      }
    }
    this.feature[this.events] = feature;
    this.first[this.events] = first;
    this.at[this.events++] = at;
  }
}

/**
 * A word or bigram seen again within REPEAT_SPAN words counts as REPEAT, not
 * as itself: a page repeats its menus and templates ("$TEXT $TEXT ..."), and
 * a word's weight counted fifty times in one window would make any word an
 * attack.
 */
export const REPEAT_SPAN = 48;
const REPEAT = wordHash('#REPEAT') % HASHED;
/**
 * Where each feature was last seen, as a count of words over all texts read
 * (so one array serves every text without clearing: a feature last seen
 * before this text's first word is not a repeat).
 */
const LAST_AT = new Int32Array(HASHED).fill(-REPEAT_SPAN - 1);
let wordsRead = 0;
let textStart = 0;
function unrepeated(f: number): number {
  const last = LAST_AT[f]!;
  LAST_AT[f] = wordsRead;
  return last >= textStart && wordsRead - last <= REPEAT_SPAN ? REPEAT : f;
}

/** A word of hash `h` at [from, to) of the view, with its classes (bits). */
function addToken(b: Buffers, h: number, from: number, to: number, cls: number): void {
  if (b.n === b.uni.length) b.grow();
  const k = b.n++;
  const pair = bigram(b.prev, h);
  b.uni[k] = unrepeated(h % HASHED);
  b.bi[k] = unrepeated(pair % HASHED);
  wordsRead++;
  b.from[k] = from;
  b.to[k] = to;
  b.cls[k] =
    (BIGRAM_BITS[(pair & BITS_MASK) >> 5]! & (1 << (pair & 31))) === 0 ? cls : cls | (BIGRAM_CLASS.get(pair) ?? 0);
  b.prev = h;
}

/** Clears the classes of the words inside the quotations [from, to) of `quoted`. */
function unclass(b: Buffers, quoted: readonly number[]): void {
  for (let q = 0; q < quoted.length; q += 2) {
    for (let k = wordAt(b, quoted[q]!); k < b.n && b.from[k]! < quoted[q + 1]!; k++) b.cls[k] = 0;
  }
}

/** The class and pair events of the words, in word order, then the rules' signals merged in. */
function addEvents(b: Buffers, signals: readonly ViewSignal[]): void {
  const { n, cls } = b;
  // The class words seen in the last PAIR_DISTANCE words: a small ring.
  const recent: number[] = [];
  for (let j = 0; j < n; j++) {
    const c = cls[j]!;
    if (c === 0) continue;
    while (recent.length > 0 && j - recent[0]! > PAIR_DISTANCE) recent.shift();
    for (let x = c; x !== 0; x &= x - 1) {
      const bj = 31 - Math.clz32(x & -x);
      b.event(CLASS_BASE + bj, j, j);
      for (const i of recent) {
        for (let y = cls[i]!; y !== 0; y &= y - 1) {
          const bi = 31 - Math.clz32(y & -y);
          b.event(PAIR_BASE + bi * CLASS_COUNT + bj, i, j);
        }
      }
    }
    recent.push(j);
  }
  // Each signal at the words it covers; rules' signals are found out of word order, so they are sorted in.
  const extra: Array<[number, number, number]> = [];
  for (const s of signals) {
    if (UNSCORED.has(s.kind)) continue;
    const first = wordAt(b, s.from);
    const last = Math.max(first, wordAt(b, s.to - 1));
    const k = CLASS_KIND_INDEX.get(s.kind)!;
    extra.push([s.weight >= STRONG ? k : WEAK_BASE + k, first, last]);
  }
  extra.sort((x, y) => x[2] - y[2]);
  const m = b.events;
  const feature = b.feature.slice(0, m);
  const first = b.first.slice(0, m);
  const at = b.at.slice(0, m);
  b.events = 0;
  let i = 0;
  for (const [f, s, e] of extra) {
    while (i < m && at[i]! <= e) {
      b.event(feature[i]!, first[i]!, at[i]!);
      i++;
    }
    b.event(f, s, e);
  }
  for (; i < m; i++) b.event(feature[i]!, first[i]!, at[i]!);
}

/** The index of the word that holds view offset `x`, or the next word after it (the last word, past the end; 0 without words). */
function wordAt(b: Buffers, x: number): number {
  let lo = 0;
  let hi = b.n - 1;
  if (hi < 0) return 0;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (b.to[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Signals the model does not weigh: a question is what ordinary pages ask
 * too (dialogue, forums, FAQs); learnt from the trivia tasks of one
 * benchmark's attacks, it flagged every page of dialogue.
 */
const UNSCORED = new Set<RuleSignalKind>(['question']);

/** A mention's weight: a weak signal, for the model to weigh. */
const MENTION_WEIGHT = 0.6;
/** How far a quotation around a mention may reach each way. */
const QUOTE_REACH = 240;

const CLASS_KIND_INDEX = new Map<RuleSignalKind, number>(RULE_SIGNAL_KINDS.map((k, i) => [k, i]));

// ---------------------------------------------------------------- classes

/** Class bits by the hash of a whole folded word, and by the hash of a prefix (per prefix length). */
const WORD_CLASS = new Map<number, number>();
const PREFIX_CLASS = new Map<number, number>();
/** Class bits by the bigram hash of a two-word entry (and of two CJK characters). */
const BIGRAM_CLASS = new Map<number, number>();
/** The prefix lengths in use, longest first. */
let PREFIX_LENGTHS: number[] = [];
/** Bit sets over the low bits of word hashes: words that may have a class, prefixes that may. */
const CLASS_BITS = new Int32Array(1 << 11);
const PREFIX_BITS = new Int32Array(1 << 11);
const BIGRAM_BITS = new Int32Array(1 << 11);
{
  const lengths = new Set<number>();
  CLASS_NAMES.forEach((name, k) => {
    const bit = 1 << k;
    for (const entry of WORD_CLASSES[name] as readonly string[]) {
      const prefix = entry.endsWith('*');
      const words = cutWords(foldText(prefix ? entry.slice(0, -1) : entry));
      if (prefix && words.length === 1 && words[0]!.length >= 4) {
        const h = wordHash(words[0]!);
        const key = words[0]!.length * 0x100000 + h;
        PREFIX_CLASS.set(key, (PREFIX_CLASS.get(key) ?? 0) | bit);
        setBit(PREFIX_BITS, h);
        lengths.add(words[0]!.length);
      } else if (!prefix && words.length === 1) {
        const h = wordHash(words[0]!);
        WORD_CLASS.set(h, (WORD_CLASS.get(h) ?? 0) | bit);
        setBit(CLASS_BITS, h);
      } else if (!prefix && words.length === 2) {
        const h = bigram(wordHash(words[0]!), wordHash(words[1]!));
        BIGRAM_CLASS.set(h, (BIGRAM_CLASS.get(h) ?? 0) | bit);
        setBit(BIGRAM_BITS, h);
      }
    }
  });
  PREFIX_LENGTHS = [...lengths].sort((a, b) => b - a);
}
const MIN_PREFIX = PREFIX_LENGTHS.length === 0 ? Infinity : Math.min(...PREFIX_LENGTHS);
/** Prefix hashes of the word being read, by length (filled in the word loop up to the longest prefix length). */
const PREFIX_HASH = new Int32Array(32);
const MAX_PREFIX = PREFIX_LENGTHS.length === 0 ? 0 : PREFIX_LENGTHS[0]!;

/** The classes of a word of hash `h` and `length` units (its prefix hashes in PREFIX_HASH). */
function classesOf(h: number, length: number): number {
  let bits = 0;
  if ((CLASS_BITS[(h & BITS_MASK) >> 5]! & (1 << (h & 31))) !== 0) bits = WORD_CLASS.get(h) ?? 0;
  if (length >= MIN_PREFIX) {
    for (let i = 0; i < PREFIX_LENGTHS.length; i++) {
      const l = PREFIX_LENGTHS[i]!;
      if (l > length) continue;
      const ph = PREFIX_HASH[l]! & SMALL;
      if ((PREFIX_BITS[(ph & BITS_MASK) >> 5]! & (1 << (ph & 31))) === 0) continue;
      const p = PREFIX_CLASS.get(l * 0x100000 + ph);
      if (p !== undefined) bits |= p;
    }
  }
  return bits;
}

// ---------------------------------------------------------------- scoring

let PREFIX_SUM = new Float64Array(1024);
const STAMP = new Int32Array(KIND_FEATURES);
let stampId = 0;

/**
 * The best window of a reading under a model: the one scoring function of
 * the detector and of its training (scripts/train-injection-model.ts), so
 * what is trained is what runs. A window's logit is its size's bias, the sum
 * of its words' weights, and the weight of each presence feature whose words
 * are all inside it, once however often it occurs. Linear in the words and
 * the events: each size's windows advance over both.
 */
export function bestWindow(r: Reading, m: ModelInput): WindowPick {
  const n = r.n;
  if (n === 0 && r.events === 0) return { logit: -Infinity, size: 0, start: 0, end: 0 };
  if (PREFIX_SUM.length < n + 1) PREFIX_SUM = new Float64Array(2 * (n + 1));
  const P = PREFIX_SUM;
  const words = m.words;
  const scale = m.scale;
  P[0] = 0;
  for (let k = 0; k < n; k++) P[k + 1] = P[k]! + (words[r.uni[k]!]! + words[r.bi[k]!]!) * scale;
  const kinds = m.kinds;
  const { feature, first, at, events } = r;
  // Without words, one window holds the signals (a text of punctuation only).
  const last = Math.max(n, 1);
  const best: WindowPick = { logit: -Infinity, size: 0, start: 0, end: 0 };
  for (let s = 0; s < WINDOW_SIZES.length; s++) {
    const size = WINDOW_SIZES[s]!;
    // A text shorter than a size is read by the smallest only: each size has its own bias, and a short
    // text read whole with a larger size's bias would score unlike the same words inside a page.
    if (s > 0 && size > n) break;
    const stride = size >> 2;
    const bias = m.bias[s]!;
    let e0 = 0;
    for (let start = 0; ; start += stride) {
      const end = Math.min(start + size, last);
      let z = bias + P[Math.min(end, n)]! - P[start]!;
      while (e0 < events && at[e0]! < start) e0++;
      const id = ++stampId;
      for (let e = e0; e < events && at[e]! < end; e++) {
        const f = feature[e]!;
        if (first[e]! >= start && STAMP[f] !== id) {
          STAMP[f] = id;
          z += kinds[f]!;
        }
      }
      if (z > best.logit) {
        best.logit = z;
        best.size = s;
        best.start = start;
        best.end = end;
      }
      if (end >= last) break;
    }
  }
  if (stampId > 0x3fffffff) {
    STAMP.fill(0);
    stampId = 0;
  }
  return best;
}

/** The features of a window, for training: its words' (with repeats) and its presence features (each once). */
export function windowFeatures(r: Reading, pick: WindowPick): { words: number[]; kinds: number[] } {
  const words: number[] = [];
  for (let k = pick.start; k < Math.min(pick.end, r.n); k++) words.push(r.uni[k]!, r.bi[k]!);
  const kinds = new Set<number>();
  for (let e = 0; e < r.events; e++) if (r.first[e]! >= pick.start && r.at[e]! < pick.end) kinds.add(r.feature[e]!);
  return { words, kinds: [...kinds] };
}

/** A copy of a reading that outlives the next pass (the pass reuses its buffers). */
export function keepReading(r: Reading): Reading {
  const e = r.events;
  return {
    n: r.n,
    uni: r.uni.slice(0, r.n),
    bi: r.bi.slice(0, r.n),
    from: r.from.slice(0, r.n),
    to: r.to.slice(0, r.n),
    events: e,
    feature: r.feature.slice(0, e),
    first: r.first.slice(0, e),
    at: r.at.slice(0, e),
    signals: r.signals,
  };
}

export class Pass {
  found: ViewSignal[] = [];
  /** Quotations that hold a mention (see mentioned): pairs of view offsets, from and to. */
  quoted: number[] = [];
  readonly lastEnd = new Int32Array(RULES.length);
  prevWord = 0;
  prevStart = -1;
  squashedEnd = 0;
  view = '';
  readonly b = new Buffers();

  reset(view: string): void {
    this.found = [];
    this.quoted = [];
    this.lastEnd.fill(0);
    this.prevWord = 0;
    this.prevStart = -1;
    this.squashedEnd = 0;
    this.view = view;
    this.b.reset();
  }

  signal(kind: RuleSignalKind, from: number, to: number, weight: number): void {
    this.found.push({ kind, from, to, weight });
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
    const weight = rule.weight >= MENTION_WEIGHT && this.mentioned(rule, at + lead) ? MENTION_WEIGHT : rule.weight;
    this.signal(rule.kind, at + lead, at + m[0].length, weight);
  }

  /**
   * Whether a strong rule's match at `at` is a mention rather than a command:
   * inside a quotation that opens in its sentence and closes after it (a
   * paper quoting an attack), or, for the rules that say so, after what
   * makes it a description (MENTIONED: "instructs the model to ignore").
   */
  mentioned(rule: (typeof RULES)[number], at: number): boolean {
    const view = this.view;
    if (rule.mentioned !== undefined && MENTIONED.test(view.slice(Math.max(0, at - 24), at))) return true;
    if (rule.quotedKey !== undefined) return false;
    let quotes = 0;
    let open = -1;
    for (let i = at - 1, stop = Math.max(0, at - QUOTE_REACH); i >= stop; i--) {
      const c = view.charCodeAt(i);
      if (c === 0x2e || c === 0x0a || c === 0x21 || c === 0x3f) break;
      if (c === 0x22 || c === 0x201c || c === 0x201d || c === 0xab || c === 0xbb) {
        if (quotes++ === 0) open = i;
      }
    }
    if ((quotes & 1) === 0) return false;
    for (let i = at, stop = Math.min(view.length, at + QUOTE_REACH); i < stop; i++) {
      const c = view.charCodeAt(i);
      if (c === 0x0a) return false;
      if (c === 0x22 || c === 0x201c || c === 0x201d || c === 0xab || c === 0xbb) {
        // The quotation is a mention whole: the model does not read its words' classes either.
        this.quoted.push(open, i + 1);
        return true;
      }
    }
    return false;
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

/**
 * The pass over `view`: its words, its rules' signals and its presence
 * features. The reading's buffers are the pass's own, valid until the next
 * pass (keepReading copies them).
 */
export function readView(view: string): Reading {
  const n = view.length;
  // One pass object for every text; the pass is synchronous and calls nothing that could re-enter it.
  const pass = PASS;
  pass.reset(view);
  const w = pass.b;

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
      let length = 0;
      do {
        h = Math.imul(h ^ c, PRIME);
        if (++length <= MAX_PREFIX) PREFIX_HASH[length] = h;
        all &= cls;
        any |= cls;
        if (++i === n) break;
        c = view.charCodeAt(i);
        cls = c < 128 ? CLASS[c]! : isSeparator(c) || isCjk(c) ? 0 : WORD;
      } while ((cls & WORD) !== 0);
      const hw = h & SMALL;
      addToken(w, (all & DIGIT) !== 0 ? NUMBER : hw, from, i, classesOf(hw, length));
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
        addToken(w, hc, i, i + 1, classesOf(hc, 1));
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
      w.prev = SENTENCE;
      if (lineMayOpen(view, i + 1)) pass.attemptAll(atLine, i + 1);
    } else if (c === 0x2e || c === 0x3b) {
      w.prev = SENTENCE;
    } else if (c === 0x3f || c === 0x061f) {
      // `?`, and the Arabic question mark (the view folds fullwidth and other forms to `?`).
      addToken(w, QUESTION_MARK, i, i + 1, 0);
      w.prev = SENTENCE;
      question(pass, i);
    } else if (c === 0x21) {
      addToken(w, EXCLAMATION, i, i + 1, 0);
      w.prev = SENTENCE;
    } else if (c === 0x3a) {
      addToken(w, COLON, i, i + 1, 0);
    }
    i++;
  }
  endBase64(pass, b64From, n, b64Digit);
  if (letters >= SPACED_RUN) findSquashed(pass, Math.max(0, lettersFrom - JOINED_BEFORE), Math.min(n, lettersTo));
  if (pass.quoted.length > 0) unclass(w, pass.quoted);
  addEvents(w, pass.found);
  pass.view = '';
  return {
    n: w.n,
    uni: w.uni,
    bi: w.bi,
    from: w.from,
    to: w.to,
    events: w.events,
    feature: w.feature,
    first: w.first,
    at: w.at,
    signals: pass.found,
  };
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
