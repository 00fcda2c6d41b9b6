/**
 * `REDIS_URL=redis://host:6379/99` on a Redis with 16 databases: ioredis's
 * SELECT at connect fails, and ioredis went on in database 0, where another
 * deployment's queues and verdicts may be. Now every command and the worker
 * refuse it in one line, CONFIG_INVALID naming the database, and exit 1; a
 * database the server has is the one used.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startWorkerRuntime } from '../../src/runtime/worker-runtime.js';
import { runCli } from '../support/cli.js';
import { testConfig } from '../support/config.js';
import { until } from '../support/poll.js';
import { deleteKeys, REDIS_URL, uniqueName } from '../support/redis.js';

/** Past the 16 databases of Redis's default configuration (and of this test's Redis). */
const MISSING_DB = 99;
/** One that Redis's default configuration has; the test's keys there are its own. */
const OTHER_DB = 3;

const name = uniqueName('redis-db');
const file = join(mkdtempSync(join(tmpdir(), 'cosci-db-')), 'cosci-safety.toml');
writeFileSync(file, `[redis]\nprefix = "${name}"\nkey_prefix = "${name}"\nevents_stream = "${name}:events"\n`);
const env: Record<string, string> = { ...(process.env as Record<string, string>), COSCI_SAFETY_CONFIG: file };
delete env.COSCI_DEBUG;
delete env.ANTHROPIC_API_KEY;

const db0 = new Redis(REDIS_URL);
const db3 = new Redis(`${REDIS_URL}/${OTHER_DB}`);
afterAll(async () => {
  await deleteKeys(db0, name);
  await deleteKeys(db3, name);
  db0.disconnect();
  db3.disconnect();
});

/** TCP sockets this process holds open or is opening. */
const sockets = () =>
  process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap' || r === 'TCPConnectWrap').length;

const missing = `${REDIS_URL}/${MISSING_DB}`;
const LINE = new RegExp(
  `^cosci-safety: CONFIG_INVALID: redis\\.url: Redis at ${REDIS_URL.replace(/[./]/g, '\\$&')}/${MISSING_DB} has no database ${MISSING_DB} ` +
    `\\(SELECT: ERR [^)]*\\); the URL's path must be below the server's databases setting \\(16 by default\\)\\n$`,
);

describe(`a database the server does not have (/${MISSING_DB})`, () => {
  it.concurrent.each([
    [['quarantine', 'list'], ''],
    [['events', 'tail'], ''],
    [['publish', 'hypothesis'], JSON.stringify({ hypothesisId: 'h-1', text: 'Kinase X.', revision: 1 })],
    [['submit', 'goal', '--id', 'g-1', '--text', 'Map kinase networks', '--wait', '--timeout', '20000'], ''],
    // The worker: only this line, whatever its log level.
    [['worker', '--port', '0'], ''],
  ])(
    '%j is refused in one line, exit 1, and writes nothing to database 0',
    async (args, input) => {
      const r = await runCli(args, { env: { ...env, REDIS_URL: missing }, input, built: true, killAfterMs: 60_000 });
      expect(r.stderr).toMatch(LINE);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(await db0.keys(`${name}*`)).toEqual([]);
    },
    90_000,
  );

  it('stops the worker runtime before it takes a job, and leaves nothing open', async () => {
    const config = testConfig(undefined, { redis: { url: missing } });
    await db0.ping();
    const before = sockets();
    await expect(startWorkerRuntime({ config, logger: pino({ level: 'silent' }) })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining(`has no database ${MISSING_DB}`),
    });
    await until('no socket left open', () => sockets() === before, { timeoutMs: 5000 });
  });
});

describe(`a database the server has (/${OTHER_DB})`, () => {
  it('is the one the command writes to', async () => {
    const r = await runCli(['publish', 'hypothesis'], {
      env: { ...env, REDIS_URL: `${REDIS_URL}/${OTHER_DB}` },
      input: JSON.stringify({ hypothesisId: 'h-db', text: 'Kinase X phosphorylates Y.', revision: 1 }),
      built: true,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(await db3.exists(`${name}:hypothesis.saved:hypothesis.h-db.r1`)).toBe(1);
    expect(await db0.exists(`${name}:hypothesis.saved:hypothesis.h-db.r1`)).toBe(0);
  });
});
