/**
 * The exit codes of docs/cli.md, as a script sees them: 0 may proceed, 3
 * blocked, 4 held (a quarantine, a degraded verdict, a report that may not
 * be published, an unverified citation), 1 refused, 5 not decided.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCliHarness, type CliHarness } from '../support/cli.js';
import { startPageServer, type PageServer } from '../support/page-server.js';
import { freePort } from '../support/processes.js';

let commands: CliHarness;
let pages: PageServer;

beforeAll(async () => {
  [commands, pages] = await Promise.all([startCliHarness(), startPageServer()]);
  pages.page('/paper', '<html><body><p>Kinase X phosphorylates Y in budding yeast.</p></body></html>');
});
afterAll(async () => {
  await Promise.all([commands.stop(), pages.close()]);
});

const cli = (args: string[], input?: string) => commands.run(args, input);

describe('verdicts', () => {
  it('submit goal --wait: 0 allow, 4 quarantine, 3 block', async () => {
    const [allowed, held, blocked] = await Promise.all([
      cli(['submit', 'goal', '--id', 'ex-g1', '--text', 'Study yeast metabolism', '--wait']),
      cli(['submit', 'goal', '--id', 'ex-g2', '--text', 'Gain of function @@dual_use_bio@0.9@@', '--wait']),
      cli(['submit', 'goal', '--id', 'ex-g3', '--text', 'Nerve agent @@cbrn@0.99@@', '--wait']),
    ]);
    expect([allowed.code, held.code, blocked.code]).toEqual([0, 4, 3]);
    expect(JSON.parse(held.stdout).verdict.action).toBe('quarantine');
  });

  it('classify: 4 for a quarantine, and for the degraded verdict of a run without an API key', async () => {
    const held = await cli(['classify'], 'Gain of function @@dual_use_bio@0.8@@');
    expect(held.code).toBe(4);
    const env = { ...commands.env };
    delete (env as Record<string, string | undefined>).ANTHROPIC_API_KEY;
    const degraded = await runCli(['classify'], { env, input: 'Kinase X phosphorylates Y.' });
    expect(degraded.code).toBe(4);
    expect(JSON.parse(degraded.stdout)).toMatchObject({ action: 'quarantine', degraded: true, reason: 'no_api_key' });
  });

  it('submit report --wait: 4 when its own verdict holds it, 0 when it may be published', async () => {
    const [held, cleared] = await Promise.all([
      cli(
        ['submit', 'report', '--wait'],
        JSON.stringify({ reportId: 'ex-rep-1', sections: [{ text: 'Findings @@dual_use_bio@0.9@@' }] }),
      ),
      cli(['submit', 'report', '--wait'], JSON.stringify({ reportId: 'ex-rep-2', sections: [{ text: 'Intro.' }] })),
    ]);
    expect(held.code).toBe(4);
    expect(JSON.parse(held.stdout)).toMatchObject({
      outcome: 'blocked',
      publishable: false,
      blockedBy: 'report_verdict',
    });
    expect(cleared.code).toBe(0);
    expect(JSON.parse(cleared.stdout)).toMatchObject({ outcome: 'cleared', publishable: true });
  });

  it('submit --wait with no worker on the queue: WAIT_TIMEOUT, exit 5, within the bound', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cosci-nowork-')), 'cosci-safety.toml');
    writeFileSync(file, `[redis]\nprefix = "${commands.h.config.redis.prefix}-idle"\n`);
    const r = await runCli(
      ['submit', 'goal', '--id', 'ex-g4', '--text', 'Study yeast', '--wait', '--timeout', '1500'],
      {
        env: { ...commands.env, COSCI_SAFETY_CONFIG: file },
      },
    );
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /^cosci-safety: WAIT_TIMEOUT: no result for goal ex-g4 within \d+ ms; is a worker running\?\n$/,
    );
    expect(r.elapsedMs).toBeLessThan(1500 + 10_000);
  });
});

describe('publish review', () => {
  it('publishes a review.recorded job whose citations the worker checks', async () => {
    const review = {
      reviewId: 'ex-r1',
      hypothesisId: 'ex-h1',
      evidence: [{ claim: 'X binds Y', url: 'http://127.0.0.1:9/paper', excerpt: 'Kinase X phosphorylates Y' }],
    };
    const r = await cli(['publish', 'review'], JSON.stringify(review));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ jobId: 'review.ex-r1.r0', created: true });
    const events = await commands.h.waitForEvents((e) =>
      e.some((x) => x.type === 'review_verified' && (x.data as { reviewId: string }).reviewId === 'ex-r1'),
    );
    const unverified = events.find((e) => e.type === 'citation_unverified');
    expect(unverified?.data).toMatchObject({ reviewId: 'ex-r1', reason: 'blocked_address' });
  });
});

describe('verify', () => {
  let env: Record<string, string>;
  // Allowed, and nothing listens there: the connection is refused.
  let closed: number;
  beforeAll(async () => {
    closed = await freePort();
    const file = join(mkdtempSync(join(tmpdir(), 'cosci-verify-')), 'cosci-safety.toml');
    writeFileSync(file, `[citations]\nallow_private_hosts = ["localhost:${pages.port}", "localhost:${closed}"]\n`);
    env = { ...commands.env, COSCI_SAFETY_CONFIG: file };
  });
  const verify = (url: string, excerpt: string) => runCli(['verify', '--url', url, '--excerpt', excerpt], { env });

  it('0 on the page, 4 not on it, 1 an address it may not fetch, 5 a page it could not read', async () => {
    const [ok, missing, blocked, unreachable] = await Promise.all([
      verify(`${pages.base}/paper`, 'Kinase X phosphorylates Y'),
      verify(`${pages.base}/paper`, 'Kinase Z dephosphorylates W'),
      verify('http://10.0.0.1/paper', 'Kinase X'),
      verify(`http://localhost:${closed}/paper`, 'Kinase X'),
    ]);
    expect(JSON.parse(ok.stdout).status).toBe('ok');
    // The page holds nothing like it: its near miss says so.
    expect(JSON.parse(missing.stdout)).toMatchObject({
      status: 'unverified',
      reason: 'excerpt_not_found',
      detail: 'absent',
    });
    expect(JSON.parse(blocked.stdout)).toMatchObject({ status: 'fetch_failed', reason: 'blocked_address' });
    expect(JSON.parse(unreachable.stdout)).toMatchObject({ status: 'fetch_failed' });
    expect([ok.code, missing.code, blocked.code, unreachable.code]).toEqual([0, 4, 1, 5]);
  });
});
