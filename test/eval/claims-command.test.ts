/**
 * `npm run eval:claims -- FILE`: without ANTHROPIC_API_KEY it measures
 * nothing and says so in one line, `cosci-safety: NO_API_KEY: ...`, exit
 * code 1; a bad file is refused naming the line and the field; and with a
 * key (the loopback Messages API here, never a figure for the docs) every
 * pair goes through the judge and the confusion and figures it prints are
 * those of the answers given.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOfError } from '../../src/cli/exit-codes.js';
import { claimSupport, quotedBlock, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';

const root = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'cosci-eval-claims-'));
const sample = join(root, 'eval/claims-sample.jsonl');
const ONE_LINE = /^cosci-safety: ([A-Z_]+): .+\n$/;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command as `npm run eval:claims --` runs it, in a process of its own, with `env` only. */
function evalClaims(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const base: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  return new Promise((resolve) => {
    execFile(
      join(root, 'node_modules/.bin/tsx'),
      [join(root, 'eval/claims.ts'), ...args],
      { cwd: dir, env: { ...base, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake.close();
});

describe('npm run eval:claims', () => {
  it('without ANTHROPIC_API_KEY prints one line, NO_API_KEY, and exits 1', async () => {
    const run = await evalClaims([sample]);
    expect(run.stderr).toMatch(ONE_LINE);
    expect(run.stderr).toMatch(/^cosci-safety: NO_API_KEY: .*ANTHROPIC_API_KEY/);
    expect(run.code).toBe(exitCodeOfError('NO_API_KEY'));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
  });

  it('refuses a file it cannot read, and a line that is not a pair, naming the line and field', async () => {
    const missing = await evalClaims([join(dir, 'none.jsonl')]);
    expect(missing.stderr).toMatch(/^cosci-safety: INPUT_UNREADABLE: .*none\.jsonl: ENOENT\n$/);
    expect(missing.code).toBe(1);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(
      bad,
      `${readFileSync(sample, 'utf8').split('\n')[0]}\n{"claim": "c", "evidence": "e", "label": "yes"}\n`,
    );
    const run = await evalClaims([bad]);
    expect(run.stderr).toMatch(ONE_LINE);
    expect(run.stderr).toMatch(/^cosci-safety: PAYLOAD_INVALID: .*bad\.jsonl line 2: label: /);
    expect(run.code).toBe(1);
    const usage = await evalClaims([]);
    expect(usage.stderr).toMatch(/^eval:claims: FILE is required\n/);
    expect(usage.code).toBe(2);
  });

  it('with a key, judges every pair and prints the confusion of the answers given', async () => {
    // The fake answers `supported` for every claim that names mice or the drug, `not_supported` otherwise.
    fake.setHandler((req) => {
      const sentence = quotedBlock(req.text, 'claim_sentence') ?? '';
      const verdict = /mice|drug/i.test(sentence) ? 'supported' : 'not_supported';
      return claimSupport({ verdict, rationale: 'fake' });
    });
    const run = await evalClaims([sample, '--no-docs'], {
      ANTHROPIC_API_KEY: 'sk-test-secret-key',
      ANTHROPIC_BASE_URL: fake.url,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const pairs = readFileSync(sample, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { claim: string; label: string });
    const sentences = pairs.reduce((n, p) => n + p.claim.split(/(?<=\.) (?=[A-Z])/).length, 0);
    expect(fake.requests).toHaveLength(sentences);
    const supported = pairs.filter((p) => p.label === 'supported');
    const found = supported.filter((p) => /mice|drug/i.test(p.claim)).length;
    expect(run.stdout).toContain(`recall of supported ${((100 * found) / supported.length).toFixed(1)}%`);
    const others = pairs.filter((p) => p.label !== 'supported');
    const wrong = others.filter((p) => /mice|drug/i.test(p.claim)).length;
    expect(run.stdout).toContain(`(${wrong} of ${others.length} pairs not labelled supported)`);
    expect(run.stdout).toMatch(
      /^label \\ verdict +supported +partially_supported +not_supported +contradicted +unclear$/m,
    );
    // The key never reaches the output.
    expect(run.stdout + run.stderr).not.toContain('sk-test-secret-key');
  });
});
