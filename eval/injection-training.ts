/**
 * Training of the injection detector's model, shared by the training script
 * (scripts/train-injection-model.ts) and the evaluation (eval/injection.ts),
 * which trains one model per left-out source. Every text is read by the
 * detector's own pass (scan.ts readView) and scored by its own scoring
 * function (bestWindow), so what is trained is what runs.
 *
 * A text is a bag of windows and its label is its best window's: an attack
 * is one sentence of a page, and no one says which. Each epoch, every text's
 * best window under the current weights takes the gradient step of a
 * logistic loss with the text's label (multiple-instance learning): an
 * attack's best window is pulled up, an ordinary text's best window, the one
 * most like an attack, is pushed down. The rule kinds start from what the
 * rules say (kindPriors).
 */
import { htmlSources } from '../src/safety/citations/page-sources.js';
import { scanText } from '../src/safety/text/normalized-view.js';
import { CERTAIN } from '../src/safety/injection/threshold.js';
import {
  HASHED,
  KIND_FEATURES,
  WINDOW_SIZES,
  bestWindow,
  keepReading,
  readView,
  windowFeatures,
  type ModelInput,
  type Reading,
} from '../src/safety/injection/scan.js';
import { forEachDecoded } from '../src/safety/injection/decoded.js';
import { rng } from './random.js';
import { RULE_SIGNAL_KINDS, strongestWeight } from '../src/safety/injection/rules.js';

export interface Sample {
  /** The text's readings: the text's own, then each decoded run's. */
  readings: Reading[];
  /** 1 for an attack. */
  y: 0 | 1;
  /** How much its loss counts. */
  weight: number;
  /** A signal of CERTAIN weight is in it: the detector suspects it whatever the model says. */
  certain: boolean;
}

export interface Weights {
  words: Float64Array;
  kinds: Float64Array;
  bias: number[];
}

export const FIT = {
  epochs: 12,
  rate: 0.1,
  /** L2, towards the priors for the rule kinds (kindPriors) and towards 0 for the rest. */
  l2: 1e-3,
  /** Word weights learn at this share of the rate. */
  wordRate: 1,
  seed: 20261202,
};

/** A text as the detector reads it. */
export function sample(text: string, y: 0 | 1, weight = 1): Sample {
  const view = scanText(text).view;
  const own = keepReading(readView(view));
  const readings = [own];
  forEachDecoded(text, view, (r) => readings.push(keepReading(r)));
  const certain = readings.some((r) => r.signals.some((s) => s.weight >= CERTAIN));
  return { readings, y, weight, certain };
}

/** The texts of a page the citation scan reads (scanSources): its visible text, its scripts' JSON, its markup texts. */
export function pageTexts(html: string): string[] {
  const s = htmlSources(html);
  return [s.text.text, s.script?.text, s.markup].filter((t): t is string => t !== undefined && t.trim() !== '');
}

export function asModel(w: Weights): ModelInput {
  return { words: w.words, scale: 1, kinds: w.kinds, bias: w.bias };
}

/** A sample's logit under a model: its best window's over all its readings. */
export function logitOf(s: Sample, m: ModelInput): number {
  let best = -Infinity;
  for (const r of s.readings) best = Math.max(best, bestWindow(r, m).logit);
  return best;
}

/**
 * What the rules know, as a start for the model: each rule kind's weight
 * begins at, and its L2 pulls it towards, a logit that grows with the
 * kind's strongest rule's weight (PRIOR_SLOPE × (weight − PRIOR_FLOOR)). A
 * kind that the training sources seldom show ("System:" at a line's start,
 * a chat-template token) keeps what its rule says instead of learning
 * nothing from them, and an attack unlike the corpus keeps what the rules
 * know. The classes and their pairs start at 0: the data weighs them.
 */
export const PRIOR_SLOPE = 6;
export const PRIOR_FLOOR = 0.45;
export function kindPriors(): Float64Array {
  const prior = new Float64Array(KIND_FEATURES);
  RULE_SIGNAL_KINDS.forEach((kind, k) => {
    // The strong feature's prior; the weak reading of a kind starts at 0.
    prior[k] = Math.max(0, PRIOR_SLOPE * (strongestWeight(kind) - PRIOR_FLOOR));
  });
  return prior;
}

/** Fits a model to the samples (see the top of this file); deterministic for a seed. */
export function fit(samples: readonly Sample[], options: Partial<typeof FIT> = {}): Weights {
  const o = { ...FIT, ...options };
  const prior = kindPriors();
  const w: Weights = {
    words: new Float64Array(HASHED),
    kinds: Float64Array.from(prior),
    bias: WINDOW_SIZES.map(() => 0),
  };
  const model = asModel(w);
  const pos = samples.reduce((n, s) => n + (s.y === 1 ? s.weight : 0), 0);
  const neg = samples.reduce((n, s) => n + (s.y === 0 ? s.weight : 0), 0);
  const total = pos + neg;
  const classWeight = [total / (2 * Math.max(neg, 1e-9)), total / (2 * Math.max(pos, 1e-9))];
  const random = rng(o.seed);
  const order = samples.map((_, i) => i);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const rate = o.rate / (1 + 0.5 * epoch);
    for (const k of order) {
      const s = samples[k]!;
      let pick = bestWindow(s.readings[0]!, model);
      let reading = s.readings[0]!;
      for (let r = 1; r < s.readings.length; r++) {
        const p = bestWindow(s.readings[r]!, model);
        if (p.logit > pick.logit) {
          pick = p;
          reading = s.readings[r]!;
        }
      }
      if (pick.logit === -Infinity) continue;
      const p = 1 / (1 + Math.exp(-pick.logit));
      const g = (p - s.y) * classWeight[s.y]! * s.weight;
      if (Math.abs(g) < 1e-4) continue;
      const f = windowFeatures(reading, pick);
      const wr = rate * o.wordRate;
      for (const x of f.words) w.words[x] = w.words[x]! - wr * (g + o.l2 * w.words[x]!);
      for (const x of f.kinds) w.kinds[x] = w.kinds[x]! - rate * (g + o.l2 * (w.kinds[x]! - prior[x]!));
      w.bias[pick.size] = w.bias[pick.size]! - rate * g;
    }
  }
  return w;
}

/**
 * The logit just above the score of the text at rank round(rate × n) from
 * the top: that many texts lie at or above it (a fold of 100 pages at 1%
 * allows one, where rounding down would allow none and set the threshold by
 * the single oddest page).
 */
export function cutFor(logits: readonly number[], rate: number): number {
  const desc = [...logits].sort((a, b) => b - a);
  if (desc.length === 0) return -Infinity;
  const allowed = Math.round(rate * desc.length);
  return allowed < desc.length ? desc[allowed]! + 1e-6 : -Infinity;
}

/** Places `attack` inside `host` at a random line or sentence boundary, as a cited page carries it. */
export function embed(host: string, attack: string, random: () => number): string {
  const at = Math.floor(random() * host.length);
  const next = host.slice(at).search(/[.!?]\s|\n/);
  const cut = next < 0 ? host.length : at + next + 1;
  return `${host.slice(0, cut)} ${attack} ${host.slice(cut)}`;
}

/** A random excerpt of about `chars` characters of a host text, cut at white space. */
export function excerpt(host: string, chars: number, random: () => number): string {
  if (host.length <= chars) return host;
  const from = Math.floor(random() * (host.length - chars));
  const a = host.indexOf(' ', from);
  const b = host.lastIndexOf(' ', from + chars);
  return host.slice(a < 0 ? from : a + 1, b <= a ? from + chars : b);
}

/** Long texts cut into parts of about `chars` characters at white space, so a long benign text gives several negatives. */
export function parts(text: string, chars: number): string[] {
  const out: string[] = [];
  let from = 0;
  while (from < text.length) {
    let to = Math.min(text.length, from + chars);
    if (to < text.length) {
      const space = text.lastIndexOf(' ', to);
      if (space > from + chars / 2) to = space;
    }
    out.push(text.slice(from, to));
    from = to;
  }
  return out;
}

/** Quantised for the shipped file: the words as signed bytes times a scale. */
export function quantise(w: Weights): { scale: number; bytes: Int8Array } {
  let max = 0;
  for (let i = 0; i < HASHED; i++) max = Math.max(max, Math.abs(w.words[i]!));
  const scale = max === 0 ? 1 : max / 127;
  const bytes = new Int8Array(HASHED);
  for (let i = 0; i < HASHED; i++) bytes[i] = Math.round(w.words[i]! / scale);
  return { scale, bytes };
}
