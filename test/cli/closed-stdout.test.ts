/**
 * `cosci-safety ... | head -1`: a reader that stops early closes the pipe,
 * and the command ends quietly, with exit code 141 (128 + SIGPIPE, the code
 * a shell gives a program a closed pipe ended; docs/cli.md#exit-codes),
 * where it used to print an EPIPE stack. Each command runs in a real shell
 * pipeline into a real `head`, with `pipefail` so that the command's own
 * exit code is the pipeline's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.js';
import { cliCommand } from '../support/cli.js';
import { deleteKeys, REDIS_URL, testRedis, uniqueName } from '../support/redis.js';

const redis = testRedis();
const name = uniqueName('closed-stdout');
const stream = `${name}:events`;
/** More than a pipe holds (64 KiB), so that some write comes after the reader is gone. */
const EVENTS = 3000;
let env: Record<string, string>;

beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'cosci-closed-')), 'cosci-safety.toml');
  writeFileSync(file, `[redis]\nprefix = "${name}"\nkey_prefix = "${name}"\nevents_stream = "${stream}"\n`);
  env = { ...(process.env as Record<string, string>), COSCI_SAFETY_CONFIG: file, REDIS_URL };
  delete env.COSCI_DEBUG;
  const pipeline = redis.pipeline();
  for (let i = 0; i < EVENTS; i++) {
    pipeline.xadd(stream, '*', 'type', 'hypothesis_assessed', 'eventId', `e/${i}`, 'data', JSON.stringify({ i }));
  }
  await pipeline.exec();
});
afterAll(async () => {
  await deleteKeys(redis, name);
  redis.disconnect();
});

/** Single quotes for the shell. */
const sh = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** `cosci-safety ARGS | READER` in bash with pipefail: the pipeline's exit code, and what the command and the reader printed. */
function pipeInto(
  args: string[],
  reader: string,
  input = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const command = [process.execPath, ...cliCommand(args, true)].map(sh).join(' ');
  return new Promise((resolve) => {
    const p = spawn('bash', ['-c', `set -o pipefail; ${command} | ${reader}`], { env });
    let stdout = '';
    let stderr = '';
    const killer = setTimeout(() => p.kill('SIGKILL'), 60_000);
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
    p.stdin.end(input);
  });
}

describe('stdout closed by its reader', () => {
  it.concurrent.each([
    ['events tail', ['events', 'tail', '--count', String(EVENTS)], ''],
    ['events tail --from -', ['events', 'tail', '--from', '-', '--count', String(EVENTS)], ''],
    // One write of 1 MB: the pipe takes 64 KiB of it, and head leaves.
    ['quote', ['quote', '--id', 'big'], 'Some untrusted text, again and again.\n'.repeat(30_000)],
  ])('%s | head -1 ends quietly, exit code 141', async (_, args, input) => {
    const r = await pipeInto(args, 'head -1', input);
    // Nothing but what the command prints there by design: quote's report, one JSON line.
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(
      lines.filter((l) => !(args[0] === 'quote' && l.startsWith('{"id":"big"'))),
      r.stderr,
    ).toEqual([]);
    expect(r.code).toBe(EXIT.output_closed);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
  });

  // A reader gone before the first line: `true` never reads.
  it.concurrent.each([
    ['quarantine list', ['quarantine', 'list']],
    ['events tail', ['events', 'tail', '--count', '5']],
    ['--help', ['--help']],
  ])('%s | true ends quietly, exit code 141', async (_, args) => {
    const r = await pipeInto(args, 'true');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.output_closed);
  });

  it('a reader that reads it all changes nothing: exit code 0', async () => {
    const r = await pipeInto(['events', 'tail', '--count', '3'], 'cat');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(3);
  });
});
