/**
 * The folds of the injection model's training and evaluation. Benign texts
 * and pages are dealt to FOLDS folds by group (injection-data.ts foldOf);
 * each attack source of SOURCES is one run's left-out source. Run k:
 *
 * - trains on the attacks of every other source, and on the benign texts
 *   and pages of every fold but k and its calibration folds k + 1, k + 2;
 * - calibrates on folds k + 1 and k + 2 (two folds, some 200 pages: one
 *   fold's hundred set a 1% rate by a single page): the threshold is where
 *   at most the target share of each kind (TARGETS) scores at or above it;
 * - tests on source k's attacks (alone, inside fold k's pages, inside
 *   abstracts) and on fold k's benign texts and pages.
 *
 * So every figure of the evaluation is of texts no model of its run saw, and
 * each benign text and page is tested once, in its fold's run. Evaluation-
 * only files are never trained or calibrated on: their texts are tested, and
 * the attacks of WASP in every run (a sixth of them each).
 */
import { SOURCES, foldOf, type Attack, type BenignKind, type Corpus } from './injection-data.js';
import {
  cutFor,
  embed,
  excerpt,
  fit,
  logitOf,
  pageTexts,
  parts,
  sample,
  type Sample,
  type Weights,
  asModel,
} from './injection-training.js';
import { rng } from './random.js';
import { RULE_SIGNAL_KINDS, strongestWeight } from '../src/safety/injection/rules.js';
import { RULE_KINDS, STRONG } from '../src/safety/injection/scan.js';
import { DEFAULT_INJECTION_THRESHOLD } from '../src/safety/injection/threshold.js';
import { syntheticTexts } from './injection-synthetic.js';

export const FOLDS = SOURCES.length;
export const PAGE_TARGET = 0.01;
export const TEXT_TARGET = 0.002;
/** Benign texts are cut into parts of this many characters for training. */
const PART = 400;
/** Attacks placed inside page excerpts of this many characters, for training. */
const HOST = 1500;

export interface PageSamples {
  name: string;
  fold: number;
  samples: Sample[];
  /** The same texts in parts, for training: a long page gives several negatives. */
  parts: Sample[];
  /** The visible text, a host for embedded attacks. */
  text: string;
}

export interface Prepared {
  corpus: Corpus;
  /** Per attack, its sample alone and inside a training page excerpt. */
  alone: Sample[];
  inPage: Sample[];
  /** Which page fold hosts each attack's training copy. */
  hostFold: number[];
  benign: Sample[][];
  benignFold: number[];
  /** Synthetic texts (injection-synthetic.ts): in every run's training, never tested. */
  synthetic: Sample[];
  pages: PageSamples[];
}

/** Reads every text once, for all runs. */
export function prepare(corpus: Corpus, progress: (s: string) => void = () => {}): Prepared {
  const random = rng(7);
  progress('reading the pages...');
  const pages: PageSamples[] = corpus.pages.map((p) => {
    const texts = pageTexts(p.html);
    return {
      name: p.name,
      fold: foldOf(p.name, FOLDS),
      samples: texts.map((t) => sample(t, 0)),
      parts: texts.flatMap((t) => parts(t, PART).map((x) => sample(x, 0))),
      text: texts[0] ?? '',
    };
  });
  progress('reading the attacks...');
  const alone = corpus.attacks.map((a) => sample(a.text, 1));
  const hostFold: number[] = [];
  const inPage = corpus.attacks.map((a) => {
    const host = pages[Math.floor(random() * pages.length)]!;
    hostFold.push(host.fold);
    return sample(embed(excerpt(host.text, HOST, random), a.text, random), 1);
  });
  progress('reading the benign texts...');
  const benign = corpus.benign.map((b) => parts(b.text, PART).map((t) => sample(t, 0)));
  const benignFold = corpus.benign.map((b) => foldOf(b.group, FOLDS));
  const made = syntheticTexts();
  const synthetic = [
    ...made.attacks.map((t) => sample(t, 1)),
    ...made.attacks.map((t, i) => sample(embed(excerpt(pages[i % pages.length]!.text, HOST, random), t, random), 1)),
    ...made.benign.map((t) => sample(t, 0)),
  ];
  return { corpus, alone, inPage, hostFold, benign, benignFold, pages, synthetic };
}

/** Whether an attack is trained on in a run that leaves out `leftOut` (undefined: the final fit). */
const trainable = (a: Attack, leftOut: string | undefined): boolean => !a.evalOnly && a.source !== leftOut;

/** The training samples of a run: all but `held` folds' benign texts and pages, all but `leftOut`'s attacks. */
export function trainingSamples(p: Prepared, leftOut: string | undefined, held: readonly number[]): Sample[] {
  const out: Sample[] = [];
  p.corpus.attacks.forEach((a, i) => {
    if (!trainable(a, leftOut)) return;
    out.push(p.alone[i]!);
    if (!held.includes(p.hostFold[i]!)) out.push(p.inPage[i]!);
  });
  p.corpus.benign.forEach((b, i) => {
    if (!b.evalOnly && !held.includes(p.benignFold[i]!)) out.push(...p.benign[i]!);
  });
  for (const page of p.pages) if (!held.includes(page.fold)) out.push(...page.parts);
  out.push(...p.synthetic);
  return out;
}

/**
 * The logit of a text read as several samples (a benign text's parts; a
 * page's texts, as the citation scan reads them): its best one's.
 */
export function textLogit(samples: readonly Sample[], w: Weights): { logit: number; certain: boolean } {
  const m = asModel(w);
  let logit = -Infinity;
  for (const s of samples) logit = Math.max(logit, logitOf(s, m));
  return { logit, certain: samples.some((s) => s.certain) };
}

/**
 * The share of each benign kind allowed at or above the threshold, from the
 * goals (docs/quoting.md): pages and the main text of articles and forums
 * 1%, how-tos, protocols, recipes, terms and READMEs 0.5%, sentences and
 * tables of papers 0.2% (abstracts, whose file is evaluation only, are held
 * to that figure and measured, never calibrated on). Kinds with no goal
 * (e-mails, NotInject's prompts full of trigger words) are measured only.
 */
export const TARGETS: Partial<Record<BenignKind | 'page', number>> = {
  page: PAGE_TARGET,
  article: PAGE_TARGET,
  howto: 0.005,
  protocol: 0.005,
  recipe: 0.005,
  terms: 0.005,
  readme: 0.005,
  sentence: TEXT_TARGET,
  table: TEXT_TARGET,
};

/**
 * The share of each goal the calibration folds are held to. A threshold set
 * at the goal on two folds is the one that fits those folds best, and other
 * texts sit above it more often: the evaluation's test folds flagged 1.3% of
 * pages against a 1% goal met on the calibration folds, and 1.0% held to
 * three quarters of it. Six tenths of the goal leaves that margin (0.6% of
 * the test folds' pages, at a tenth of a point of recall).
 */
export const CALIBRATION_MARGIN = 0.6;

/**
 * The threshold (a logit) calibrated on `folds`: for each target, at
 * most that share of their texts of its kinds at or above it (pages as
 * the citation scan reads them). Texts a certain signal suspects whatever
 * the model says are left out: no threshold changes them.
 */
export function calibrate(p: Prepared, w: Weights, folds: readonly number[]): number {
  const byTarget = new Map<number, number[]>();
  const add = (goal: number | undefined, x: { logit: number; certain: boolean }): void => {
    if (goal === undefined || x.certain) return;
    const target = goal * CALIBRATION_MARGIN;
    const list = byTarget.get(target) ?? [];
    list.push(x.logit);
    byTarget.set(target, list);
  };
  for (const page of p.pages) if (folds.includes(page.fold)) add(TARGETS.page, textLogit(page.samples, w));
  p.corpus.benign.forEach((b, i) => {
    if (!b.evalOnly && folds.includes(p.benignFold[i]!)) add(TARGETS[b.kind], textLogit(p.benign[i]!, w));
  });
  let cut = -Infinity;
  for (const [target, logits] of byTarget) cut = Math.max(cut, cutFor(logits, target));
  return cut;
}

/**
 * A strong rule kind whose signal is this rare in the training's ordinary
 * texts (per part) is held to what its rule says: a window with it alone
 * scores at least the rule's weight (floors, below).
 */
export const FLOOR_RATE = 0.0005;

const logit = (p: number): number => Math.log(p / (1 - p));

/**
 * Floors for the precise strong kinds: the model learns a kind's weight from
 * the training sources, and a kind they seldom show (an address to "the AI
 * assistant", secrecy from the user) would learn little; its rule says it is
 * suspect alone. So a kind whose strong signal fires in fewer than FLOOR_RATE
 * of the ordinary training texts gets at least the weight that lifts the
 * median ordinary text of the calibration fold to the rule's own score,
 * measured against that fold's threshold. Returns how many kinds were lifted.
 */
function applyFloors(
  p: Prepared,
  w: Weights,
  samples: readonly Sample[],
  calibrationFolds: readonly number[],
  cut: number,
): number {
  const fires = new Float64Array(RULE_KINDS);
  let benign = 0;
  for (const s of samples) {
    if (s.y !== 0) continue;
    benign++;
    const seen = new Set<number>();
    for (const r of s.readings)
      for (let e = 0; e < r.events; e++) if (r.feature[e]! < RULE_KINDS) seen.add(r.feature[e]!);
    for (const k of seen) fires[k]!++;
  }
  const ordinary = p.corpus.benign
    .map((b, i) =>
      !b.evalOnly && calibrationFolds.includes(p.benignFold[i]!) ? textLogit(p.benign[i]!, w).logit : NaN,
    )
    .filter((x) => Number.isFinite(x))
    .sort((a, b) => a - b);
  const median = ordinary[Math.floor(ordinary.length / 2)] ?? 0;
  let lifted = 0;
  RULE_SIGNAL_KINDS.forEach((kind, k) => {
    const weight = strongestWeight(kind);
    if (weight < STRONG || fires[k]! / Math.max(benign, 1) >= FLOOR_RATE) return;
    const floor = logit(weight) - logit(DEFAULT_INJECTION_THRESHOLD) + cut - median;
    if (w.kinds[k]! < floor) {
      w.kinds[k] = floor;
      lifted++;
    }
  });
  return lifted;
}

/** The folds that calibrate run k's model. */
export function calibrationFolds(k: number): number[] {
  return [(k + 1) % FOLDS, (k + 2) % FOLDS];
}

/**
 * Fits and calibrates a run's model: trained without the benign texts and
 * pages of `held` and `calibration`, its threshold set on `calibration`.
 */
export function runModel(
  p: Prepared,
  leftOut: string | undefined,
  held: readonly number[],
  calibrationFolds: readonly number[],
): { weights: Weights; cut: number } {
  const samples = trainingSamples(p, leftOut, [...held, ...calibrationFolds]);
  const weights = fit(samples);
  const first = calibrate(p, weights, calibrationFolds);
  // The floors change scores, so the threshold is set again after them.
  return applyFloors(p, weights, samples, calibrationFolds, first) > 0
    ? { weights, cut: calibrate(p, weights, calibrationFolds) }
    : { weights, cut: first };
}
