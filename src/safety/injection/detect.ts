/**
 * The injection detector: does a text carry instructions addressed to an AI
 * reader? Pure, deterministic and offline; rules and lexicons only
 * (rules.ts, lexicons.ts), no learned weights.
 *
 * It reads the normalised view of quoting (../quoting/normalized-view.ts),
 * so what Layer 1 already undoes (lookalike letters, invisible characters,
 * character references and escapes, Unicode tags) hides nothing here either;
 * a second reading with everything but letters removed catches phrases
 * spelt out with spaces or separators between the letters. Each signal's
 * offsets refer to the original text.
 *
 * The score is local: signals are combined within a window of the view
 * (WINDOW units), each kind once at its strongest, as a noisy-OR
 * (1 - prod(1 - weight)); the text's score is its best window's. A long page
 * does not add up many weak signals far apart into a strong one, and an
 * attack in the middle of a long page scores as it would alone.
 */
import { buildView, scanText } from '../quoting/normalized-view.js';
import { ENCODED_WEIGHT, QUESTION_WEIGHT, RULES, SIGNAL_KINDS, SQUASHED_PHRASES, type SignalKind } from './rules.js';

export { SIGNAL_KINDS, type SignalKind } from './rules.js';

/**
 * The default threshold, chosen on development data (ordinary science
 * sentences, e-mails, tables and web-page text) for at most 1% false
 * positives; docs/quoting.md gives the figures.
 */
export const DEFAULT_INJECTION_THRESHOLD = 0.7;

/** How far apart, in units of the view, two signals may be and still add to one score. */
export const WINDOW = 250;

/**
 * Weak signals alone (the second person, an imperative, a question, an AI
 * named) are common in ordinary writing that talks to its reader, such as a
 * how-to page; together they score at most WEAK_CAP, below the default
 * threshold, unless a signal of at least STRONG weight is in the window.
 */
export const WEAK_CAP = 0.6;
export const STRONG = 0.6;

export interface InjectionSignal {
  kind: SignalKind;
  /** Index in the original text where the span starts. */
  start: number;
  /** Index in the original text just after the span. */
  end: number;
  /** What this span alone gives the score. */
  weight: number;
}

export interface InjectionDetection {
  /** 0 (nothing addressed to an AI reader) to 1. */
  score: number;
  /** score >= threshold. */
  suspected: boolean;
  /** The threshold applied. */
  threshold: number;
  /** The spans behind the score, in order of their start; at most MAX_SIGNALS. */
  signals: InjectionSignal[];
}

export interface DetectOptions {
  /** Score at or above which a text is suspected; DEFAULT_INJECTION_THRESHOLD unless given. */
  threshold?: number;
}

/** Signals kept in a result: a hostile text may hold thousands, and the report should stay small. */
export const MAX_SIGNALS = 64;

interface ViewSignal {
  kind: SignalKind;
  from: number;
  to: number;
  weight: number;
}

const KIND_INDEX = new Map<SignalKind, number>(SIGNAL_KINDS.map((k, i) => [k, i]));

/** Signals of every rule on the view, in view units. */
function findSignals(view: string): ViewSignal[] {
  const found: ViewSignal[] = [];
  for (const rule of RULES) {
    const re = rule.pattern;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(view)) !== null) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      if (rule.accept !== undefined && !rule.accept(m[0])) continue;
      // A rule whose first group is the span (the imperative's verb, after the punctuation that opens its sentence).
      const lead = m[1] === undefined ? 0 : m[0].length - m[1].length;
      found.push({ kind: rule.kind, from: m.index + lead, to: m.index + m[0].length, weight: rule.weight });
    }
  }
  findQuestions(view, found);
  findEncodedRuns(view, found);
  findSquashed(view, found);
  return found;
}

/** 1 for the view units of base64 (the view is upper-case, so letters, digits, `+` and `/`). */
const BASE64 = new Uint8Array(128);
for (let c = 0x41; c <= 0x5a; c++) BASE64[c] = 1;
for (let c = 0x30; c <= 0x39; c++) BASE64[c] = 2;
BASE64[0x2b] = BASE64[0x2f] = 1;
const ENCODED_MIN = 40;

/** Runs of at least ENCODED_MIN base64 units that hold a digit (a run without one is a word or a DNA sequence). */
function findEncodedRuns(view: string, found: ViewSignal[]): void {
  const n = view.length;
  let from = 0;
  let digit = false;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? view.charCodeAt(i) : 0;
    const kind = c < 128 ? BASE64[c]! : 0;
    if (kind === 0) {
      if (digit && i - from >= ENCODED_MIN)
        found.push({ kind: 'encoded_payload', from, to: i, weight: ENCODED_WEIGHT });
      from = i + 1;
      digit = false;
    } else if (kind === 2) digit = true;
  }
}

/**
 * Questions: what a user asks an assistant, rare in the body of a paper. From
 * each `?` back to the start of its sentence, at most QUESTION_SPAN units.
 */
const QUESTION_SPAN = 240;
function findQuestions(view: string, found: ViewSignal[]): void {
  let q = view.indexOf('?');
  while (q !== -1) {
    let from = q;
    const stop = Math.max(0, q - QUESTION_SPAN);
    while (from > stop) {
      const c = view.charCodeAt(from - 1);
      if (c === 0x2e || c === 0x21 || c === 0x3f || c === 0x0a || c === 0xbf) break;
      from--;
    }
    // A lone `?` in a URL or a table cell is no question: the sentence needs a few words.
    if (q - from >= 6 && view.charCodeAt(q - 1) !== 0x3f) {
      found.push({ kind: 'question', from, to: q + 1, weight: QUESTION_WEIGHT });
    }
    q = view.indexOf('?', q + 1);
  }
}

/** Upper-case ASCII letters only, and for each the view unit it came from. */
function findSquashed(view: string, found: ViewSignal[]): void {
  const n = view.length;
  const at = new Int32Array(n);
  let letters = '';
  const codes = new Uint16Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const c = view.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) {
      codes[k] = c;
      at[k++] = i;
    }
  }
  if (k === 0) return;
  letters = Buffer.from(codes.buffer, 0, k * 2).toString('utf16le');
  for (const { key, weight } of SQUASHED_PHRASES) {
    let i = letters.indexOf(key);
    while (i !== -1) {
      found.push({ kind: 'spaced_phrase', from: at[i]!, to: at[i + key.length - 1]! + 1, weight });
      i = letters.indexOf(key, i + key.length);
    }
  }
}

/** The best noisy-OR over windows of WINDOW view units, each kind counted once at its strongest. */
function windowScore(signals: ViewSignal[]): number {
  if (signals.length === 0) return 0;
  const sorted = [...signals].sort((a, b) => a.from - b.from);
  const kinds = SIGNAL_KINDS.length;
  // For each kind, the weights inside the window, as counts per distinct weight would be costly; a small multiset per kind is enough since weights are few.
  const inWindow: Array<Map<number, number>> = Array.from({ length: kinds }, () => new Map<number, number>());
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    const s = sorted[hi]!;
    const bucket = inWindow[KIND_INDEX.get(s.kind)!]!;
    bucket.set(s.weight, (bucket.get(s.weight) ?? 0) + 1);
    while (sorted[lo]!.from < s.from - WINDOW) {
      const old = sorted[lo]!;
      const b = inWindow[KIND_INDEX.get(old.kind)!]!;
      const left = b.get(old.weight)! - 1;
      if (left === 0) b.delete(old.weight);
      else b.set(old.weight, left);
      lo++;
    }
    let keep = 1;
    let strongest = 0;
    for (const b of inWindow) {
      let max = 0;
      for (const w of b.keys()) if (w > max) max = w;
      keep *= 1 - max;
      if (max > strongest) strongest = max;
    }
    const score = strongest >= STRONG ? 1 - keep : Math.min(1 - keep, WEAK_CAP);
    if (score > best) best = score;
  }
  return best;
}

/**
 * Detects instructions addressed to an AI reader in `text`. Linear in the
 * length of the text; never throws on a string.
 */
export function detectInjection(text: string, options: DetectOptions = {}): InjectionDetection {
  const { view, aligned } = scanText(text);
  return detectOnView(text, view, aligned, options);
}

/**
 * The detector on a view already read by scanText (quoting reads the text
 * once for both): `view` and `aligned` must be scanText(text)'s.
 */
export function detectOnView(
  text: string,
  view: string,
  aligned: boolean,
  options: DetectOptions = {},
): InjectionDetection {
  const threshold = options.threshold ?? DEFAULT_INJECTION_THRESHOLD;
  const found = findSignals(view);
  if (found.length === 0) return { score: 0, suspected: false, threshold, signals: [] };
  const score = Math.round(windowScore(found) * 1e4) / 1e4;
  found.sort((a, b) => a.from - b.from || b.weight - a.weight);
  const kept = found.slice(0, MAX_SIGNALS);
  // The map back to the original is built only when the view is not the text's own indices and there is something to point at.
  if (aligned) {
    const signals = kept.map((s) => ({ kind: s.kind, start: s.from, end: s.to, weight: s.weight }));
    return { score, suspected: score >= threshold, threshold, signals };
  }
  const map = buildView(text);
  const signals = kept.map((s) => ({
    kind: s.kind,
    start: map.start[s.from]!,
    end: map.end[s.to - 1]!,
    weight: s.weight,
  }));
  return { score, suspected: score >= threshold, threshold, signals };
}
