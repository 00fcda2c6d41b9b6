/** The quarantine command, as a scientist runs it, against real Redis and real workers. */
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

describe('quarantine command', () => {
  it('lists, shows, releases once, and refuses a second decision', async () => {
    await h.publisher.publishHypothesisSaved({
      hypothesisId: 'cli-q1',
      text: 'Risky @@dual_use_bio@0.9@@',
      revision: 3,
    });
    await h.waitForJob('hypothesis.saved', 'hypothesis.cli-q1.r3');

    const list = await cli(['quarantine', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^cli-q1\trevision 3\tquarantined\tdual_use_bio\tconfidence 0\.90/m);

    const missing = await cli(['quarantine', 'release', 'cli-q1', '--by', 'Dr Rao']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--note TEXT is required');

    const released = await cli(['quarantine', 'release', 'cli-q1', '--by', 'Dr Rao', '--note', 'control experiment']);
    expect(released.code).toBe(0);
    expect(JSON.parse(released.stdout).decision).toMatchObject({ decision: 'released', by: 'Dr Rao', revision: 3 });

    const again = await cli(['quarantine', 'confirm', 'cli-q1', '--by', 'Dr Lee', '--note', 'disagree']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('REVIEW_ALREADY_DECIDED');

    const shown = await cli(['quarantine', 'show', 'cli-q1']);
    expect(shown.code).toBe(0);
    const item = JSON.parse(shown.stdout);
    expect(item.state).toBe('released');
    expect(item.history.map((e: { by: string }) => e.by)).toEqual(['Dr Rao']);
    expect((await cli(['quarantine', 'list'])).stdout).not.toContain('cli-q1');
  });

  it('names the field of bad input', async () => {
    const r = await cli(['quarantine', 'release', 'cli-unknown', '--by', 'x<y>', '--note', 'n']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('REVIEW_INVALID');
    expect(r.stderr).toContain('by');
  });

  it('submit report --wait prints the redacted report, and exits 3 when it is blocked', async () => {
    await h.publisher.publishHypothesisSaved({
      hypothesisId: 'cli-rep-h',
      text: 'Risky @@dual_use_bio@0.9@@',
      revision: 1,
    });
    await h.waitForJob('hypothesis.saved', 'hypothesis.cli-rep-h.r1');
    const redacted = await cli(
      ['submit', 'report', '--wait'],
      JSON.stringify({
        reportId: 'cli-rep-1',
        sections: [{ text: 'Intro.' }, { text: 'HELD FINDINGS', hypothesisId: 'cli-rep-h' }],
      }),
    );
    expect(redacted.code).toBe(0);
    const result = JSON.parse(redacted.stdout);
    expect(result).toMatchObject({ outcome: 'redacted', publishable: true });
    expect(result.text).not.toContain('HELD FINDINGS');
    const blocked = await cli(
      ['submit', 'report', '--wait'],
      JSON.stringify({ reportId: 'cli-rep-2', sections: [{ text: 'Route @@weapons@0.9@@' }] }),
    );
    expect(blocked.code).toBe(3);
    expect(JSON.parse(blocked.stdout)).toMatchObject({ outcome: 'blocked', publishable: false });
  });
});
