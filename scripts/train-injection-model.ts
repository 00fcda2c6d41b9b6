/**
 * Trains the injection detector's model and writes it, with its header, to
 * src/safety/injection/model-weights.ts:
 *
 *   npm run train:injection -- <corpus-dir> [--no-write] [--no-docs]
 *
 * Data (eval/injection-data.ts): every attack of the corpus but those of
 * evaluation-only files, alone and placed inside an excerpt of a page's
 * text; the benign texts of every file but the evaluation-only ones, in
 * parts; the texts of the real pages as the citation scan reads them; and
 * the synthetic texts of eval/injection-synthetic.ts. The benign texts and
 * pages of CALIBRATION_FOLDS are held out of the fit: the threshold is set on
 * them (eval/injection-folds.ts calibrate), and the model's window biases
 * are moved so that the default threshold (0.7) falls there.
 *
 * The fit is deterministic: the same corpus and code give the same file.
 * What the model does on sources it never saw is measured by eval:injection,
 * which trains one model per left-out source the same way.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandArgs } from '../eval/command-args.js';
import { readCorpus } from '../eval/injection-data.js';
import { CALIBRATION_MARGIN, FOLDS, TARGETS, prepare, runModel, textLogit } from '../eval/injection-folds.js';
import { FIT, quantise } from '../eval/injection-training.js';
import {
  describeMachine,
  formatMarkdown,
  formatSource,
  markdownTable,
  percent,
  runDate,
  textTable,
  writeMarkedSection,
} from '../eval/machine.js';
import { CLASS_NAMES } from '../src/safety/injection/classes.js';
import { MODEL_FORMAT, type ModelFile } from '../src/safety/injection/model.js';
import { RULE_SIGNAL_KINDS } from '../src/safety/injection/rules.js';
import { HASHED, WINDOW_SIZES } from '../src/safety/injection/scan.js';
import { DEFAULT_INJECTION_THRESHOLD } from '../src/safety/injection/threshold.js';

const WEIGHTS_FILE = fileURLToPath(new URL('../src/safety/injection/model-weights.ts', import.meta.url));
const DOC = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
/** The folds held out of the shipped model's fit, to set its threshold on. */
const CALIBRATION_FOLDS = [0, 1];

const { values, positionals, usage } = commandArgs(
  'train:injection',
  ['usage: npm run train:injection -- <corpus-dir> [--no-write] [--no-docs]'],
  {
    options: { help: { type: 'boolean' }, 'no-write': { type: 'boolean' }, 'no-docs': { type: 'boolean' } },
    allowPositionals: true,
  },
);
if (positionals.length !== 1) usage('expected one corpus folder');
const corpusDir = path.resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]!);

const corpus = readCorpus(corpusDir, usage);
const started = Date.now();
const prepared = prepare(corpus, (s) => console.log(s));
console.log('fitting...');
const { weights, cut } = runModel(prepared, undefined, [], CALIBRATION_FOLDS);
// The biases move so that the default threshold's logit falls at the calibrated cut.
const shift = Math.log(DEFAULT_INJECTION_THRESHOLD / (1 - DEFAULT_INJECTION_THRESHOLD)) - cut;
const bias = weights.bias.map((b) => Number((b + shift).toFixed(6)));
const { scale, bytes } = quantise(weights);

// What the threshold does on the calibration fold, by kind (the model never saw these texts).
const rows: string[][] = [];
const byKind = new Map<string, { flagged: number; n: number }>();
const count = (kind: string, flagged: boolean): void => {
  const k = byKind.get(kind) ?? { flagged: 0, n: 0 };
  k.n++;
  if (flagged) k.flagged++;
  byKind.set(kind, k);
};
for (const page of prepared.pages)
  if (CALIBRATION_FOLDS.includes(page.fold)) {
    const x = textLogit(page.samples, weights);
    count('page (as cited)', x.certain || x.logit >= cut);
  }
corpus.benign.forEach((b, i) => {
  if (b.evalOnly || !CALIBRATION_FOLDS.includes(prepared.benignFold[i]!)) return;
  const x = textLogit(prepared.benign[i]!, weights);
  count(b.kind, x.certain || x.logit >= cut);
});
for (const [kind, { flagged, n }] of [...byKind].sort((a, b) => a[0].localeCompare(b[0]))) {
  const target = TARGETS[kind === 'page (as cited)' ? 'page' : (kind as keyof typeof TARGETS)];
  rows.push([
    kind,
    String(n),
    percent(flagged, n, 1),
    target === undefined ? '–' : `${percent(target * CALIBRATION_MARGIN, 1, 2)} (goal ${percent(target, 1, 1)})`,
  ]);
}
console.log(`\ncalibration folds ${CALIBRATION_FOLDS.join(' and ')} of ${FOLDS}, at the default threshold:`);
console.log(textTable(['kind', 'texts', 'flagged', 'target'], rows));

function revision(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}

const file: ModelFile = {
  format: MODEL_FORMAT,
  corpusDigest: corpus.digest,
  codeRevision: revision(),
  trainedOn: new Date().toISOString().slice(0, 10),
  windowSizes: [...WINDOW_SIZES],
  hashed: HASHED,
  kinds: [...RULE_SIGNAL_KINDS],
  classes: [...CLASS_NAMES],
  bias,
  kindWeights: [...weights.kinds].map((w) => Number(w.toFixed(4))),
  scale,
  words: Buffer.from(bytes.buffer).toString('base64'),
};
const nonzero = bytes.filter((x) => x !== 0).length;
console.log(
  `\n${nonzero} of ${HASHED} word weights are not zero; corpus ${corpus.digest.slice(0, 12)}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
);

if (!values['no-write']) {
  const source = [
    '// Written by `npm run train:injection -- <corpus-dir>` (scripts/train-injection-model.ts); do not edit.',
    `// ${corpus.attacks.length} attacks, ${corpus.benign.length} benign texts and ${corpus.pages.length} pages read; ${FIT.epochs} epochs, rate ${FIT.rate}, L2 ${FIT.l2}, seed ${FIT.seed}.`,
    "import type { ModelFile } from './model.js';",
    '',
    `export const MODEL_FILE: ModelFile = ${JSON.stringify(file)};`,
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
      `The shipped model is fitted on the development corpus's attacks (${corpus.attacks.filter((a) => !a.evalOnly).length}, evaluation-only files left out), its benign texts and pages but those of folds ${CALIBRATION_FOLDS.join(' and ')} of ${FOLDS} and the evaluation-only files, and the synthetic texts of eval/injection-synthetic.ts. ` +
      `Those two folds, which the fit never saw, set the threshold: for each kind with a goal, at most six tenths of that share at or above it (CALIBRATION_MARGIN: a threshold fitted to two folds holds less well on others); the default threshold (${DEFAULT_INJECTION_THRESHOLD}) is put there. ` +
      `The model file records the corpus digest (\`${corpus.digest.slice(0, 12)}…\`) and the code revision it was trained with. ` +
      'What it does on attack sources it never saw is in the eval:injection section.',
    '',
    markdownTable(['kind (calibration folds)', 'texts', 'flagged', 'target'], rows),
  ].join('\n');
  writeMarkedSection(DOC, 'train:injection', '# Benchmarks\n', await formatMarkdown(body, DOC));
  console.log('wrote the train:injection section of docs/benchmarks.md');
}
