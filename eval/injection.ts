/**
 * Evaluation of the injection detector beside two detectors from the npm
 * registry, on a corpus folder:
 *
 *   npm run eval:injection -- <corpus-dir> [--no-docs]
 *
 * Attacks: every text of `injection/*` (PurpleLlama's `user_input`, every
 * BIPIA instruction). Benign: every line of `benign/*` (`text`, or `context`
 * for the e-mails and tables) and the text of each page's
 * `pages/readability/NAME/expected.html` (the article a reader sees, through
 * the project's own htmlToText).
 *
 * For each detector: recall at 1% and at 0.1% false positives (the threshold
 * set just above the benign score that many benign texts may reach), ROC AUC,
 * its own flag rates where it has a verdict of its own, and MB/s over all the
 * texts in this process. For each npm detector, also this detector's recall
 * at that detector's own false-positive rate.
 *
 * Scores: this detector's `score`; llm_guardrail, the larger of its
 * injection and jailbreak confidences, flagged when either check flags;
 * vard (moderate preset, no length limit), the largest severity of the
 * threats it reports, flagged when its parse is not safe.
 *
 * Prints the tables and writes the eval:injection section of
 * docs/benchmarks.md unless `--no-docs`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { commandArgs } from './command-args.js';
import {
  describeMachine,
  formatMarkdown,
  markdownTable,
  percent,
  runDate,
  textTable,
  writeMarkedSection,
} from './machine.js';
import { loadInjectionCorpus } from './injection-corpus.js';
import { DEFAULT_INJECTION_THRESHOLD, detectInjection } from '../src/safety/injection/index.js';

const DOC = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

const { values, positionals, usage } = commandArgs(
  'eval:injection',
  ['usage: npm run eval:injection -- <corpus-dir> [--no-docs]'],
  { options: { help: { type: 'boolean' }, 'no-docs': { type: 'boolean' } }, allowPositionals: true },
);
if (positionals.length !== 1) usage('expected one corpus folder');
const corpusDir = positionals[0]!;

interface Verdict {
  score: number;
  /** The detector's own verdict, where it has one. */
  flagged: boolean;
}

interface Detector {
  name: string;
  /** What runs, for the table. */
  how: string;
  run: (text: string) => Promise<Verdict> | Verdict;
}

async function npmDetectors(): Promise<Array<Detector | { name: string; how: string; error: string }>> {
  const out: Array<Detector | { name: string; how: string; error: string }> = [];
  try {
    const guardrail = (await import('llm_guardrail' as string)) as {
      checkInjection: (t: string) => Promise<{ detected: boolean; confidence: number }>;
      checkJailbreak: (t: string) => Promise<{ detected: boolean; confidence: number }>;
    };
    await guardrail.checkInjection('warm up');
    out.push({
      name: 'llm_guardrail 2.1.2',
      how: 'TF-IDF + logistic regression, injection and jailbreak checks',
      run: async (text) => {
        const [i, j] = await Promise.all([guardrail.checkInjection(text), guardrail.checkJailbreak(text)]);
        return { score: Math.max(i.confidence, j.confidence), flagged: i.detected || j.detected };
      },
    });
  } catch (err) {
    out.push({ name: 'llm_guardrail 2.1.2', how: 'TF-IDF + logistic regression', error: (err as Error).message });
  }
  try {
    const { default: vard } = (await import('@andersmyrmel/vard')) as unknown as {
      default: {
        moderate: () => {
          maxLength: (n: number) => {
            safeParse: (t: string) => { safe: boolean; threats?: Array<{ severity: number }> };
          };
        };
      };
    };
    const checker = vard.moderate().maxLength(Number.MAX_SAFE_INTEGER);
    out.push({
      name: 'vard 1.2.0',
      how: 'rules, moderate preset',
      run: (text) => {
        const r = checker.safeParse(text);
        const score = (r.threats ?? []).reduce((m, t) => Math.max(m, t.severity), 0);
        return { score, flagged: !r.safe };
      },
    });
  } catch (err) {
    out.push({ name: 'vard 1.2.0', how: 'rules', error: (err as Error).message });
  }
  return out;
}

/** Recall when at most `fpRate` of the benign texts may score at or above the threshold. */
function recallAt(attackScores: number[], benignDesc: number[], fpRate: number): number {
  const allowed = Math.floor(fpRate * benignDesc.length);
  const bar = allowed < benignDesc.length ? benignDesc[allowed]! : -Infinity;
  return attackScores.filter((s) => s > bar).length / attackScores.length;
}

/** Area under the ROC curve: the chance an attack outscores a benign text, ties counted half. */
function auc(attackScores: number[], benignScores: number[]): number {
  const all = [...attackScores.map((s) => ({ s, a: 1 })), ...benignScores.map((s) => ({ s, a: 0 }))].sort(
    (x, y) => x.s - y.s,
  );
  let rankSum = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j < all.length && all[j]!.s === all[i]!.s) j++;
    const rank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (all[k]!.a === 1) rankSum += rank;
    i = j;
  }
  const p = attackScores.length;
  const n = benignScores.length;
  return (rankSum - (p * (p + 1)) / 2) / (p * n);
}

interface Run {
  name: string;
  how: string;
  verdicts?: Verdict[];
  seconds?: number;
  error?: string;
}

function read(file: string): string {
  try {
    return readFileSync(path.join(corpusDir, file), 'utf8');
  } catch (err) {
    return usage(`cannot read ${path.join(corpusDir, file)}: ${(err as Error).message}`);
  }
}

const items = loadInjectionCorpus(corpusDir, read);
const nAttacks = items.filter((i) => i.attack).length;
const nBenign = items.length - nAttacks;
const bytes = items.reduce((n, i) => n + Buffer.byteLength(i.text), 0);

const ours: Detector = {
  name: 'cosci-safety detectInjection',
  how: 'rules, lexicons and a linear model of hashed word n-grams, on the normalised view',
  run: (text) => {
    const d = detectInjection(text);
    return { score: d.score, flagged: d.suspected };
  },
};

const WARM_UP_MS = 20_000;
const runs: Run[] = [];
for (const d of [ours, ...(await npmDetectors())]) {
  if ('error' in d) {
    runs.push({ name: d.name, how: d.how, error: d.error });
    continue;
  }
  // Warm up each detector first, so that the timing is of compiled code for all three: a pass over the
  // texts, cut short after WARM_UP_MS (a slow detector is compiled long before then).
  const warmUntil = performance.now() + WARM_UP_MS;
  for (const item of items) {
    await d.run(item.text);
    if (performance.now() > warmUntil) break;
  }
  const verdicts: Verdict[] = [];
  const t0 = performance.now();
  for (const item of items) verdicts.push(await d.run(item.text));
  runs.push({ name: d.name, how: d.how, verdicts, seconds: (performance.now() - t0) / 1000 });
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const header = [
  'detector',
  'recall @ 1% FP',
  'recall @ 0.1% FP',
  'ROC AUC',
  'own flags: attacks',
  'own flags: benign',
  'MB/s',
];
const rows: string[][] = [];
const atTheirs: string[][] = [];
const oursRun = runs[0]!;
const score = (r: Run, attack: boolean): number[] =>
  r.verdicts!.filter((_, i) => items[i]!.attack === attack).map((v) => v.score);
const oursAttack = score(oursRun, true);
const oursBenignDesc = score(oursRun, false).sort((a, b) => b - a);
for (const r of runs) {
  if (r.verdicts === undefined) {
    rows.push([r.name, 'fails: ' + r.error!.slice(0, 80), '–', '–', '–', '–', '–']);
    continue;
  }
  const a = score(r, true);
  const b = score(r, false);
  const bDesc = [...b].sort((x, y) => y - x);
  const flagsA = r.verdicts.filter((v, i) => v.flagged && items[i]!.attack).length;
  const flagsB = r.verdicts.filter((v, i) => v.flagged && !items[i]!.attack).length;
  rows.push([
    r.name,
    pct(recallAt(a, bDesc, 0.01)),
    pct(recallAt(a, bDesc, 0.001)),
    auc(a, b).toFixed(3),
    percent(flagsA, nAttacks),
    percent(flagsB, nBenign, 2),
    (bytes / 1e6 / r.seconds!).toFixed(2),
  ]);
  if (r !== oursRun) {
    const theirFp = flagsB / nBenign;
    atTheirs.push([
      r.name,
      percent(flagsB, nBenign, 2),
      percent(flagsA, nAttacks),
      pct(recallAt(oursAttack, oursBenignDesc, theirFp)),
    ]);
  }
}

// Per set, this detector at its default threshold.
const sets = [...new Set(items.map((i) => i.set))];
const perSet = sets.map((set) => {
  const idx = items.map((it, i) => (it.set === set ? i : -1)).filter((i) => i >= 0);
  const flagged = idx.filter((i) => oursRun.verdicts![i]!.flagged).length;
  return [set, items[idx[0]!]!.attack ? 'attack' : 'benign', String(idx.length), percent(flagged, idx.length, 2)];
});

// Each attack placed in the middle of a web page's article text (at a line break), the page cycling:
// what a cited page that carries an injection looks like to the citation pipeline's scan.
const pageTexts = items.filter((i) => i.set === 'readability-pages').map((i) => i.text);
let insidePages = 0;
if (pageTexts.length > 0) {
  items
    .filter((i) => i.attack)
    .forEach((a, k) => {
      const page = pageTexts[k % pageTexts.length]!;
      const middle = page.indexOf('\n', Math.floor(page.length / 2));
      const at = middle < 0 ? Math.floor(page.length / 2) : middle;
      if (detectInjection(`${page.slice(0, at)}\n${a.text}\n${page.slice(at)}`).suspected) insidePages++;
    });
}
const insideLine =
  pageTexts.length === 0
    ? ''
    : `Each attack placed in the middle of one of the ${pageTexts.length} pages' article text (at a line break, the pages taken in turn), as a cited page that carries an injection is scanned: ${insidePages} of ${nAttacks} pages suspected (${percent(insidePages, nAttacks)}), against ${oursRun.verdicts!.filter((v, i) => v.flagged && items[i]!.attack).length} of the attacks alone. Both the attacks and the pages are in the model's training data.`;

// The smallest threshold with at most 1% of the benign texts at or above it.
const allowed = Math.floor(0.01 * oursBenignDesc.length);
const suggested = oursBenignDesc[allowed]!;

console.log(`${nAttacks} attacks, ${nBenign} benign texts, ${(bytes / 1e6).toFixed(2)} MB\n`);
console.log(textTable(header, rows));
console.log('\n' + textTable(['npm detector', 'its FP rate', 'its recall', 'our recall at its FP rate'], atTheirs));
console.log(`\nthis detector at the default threshold ${DEFAULT_INJECTION_THRESHOLD}:`);
console.log(textTable(['set', 'kind', 'texts', 'flagged'], perSet));
if (insideLine !== '') console.log(`\n${insideLine}`);
console.log(
  `\nscores of benign texts: 1% at or above ${suggested}; 0.1% at or above ${oursBenignDesc[Math.floor(0.001 * oursBenignDesc.length)]}`,
);

if (!values['no-docs']) {
  const body = [
    '## Injection detection',
    '',
    `Written by \`npm run eval:injection -- <corpus-dir>\` on ${runDate()}, on ${describeMachine()}; each run replaces this section. ` +
      `Development corpus: ${nAttacks} attacks (every text of \`injection/*\`: PurpleLlama prompt-injection cases and BIPIA text and code instructions) and ${nBenign} benign texts ` +
      `(ChemProt and SciCite sentences, BIPIA e-mails and tables, and the article text of the ${items.filter((i) => i.set === 'readability-pages').length} readability pages), ${(bytes / 1e6).toFixed(2)} MB in all. ` +
      `All three detectors run in the same process on the same texts, offline, each timed over one pass after a warm-up pass (cut short after ${WARM_UP_MS / 1000} s). A recall at a false-positive rate sets the threshold just above the score of the benign text at that rank; ties count against the detector. ` +
      `"Own flags" is each detector's own verdict: this detector's at its default threshold (${DEFAULT_INJECTION_THRESHOLD}), llm_guardrail's when its injection or jailbreak check flags, vard's when its moderate preset rejects the text. ` +
      "This detector's model was trained on this very corpus (`npm run train:injection`), so its figures here are figures on its training data and say little: " +
      'the cross-validated and leave-one-benchmark-out figures in the train:injection section above are the ones to expect on held-out data of the same kinds. The speed (MB/s) is measured here.',
    '',
    markdownTable(header, rows),
    '',
    "Each npm detector at its own false-positive rate, and this detector's recall when allowed the same rate:",
    '',
    markdownTable(['npm detector', 'its FP rate', 'its recall', 'our recall at its FP rate'], atTheirs),
    '',
    `This detector at its default threshold (${DEFAULT_INJECTION_THRESHOLD}), by file:`,
    '',
    markdownTable(['set', 'kind', 'texts', 'flagged'], perSet),
    ...(insideLine === '' ? [] : ['', insideLine]),
  ].join('\n');
  writeMarkedSection(DOC, 'eval:injection', '# Benchmarks\n', await formatMarkdown(body, DOC));
  console.log('\nwrote the eval:injection section of docs/benchmarks.md');
}
