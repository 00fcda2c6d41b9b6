/**
 * Evaluation of claim support (docs/citations.md#claim-support) on labelled
 * claim/evidence pairs, with the real model:
 *
 *   npm run eval:claims -- FILE [--concurrency N] [--no-docs]
 *
 * FILE is JSON Lines, one pair a line: `{"claim": "...", "evidence": "...",
 * "label": "supported" | "partially_supported" | "not_supported" | "contradicted"}`.
 * The evidence is the passage, cited whole as the excerpt; each pair goes
 * through the judge exactly as the worker builds it (buildClaimSupport, from
 * the configuration, without the answer cache), the claim split into
 * sentences and the passage cut to `citations.claim_support_window_chars`.
 *
 * Prints the confusion of label against verdict, the accuracy, and the two
 * figures that matter to a reader of the evidence: how often a claim the
 * passage does not support is called `supported` (false support), and how
 * often a supported claim is (recall of `supported`). Writes them into
 * docs/citations.md between the `eval-claims` markers, with what was
 * measured (the file, its digest, the model, the prompt version), unless
 * `--no-docs`.
 *
 * Without ANTHROPIC_API_KEY it measures nothing: one line,
 * `cosci-safety: NO_API_KEY: ...`, exit code 1. A file that cannot be read
 * is INPUT_UNREADABLE, a line that is not a pair PAYLOAD_INVALID naming the
 * line and the field (exit code 1); a bad command line exits 2.
 */
import { hash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { exitCodeOfError } from '../src/cli/exit-codes.js';
import { oneLine } from '../src/cli/run.js';
import { loadConfig } from '../src/config/load.js';
import { createLogger } from '../src/logging/logger.js';
import { buildClaimSupport } from '../src/runtime/builders.js';
import { CosciError } from '../src/errors.js';
import { CLAIM_PROMPT_VERSION, CLAIM_VERDICTS, SUPPORT_LEVELS, type ClaimVerdict } from '../src/safety/claims/index.js';
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

const DOC = fileURLToPath(new URL('../docs/citations.md', import.meta.url));

const PairSchema = z.strictObject({
  claim: z.string().min(1),
  evidence: z.string().min(1),
  label: z.enum(SUPPORT_LEVELS),
});
type Pair = z.infer<typeof PairSchema>;

/** The one line of a failure, as the command line prints it, and its exit code. */
function fail(err: CosciError): never {
  console.error(`cosci-safety: ${err.code}: ${oneLine(err.message)}`);
  process.exit(exitCodeOfError(err.code));
}

function readPairs(file: string): { pairs: Pair[]; sha256: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return fail(new CosciError('INPUT_UNREADABLE', `${file}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}`));
  }
  const pairs: Pair[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return fail(new CosciError('PAYLOAD_INVALID', `${file} line ${i + 1}: not JSON`));
    }
    const parsed = PairSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return fail(
        new CosciError('PAYLOAD_INVALID', `${file} line ${i + 1}: ${issue.path.join('.') || 'pair'}: ${issue.message}`),
      );
    }
    pairs.push(parsed.data);
  }
  if (pairs.length === 0) return fail(new CosciError('INPUT_EMPTY', `${file}: no claim/evidence pair`));
  return { pairs, sha256: hash('sha256', text, 'hex') };
}

async function main(): Promise<void> {
  const args = commandArgs(
    'eval:claims',
    [
      'usage: npm run eval:claims -- FILE [--concurrency N] [--no-docs]',
      '  FILE: JSON Lines of {"claim", "evidence", "label"}; label: supported, partially_supported, not_supported, contradicted',
      '  needs ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL, COSCI_SAFETY_CONFIG as the worker reads them)',
    ],
    {
      allowPositionals: true,
      options: {
        concurrency: { type: 'string', default: '4' },
        'no-docs': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    },
  );
  const [file, ...rest] = args.positionals;
  if (file === undefined) return args.usage('FILE is required');
  if (rest.length > 0) args.usage(`one FILE only, got ${args.positionals.length}`);
  const concurrency = Number(args.values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) args.usage('--concurrency must be a positive integer');

  const { pairs, sha256 } = readPairs(file);
  let config;
  try {
    config = loadConfig({ env: process.env }).config;
  } catch (err) {
    return fail(err as CosciError);
  }
  if (!config.anthropic.api_key) {
    return fail(
      new CosciError(
        'NO_API_KEY',
        'eval:claims measures the claim-support judge on the real model: set ANTHROPIC_API_KEY (nothing was measured)',
      ),
    );
  }
  const logger = createLogger({ level: 'warn', format: 'json', isTty: false });
  const checker = buildClaimSupport(config, { logger });

  const verdicts = new Array<ClaimVerdict>(pairs.length);
  const reasons = new Map<string, number>();
  let next = 0;
  const started = new Date();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, pairs.length) }, async () => {
      while (next < pairs.length) {
        const i = next++;
        const pair = pairs[i]!;
        const support = await checker.check({
          claim: pair.claim,
          excerpt: pair.evidence,
          text: pair.evidence,
          start: 0,
          end: pair.evidence.length,
        });
        verdicts[i] = support.verdict;
        if (support.reason) reasons.set(support.reason, (reasons.get(support.reason) ?? 0) + 1);
      }
    }),
  );

  const count = (label: string, verdict: string) =>
    pairs.filter((p, i) => p.label === label && verdicts[i] === verdict).length;
  const rows = SUPPORT_LEVELS.map((label) => [label, ...CLAIM_VERDICTS.map((v) => count(label, v))]);
  const correct = pairs.filter((p, i) => p.label === verdicts[i]).length;
  const unsupported = pairs.filter((p) => p.label !== 'supported').length;
  const falseSupport = pairs.filter((p, i) => p.label !== 'supported' && verdicts[i] === 'supported').length;
  const supported = pairs.length - unsupported;
  const found = pairs.filter((p, i) => p.label === 'supported' && verdicts[i] === 'supported').length;
  const unclear = verdicts.filter((v) => v === 'unclear').length;

  const header = ['label \\ verdict', ...CLAIM_VERDICTS];
  console.log(textTable(header, rows));
  const figures = [
    `accuracy ${percent(correct, pairs.length)} (${correct} of ${pairs.length})`,
    `false support ${percent(falseSupport, unsupported)} (${falseSupport} of ${unsupported} pairs not labelled supported)`,
    `recall of supported ${percent(found, supported)} (${found} of ${supported})`,
    `unclear ${unclear}${reasons.size > 0 ? ` (${[...reasons].map(([r, n]) => `${r} ${n}`).join(', ')})` : ''}`,
  ];
  for (const line of figures) console.log(line);
  if (args.values['no-docs']) return;

  const body = [
    `Written by \`npm run eval:claims -- ${path.basename(file)}\` on ${runDate(started)}, on ${describeMachine()}; each run replaces this part. ` +
      `Data: ${pairs.length} labelled claim/evidence pairs, \`${path.basename(file)}\` (SHA-256 \`${sha256.slice(0, 16)}…\`). ` +
      `Model \`${config.models.claim_support}\`, prompt version \`${CLAIM_PROMPT_VERSION}\`, window ${config.citations.claim_support_window_chars} characters, at most ${config.citations.claim_support_max_sentences} sentences a claim, no answer cache.`,
    '',
    markdownTable(header, rows),
    '',
    ...figures.map((f) => `- ${f}`),
  ].join('\n');
  writeMarkedSection(DOC, 'eval-claims', '', body);
  writeFileSync(DOC, await formatMarkdown(readFileSync(DOC, 'utf8'), DOC));
  console.log('\nwrote the eval-claims part of docs/citations.md');
}

main().catch((err: unknown) => {
  if (err instanceof CosciError) fail(err);
  console.error(`cosci-safety: INTERNAL: ${(err as Error).message?.split('\n')[0] ?? String(err)}`);
  process.exit(1);
});
