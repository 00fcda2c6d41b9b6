/**
 * docs/classifier.md says what verdicts and metrics carry: the prompt
 * version in the form every verdict has it, and every value of the
 * classifier's metric labels, so a new failure kind or degraded reason is
 * documented when it is added.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CALL_FAILURE_KINDS } from '../../src/classifier/errors.js';
import { PROMPT_VERSION } from '../../src/safety/classification/prompt.js';
import { DEGRADED_REASONS } from '../../src/safety/classification/verdict.js';

const doc = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');
const classifier = doc('classifier.md');

/** The backticked words of the paragraph that starts with `lead`. */
function listAfter(text: string, lead: string): string[] {
  const at = text.indexOf(lead);
  expect(at, lead).toBeGreaterThanOrEqual(0);
  const paragraph = text.slice(at + lead.length).split('\n\n')[0]!;
  return [...paragraph.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
}

describe('docs/classifier.md', () => {
  it('names the prompt version as verdicts carry it', () => {
    const named = [...classifier.matchAll(/`(safety-[^`]*)`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(0);
    // Either the form (`safety-` and N hex digits) or the current version itself.
    for (const version of named) if (version !== 'safety-') expect(version).toBe(PROMPT_VERSION);
    const form = [...classifier.matchAll(/`safety-` and (\d+) hex\s+digits/g)].map((m) => Number(m[1]));
    expect(form.length).toBeGreaterThan(0);
    const digits = PROMPT_VERSION.slice('safety-'.length);
    expect(digits).toMatch(/^[0-9a-f]+$/);
    for (const n of form) expect(n).toBe(digits.length);
  });

  it('lists every outcome of a failed request and every degraded reason', () => {
    expect(listAfter(classifier, "A request's `outcome`, when it failed:").sort()).toEqual(
      [...CALL_FAILURE_KINDS].sort(),
    );
    expect(listAfter(classifier, "A degraded verdict's `reason`:").sort()).toEqual([...DEGRADED_REASONS].sort());
  });
});

describe('docs/operations.md', () => {
  it('says what to do about each degraded reason', () => {
    const runbook = doc('operations.md').split('### CosciSafetyClassifierDegraded')[1]!.split('\n### ')[0]!;
    const covered = new Set([...runbook.matchAll(/^- (.+?):/gm)].flatMap((m) => m[1]!.match(/[a-z_]+(?=`)/g) ?? []));
    for (const reason of DEGRADED_REASONS) expect(covered, reason).toContain(reason);
  });
});
