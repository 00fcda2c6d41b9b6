/**
 * Evaluation of the injection detector on data its model never saw, beside
 * two detectors from the npm registry on the same texts:
 *
 *   npm run eval:injection -- <corpus-dir> [--no-peers] [--no-docs]
 *
 * Leave one source out (eval/injection-folds.ts): for each of the corpus's
 * six attack sources, a model is trained exactly as the shipped one is
 * (eval/injection-training.ts), but without that source's attacks and
 * without three folds of the benign texts and pages; it is calibrated on two
 * of those folds and tested on the third, and on the left-out source's
 * attacks: alone, placed inside one of the test fold's real pages (its
 * visible text, at a random sentence or line boundary), and placed inside a
 * PubMed abstract. WASP's attacks (evaluation only) are tested in every run;
 * their row is the mean. Every benign text and page is tested once, in the
 * run of its fold, reviews and abstracts (evaluation only) included; a page
 * counts as the citation scan reads it (its visible text, its scripts' JSON
 * and its markup texts: the highest score).
 *
 * The peers: llm_guardrail (its injection or jailbreak check flags) and
 * vard (moderate preset, no length limit, flagged when its parse is not
 * safe), each at its own verdict, on the same texts (they are not trained
 * here, so one pass serves all runs). Speed: this detector's CPU time over
 * the visible text of every page, in MB of text per CPU second.
 *
 * Prints the tables and writes the eval:injection section of
 * docs/benchmarks.md unless `--no-docs`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandArgs } from './command-args.js';
import { readCorpus, SOURCES } from './injection-data.js';
import {
  CALIBRATION_MARGIN,
  FOLDS,
  PAGE_TARGET,
  TARGETS,
  TEXT_TARGET,
  calibrationFolds,
  prepare,
  runModel,
  textLogit,
} from './injection-folds.js';
import { asModel, embed, logitOf, pageTexts, sample } from './injection-training.js';
import {
  describeMachine,
  formatMarkdown,
  markdownTable,
  percent,
  runDate,
  textTable,
  writeMarkedSection,
} from './machine.js';
import { rng } from './random.js';
import { detectInjection } from '../src/safety/injection/index.js';

const DOC = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

const { values, positionals, usage } = commandArgs(
  'eval:injection',
  ['usage: npm run eval:injection -- <corpus-dir> [--no-peers] [--no-docs]'],
  {
    options: { help: { type: 'boolean' }, 'no-peers': { type: 'boolean' }, 'no-docs': { type: 'boolean' } },
    allowPositionals: true,
  },
);
if (positionals.length !== 1) usage('expected one corpus folder');
const corpusDir = path.resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]!);

type Flag = (text: string) => Promise<boolean> | boolean;
interface Peer {
  name: string;
  flag: Flag;
}

async function peers(): Promise<Array<Peer | { name: string; error: string }>> {
  const out: Array<Peer | { name: string; error: string }> = [];
  try {
    const guardrail = (await import('llm_guardrail' as string)) as {
      checkInjection: (t: string) => Promise<{ detected: boolean }>;
      checkJailbreak: (t: string) => Promise<{ detected: boolean }>;
    };
    await guardrail.checkInjection('warm up');
    out.push({
      name: 'llm_guardrail 2.1.2',
      flag: async (text) => {
        const [i, j] = await Promise.all([guardrail.checkInjection(text), guardrail.checkJailbreak(text)]);
        return i.detected || j.detected;
      },
    });
  } catch (err) {
    out.push({ name: 'llm_guardrail 2.1.2', error: (err as Error).message });
  }
  try {
    const { default: vard } = (await import('@andersmyrmel/vard')) as unknown as {
      default: { moderate: () => { maxLength: (n: number) => { safeParse: (t: string) => { safe: boolean } } } };
    };
    const checker = vard.moderate().maxLength(Number.MAX_SAFE_INTEGER);
    out.push({ name: 'vard 1.2.0', flag: (text) => !checker.safeParse(text).safe });
  } catch (err) {
    out.push({ name: 'vard 1.2.0', error: (err as Error).message });
  }
  return out;
}

const corpus = readCorpus(corpusDir, usage);
const started = Date.now();
const prepared = prepare(corpus, (s) => console.log(s));
const abstracts = corpus.benign.filter((b) => b.kind === 'abstract').map((b) => b.text);
const random = rng(20261203);

/** A test text, and whether each detector flags it. */
interface Case {
  text: string;
  ours: boolean;
}
/** Per source: its attacks alone, in a page, in an abstract. */
const cases = new Map<string, { alone: Case[]; page: Case[]; abstract: Case[] }>();
const benignCases = new Map<string, Case[]>();
const pageCases: Array<{ texts: string[]; ours: boolean }> = [];
const cuts: string[] = [];

for (let k = 0; k < FOLDS; k++) {
  const left = SOURCES[k]!;
  console.log(`run ${k + 1} of ${FOLDS}: ${left} left out...`);
  const { weights, cut } = runModel(prepared, left, [k], calibrationFolds(k));
  cuts.push(cut.toFixed(2));
  const m = asModel(weights);
  const flagged = (text: string): boolean => {
    const s = sample(text, 1);
    return s.certain || logitOf(s, m) >= cut;
  };
  const hosts = prepared.pages.filter((p) => p.fold === k && p.text.length >= 500);
  corpus.attacks.forEach((a, i) => {
    const tested = a.source === left || a.source === 'wasp';
    if (!tested) return;
    // WASP is tested in every run, a sixth of it each, so each of its attacks is tested once.
    if (a.source === 'wasp' && i % FOLDS !== k) return;
    const row = cases.get(a.source) ?? { alone: [], page: [], abstract: [] };
    const alone = prepared.alone[i]!;
    row.alone.push({ text: a.text, ours: alone.certain || logitOf(alone, m) >= cut });
    const inPage = embed(hosts[Math.floor(random() * hosts.length)]!.text, a.text, random);
    row.page.push({ text: inPage, ours: flagged(inPage) });
    const inAbstract = embed(abstracts[Math.floor(random() * abstracts.length)]!, a.text, random);
    row.abstract.push({ text: inAbstract, ours: flagged(inAbstract) });
    cases.set(a.source, row);
  });
  corpus.benign.forEach((b, i) => {
    if (prepared.benignFold[i] !== k) return;
    const x = textLogit(prepared.benign[i]!, weights);
    const list = benignCases.get(b.kind) ?? [];
    list.push({ text: b.text, ours: x.certain || x.logit >= cut });
    benignCases.set(b.kind, list);
  });
  prepared.pages.forEach((page, i) => {
    if (page.fold !== k) return;
    const x = textLogit(page.samples, weights);
    pageCases.push({ texts: pageTexts(corpus.pages[i]!.html), ours: x.certain || x.logit >= cut });
  });
}

// Speed: the shipped detector's CPU time over the pages' visible text, before the peers are loaded
// (their models would share its heap), the median of three passes after a warm-up.
const visible = prepared.pages.map((p) => p.text);
const bytes = visible.reduce((n, t) => n + Buffer.byteLength(t), 0);
for (const t of visible.slice(0, 50)) detectInjection(t);
const passes = [0, 1, 2].map(() => {
  const cpu0 = process.cpuUsage();
  for (const t of visible) detectInjection(t);
  const cpu = process.cpuUsage(cpu0);
  return bytes / 1e6 / ((cpu.user + cpu.system) / 1e6);
});
const mbs = passes.sort((a, b) => a - b)[1]!;

// The peers on the same texts.
const peerList = values['no-peers'] ? [] : await peers();
const peerNames = peerList.map((p) => p.name);
const peerFlags = new Map<string, Map<string, boolean>>();
for (const p of peerList) {
  const flags = new Map<string, boolean>();
  peerFlags.set(p.name, flags);
  if ('error' in p) continue;
  console.log(`running ${p.name}...`);
  const run = async (text: string): Promise<boolean> => {
    const known = flags.get(text);
    if (known !== undefined) return known;
    const f = await p.flag(text);
    flags.set(text, f);
    return f;
  };
  for (const row of cases.values()) for (const c of [...row.alone, ...row.page, ...row.abstract]) await run(c.text);
  for (const list of benignCases.values()) for (const c of list) await run(c.text);
  for (const page of pageCases) for (const t of page.texts) await run(t);
}
const peerFlag = (name: string, text: string): boolean | undefined => peerFlags.get(name)?.get(text);
const peerError = (name: string): string | undefined => {
  const p = peerList.find((x) => x.name === name);
  return p !== undefined && 'error' in p ? p.error : undefined;
};

const pct = (list: readonly Case[], by: (c: Case) => boolean | undefined, digits = 1): string =>
  list.length === 0 ? '–' : percent(list.filter((c) => by(c) === true).length, list.length, digits);
const theirs = (name: string) => (c: Case) => (peerError(name) === undefined ? peerFlag(name, c.text) : undefined);

// Recall, by source.
const recallHeader = [
  'left-out source',
  'attacks',
  'alone',
  'in a page',
  'in an abstract',
  ...peerNames.map((n) => `${n}: alone / page / abstract`),
];
const recallRows: string[][] = [];
const sourceOrder = [...SOURCES, 'wasp'];
const all = { alone: [] as Case[], page: [] as Case[], abstract: [] as Case[] };
for (const source of sourceOrder) {
  const row = cases.get(source);
  if (row === undefined) continue;
  all.alone.push(...row.alone);
  all.page.push(...row.page);
  all.abstract.push(...row.abstract);
  recallRows.push([
    source === 'wasp' ? 'wasp (evaluation only, in every run)' : source,
    String(row.alone.length),
    pct(row.alone, (c) => c.ours),
    pct(row.page, (c) => c.ours),
    pct(row.abstract, (c) => c.ours),
    ...peerNames.map((n) =>
      peerError(n) !== undefined
        ? 'fails'
        : [row.alone, row.page, row.abstract].map((l) => pct(l, theirs(n))).join(' / '),
    ),
  ]);
}
const meanOf = (
  pick: (r: { alone: Case[]; page: Case[]; abstract: Case[] }) => Case[],
  by: (c: Case) => boolean | undefined,
): string => {
  const rates = sourceOrder
    .map((s) => cases.get(s))
    .filter((r) => r !== undefined)
    .map((r) => {
      const l = pick(r!);
      return l.filter((c) => by(c) === true).length / Math.max(l.length, 1);
    });
  return `${((100 * rates.reduce((a, b) => a + b, 0)) / Math.max(rates.length, 1)).toFixed(1)}%`;
};
recallRows.push([
  'mean of the sources',
  String(all.alone.length),
  meanOf(
    (r) => r.alone,
    (c) => c.ours,
  ),
  meanOf(
    (r) => r.page,
    (c) => c.ours,
  ),
  meanOf(
    (r) => r.abstract,
    (c) => c.ours,
  ),
  ...peerNames.map((n) =>
    peerError(n) !== undefined
      ? 'fails'
      : [
          meanOf((r) => r.alone, theirs(n)),
          meanOf((r) => r.page, theirs(n)),
          meanOf((r) => r.abstract, theirs(n)),
        ].join(' / '),
  ),
]);

// False positives, by kind.
const fpHeader = ['benign kind', 'texts', 'goal', 'cosci-safety', ...peerNames];
const fpRows: string[][] = [];
const pageRow: Case[] = pageCases.map((p) => ({ text: p.texts.join('\n'), ours: p.ours }));
const pagePeer = (name: string): string =>
  peerError(name) !== undefined
    ? 'fails'
    : percent(pageCases.filter((p) => p.texts.some((t) => peerFlag(name, t) === true)).length, pageCases.length, 1);
fpRows.push([
  'cited page (as the citation scan reads it)',
  String(pageRow.length),
  percent(PAGE_TARGET, 1, 1),
  pct(pageRow, (c) => c.ours),
  ...peerNames.map(pagePeer),
]);
const GOALS: Record<string, number | undefined> = { ...TARGETS, abstract: TEXT_TARGET, review: 0.005 };
for (const [kind, list] of [...benignCases].sort((a, b) => a[0].localeCompare(b[0]))) {
  const goal = GOALS[kind];
  const evalOnly = corpus.benign.some((b) => b.kind === kind && b.evalOnly);
  fpRows.push([
    evalOnly ? `${kind} (evaluation only)` : kind,
    String(list.length),
    goal === undefined ? '–' : percent(goal, 1, 1),
    pct(list, (c) => c.ours, 2),
    ...peerNames.map((n) => (peerError(n) !== undefined ? 'fails' : pct(list, theirs(n), 2))),
  ]);
}

console.log(
  `\n${corpus.attacks.length} attacks, ${corpus.benign.length} benign texts, ${corpus.pages.length} pages; cuts ${cuts.join(', ')}`,
);
console.log('\nrecall on attack sources left out of training (each detector at its own verdict):');
console.log(textTable(recallHeader, recallRows));
console.log('\nfalse positives, each benign text tested in the run of its fold:');
console.log(textTable(fpHeader, fpRows));
console.log(
  `\nspeed: ${mbs.toFixed(1)} MB/s of CPU time over ${(bytes / 1e6).toFixed(1)} MB of page text; ${((Date.now() - started) / 1000).toFixed(0)} s in all`,
);

if (!values['no-docs']) {
  const body = [
    '## Injection detection',
    '',
    `Written by \`npm run eval:injection -- <corpus-dir>\` on ${runDate()}, on ${describeMachine()}; each run replaces this section. ` +
      `Every figure is of texts the model that scored them never saw. For each of the development corpus's six attack sources, a model is trained as the shipped one is but without that source, and without three of ${FOLDS} folds of the benign texts and pages (drawn by group, so rows built from one template stay together); two of those folds set its threshold (for each kind with a goal, at most ${CALIBRATION_MARGIN} of that share at or above it) and the third is its test fold. The rules were written from the threat model and from reading the attacks of every source, so these figures are blind for the model's part and not for the rules'. ` +
      "The left-out source's attacks are tested alone, placed inside one of the test fold's real pages (its visible text, at a random sentence or line boundary) and inside a PubMed abstract; WASP's attacks, evaluation only, are tested across the runs. " +
      'Every benign text and page is tested once, in the run of its fold; a page counts as the citation scan reads it (visible text, scripts’ JSON, markup texts). ' +
      'The synthetic texts of eval/injection-synthetic.ts are in every run’s training and in no test. ' +
      'llm_guardrail and vard run on the very same texts at their own verdicts; neither is trained here.',
    '',
    'Recall on attack sources left out of training:',
    '',
    markdownTable(recallHeader, recallRows),
    '',
    'False positives (each detector at its own verdict):',
    '',
    markdownTable(fpHeader, fpRows),
    '',
    `Speed of the shipped detector: ${mbs.toFixed(1)} MB/s of CPU time over the visible text of the ${corpus.pages.length} pages (${(bytes / 1e6).toFixed(1)} MB), the median of three passes, measured before the peers are loaded. Goal: at least 20 MB/s.`,
  ].join('\n');
  writeMarkedSection(DOC, 'eval:injection', '# Benchmarks\n', await formatMarkdown(body, DOC));
  console.log('\nwrote the eval:injection section of docs/benchmarks.md');
}
