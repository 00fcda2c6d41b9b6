/**
 * Trains the injection detector's linear model and writes its weights to
 * src/safety/injection/model-weights.ts:
 *
 *   npm run train:injection -- <corpus-dir> [--folds N] [--no-write] [--no-docs]
 *
 * Data: the injection corpus of eval:injection (eval/injection-corpus.ts):
 * attacks from PurpleLlama's prompt-injection cases and BIPIA's attack
 * instructions (MIT), benign ChemProt and SciCite sentences (Apache-2.0),
 * BIPIA e-mails and tables (MIT) and the article text of the readability
 * test pages (Apache-2.0). Each text is cut into the windows the detector
 * scores (scan.ts), and each window carries its text's label; the windows
 * of web pages weigh PAGE_WEIGHT times more, as a page scores its best of
 * many windows.
 *
 * Model: logistic regression on the windows' features (hashed word unigrams
 * and bigrams, and the signal kinds the rules found there), by stochastic
 * gradient descent with L2, the two classes weighted alike, in a fixed order
 * drawn from a fixed seed: the same corpus gives the same weights. A text
 * scores its best window less the length penalty (scan.ts).
 *
 * Priors from the rules: a rule's weight says what its span alone should
 * score, but a kind the corpus rarely shows ("System:" at the start of a
 * line, "end of document") would get no weight from the data, and an attack
 * unlike the corpus would lose what the rules know. So each signal kind's
 * weight starts at, and its L2 pulls it towards, a prior: the logit that
 * lifts an ordinary window (the median benign text of a first fit without
 * priors) to the score of the kind's weakest rule, measured against that
 * fit's threshold. Word weights start at, and are pulled towards, 0. The
 * data then moves each kind's weight where it has evidence.
 *
 * Before the final fit, a k-fold cross-validation (folds drawn per file,
 * whole texts in one fold) scores every text by a model whose training never
 * saw it; the threshold is set on those scores for at most TARGET_FP of the
 * benign texts and PAGE_FP of the web pages, and the cross-validated figures, and those of a leave-one-
 * source-out run (all PurpleLlama cases, or all BIPIA instructions, scored by
 * a model trained without any of them), are printed and written to
 * docs/benchmarks.md. The final model is fitted on everything, with its bias
 * moved so that the default threshold (0.7) falls at that threshold.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandArgs } from '../eval/command-args.js';
import { loadInjectionCorpus, type CorpusItem } from '../eval/injection-corpus.js';
import {
  describeMachine,
  formatMarkdown,
  formatSource,
  markdownTable,
  runDate,
  textTable,
  writeMarkedSection,
} from '../eval/machine.js';
import { rng } from '../eval/random.js';
import { scanText } from '../src/safety/text/normalized-view.js';
import { FEATURES, HASHED, LENGTH_PENALTY, scanView } from '../src/safety/injection/scan.js';
import { RULE_SIGNAL_KINDS, weakestWeight } from '../src/safety/injection/rules.js';
import { CERTAIN, DEFAULT_INJECTION_THRESHOLD } from '../src/safety/injection/detect.js';

const WEIGHTS_FILE = fileURLToPath(new URL('../src/safety/injection/model-weights.ts', import.meta.url));
const DOC = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

const { values, positionals, usage } = commandArgs(
  'train:injection',
  ['usage: npm run train:injection -- <corpus-dir> [--folds N] [--no-write] [--no-docs]'],
  {
    options: {
      help: { type: 'boolean' },
      folds: { type: 'string', default: '5' },
      'no-write': { type: 'boolean' },
      'no-docs': { type: 'boolean' },
    },
    allowPositionals: true,
  },
);
if (positionals.length !== 1) usage('expected one corpus folder');
const corpusDir = positionals[0]!;
const FOLDS = Number(values.folds);
if (!Number.isInteger(FOLDS) || FOLDS < 2) usage(`--folds must be a whole number of at least 2, got ${values.folds}`);

/** Share of benign texts allowed at or above the threshold on cross-validated scores: below the 1% goal, for a margin on new data. */
const TARGET_FP = 0.005;
/** The same for the web pages alone. */
const PAGE_FP = 0.02;
const EPOCHS = 12;
const RATE = 0.05;
const L2 = 1e-4;
/** Page windows weigh this much more than other benign windows: a page is scored by the best of many. */
const PAGE_WEIGHT = 4;
const SEED = 20261201;

interface Text {
  item: CorpusItem;
  /** Feature indices of each window, with repeats. */
  windows: Int32Array[];
  /** Whether a signal of at least CERTAIN weight is in the text, which makes the detector suspect it whatever the model says. */
  certain: boolean;
}

function read(file: string): string {
  try {
    return readFileSync(path.join(corpusDir, file), 'utf8');
  } catch (err) {
    return usage(`cannot read ${path.join(corpusDir, file)}: ${(err as Error).message}`);
  }
}

const zero = new Int8Array(HASHED);
const zeroKinds = new Float64Array(RULE_SIGNAL_KINDS.length);
function featurise(item: CorpusItem): Text {
  const windows: Int32Array[] = [];
  const { signals } = scanView(scanText(item.text).view, {
    weights: zero,
    scale: 0,
    kinds: zeroKinds,
    bias: 0,
    record: (f) => windows.push(Int32Array.from(f)),
  });
  return { item, windows, certain: signals.some((s) => s.weight >= CERTAIN) };
}

interface Model {
  w: Float64Array;
  b: number;
}

const KIND_WEIGHT = RULE_SIGNAL_KINDS.map(weakestWeight);
const logOdds = (p: number): number => Math.log(p / (1 - p));

/** A model fitted on `texts` with the rules' priors (see the top of this file). */
function train(texts: Text[]): Model {
  const first = fit(texts, new Float64Array(FEATURES));
  const benign = texts.filter((t) => !t.item.attack).map((t) => logit(first, t));
  const sorted = [...benign].sort((a, b) => a - b);
  const gap = thresholdFor(benign, TARGET_FP) - sorted[Math.floor(sorted.length / 2)]!;
  const prior = new Float64Array(FEATURES);
  KIND_WEIGHT.forEach((p, k) => {
    prior[HASHED + k] = Math.max(0, logOdds(p) - logOdds(DEFAULT_INJECTION_THRESHOLD) + gap);
  });
  return fit(texts, prior);
}

function fit(texts: Text[], prior: Float64Array): Model {
  const samples: Array<{ f: Int32Array; y: number; m: number }> = [];
  for (const t of texts)
    for (const f of t.windows)
      samples.push({ f, y: t.item.attack ? 1 : 0, m: t.item.set === 'readability-pages' ? PAGE_WEIGHT : 1 });
  const pos = samples.filter((s) => s.y === 1).length;
  const neg = samples.length - pos;
  const weightOf = [samples.length / (2 * Math.max(neg, 1)), samples.length / (2 * Math.max(pos, 1))];
  const w = Float64Array.from(prior);
  let b = 0;
  const random = rng(SEED);
  const order = samples.map((_, i) => i);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const rate = RATE / (1 + epoch);
    for (const k of order) {
      const { f, y, m } = samples[k]!;
      let z = b;
      for (let i = 0; i < f.length; i++) z += w[f[i]!]!;
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - y) * weightOf[y]! * m;
      for (let i = 0; i < f.length; i++) {
        const x = f[i]!;
        w[x] = w[x]! - rate * (g + L2 * (w[x]! - prior[x]!));
      }
      b -= rate * g;
    }
  }
  return { w, b };
}

/** A text's logit: its best window's. */
function logit(m: Model, t: Text): number {
  let best = -Infinity;
  for (const f of t.windows) {
    let z = m.b;
    for (let i = 0; i < f.length; i++) z += m.w[f[i]!]!;
    if (z > best) best = z;
  }
  return t.windows.length === 0 ? -Infinity : best - LENGTH_PENALTY * Math.log(t.windows.length);
}

/** The logit at or above which at most `rate` of the benign scores lie. */
function thresholdFor(benignLogits: number[], rate: number): number {
  const desc = [...benignLogits].sort((a, b) => b - a);
  const allowed = Math.floor(rate * desc.length);
  // Just above the benign score at that rank.
  return desc[allowed]! + 1e-9;
}

console.log('reading and cutting the corpus into windows...');
const texts = loadInjectionCorpus(corpusDir, read).map(featurise);
const sets = [...new Set(texts.map((t) => t.item.set))];

// Folds: within each file, texts are dealt to folds in a shuffled order.
const foldOf = new Int32Array(texts.length);
{
  const random = rng(SEED + 1);
  for (const set of sets) {
    const idx = texts.map((t, i) => (t.item.set === set ? i : -1)).filter((i) => i >= 0);
    for (let i = idx.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [idx[i], idx[j]] = [idx[j]!, idx[i]!];
    }
    idx.forEach((t, k) => (foldOf[t] = k % FOLDS));
  }
}

const oof = new Float64Array(texts.length);
for (let k = 0; k < FOLDS; k++) {
  console.log(`fold ${k + 1} of ${FOLDS}...`);
  const m = train(texts.filter((_, i) => foldOf[i] !== k));
  texts.forEach((t, i) => {
    if (foldOf[i] === k) oof[i] = logit(m, t);
  });
}
const benignOof = texts.flatMap((t, i) => (t.item.attack ? [] : [oof[i]!]));
const pagesOof = texts.flatMap((t, i) => (t.item.set === 'readability-pages' ? [oof[i]!] : []));
// The benign budget is mostly spent on long pages, the hardest benign texts; they get a budget of their own.
const cut = Math.max(
  thresholdFor(benignOof, TARGET_FP),
  pagesOof.length > 0 ? thresholdFor(pagesOof, PAGE_FP) : -Infinity,
);

const pct = (n: number, of: number): string => `${((100 * n) / Math.max(of, 1)).toFixed(1)}%`;
function rowsFor(scores: Float64Array, bar: number, only?: (t: Text) => boolean): string[][] {
  return sets
    .map((set) => {
      const idx = texts.map((t, i) => (t.item.set === set && (only?.(t) ?? true) ? i : -1)).filter((i) => i >= 0);
      if (idx.length === 0) return undefined;
      const flagged = idx.filter((i) => scores[i]! >= bar || texts[i]!.certain).length;
      return [set, texts[idx[0]!]!.item.attack ? 'attack' : 'benign', String(idx.length), pct(flagged, idx.length)];
    })
    .filter((r): r is string[] => r !== undefined);
}
function summary(scores: Float64Array, bar: number, which: (t: Text) => boolean): string[] {
  const a = texts.filter((t, i) => t.item.attack && which(t) && (scores[i]! >= bar || t.certain)).length;
  const na = texts.filter((t) => t.item.attack && which(t)).length;
  const b = texts.filter((t, i) => !t.item.attack && (scores[i]! >= bar || t.certain)).length;
  const nb = texts.filter((t) => !t.item.attack).length;
  return [pct(a, na), pct(b, nb)];
}

const cvRows = rowsFor(oof, cut);
const cvAll = summary(oof, cut, () => true);
console.log(
  `\n${FOLDS}-fold cross-validation, threshold at ${TARGET_FP * 100}% of the benign texts' and ${PAGE_FP * 100}% of the pages' out-of-fold scores:`,
);
console.log(textTable(['set', 'kind', 'texts', 'flagged'], cvRows));
console.log(`all attacks flagged ${cvAll[0]}, all benign texts flagged ${cvAll[1]}`);

// Leave one source out: a whole benchmark unseen in training, at the cross-validated threshold.
const sources: Array<[string, (t: Text) => boolean]> = [
  ['PurpleLlama', (t) => t.item.set.startsWith('purplellama')],
  ['BIPIA instructions', (t) => t.item.set.startsWith('bipia') && t.item.attack],
];
const losoRows: string[][] = [];
for (const [name, held] of sources) {
  console.log(`leaving out ${name}...`);
  // Benign texts of fold 0 are held out too, so the benign row is also unseen.
  const m = train(texts.filter((t, i) => !held(t) && !(!t.item.attack && foldOf[i] === 0)));
  const scores = new Float64Array(texts.length);
  texts.forEach((t, i) => (scores[i] = logit(m, t)));
  const heldBenign = texts.flatMap((t, i) => (!t.item.attack && foldOf[i] === 0 ? [scores[i]!] : []));
  const bar = thresholdFor(heldBenign, TARGET_FP);
  const a = texts.filter((t, i) => held(t) && (scores[i]! >= bar || t.certain)).length;
  const na = texts.filter(held).length;
  losoRows.push([name, String(na), pct(a, na), String(heldBenign.length)]);
}
console.log(textTable(['attacks left out of training', 'texts', 'flagged', 'benign texts held out'], losoRows));

console.log('fitting on everything...');
const final = train(texts);
// Move the bias so that the default threshold's logit falls at the cross-validated cut.
const target = Math.log(DEFAULT_INJECTION_THRESHOLD / (1 - DEFAULT_INJECTION_THRESHOLD));
const bias = final.b - cut + target;
// Word weights as signed bytes; the kinds' few large weights exactly, so they do not coarsen the bytes' scale.
let max = 0;
for (let i = 0; i < HASHED; i++) max = Math.max(max, Math.abs(final.w[i]!));
const scale = max / 127;
const q = new Int8Array(HASHED);
for (let i = 0; i < HASHED; i++) q[i] = Math.round(final.w[i]! / scale);
const kindWeights = RULE_SIGNAL_KINDS.map((_, k) => Number(final.w[HASHED + k]!.toFixed(4)));
const nonzero = q.filter((x) => x !== 0).length;
console.log(`${nonzero} of ${HASHED} word weights are not zero; scale ${scale.toExponential(3)}`);

if (!values['no-write']) {
  const b64 = Buffer.from(q.buffer).toString('base64');
  const source = [
    '// Written by `npm run train:injection -- <corpus-dir>` (scripts/train-injection-model.ts); do not edit.',
    `// ${texts.length} texts, ${texts.reduce((n, t) => n + t.windows.length, 0)} windows; ${EPOCHS} epochs, rate ${RATE}, L2 ${L2}, seed ${SEED}.`,
    `export const BIAS = ${bias};`,
    `export const SCALE = ${scale};`,
    '/** One signed byte per hashed word feature (scan.ts HASHED), base64; times SCALE. */',
    `export const WEIGHTS =\n  '${b64}';`,
    '/** One weight per signal kind, in the order of RULE_SIGNAL_KINDS (rules.ts). */',
    `export const KIND_WEIGHTS: readonly number[] = [${kindWeights.join(', ')}];`,
    '',
  ].join('\n');
  writeFileSync(WEIGHTS_FILE, await formatSource(source, WEIGHTS_FILE, 'typescript'));
  console.log(`wrote ${path.relative(process.cwd(), WEIGHTS_FILE)}`);
}

if (!values['no-docs']) {
  const body = [
    '## Injection model training',
    '',
    `Written by \`npm run train:injection -- <corpus-dir>\` on ${runDate()}, on ${describeMachine()}; each run replaces this section. ` +
      `The detector's linear model is trained on the development corpus (${texts.filter((t) => t.item.attack).length} attacks, ${texts.filter((t) => !t.item.attack).length} benign texts). ` +
      `These figures are the honest ones for the model: every text below is scored by a model whose training did not include it. ` +
      `The threshold is set on the cross-validated benign scores for at most ${TARGET_FP * 100}% of them and ${PAGE_FP * 100}% of the web pages; the final model, fitted on everything, puts the default threshold (${DEFAULT_INJECTION_THRESHOLD}) there. ` +
      `A text counts as flagged as the detector flags it: its model score at or above the threshold, or a signal of weight ${CERTAIN} or more in it.`,
    '',
    `${FOLDS}-fold cross-validation (folds drawn within each file, whole texts), by file:`,
    '',
    markdownTable(['set', 'kind', 'texts', 'flagged'], cvRows),
    '',
    `All attacks: ${cvAll[0]} flagged; all benign texts: ${cvAll[1]} flagged.`,
    '',
    'A whole benchmark left out of training (with the benign texts of one fold, which set the threshold of that run):',
    '',
    markdownTable(['attacks left out of training', 'texts', 'flagged', 'benign texts held out'], losoRows),
  ].join('\n');
  writeMarkedSection(DOC, 'train:injection', '# Benchmarks\n', await formatMarkdown(body, DOC));
  console.log('wrote the train:injection section of docs/benchmarks.md');
}
