/**
 * Throughput of quoteUntrusted on large generated inputs:
 *
 *   npm run bench:quoting [-- --max-mb N] [--runs N] [--only TEXT] [--corpus DIR] [--no-docs]
 *
 * MB here is 1e6 UTF-16 code units of input (JavaScript string length), not
 * bytes. For each kind of input and each size (1, 4, 16, 64 MB, capped by
 * --max-mb) it reports the median MB/s of a few runs after a warm-up, and the
 * ratio of time per MB at the largest size to the smallest: near 1 is linear,
 * above 2 is flagged. A last table times single long runs of the characters
 * that the kinds above repeat in short runs, to show how one run scales.
 *
 * Injection detection is on by default in quoteUntrusted, and the tables
 * above measure it so. A further table compares detection on and off: each
 * ordinary generated kind at 4 MB (or --max-mb, if smaller) and, with
 * `--corpus DIR` (the injection corpus of eval:injection), real text quoted
 * one text per call as agents quote it: the ChemProt and SciCite sentences
 * of `benign/`, and the article text of `pages/readability/NAME/expected.html`.
 *
 * Writes its section of docs/benchmarks.md (between the bench:quoting
 * markers), keeping the other sections. `--only TEXT` measures only the kinds
 * and single runs whose name contains TEXT and writes nothing (for profiling,
 * e.g. `node --cpu-prof --import tsx bench/quoting.ts --only web --max-mb 4`).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gc } from './support.js';
import { KINDS, PROBES, PROBE_LENGTHS, type Kind } from './quoting-inputs.js';
import { quoteUntrusted } from '../src/safety/quoting/index.js';
import {
  describeMachine,
  formatMarkdown,
  markdownTable,
  runDate,
  textTable,
  writeMarkedSection,
} from '../eval/machine.js';
import { commandArgs } from '../eval/command-args.js';
import { loadInjectionCorpus } from '../eval/injection-corpus.js';

const DOC = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const SIZES_MB = [1, 4, 16, 64];
const MB = 1e6;
const GOAL_MBPS = 50;
const NONLINEAR = 2;
/** A point whose single run takes longer than this is measured once, and larger sizes of its kind are skipped. */
const SLOW_RUN_MS = 30_000;
const KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';

const parsed = commandArgs(
  'bench:quoting',
  ['usage: npm run bench:quoting [-- --max-mb N] [--runs N] [--only TEXT] [--corpus DIR] [--no-docs]'],
  {
    options: {
      'max-mb': { type: 'string', default: '64' },
      runs: { type: 'string', default: '5' },
      only: { type: 'string' },
      corpus: { type: 'string' },
      'no-docs': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  },
);
const usage: (message: string) => never = parsed.usage;
const MAX_MB = Number(parsed.values['max-mb']);
const RUNS = Number(parsed.values.runs);
if (!(MAX_MB >= 1)) usage(`--max-mb must be at least 1, got ${parsed.values['max-mb']}`);
if (!Number.isInteger(RUNS) || RUNS < 1) usage(`--runs must be a positive whole number, got ${parsed.values.runs}`);
const sizes = SIZES_MB.filter((s) => s <= MAX_MB);
const ONLY = parsed.values.only?.toLowerCase();
const chosen = (name: string): boolean => ONLY === undefined || name.toLowerCase().includes(ONLY);

// A collection between runs keeps one run's garbage out of the next one's time.

// ---------------------------------------------------------------- timing

let sink = 0;
function once(text: string, detect = true): number {
  const t0 = performance.now();
  const q = quoteUntrusted(text, { id: 'bench', key: KEY, detect });
  const ms = performance.now() - t0;
  sink += q.text.length;
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

interface Point {
  mb: number;
  units: number;
  ms: number;
  runs: number;
}

interface Result {
  kind: Kind;
  points: Point[];
  skipped: number[];
  ratio?: number;
}

const when = runDate();
const host = describeMachine();
const loadAtStart = os.loadavg()[0]!;
console.log(`quoteUntrusted throughput, ${when}; ${host}; load average ${loadAtStart.toFixed(1)}`);
console.log(`MB = 1e6 UTF-16 code units of input; median of up to ${RUNS} runs per point after a warm-up\n`);

// A general warm-up over every kind, so the first kind measured is not the one that pays for compilation.
for (const kind of KINDS.filter((k) => chosen(k.name))) {
  const small = kind.make(100_000);
  for (let i = 0; i < 3; i++) once(small);
}

const results: Result[] = [];
for (const kind of KINDS.filter((k) => chosen(k.name))) {
  const result: Result = { kind, points: [], skipped: [] };
  results.push(result);
  once(kind.make(MB));
  let tooSlow = false;
  for (const mb of sizes) {
    if (tooSlow) {
      result.skipped.push(mb);
      continue;
    }
    const text = kind.make(mb * MB);
    const runs = mb >= 16 ? Math.min(RUNS, 3) : RUNS;
    // Collect before the first run only: a forced collection before every run
    // throws away compiled code and makes the next runs slow, which is not what
    // a long-running worker sees.
    gc();
    const times = [once(text)];
    if (times[0]! > SLOW_RUN_MS) tooSlow = true;
    while (!tooSlow && times.length < runs) times.push(once(text));
    result.points.push({ mb, units: text.length, ms: median(times), runs: times.length });
    const p = result.points.at(-1)!;
    process.stderr.write(
      `  ${kind.name}, ${mb} MB: ${(p.units / MB / (p.ms / 1000)).toFixed(1)} MB/s (${times.length} run(s))\n`,
    );
  }
  const first = result.points[0];
  const last = result.points.at(-1);
  if (first && last && last !== first) result.ratio = last.ms / last.units / (first.ms / first.units);
}

const probeRows: Array<Array<string | number>> = [];
for (const probe of PROBES.filter((p) => chosen(p.name))) {
  once(probe.make(1000));
  const ms = PROBE_LENGTHS.map((n) => median([once(probe.make(n)), once(probe.make(n)), once(probe.make(n))]));
  // Exponent of the growth: time ∝ length^k between the shortest and the longest run.
  const k = Math.log(ms.at(-1)! / ms[0]!) / Math.log(PROBE_LENGTHS.at(-1)! / PROBE_LENGTHS[0]!);
  probeRows.push([probe.name, ...ms.map((t) => t.toFixed(1)), k.toFixed(2), k > 1.5 ? 'quadratic' : 'linear']);
}

// ---------------------------------------------------------------- detection on and off

/** Time to quote each text of `texts` once, one call per text. */
function each(texts: readonly string[], detect: boolean): number {
  const t0 = performance.now();
  for (const t of texts) sink += quoteUntrusted(t, { id: 'bench', key: KEY, detect }).text.length;
  return performance.now() - t0;
}

interface Compared {
  name: string;
  what: string;
  units: number;
  on: number;
  off: number;
}
const compared: Compared[] = [];
/** Medians of alternating runs, so that a change in the machine's load falls on both. */
function compare(name: string, what: string, texts: readonly string[]): void {
  const units = texts.reduce((n, t) => n + t.length, 0);
  each(texts, true);
  each(texts, false);
  gc();
  const on: number[] = [];
  const off: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    on.push(each(texts, true));
    off.push(each(texts, false));
  }
  compared.push({ name, what, units, on: median(on), off: median(off) });
  const c = compared.at(-1)!;
  process.stderr.write(
    `  ${name}: detection on ${(units / MB / (c.on / 1000)).toFixed(1)} MB/s, off ${(units / MB / (c.off / 1000)).toFixed(1)} MB/s\n`,
  );
}
const COMPARE_MB = Math.min(4, MAX_MB);
for (const kind of KINDS.filter((k) => !k.adversarial && chosen(k.name))) {
  compare(kind.name, `generated, one text of ${COMPARE_MB} MB`, [kind.make(COMPARE_MB * MB)]);
}
const corpusDir = parsed.values.corpus;
if (corpusDir !== undefined) {
  const read = (file: string): string => {
    try {
      return readFileSync(path.join(corpusDir, file), 'utf8');
    } catch (err) {
      return usage(`cannot read ${path.join(corpusDir, file)}: ${(err as Error).message}`);
    }
  };
  const items = loadInjectionCorpus(corpusDir, read);
  const science = items.filter((i) => i.set.startsWith('scibert')).map((i) => i.text);
  const pages = items.filter((i) => i.set === 'readability-pages').map((i) => i.text);
  if (chosen('science sentences') && science.length > 0)
    compare('science sentences (corpus)', `${science.length} ChemProt and SciCite sentences, one call each`, science);
  if (chosen('web pages') && pages.length > 0)
    compare('web pages (corpus)', `article text of ${pages.length} readability pages, one call each`, pages);
}

// ---------------------------------------------------------------- report

/** Kind names hold `<` and `&`, which Markdown would read as HTML. */
const mdEscape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\|/g, '\\|');

const load = `load average (1 min) ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end`;
const mbps = (p: Point): number => p.units / MB / (p.ms / 1000);
const header = [
  'kind',
  'input',
  ...sizes.map((s) => `${s} MB`),
  'time/MB, largest ÷ smallest',
  'linear',
  `≥ ${GOAL_MBPS} MB/s`,
];
const rows = results.map((r) => {
  const cells = sizes.map((mb) => {
    const p = r.points.find((x) => x.mb === mb);
    if (p) return mbps(p).toFixed(1);
    return r.skipped.includes(mb) ? 'skipped' : '–';
  });
  const largest = r.points.at(-1);
  const linear = r.ratio === undefined ? '–' : r.ratio > NONLINEAR ? 'NO' : 'yes';
  const goal = largest === undefined ? '–' : mbps(largest) >= GOAL_MBPS ? 'yes' : 'no';
  const input = r.kind.adversarial ? 'adversarial' : 'ordinary';
  return [r.kind.name, input, ...cells, r.ratio === undefined ? '–' : r.ratio.toFixed(2), linear, goal];
});
const probeHeader = ['single run', ...PROBE_LENGTHS.map((n) => `${n / 1000}k units, ms`), 'exponent', 'growth'];

console.log('MB/s of quoteUntrusted by input kind and size\n');
console.log(textTable(header, rows));
console.log('\nOne run of a construct, at growing length (median of 3, ms); exponent k in time ∝ length^k\n');
console.log(textTable(probeHeader, probeRows));
const slow = results.filter((r) => {
  const p = r.points.at(-1);
  return !r.kind.adversarial && p !== undefined && mbps(p) < GOAL_MBPS;
});
const nonlinear = results.filter((r) => r.ratio !== undefined && r.ratio > NONLINEAR);
console.log(
  `\nordinary text below ${GOAL_MBPS} MB/s at the largest size: ${slow.map((r) => r.kind.name).join('; ') || 'none'}` +
    `\nnon-linear (ratio > ${NONLINEAR}): ${nonlinear.map((r) => r.kind.name).join('; ') || 'none'}` +
    (results.some((r) => r.skipped.length > 0)
      ? `\nskipped: sizes after a single run took over ${SLOW_RUN_MS / 1000} s`
      : ''),
);
const compareHeader = ['input', 'what', 'detection on, MB/s', 'detection off, MB/s', 'on ÷ off'];
const compareRows = compared.map((c) => [
  c.name,
  c.what,
  (c.units / MB / (c.on / 1000)).toFixed(1),
  (c.units / MB / (c.off / 1000)).toFixed(1),
  (c.off / c.on).toFixed(2),
]);
console.log('\nInjection detection on (the default) and off\n');
console.log(textTable(compareHeader, compareRows));
console.log(load);
if (sink === 0) console.log('(no output)');

if (!parsed.values['no-docs'] && ONLY === undefined) {
  const docHeader = [
    '# Benchmarks',
    '',
    'Each section below is written by the command named in it, which replaces its own section on every run and ' +
      'leaves the others alone; the section states the machine and the date of its run. The machines are shared ' +
      'and noisy: compare figures as ratios within one run (one kind against another, one size against another), ' +
      'not across runs or machines.',
    '',
  ].join('\n');
  const body = [
    '## Quoting throughput',
    '',
    `Written by \`npm run bench:quoting\` on ${when}, on ${host}; ${load}. ` +
      `Throughput of \`quoteUntrusted\` in MB/s, where MB is 10^6 UTF-16 code units of input (string length, not ` +
      `bytes). Inputs are generated by the command with fixed seeds. Each point is the median of up to ${RUNS} runs ` +
      `(${Math.min(RUNS, 3)} at 16 MB and above) after a warm-up, with a garbage collection before the first run of each point (not before each run: that throws away compiled code); a point whose first run ` +
      `takes over ${SLOW_RUN_MS / 1000} s is measured once and the larger sizes of its kind are skipped. The ratio is ` +
      `time per MB at the largest size over time per MB at the smallest: near 1 is linear, over ${NONLINEAR} is ` +
      `flagged. Goal: at least ${GOAL_MBPS} MB/s on large inputs of ordinary text (pages, papers, prose, the text ` +
      `agents quote), and linear cost on every input. The adversarial kinds are built to take the slow path: dense ` +
      `disguised tags, whitespace runs inside brackets and invisible characters send the text through the full ` +
      `normaliser, which maps every tag back to the original characters.`,
    '',
    markdownTable(
      header,
      rows.map(([name, ...rest]) => [mdEscape(String(name)), ...rest]),
    ),
    '',
    'Single runs of one construct at growing length (ms, median of 3). The exponent k fits time ∝ length^k ' +
      'between the shortest and the longest run: 1 is linear, 2 quadratic (runs that take about a millisecond are ' +
      'dominated by fixed costs, so an exponent under 1 also means linear). These are the constructs that two kinds ' +
      'above repeat in short runs.',
    '',
    markdownTable(
      probeHeader,
      probeRows.map(([name, ...rest]) => [mdEscape(String(name)), ...rest]),
    ),
    '',
    'Injection detection is on by default (`detect: false` turns it off), and the tables above measure it on. ' +
      'Here, the same inputs quoted with detection on and off, alternating runs (median of ' +
      `${RUNS}); "on ÷ off" is the share of quoting's throughput that remains with detection on. ` +
      (corpusDir === undefined
        ? 'This run had no corpus folder, so generated kinds only.'
        : 'The corpus rows are real text from the corpus folder, quoted one text per call.'),
    '',
    markdownTable(
      compareHeader,
      compareRows.map(([name, ...rest]) => [mdEscape(String(name)), ...rest]),
    ),
    '',
  ].join('\n');
  writeMarkedSection(DOC, 'bench:quoting', docHeader, await formatMarkdown(body, DOC));
  console.log(`\nwrote the bench:quoting section of docs/benchmarks.md`);
}
