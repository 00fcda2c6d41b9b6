/** Every command and subcommand answers --help and -h with its usage; --version prints the package's version. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli, runMain } from '../support/cli.js';

const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

// No configuration is read and nothing connects: help comes before both.
const run = (argv: string[]) => runMain(argv, { env: { REDIS_URL: 'notaurl' } });

/** Each command line, and the line its usage must contain. */
const CASES: Array<[string[], string]> = [
  [['dev'], 'cosci-safety dev [--config FILE] [--port N]'],
  [['worker'], 'cosci-safety worker [--config FILE]'],
  [['publish'], 'cosci-safety publish (hypothesis | review)'],
  [['publish', 'hypothesis'], 'cosci-safety publish (hypothesis | review)'],
  [['publish', 'review'], 'cosci-safety publish (hypothesis | review)'],
  [['submit'], 'cosci-safety submit goal'],
  [['submit', 'goal'], 'cosci-safety submit goal'],
  [['submit', 'report'], 'cosci-safety submit report'],
  [['classify'], 'cosci-safety classify'],
  [['verify'], 'cosci-safety verify'],
  [['events'], 'cosci-safety events tail'],
  [['events', 'tail'], 'cosci-safety events tail'],
  [['quarantine'], 'cosci-safety quarantine list'],
  [['quarantine', 'list'], 'cosci-safety quarantine list'],
  [['quarantine', 'show'], 'cosci-safety quarantine show ID'],
  [['quarantine', 'release'], 'cosci-safety quarantine release ID'],
  [['quarantine', 'confirm'], 'cosci-safety quarantine confirm ID'],
  [['quote'], 'cosci-safety quote --id ID'],
];

describe('--help', () => {
  it.each(CASES)('%j --help and -h print the usage on stdout, exit 0', async (command, line) => {
    for (const flag of ['--help', '-h']) {
      const r = await run([...command, flag]);
      expect(r, `${command.join(' ')} ${flag}`).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toContain(line);
    }
  });

  it('help after other options and arguments still wins', async () => {
    const r = await run(['quarantine', 'release', 'h-1', '--by', 'Dr Rao', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('cosci-safety quarantine release ID');
  });

  it('cosci-safety --help, -h and help list every command and the exit codes; help COMMAND gives one', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const r = await run(argv);
      expect(r.code).toBe(0);
      for (const command of [
        'dev',
        'worker',
        'publish',
        'submit',
        'classify',
        'verify',
        'events',
        'quarantine',
        'quote',
      ]) {
        expect(r.stdout).toContain(`cosci-safety ${command}`);
      }
      expect(r.stdout).toContain('Exit codes: 0 ok, 1 refused, 2 usage, 3 blocked, 4 held, 5 unavailable');
    }
    const one = await run(['help', 'events']);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^cosci-safety events tail/);
    expect(one.stdout).not.toContain('cosci-safety worker');
  });

  it('no command at all is one usage line on stderr naming the commands, exit 2', async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'cosci-safety: USAGE: no command given; the commands: dev, worker, publish, submit, classify, verify, events, ' +
        'quarantine, quote, scan (cosci-safety --help)\n',
    );
  });
});

describe('--version', () => {
  it('prints the version of package.json, as the real command', async () => {
    const [long, short] = await Promise.all([runCli(['--version']), runCli(['-V'])]);
    for (const r of [long, short]) {
      expect(r).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
  });

  it('publish --help runs as the real command too', async () => {
    const r = await runCli(['publish', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('cosci-safety publish (hypothesis | review)');
  });
});
