/** `cosci-safety events tail`, filtering by type, against real Redis. */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMain } from '../support/cli.js';
import { deleteKeys, REDIS_URL, testRedis, uniqueName } from '../support/redis.js';

const redis = testRedis();
const stream = uniqueName('tail-events');
let env: Record<string, string>;

beforeAll(() => {
  const file = join(mkdtempSync(join(tmpdir(), 'cosci-tail-')), 'cosci-safety.toml');
  writeFileSync(file, `[redis]\nevents_stream = "${stream}"\n[logging]\nlevel = "warn"\n`);
  env = { COSCI_SAFETY_CONFIG: file, REDIS_URL };
});
afterAll(async () => {
  await deleteKeys(redis, stream);
  redis.disconnect();
});

async function tail(
  ...args: string[]
): Promise<{ code: number; lines: Array<{ type: string; eventId: string }>; stderr: string }> {
  const { code, stdout: out, stderr: err } = await runMain(['events', 'tail', ...args], { env });
  const lines = out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; eventId: string });
  return { code, lines, stderr: err };
}

const add = (type: string, eventId: string) => redis.xadd(stream, '*', 'type', type, 'eventId', eventId, 'data', '{}');

describe('events tail --type', () => {
  it('keeps only the types named, comma-separated or repeated', async () => {
    const first = await add('hypothesis_assessed', 'a/1');
    await add('hypothesis_quarantined', 'q/1');
    await add('citation_unverified', 'c/1');
    await add('review_verified', 'v/1');
    await add('hypothesis_quarantined', 'q/2');
    await add('hypothesis_assessed', 'a/2');

    const comma = await tail('--type', 'hypothesis_quarantined,citation_unverified', '--count', '2');
    expect(comma.code).toBe(0);
    expect(comma.lines.map((l) => l.eventId)).toEqual(['c/1', 'q/2']);

    const repeated = await tail('--type', 'hypothesis_quarantined', '--type', 'review_verified');
    expect(repeated.lines.map((l) => l.eventId)).toEqual(['q/1', 'v/1', 'q/2']);

    const from = await tail('--from', first!, '--type', 'hypothesis_assessed', '--count', '5');
    expect(from.lines.map((l) => l.eventId)).toEqual(['a/1', 'a/2']);

    expect((await tail('--count', '2')).lines.map((l) => l.eventId)).toEqual(['q/2', 'a/2']);
  });

  it('names an unknown type in a usage error', async () => {
    const r = await tail('--type', 'hypothesis_quarantined,hypothesis_quarantine');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown event type 'hypothesis_quarantine'");
    expect(r.stderr).toContain('hypothesis_quarantined, hypothesis_blocked');
    expect((await tail('--type', '')).code).toBe(2);
  });

  it('--follow prints new events of the types named only', async () => {
    const p = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'events', 'tail', '--count', '1', '--follow', '--type', 'report_blocked'],
      { env: { ...process.env, ...env } },
    );
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => p.on('exit', resolve));
    try {
      // The command prints nothing until a report_blocked arrives: add entries
      // until it has started following and printed the first of them.
      const deadline = Date.now() + 20_000;
      let n = 0;
      while (!out.includes('\n') && Date.now() < deadline) {
        await add('report_cleared', `rc/${n}`);
        await add('report_blocked', `rb/${n}`);
        n++;
        await new Promise((r) => setTimeout(r, 200));
      }
      await add('report_blocked', 'rb/last');
      await new Promise<void>((resolve) => {
        const check = () => (out.includes('rb/last') ? resolve() : setTimeout(check, 20));
        check();
      });
    } finally {
      p.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; eventId: string });
    expect(new Set(lines.map((l) => l.type))).toEqual(new Set(['report_blocked']));
    // Each one once, in order, none skipped after the first.
    const ids = lines.map((l) => l.eventId);
    expect(ids.at(-1)).toBe('rb/last');
    const numbered = ids.slice(0, -1).map((id) => Number(id.slice(3)));
    expect(numbered).toEqual(Array.from({ length: numbered.length }, (_, i) => numbered[0]! + i));
  });
});
