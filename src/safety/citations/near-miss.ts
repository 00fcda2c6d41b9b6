/**
 * For an excerpt that is not on its page: the closest passage of the page,
 * and how the two differ word by word. A diagnosis for the person checking a
 * reviewer's evidence, never a verdict: the citation stays unverified
 * whatever is found here (match.ts decides, exactly). What it tells apart is
 * an excerpt the page nearly has, one number or word changed ("54%" where the
 * page says "45%", a "not" put in), `altered`, from one the page has nothing
 * like (the text of another page, or made up), `absent`; and it names each
 * change with the excerpt's word and the page's.
 *
 * The work is near-linear in the page, never page × excerpt: one pass over
 * the page text finds where the excerpt's pairs of adjacent words occur
 * (each word hashed as the pass reads it, each pair looked up in a small
 * table); each place votes for where the excerpt would begin, a rare pair
 * counting for more than a common one; and only a window of twice the
 * excerpt's length around the places most pairs agree on is aligned with the
 * excerpt, word by word, in a band around its diagonal. The texts are those
 * the matcher reads (page-sources.ts), in its normal form (normalize.ts), so
 * a passage is what the matcher compared the excerpt with.
 *
 * A word is a run between spaces without the punctuation of a sentence at
 * its ends, which is a token of its own ("(currently" is "(" and
 * "currently"): a word put in after a bracket is then a word inserted, and
 * "sites." and "sites" are the same word, the full stop apart. In scripts
 * written without spaces each character is a word.
 */
import { excerptParts, matchInPage, type MatchOptions } from './match.js';
import type { MatchText } from './marked-text.js';
import type { ChangeKind, DiffSegment } from './near-miss-kinds.js';
import type { PageSources, TextSource } from './page-sources.js';

/** The closest passage of one text to a normalised excerpt part. */
export interface Passage {
  /** Offsets of the passage in the text, in UTF-16 code units. */
  start: number;
  end: number;
  /** The passage: at most twice the part's length. */
  text: string;
  /** 2 × shared words / (the part's words + the passage's words), 0 to 1. */
  similarity: number;
  /** Words aligned unchanged. */
  shared: number;
  diff: DiffSegment[];
}

export interface NearMiss {
  /** Which text of the page holds the passage. */
  source: TextSource;
  /** Offsets of the passage in that text as normalised for matching, UTF-16 code units. */
  start: number;
  end: number;
  passage: string;
  /** Rounded to three decimals. */
  similarity: number;
  diff: DiffSegment[];
  /** For an excerpt with elisions: which of its parts (from 0) is diagnosed, the first not on the page. */
  part?: number;
}

export type NearMissResult = { detail: 'absent' } | { detail: 'altered'; nearMiss: NearMiss };

/**
 * A passage is close, and the excerpt `altered`, from this similarity on,
 * with at least {@link MIN_SHARED_WORDS} words shared. One word changed in
 * an excerpt of five words is 0.8; the closest passage of another page to an
 * excerpt shares its common words ("of the", "in a") and lies well under
 * (docs/citations.md#near-miss-diagnosis gives both distributions on real pages).
 */
export const ALTERED_MIN_SIMILARITY = 0.6;
/** A passage sharing fewer words is never close: two words alone say little. */
export const MIN_SHARED_WORDS = 3;

/**
 * Words of an excerpt diagnosed, from its start: far more than a quote
 * holds (MAX_EXCERPT_CHARS is 5,000 characters), yet a bound on the
 * alignment for a text that normalisation lengthens (NFKC writes some single
 * characters as several words).
 */
export const MAX_DIAGNOSED_WORDS = 2000;

/** The part cut after its first MAX_DIAGNOSED_WORDS words. */
function bounded(part: string): string {
  const t = tokensOf(part, 0, part.length);
  let words = 0;
  for (let k = 0; k < t.starts.length; k++) {
    if (t.word[k] === 1 && ++words === MAX_DIAGNOSED_WORDS) return part.slice(0, t.ends[k]);
  }
  return part;
}

/** Places voted for that may be aligned, best first (those at least half as good as the best are). */
const CANDIDATES = 4;
/** Hits kept per pair (a pair's count goes on): the memory of a page of one repeated sentence stays bounded. */
const KEPT_HITS = 256;
/** Places of a pair in the excerpt kept (an excerpt repeating a pair). */
const KEPT_OFFSETS = 8;

const SPACE = 0x20;
/** Below this code unit no character is of a script without spaces. */
const FIRST_SOLO = 0x0e00;

/**
 * Scripts written without spaces between words, as in match.ts: there each
 * character is a word of its own, the only unit a diff can name.
 */
const SOLO_SCRIPT =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\p{sc=Tibetan}]/u;

/**
 * What each UTF-16 code unit is, as bits: punctuation of a sentence that
 * opens a word or closes it (in the normal form, where quotes are plain; not
 * `%`, `°`, `+`, `-` or `/`, which are part of what a number or a word says),
 * a character of a script without spaces (a surrogate is part of a word), a
 * space; and whether it is known yet (code units from U+0E00 on are
 * classified when first met). One table read a character in the page's pass.
 */
const OPENING = 1;
const CLOSING = 2;
const SOLO = 4;
const SPACE_BIT = 8;
const KNOWN = 16;
const CLASS = new Uint8Array(0x10000);
for (let c = 0; c < FIRST_SOLO; c++) CLASS[c] = KNOWN;
for (const c of '("\'[{¿¡') CLASS[c.charCodeAt(0)]! |= OPENING;
for (const c of '.,;:!?)"\']}') CLASS[c.charCodeAt(0)]! |= CLOSING;
CLASS[SPACE] = KNOWN | SPACE_BIT;

function classOf(c: number): number {
  let k = CLASS[c]!;
  if (k === 0) {
    k = KNOWN;
    if (c < 0xd800 || c > 0xdfff) {
      if (SOLO_SCRIPT.test(String.fromCharCode(c))) k |= SOLO;
      // The ideographic comma and full stop close words too.
      if (c === 0x3001 || c === 0x3002) k |= CLOSING;
    }
    CLASS[c] = k;
  }
  return k;
}

const isSolo = (c: number): boolean => (classOf(c) & SOLO) !== 0;
/** Any punctuation of a sentence: what a word's start is stripped of (`,"` before a word, as text without spaces has it). */
const isEdge = (c: number): boolean => (classOf(c) & (OPENING | CLOSING)) !== 0;
const isClosing = (c: number): boolean => (classOf(c) & CLOSING) !== 0;

// ---------------------------------------------------------------- tokens

/** The tokens of a text: words and runs of punctuation at their ends, in order. */
interface Tokens {
  starts: number[];
  ends: number[];
  /** 1 for a word, 0 for punctuation. */
  word: number[];
}

/** The tokens of `text[from, to)`, `from` and `to` at token boundaries. */
function tokensOf(text: string, from: number, to: number): Tokens {
  const t: Tokens = { starts: [], ends: [], word: [] };
  const add = (a: number, b: number, word: number): void => {
    t.starts.push(a);
    t.ends.push(b);
    t.word.push(word);
  };
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c === SPACE) {
      i++;
    } else if (isSolo(c)) {
      add(i, i + 1, 1);
      i++;
    } else {
      // The run up to the next space or character of a script without spaces.
      let b = i + 1;
      while (b < to && text.charCodeAt(b) !== SPACE && !isSolo(text.charCodeAt(b))) b++;
      let core = i;
      while (core < b && isEdge(text.charCodeAt(core))) core++;
      let end = b;
      while (end > core && isClosing(text.charCodeAt(end - 1))) end--;
      if (core === end) {
        add(i, b, 0);
      } else {
        if (core > i) add(i, core, 0);
        add(core, end, 1);
        if (end < b) add(end, b, 0);
      }
      i = b;
    }
  }
  return t;
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

function hashRange(text: string, from: number, to: number): number {
  let h = FNV_OFFSET;
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/** Keys never 0, the table's empty slot. */
const nonZero = (k: number): number => (k === 0 ? 1 : k);
/** The key of two adjacent words (from the first's hash and the second's). */
const pairKey = (a: number, b: number): number => (Math.imul(a, 0x9e3779b1) ^ b) | 0;
/** The key of three (from the first two's pair key and the third's hash). */
const tripleKey = (ab: number, c: number): number => (Math.imul(ab, 0x85ebca6b) ^ c) | 0;

/**
 * Which runs of the excerpt's words are anchors: its one word; its pairs of
 * adjacent words; or its pairs and its triples, which are rare even where
 * every pair is common (a page that draws on few words, or repeats itself).
 */
type AnchorSizes = 1 | 2 | 3;

// ---------------------------------------------------------------- anchors and votes

/** The excerpt's anchors ({@link AnchorSizes}), by key. */
class Anchors {
  readonly keys: Int32Array;
  readonly ids: Int32Array;
  readonly mask: number;
  /** Each anchor's offsets in the excerpt part (of its first word). */
  readonly offsets: number[][] = [];

  constructor(count: number) {
    let size = 8;
    while (size < count * 2) size *= 2;
    this.keys = new Int32Array(size);
    this.ids = new Int32Array(size);
    this.mask = size - 1;
  }

  add(key: number, offset: number): void {
    let slot = key & this.mask;
    while (this.keys[slot] !== 0 && this.keys[slot] !== key) slot = (slot + 1) & this.mask;
    if (this.keys[slot] === 0) {
      this.keys[slot] = key;
      this.ids[slot] = this.offsets.length;
      this.offsets.push([]);
    }
    const list = this.offsets[this.ids[slot]!]!;
    if (list.length < KEPT_OFFSETS) list.push(offset);
  }
}

/** Where in the page each anchor occurs: the first KEPT_HITS places, and how many there are. */
interface Hits {
  pos: number[];
  anchor: number[];
  counts: Int32Array;
}

/** Counts a hit of `key` at `at`, keeping its place while the anchor has fewer than KEPT_HITS. */
function hit(anchors: Anchors, hits: Hits, key: number, at: number): void {
  const { keys, ids, mask } = anchors;
  let slot = key & mask;
  let k: number;
  while ((k = keys[slot]!) !== 0 && k !== key) slot = (slot + 1) & mask;
  if (k !== key) return;
  const id = ids[slot]!;
  if (hits.counts[id]!++ < KEPT_HITS) {
    hits.pos.push(at);
    hits.anchor.push(id);
  }
}

/**
 * One pass over the page: each word hashed as it is read (its punctuation
 * at either end left out, as {@link tokensOf} leaves it), each run of
 * adjacent words the anchors are made of looked up among them.
 */
function scan(text: string, anchors: Anchors, sizes: AnchorSizes): Hits {
  const hits: Hits = { pos: [], anchor: [], counts: new Int32Array(anchors.offsets.length) };
  // The two words before: their hashes and where they begin.
  let previous = 0;
  let previousAt = -1;
  let beforeKey = 0;
  let beforeAt = -1;
  // The run of the page between spaces being read: where its word began, its hash so far, and its hash
  // up to its last character that is no closing punctuation.
  let inRun = false;
  let coreAt = -1;
  let h = FNV_OFFSET;
  let hCore = 0;
  let hasCore = false;
  // One loop, the word's end handled inline: a closure over the loop's state is several times slower.
  for (let i = 0, n = text.length; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : SPACE;
    let kind = CLASS[c]!;
    if (kind === 0) kind = classOf(c);
    if ((kind & (SPACE_BIT | SOLO)) === 0) {
      if (!inRun) {
        inRun = true;
        coreAt = -1;
        hasCore = false;
      }
      if (coreAt < 0) {
        if ((kind & (OPENING | CLOSING)) !== 0) continue;
        coreAt = i;
        h = FNV_OFFSET;
      }
      h = Math.imul(h ^ c, FNV_PRIME);
      if ((kind & CLOSING) === 0) {
        hCore = h;
        hasCore = true;
      }
      continue;
    }
    const solo = (kind & SOLO) !== 0;
    // A run ends at i (a space, a character of a script without spaces, or the end); a solo character is a word.
    const words = (inRun && hasCore ? 1 : 0) + (solo ? 1 : 0);
    for (let w = 0; w < words; w++) {
      const own = inRun && hasCore && w === 0;
      const hash = own ? hCore : Math.imul(FNV_OFFSET ^ c, FNV_PRIME);
      const at = own ? coreAt : i;
      if (sizes === 1) {
        hit(anchors, hits, nonZero(hash), at);
      } else if (previousAt >= 0) {
        const pair = pairKey(previous, hash);
        hit(anchors, hits, nonZero(pair), previousAt);
        if (sizes === 3 && beforeAt >= 0) hit(anchors, hits, nonZero(tripleKey(beforeKey, hash)), beforeAt);
        beforeKey = pair;
        beforeAt = previousAt;
      }
      previous = hash;
      previousAt = at;
    }
    inRun = false;
  }
  return hits;
}

/** Where the excerpt would begin in the page, as a range of the votes that agree. */
interface Candidate {
  lo: number;
  hi: number;
  /** The agreement found there. */
  score: number;
}

/**
 * The places most anchors agree on: each hit of an anchor votes for where the
 * excerpt would begin (its place less the anchor's offset in the excerpt),
 * weighted by how rare the anchor is (1 / its hits: "of the" counts for
 * little, a pair with a name or a number for much); a
 * window as wide as a quarter of the excerpt, counting each anchor once,
 * finds the best agreement, then the next best apart from it.
 */
function candidates(hits: Hits, anchors: Anchors, length: number): Candidate[] {
  const { counts } = hits;
  // Each vote packed as (place + bias) × span + anchor, so that one numeric sort orders them by place.
  const bias = length + 1;
  let span = 1;
  while (span < counts.length) span *= 2;
  const packed: number[] = [];
  for (let k = 0; k < hits.pos.length; k++) {
    const id = hits.anchor[k]!;
    for (const offset of anchors.offsets[id]!) packed.push((hits.pos[k]! - offset + bias) * span + id);
  }
  const votes = Float64Array.from(packed).sort();
  const place = (v: number): number => Math.floor(v / span) - bias;
  const idOf = (v: number): number => v % span;
  const weight = (id: number): number => 1 / counts[id]!;
  const width = Math.max(16, length / 4);
  const inWindow = new Int32Array(counts.length);
  const out: Candidate[] = [];
  for (let round = 0; round < CANDIDATES; round++) {
    const free = (v: number): boolean => {
      const p = place(v);
      return !out.some((t) => p >= t.lo - length && p <= t.hi + length);
    };
    inWindow.fill(0);
    let score = 0;
    let best = 0;
    let found: Candidate | undefined;
    let l = 0;
    for (let r = 0; r < votes.length; r++) {
      const vr = votes[r]!;
      if (!free(vr)) continue;
      if (inWindow[idOf(vr)]!++ === 0) score += weight(idOf(vr));
      while (place(vr) - place(votes[l]!) > width) {
        const vl = votes[l++]!;
        if (free(vl) && --inWindow[idOf(vl)]! === 0) score -= weight(idOf(vl));
      }
      if (score > best * (1 + 1e-9)) {
        best = score;
        let first = l;
        while (!free(votes[first]!)) first++;
        found = { lo: place(votes[first]!), hi: place(vr), score };
      }
    }
    if (found === undefined) break;
    out.push(found);
  }
  return out;
}

// ---------------------------------------------------------------- alignment

/** The tokens of one side of an alignment: ids (equal text, equal id), and which are words. */
interface Side {
  ids: Int32Array;
  word: Uint8Array;
  /** Each token's text. */
  text: string[];
}

function sideOf(src: string, t: Tokens, table: Map<string, number>): Side {
  const n = t.starts.length;
  const side: Side = { ids: new Int32Array(n), word: Uint8Array.from(t.word), text: new Array<string>(n) };
  for (let k = 0; k < n; k++) {
    const token = src.slice(t.starts[k], t.ends[k]);
    let id = table.get(token);
    if (id === undefined) table.set(token, (id = table.size));
    side.ids[k] = id;
    side.text[k] = token;
  }
  return side;
}

/**
 * Costs of the alignment: words aligned unchanged cost nothing; a word for
 * a word that differs in one character of the same length ("22223" for
 * "22222") less than one for another word, so that of two passages that
 * differ from the excerpt in one word, the nearer is chosen; a word put in
 * or left out more; and a word never stands for punctuation (put in and left
 * out instead).
 */
const NEAR_COST = 2;
const CHANGE_COST = 3;
const GAP_COST = 4;
const INF = 1 << 29;

function hammingAtMostOne(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let k = 0; k < a.length && d <= 1; k++) if (a.charCodeAt(k) !== b.charCodeAt(k)) d++;
  return d <= 1;
}

/**
 * Whether the excerpt's last word may stop inside the page's word, as the
 * matcher lets a quote end: not inside a number ("2" of "2.5", "10" of "100").
 */
function stopsInside(mine: string, theirs: string): boolean {
  if (!theirs.startsWith(mine)) return false;
  if (!/\d$/.test(mine)) return true;
  return !/^[.,]?\d/.test(theirs.slice(mine.length));
}

type Op = 0 | 1 | 2 | 3;
const SAME: Op = 0;
const SUB: Op = 1;
/** An excerpt token the page does not have. */
const INS: Op = 2;
/** A page token the excerpt does not have. */
const DEL: Op = 3;

interface Alignment {
  /** Ops in order, with the excerpt token (is) and page token (js) each touches (-1 when none). */
  ops: Op[];
  is: number[];
  js: number[];
  cost: number;
}

/**
 * The excerpt's tokens aligned with a run of the window's tokens (free to
 * begin and end anywhere in the window) at the least cost. A band around
 * where each excerpt token is expected (from its offset in the excerpt)
 * bounds the work to the excerpt's tokens times the band, wide enough for
 * a quarter of the excerpt put in or left out. The excerpt's last word may stop
 * inside the page's word, as the matcher allows ("hi" of "higher"). Ties go
 * to a change over a word put in, so that "54%" for "45%" reads as a number
 * changed.
 */
function align(e: Side, p: Side, expected: Int32Array): Alignment | undefined {
  const m = e.ids.length;
  const w = p.ids.length;
  const last = m - 1;
  const lastWord = e.word[last] === 1 ? e.text[last]! : undefined;
  const prefixOfLast =
    lastWord === undefined ? undefined : Uint8Array.from(p.text, (t) => (stopsInside(lastWord, t) ? 1 : 0));
  // The cost of token i for token j; the loop below inlines the same steps.
  const cost = (i: number, j: number): number => {
    if (e.ids[i] === p.ids[j]) return 0;
    if (e.word[i] !== p.word[j]) return INF;
    if (i === last && prefixOfLast !== undefined && prefixOfLast[j] === 1) return 0;
    return e.word[i] === 1 && hammingAtMostOne(e.text[i]!, p.text[j]!) ? NEAR_COST : CHANGE_COST;
  };
  const band = Math.min(w, Math.max(32, Math.ceil(m / 4)), 256);
  const lo = new Int32Array(m + 1);
  const hi = new Int32Array(m + 1);
  const row = new Int32Array(m + 2);
  hi[0] = w;
  row[1] = w + 1;
  for (let i = 1; i <= m; i++) {
    // Rows that never move left and overlap the row above, so that every cell can be reached from above:
    // a long word of the excerpt against many short ones of the page would otherwise leave a gap.
    const x = expected[i - 1]!;
    lo[i] = Math.min(Math.max(i > 1 ? lo[i - 1]! : 0, Math.min(w, x - band)), hi[i - 1]!);
    hi[i] = Math.max(i > 1 ? hi[i - 1]! : 0, lo[i]!, Math.min(w, x + band));
    row[i + 1] = row[i]! + (hi[i]! - lo[i]! + 1);
  }
  // Row 0 is all zeros: the passage may begin anywhere in the window.
  const d = new Int32Array(row[m + 1]!);
  const at = (i: number, j: number): number => (j < lo[i]! || j > hi[i]! ? INF : d[row[i]! + j - lo[i]!]!);
  // The rows filled inline, on typed arrays: the loop runs the excerpt's tokens times the band.
  const { ids: eIds, word: eWord } = e;
  const { ids: pIds, word: pWord } = p;
  const pLength = Int32Array.from(p.text, (t) => t.length);
  for (let i = 1; i <= m; i++) {
    const base = row[i]! - lo[i]!;
    const above = row[i - 1]! - lo[i - 1]!;
    const aboveLo = lo[i - 1]!;
    const aboveHi = hi[i - 1]!;
    const ei = eIds[i - 1]!;
    const eIsWord = eWord[i - 1]!;
    const eLength = e.text[i - 1]!.length;
    const prefix = i === m ? prefixOfLast : undefined;
    for (let j = lo[i]!, end = hi[i]!; j <= end; j++) {
      let v = j >= aboveLo && j <= aboveHi ? d[above + j]! + GAP_COST : INF;
      if (j > 0) {
        const k = j - 1;
        if (k >= aboveLo && k <= aboveHi) {
          let c: number;
          if (ei === pIds[k]) c = 0;
          else if (eIsWord !== pWord[k]) c = INF;
          else if (prefix !== undefined && prefix[k] === 1) c = 0;
          else if (eIsWord === 1 && eLength === pLength[k] && hammingAtMostOne(e.text[i - 1]!, p.text[k]!))
            c = NEAR_COST;
          else c = CHANGE_COST;
          const diagonal = d[above + k]! + c;
          if (diagonal < v) v = diagonal;
        }
        if (k >= lo[i]!) {
          const left = d[base + k]! + GAP_COST;
          if (left < v) v = left;
        }
      }
      d[base + j] = v;
    }
  }
  let end = lo[m]!;
  for (let j = lo[m]!; j <= hi[m]!; j++) if (at(m, j) <= at(m, end)) end = j;
  const ops: Op[] = [];
  const is: number[] = [];
  const js: number[] = [];
  const step = (op: Op, ei: number, pj: number): void => {
    ops.push(op);
    is.push(ei);
    js.push(pj);
  };
  let i = m;
  let j = end;
  while (i > 0) {
    const here = at(i, j);
    // Every cell of the band is reachable (see the rows above); were one not, no path is better than a loop.
    if (here >= INF || j < 0) return undefined;
    const c = j > 0 ? cost(i - 1, j - 1) : INF;
    if (j > 0 && c < INF && at(i - 1, j - 1) + c === here) {
      step(c === 0 ? SAME : SUB, i - 1, j - 1);
      i--;
      j--;
    } else if (at(i - 1, j) + GAP_COST === here) {
      step(INS, i - 1, -1);
      i--;
    } else {
      step(DEL, -1, j - 1);
      j--;
    }
  }
  return { ops: ops.reverse(), is: is.reverse(), js: js.reverse(), cost: at(m, end) };
}

// ---------------------------------------------------------------- naming the changes

/** Negations, as the normal form writes them (lower case, plain apostrophe). */
const NEGATIONS = new Set([
  'not', 'no', 'never', 'none', 'nor', 'neither', 'nobody', 'nothing', 'nowhere', 'cannot', 'without',
  'kein', 'keine', 'nicht', 'nie', 'ne', 'pas', 'jamais', 'sans', 'nunca', 'sin', 'non', 'nessuno', 'niet', 'geen',
]); // prettier-ignore

function negations(words: readonly string[]): number {
  let n = 0;
  for (const word of words) if (NEGATIONS.has(word) || (word.length > 3 && word.endsWith("n't"))) n++;
  return n;
}

const HAS_DIGIT = /\d/;
const NOT_DIGITS = /\D/g;

/** The kind of a change, from its words (punctuation left out) and its ops. */
/**
 * A change of at most this many words a side can be a negation: in a long
 * run put in or rewritten, a "no" is one word among many, and the run is
 * named by its form.
 */
const NEGATION_MAX_WORDS = 4;

function changeKind(excerptWords: readonly string[], pageWords: readonly string[], ops: readonly Op[]): ChangeKind {
  const small = excerptWords.length <= NEGATION_MAX_WORDS && pageWords.length <= NEGATION_MAX_WORDS;
  if (small && negations(excerptWords) !== negations(pageWords)) return 'negation';
  if (ops.every((o) => o === INS)) return 'word_inserted';
  if (ops.every((o) => o === DEL)) return 'word_removed';
  const [a, b] = [excerptWords[0], pageWords[0]];
  if (ops.length === 1 && a !== undefined && b !== undefined && HAS_DIGIT.test(a) && HAS_DIGIT.test(b)) {
    if (a.replace(NOT_DIGITS, '') !== b.replace(NOT_DIGITS, '')) return 'number_changed';
  }
  return 'word_changed';
}

/**
 * The diff of an alignment: runs of shared tokens, and between them the
 * changes. A run of tokens changed one for one is named token by token
 * (each number on its own); a run mixing tokens changed, put in and left
 * out is one change.
 */
function diffOf(part: string, et: Tokens, e: Side, text: string, pt: Tokens, p: Side, a: Alignment): DiffSegment[] {
  const out: DiffSegment[] = [];
  const { ops, is, js } = a;
  const span = (src: string, t: Tokens, list: number[]): string =>
    list.length === 0 ? '' : src.slice(t.starts[list[0]!], t.ends[list[list.length - 1]!]);
  let k = 0;
  while (k < ops.length) {
    let r = k;
    if (ops[k] === SAME) {
      while (r + 1 < ops.length && ops[r + 1] === SAME) r++;
      out.push({ kind: 'same', text: text.slice(pt.starts[js[k]!], pt.ends[js[r]!]) });
      k = r + 1;
      continue;
    }
    while (r + 1 < ops.length && ops[r + 1] !== SAME) r++;
    const subs = ops.slice(k, r + 1).every((o) => o === SUB);
    for (let g = k; g <= r; g = subs ? g + 1 : r + 1) {
      const g1 = subs ? g : r;
      const ix = is.slice(g, g1 + 1).filter((x) => x >= 0);
      const jx = js.slice(g, g1 + 1).filter((x) => x >= 0);
      const kind = changeKind(
        ix.filter((x) => e.word[x] === 1).map((x) => e.text[x]!),
        jx.filter((x) => p.word[x] === 1).map((x) => p.text[x]!),
        ops.slice(g, g1 + 1),
      );
      out.push({ kind, excerpt: span(part, et, ix), page: span(text, pt, jx) });
    }
    k = r + 1;
  }
  return out;
}

// ---------------------------------------------------------------- the closest passage

function isTokenStart(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c === SPACE) return false;
  if (i === 0) return true;
  const b = text.charCodeAt(i - 1);
  return b === SPACE || isSolo(c) || isSolo(b);
}

function isTokenEnd(text: string, i: number): boolean {
  if (i === text.length) return text.charCodeAt(i - 1) !== SPACE;
  const b = text.charCodeAt(i - 1);
  if (b === SPACE) return false;
  const c = text.charCodeAt(i);
  return c === SPACE || isSolo(c) || isSolo(b);
}

/** The excerpt part, read once for all the windows aligned with it. */
interface Excerpt {
  part: string;
  tokens: Tokens;
  side: Side;
  words: number;
  table: Map<string, number>;
}

type Found = Passage & { cost: number };

/** The passage of one window: the tokens aligned with the excerpt's. */
function passageIn(text: string, x: Excerpt, c: Candidate): Found | undefined {
  const length = x.part.length;
  const begin = Math.round((c.lo + c.hi) / 2);
  // Twice the part's length, the estimated passage in its middle, cut inward to whole tokens.
  let from = Math.max(0, Math.floor(begin - length / 2));
  let to = Math.min(text.length, from + 2 * length);
  while (from < to && !isTokenStart(text, from)) from++;
  while (to > from && !isTokenEnd(text, to)) to--;
  if (to <= from) return undefined;
  const pt = tokensOf(text, from, to);
  const p = sideOf(text, pt, x.table);
  // Where each excerpt token is expected among the window's tokens.
  const expected = new Int32Array(x.side.ids.length);
  let j = 0;
  for (let i = 0; i < expected.length; i++) {
    const want = begin + x.tokens.starts[i]!;
    while (j < pt.starts.length && pt.starts[j]! < want) j++;
    expected[i] = j + 1;
  }
  const a = align(x.side, p, expected);
  if (a === undefined) return undefined;
  let shared = 0;
  let first = -1;
  let last = -1;
  for (let k = 0; k < a.ops.length; k++) {
    if (a.ops[k] === SAME && x.side.word[a.is[k]!] === 1) shared++;
    const jk = a.js[k]!;
    if (jk >= 0) {
      if (first < 0) first = jk;
      last = jk;
    }
  }
  if (first < 0) return undefined;
  let passageWords = 0;
  for (let k = first; k <= last; k++) passageWords += p.word[k]!;
  const start = pt.starts[first]!;
  const end = pt.ends[last]!;
  return {
    start,
    end,
    text: text.slice(start, end),
    similarity: (2 * shared) / (x.words + passageWords),
    shared,
    diff: diffOf(x.part, x.tokens, x.side, text, pt, p, a),
    cost: a.cost,
  };
}

/**
 * The closest passage of `page` to `part`, an excerpt (or a part of one
 * between elisions) already normalised for matching; undefined when no two
 * adjacent words of it (its one word, for an excerpt of one) are on the page.
 * Of two passages as close, the one that costs fewer changes.
 */
export function closestPassage(page: string | MatchText, part: string): Passage | undefined {
  const text = typeof page === 'string' ? page : page.text;
  const tokens = tokensOf(part, 0, part.length);
  const words: number[] = [];
  tokens.word.forEach((w, k) => w === 1 && words.push(k));
  if (words.length === 0 || text === '') return undefined;
  const hashes = words.map((k) => hashRange(part, tokens.starts[k]!, tokens.ends[k]!));
  const sizes: AnchorSizes = words.length >= 3 ? 3 : words.length === 2 ? 2 : 1;
  const anchors = new Anchors(2 * words.length);
  const offset = (k: number): number => tokens.starts[words[k]!]!;
  if (sizes === 1) anchors.add(nonZero(hashes[0]!), offset(0));
  for (let k = 1; k < words.length; k++) {
    const pair = pairKey(hashes[k - 1]!, hashes[k]!);
    anchors.add(nonZero(pair), offset(k - 1));
    if (k + 1 < words.length) anchors.add(nonZero(tripleKey(pair, hashes[k + 1]!)), offset(k - 1));
  }
  const table = new Map<string, number>();
  const x: Excerpt = { part, tokens, side: sideOf(part, tokens, table), words: words.length, table };
  let best: Found | undefined;
  const places = candidates(scan(text, anchors, sizes), anchors, part.length);
  // The next best place is aligned only when it is nearly as good: two copies of a paragraph, say.
  for (const c of places.filter((c) => c.score >= places[0]!.score / 2)) {
    const found = passageIn(text, x, c);
    if (found === undefined) continue;
    if (
      best === undefined ||
      found.similarity > best.similarity ||
      (found.similarity === best.similarity && found.cost < best.cost)
    ) {
      best = found;
    }
  }
  if (best === undefined) return undefined;
  const { cost: _cost, ...passage } = best;
  return passage;
}

/** Whether a passage is close enough to call the excerpt altered rather than absent. */
export function isClose(passage: Passage | undefined): passage is Passage {
  return passage !== undefined && passage.similarity >= ALTERED_MIN_SIMILARITY && passage.shared >= MIN_SHARED_WORDS;
}

/**
 * The near miss of an excerpt not found on its page: the closest passage of
 * the page's texts (its visible text with the JSON-LD text, and its script
 * JSON), `altered` when it is close, else `absent`. The excerpt is read as
 * the matcher reads it (normalised, its parts between elisions, cut to
 * `prefixChars`); an excerpt with elisions is diagnosed by its first part
 * not on the page, or whole when each part is there but not in order.
 */
export function findNearMiss(page: PageSources, excerpt: string, options: MatchOptions = {}): NearMissResult {
  const parts = excerptParts(excerpt, options);
  if (parts.length === 0) return { detail: 'absent' };
  // Which part: the only one, the first not on the page, or (each one there) all of them.
  const index = parts.length === 1 ? -1 : parts.findIndex((p) => !matchInPage(page, p.text).found);
  const target = bounded(
    parts.length === 1 ? parts[0]!.text : index < 0 ? parts.map((p) => p.text).join(' ') : parts[index]!.text,
  );
  let best: { passage: Passage; source: TextSource } | undefined;
  const inText = closestPassage(page.text, target);
  if (inText !== undefined) {
    const ld = page.jsonLdAt;
    best = { passage: inText, source: ld !== undefined && inText.start >= ld ? 'json_ld' : 'text' };
  }
  if (page.script !== undefined) {
    const inScript = closestPassage(page.script, target);
    if (inScript !== undefined && (best === undefined || inScript.similarity > best.passage.similarity)) {
      best = { passage: inScript, source: 'script_json' };
    }
  }
  if (best === undefined || !isClose(best.passage)) return { detail: 'absent' };
  const { passage, source } = best;
  return {
    detail: 'altered',
    nearMiss: {
      source,
      start: passage.start,
      end: passage.end,
      passage: passage.text,
      similarity: Math.round(passage.similarity * 1000) / 1000,
      diff: passage.diff,
      ...(index >= 0 ? { part: index } : {}),
    },
  };
}
