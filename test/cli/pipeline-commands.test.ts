/** The publish, submit, events and classify commands, as a user runs them, against real Redis. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliHarness, type CliHarness } from '../support/cli.js';
import type { Harness } from '../support/pipeline.js';

let commands: CliHarness;
let h: Harness;

beforeAll(async () => {
  commands = await startCliHarness();
  h = commands.h;
});
afterAll(async () => {
  await commands.stop();
});

const cli = (args: string[], input?: string) => commands.run(args, input);

describe('pipeline commands', () => {
  it('publish hypothesis, then events tail shows its events; a second publish is a duplicate', async () => {
    const payload = JSON.stringify({ hypothesisId: 'cli-1', text: 'Risky @@dual_use_bio@0.9@@', revision: 1 });
    const first = await cli(['publish', 'hypothesis'], payload);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ jobId: 'hypothesis.cli-1.r1', created: true });
    expect(JSON.parse((await cli(['publish', 'hypothesis'], payload)).stdout).created).toBe(false);
    await h.waitForEvents((e) => e.length === 2);
    const tail = await cli(['events', 'tail', '--count', '5']);
    expect(tail.code).toBe(0);
    const lines = tail.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; data: { action: string } });
    expect(lines.map((l) => l.type)).toEqual(['hypothesis_assessed', 'hypothesis_quarantined']);
    expect(lines[0]!.data.action).toBe('quarantine');
  });

  it('publish hypothesis refuses other text under a revision already published: one line, exit code 1', async () => {
    const payload = { hypothesisId: 'cli-c', text: 'Kinase signalling in yeast.', revision: 1 };
    expect((await cli(['publish', 'hypothesis'], JSON.stringify(payload))).code).toBe(0);
    const r = await cli(['publish', 'hypothesis'], JSON.stringify({ ...payload, text: 'Other text.' }));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^cosci-safety: REVISION_CONFLICT: revision conflict: hypothesis cli-c revision 1 was published before with other content \(job hypothesis\.cli-c\.r1\); .*new revision$/,
      ),
    ]);
  });

  it('publish hypothesis rejects a bad payload naming the field', async () => {
    const r = await cli(['publish', 'hypothesis'], JSON.stringify({ hypothesisId: 'x' }));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/PAYLOAD_INVALID: invalid hypothesis\.saved payload: text: /);
    const notJson = await cli(['publish', 'hypothesis'], '{oops');
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/^cosci-safety: PAYLOAD_INVALID: publish hypothesis: not valid JSON: /);
  });

  it('submit goal --wait prints the verdict and exits 3 when blocked', async () => {
    const ok = await cli(['submit', 'goal', '--id', 'cli-g1', '--text', 'Study yeast metabolism', '--wait']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ goalId: 'cli-g1', verdict: { action: 'allow' } });
    const blocked = await cli(['submit', 'goal', '--id', 'cli-g2', '--text', 'Nerve agent @@cbrn@0.99@@', '--wait']);
    expect(blocked.code).toBe(3);
    expect(JSON.parse(blocked.stdout).verdict.action).toBe('block');
  });

  it('classify prints a verdict without Redis; a quarantine exits 4', async () => {
    const r = await cli(['classify', '--label', 'hypothesis'], 'Gain of function @@dual_use_bio@0.7@@');
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'quarantine', categories: ['dual_use_bio'], degraded: false });
    expect(r.stderr).not.toContain('sk-cli-secret');
  });

  it('stops with a message naming the key when the configuration is wrong', async () => {
    const saved = commands.env.COSCI_SAFETY_CONFIG;
    const { writeFileSync } = await import('node:fs');
    const bad = `${saved}.bad.toml`;
    writeFileSync(bad, '[safety]\nclassifier_quarantine_threshold = "high"\n');
    commands.env.COSCI_SAFETY_CONFIG = bad;
    const r = await cli(['worker']);
    commands.env.COSCI_SAFETY_CONFIG = saved!;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^cosci-safety: CONFIG_INVALID: invalid configuration in .*: safety\.classifier_quarantine_threshold: .*number[^\n]*\n$/,
    );
  });
});
