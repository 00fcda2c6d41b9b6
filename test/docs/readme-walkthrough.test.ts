/**
 * The shell examples of the docs, run as a user runs them: every command of
 * the ```sh blocks of README.md, docs/review.md, docs/citations.md and
 * docs/cli.md, in order, through `bash -c`, with `npx cosci-safety` the
 * built command of this checkout (the build comes before the tests). The
 * README's first run, `cosci-safety dev`, is run as a user tries it: its
 * banner read, the three commands it prints run, the held hypothesis seen
 * on its review page, then Ctrl-C, after which its redis-server and folder
 * are gone. The worker is the one the README starts; Redis is the real one; the model is
 * a loopback server that speaks the Messages API; the README's cited page,
 * https://example.org/paper, is a loopback HTTPS server the worker reaches
 * through settings a user has too: `citations.hosts` and
 * `citations.allow_private_hosts` in the configuration file, and Node's
 * NODE_EXTRA_CA_CERTS for the page's certificate.
 *
 * The command text is never changed. What keeps the run apart from other
 * tests is the environment: COSCI_SAFETY_CONFIG names a file with this run's
 * own key prefixes and a free metrics port.
 *
 * What a command prints is checked against the `# ...` lines the docs show
 * after it (test/support/doc-commands.ts, test/support/output-match.ts), and
 * its exit code against `# exit code N`, 0 when none is shown. Every ```sh
 * block of README.md and docs/ is either run here or marked, on the line
 * before it, `<!-- not run by the tests: REASON -->`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAMES } from '../../src/contracts/queues.js';
import { shBlocks, type DocCommand, type ShBlock } from '../support/doc-commands.js';
import { runShell, startShell, type BackgroundShell, type ShellRun } from '../support/doc-shell.js';
import { isRedisServer, reviewApi, runPrinted, waitForBanner } from '../support/dev-stack.js';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { LEVEL, logged } from '../support/log-lines.js';
import { missingOutput } from '../support/output-match.js';
import { eventually, StopPolling, until } from '../support/poll.js';
import { freePort, namesOf } from '../support/processes.js';
import { deleteKeys, REDIS_URL, testRedis, uniqueName } from '../support/redis.js';

const root = new URL('../../', import.meta.url).pathname;

/** The files whose commands run, in this order. */
const RUN = ['README.md', 'docs/review.md', 'docs/citations.md', 'docs/cli.md'];
const ALL = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

const blocks: ShBlock[] = ALL.flatMap((file) => shBlocks(root, file));
const steps = RUN.flatMap((file) => blocks.filter((b) => b.file === file && b.notRun === undefined)).flatMap((block) =>
  block.commands.map((command) => ({ block, command })),
);

/** The page the README cites; the excerpt it quotes is not on it. */
const PAPER = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kinase X phosphorylates Y in budding yeast</title></head>
<body><article><h1>Kinase X phosphorylates Y in budding yeast</h1>
<p>We show that kinase X phosphorylates Y at two serine residues in vivo, and that the phosphorylation is lost in a kinase-dead mutant.</p>
</article></body></html>`;

interface PageServer {
  address: string;
  cert: string;
  hosts: string[];
  close(): Promise<void>;
}

/**
 * An HTTPS server for example.org on port 443 of an address of the loopback
 * range picked at random, so that parallel runs do not meet, with a
 * certificate for example.org made for the run.
 */
async function startPageServer(dir: string): Promise<PageServer> {
  const key = join(dir, 'example.org.key');
  const cert = join(dir, 'example.org.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2']
      .concat(['-keyout', key, '-out', cert, '-subj', '/CN=example.org', '-addext', 'subjectAltName=DNS:example.org'])
      .concat(['-addext', 'basicConstraints=critical,CA:TRUE']),
    { stdio: 'pipe' },
  );
  const hosts: string[] = [];
  const server = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    hosts.push(req.headers.host ?? '');
    if (req.url === '/paper') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAPER);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  const byte = () => 1 + Math.floor(Math.random() * 253);
  for (let attempt = 0; ; attempt++) {
    const address = `127.${byte()}.${byte()}.${byte()}`;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(443, address, () => {
          server.off('error', reject);
          resolve();
        });
      });
      return {
        address,
        cert,
        hosts,
        close: () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 5) throw err;
    }
  }
}

const id = uniqueName('docs');
const names = namesOf(id);
let work: string;
let fake: FakeAnthropic;
let page: PageServer;
let redis: Redis;
let port: number;
let env: Record<string, string>;
const queues: Queue[] = [];
const workers: BackgroundShell[] = [];
const followers: BackgroundShell[] = [];
const ran = new Set<DocCommand>();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'cosci-docs-'));
  fake = await startFakeAnthropic();
  page = await startPageServer(work);
  redis = testRedis();
  port = await freePort();
  const config = join(work, 'cosci-safety.toml');
  writeFileSync(
    config,
    `[redis]
prefix = "${names.prefix}"
key_prefix = "${names.keyPrefix}"
events_stream = "${names.stream}"
[metrics]
host = "127.0.0.1"
port = ${port}
[citations]
allow_private_hosts = ["example.org"]
[citations.hosts]
"example.org" = "${page.address}"
[logging]
format = "json"
`,
  );
  env = { ...(process.env as Record<string, string>) };
  for (const name of ['ANTHROPIC_API_KEY', 'COSCI_REVIEW_TOKEN', 'COSCI_SAFETY_QUOTING_KEY', 'COSCI_DEBUG'])
    delete env[name];
  Object.assign(env, {
    COSCI_SAFETY_CONFIG: config,
    REDIS_URL,
    ANTHROPIC_BASE_URL: fake.url,
    NODE_EXTRA_CA_CERTS: page.cert,
    // npx finds this checkout's own command; it must never ask a registry.
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
  });
  for (const name of QUEUE_NAMES) queues.push(new Queue(name, { connection: redis, prefix: names.prefix }));
}, 30_000);

afterAll(async () => {
  for (const shell of [...workers, ...followers]) shell.kill();
  await Promise.all(queues.map((q) => q.close()));
  await deleteKeys(redis, `${id}-`);
  redis.disconnect();
  await fake?.close();
  await page?.close();
  rmSync(work, { recursive: true, force: true });
}, 30_000);

/** Waits until no job of this run waits or runs: the user reads the result after the worker is done. */
async function settle(): Promise<void> {
  if (!workers.some((w) => w.running())) return;
  await until(
    'the worker has finished every job',
    async () => {
      for (const q of queues) {
        const counts = await q.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
        if (Object.values(counts).some((n) => n > 0)) return false;
      }
      return true;
    },
    { timeoutMs: 30_000 },
  );
}

function describeRun(run: ShellRun): string {
  return `exit ${run.code ?? run.signal}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr.slice(-3000)}`;
}

/** Stops a worker as the README says (SIGINT): it finishes its jobs, logged no error, and exits 0. */
async function stopWorker(w: BackgroundShell): Promise<void> {
  const run = await w.interrupt();
  expect(run.code, describeRun(run)).toBe(0);
  expect(run.stderr).toContain('"msg":"shut down"');
  expect(logged(run.stderr, LEVEL.error)).toEqual([]);
}

async function startWorker(command: DocCommand): Promise<void> {
  // One metrics port, as in the README: the earlier worker is stopped first.
  for (const w of workers.filter((x) => x.running())) await stopWorker(w);
  const w = startShell(command.text, { cwd: root, env });
  workers.push(w);
  await until(
    () => `the worker started (stderr: ${w.stderr().slice(-2000)})`,
    () => {
      if (!w.running()) throw new StopPolling(`the worker exited: ${w.stderr().slice(-2000)}`);
      return w.stderr().includes('"msg":"worker started"');
    },
    { timeoutMs: 45_000, everyMs: 100 },
  );
  const ready = await eventually('/readyz answers 200', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    return res.status === 200 ? res : undefined;
  });
  expect(ready.status).toBe(200);
  // npx ran this checkout's build, not some other package of the name.
  expect(w.script()).toBe(realpathSync(join(root, 'dist/cli/main.js')));
  // Without a key it says so loudly; with one it does not.
  const keyless = !/ANTHROPIC_API_KEY=/.test(command.text);
  expect(w.stderr().includes('NO ANTHROPIC API KEY')).toBe(keyless);
}

/**
 * The README's first run: `dev` started, its banner as the README shows it,
 * the commands it prints run as pasted into another terminal (this run's
 * environment, whose REDIS_URL names the shared Redis: they reach the
 * private one all the same), h-1 held on its review page, and Ctrl-C. It
 * ends before the next step, as the README says: the worker after it serves
 * the same port.
 */
async function tryDev(command: DocCommand): Promise<void> {
  const shell = startShell(command.text, { cwd: root, env });
  workers.push(shell);
  const banner = await waitForBanner({ stdout: shell.stdout, stderr: shell.stderr, running: shell.running });
  expect(shell.script()).toBe(realpathSync(join(root, 'dist/cli/main.js')));
  expect(missingOutput(command.expected, shell.stdout())).toBeUndefined();
  expect(banner.pageUrl).toBe(`http://127.0.0.1:${port}/review/`);
  const runs = await runPrinted(banner, { cwd: root, env });
  // Published, held (no key: exit code 4, as the README says), published.
  expect(
    runs.map((r) => r.code),
    runs.map(describeRun).join('\n'),
  ).toEqual([0, 4, 0]);
  const held = await eventually('h-1 is held on the review page', async () => {
    const res = await reviewApi(banner, 'items');
    const body = (await res.json()) as { items?: Array<{ hypothesisId: string; state: string }> };
    return body.items?.find((i) => i.hypothesisId === 'h-1');
  });
  expect(held.state).toBe('quarantined');
  await stopWorker(shell);
  expect(isRedisServer(banner.redisPid)).toBe(false);
  expect(existsSync(banner.dir)).toBe(false);
}

async function follow(command: DocCommand): Promise<void> {
  const shell = startShell(command.text, { cwd: root, env });
  followers.push(shell);
  try {
    await until(
      () => `${command.text} printed what the docs show (${missingOutput(command.expected, shell.stdout())})`,
      () => {
        if (!shell.running()) throw new StopPolling(`it exited: ${shell.stderr()}`);
        return missingOutput(command.expected, shell.stdout()) === undefined;
      },
      { timeoutMs: 30_000, everyMs: 100 },
    );
  } finally {
    const run = shell.running() ? await shell.interrupt() : await shell.exited;
    expect(run.code, describeRun(run)).toBe(0);
    expect(missingOutput(command.expected, run.stdout)).toBeUndefined();
  }
}

describe('the shell examples of the docs, run in order', () => {
  it('each ```sh block is run here or marked as not run, with a reason', () => {
    const unaccounted = blocks.filter((b) => b.notRun === undefined && !RUN.includes(b.file));
    expect(unaccounted.map((b) => `${b.file}:${b.line}`)).toEqual([]);
    expect(steps.length).toBeGreaterThan(10);
  });

  for (const { block, command } of steps) {
    const name = `${block.file}:${command.line} ${command.text.split('\n')[0]!.slice(0, 80)}`;
    it(
      name,
      async () => {
        ran.add(command);
        if (command.longRunning && /\bcosci-safety dev\b/.test(command.text)) return tryDev(command);
        if (command.longRunning && /\bcosci-safety worker\b/.test(command.text)) return startWorker(command);
        if (command.longRunning) return follow(command);
        const run = await runShell(command.text, { cwd: root, env });
        expect(run.code, describeRun(run)).toBe(command.exitCode);
        expect(missingOutput(command.expected, run.stdout, run.stderr), describeRun(run)).toBeUndefined();
        // A failure is one line on stderr, no stack (docs/cli.md#output).
        if (/^cosci-safety: [A-Z_]+: /m.test(run.stderr)) expect(run.stderr.trim().split('\n')).toHaveLength(1);
        await settle();
      },
      90_000,
    );
  }

  it('the worker fetched the cited page from the loopback server, by its name', () => {
    expect(page.hosts).toContain('example.org');
  });

  it('every command of the runnable blocks ran, and the last worker stops cleanly', async () => {
    expect(steps.filter((s) => !ran.has(s.command)).map((s) => `${s.block.file}:${s.command.line}`)).toEqual([]);
    expect(workers.length).toBeGreaterThan(0);
    for (const w of workers.filter((x) => x.running())) await stopWorker(w);
  }, 60_000);
});
