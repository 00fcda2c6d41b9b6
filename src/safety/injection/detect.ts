/**
 * The injection detector: does a text carry instructions addressed to an AI
 * reader? Pure, deterministic and offline.
 *
 * It reads the normalised view of quoting (../quoting/normalized-view.ts),
 * so what Layer 1 already undoes (lookalike letters, invisible characters,
 * character references and escapes, Unicode tags) hides nothing here either.
 * One pass over the view (scan.ts) finds the rules' signals (rules.ts,
 * lexicons.ts), trying each rule only at the words and characters where it
 * can begin, and reads phrases spelt out with spaces or separators between
 * the letters. Each signal's offsets refer to the original text.
 *
 * The score is local: signals are combined within a window of the view
 * (WINDOW units), each kind once at its strongest, as a noisy-OR
 * (1 - prod(1 - weight)); the text's score is its best window's. A long page
 * does not add up many weak signals far apart into a strong one, and an
 * attack in the middle of a long page scores as it would alone.
 */
import { buildView, scanText } from '../quoting/normalized-view.js';
import { SIGNAL_KINDS, type SignalKind } from './rules.js';
import { scanView, type ViewSignal } from './scan.js';
import { MODEL } from './model.js';

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

const KIND_INDEX = new Map<SignalKind, number>(SIGNAL_KINDS.map((k, i) => [k, i]));

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

/** The text's score from the rules' best window and the model's best window. */
function combine(rules: number, model: number): number {
  return Math.max(rules, model);
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
  const { signals: found, logit } = scanView(view, MODEL);
  const model = logit === -Infinity ? 0 : 1 / (1 + Math.exp(-logit));
  const score = Math.round(combine(windowScore(found), model) * 1e4) / 1e4;
  if (found.length === 0) return { score, suspected: score >= threshold, threshold, signals: [] };
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
