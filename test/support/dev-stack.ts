/**
 * `cosci-safety dev` read as its user reads it: the banner it prints (where
 * its Redis, its folder and its review page are, the token, the commands to
 * try), the commands run as pasted into another terminal, the review page's
 * API asked with the token, and what is left of the stack once it stopped.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { runShell, type ShellRun } from './doc-shell.js';
import { StopPolling, eventually } from './poll.js';

export interface DevBanner {
  redisUrl: string;
  redisPort: number;
  redisPid: number;
  /** redis-server's folder. */
  dir: string;
  /** The review page, ending in `/review/`. */
  pageUrl: string;
  token: string;
  verdicts: string;
  /** The commands to try, one a line as printed. */
  commands: string[];
}

const REDIS =
  /^ {2}redis +(redis:\/\/127\.0\.0\.1:(\d+)) \(redis-server pid (\d+), its data in (\S+), removed at the end\)$/m;
const PAGE = /^ {2}review page +(http:\/\/\S+\/review\/)$/m;
const TOKEN = /^ {2}token +(\S+) \(the page asks for it\)$/m;
const VERDICTS = /^ {2}verdicts +(.+)$/m;
const TRY = 'Try it from another terminal:\n';

/** The banner, once all of it is printed; undefined before. */
export function readDevBanner(stdout: string): DevBanner | undefined {
  const start = stdout.indexOf(TRY);
  if (start < 0) return undefined;
  const rest = stdout.slice(start + TRY.length);
  const end = rest.indexOf('\n\n');
  // The commands end with a blank line; the line after it ends the banner.
  if (end < 0 || !rest.slice(end + 2).includes('\n')) return undefined;
  const redis = REDIS.exec(stdout);
  const page = PAGE.exec(stdout);
  const token = TOKEN.exec(stdout);
  const verdicts = VERDICTS.exec(stdout);
  if (!redis || !page || !token || !verdicts) throw new Error(`a banner without its parts:\n${stdout}`);
  return {
    redisUrl: redis[1]!,
    redisPort: Number(redis[2]),
    redisPid: Number(redis[3]),
    dir: redis[4]!,
    pageUrl: page[1]!,
    token: token[1]!,
    verdicts: verdicts[1]!,
    commands: rest
      .slice(0, end)
      .split('\n')
      .map((line) => {
        if (!line.startsWith('  ')) throw new Error(`a command line not indented: ${JSON.stringify(line)}`);
        return line.slice(2);
      }),
  };
}

/** Waits for the banner of a dev process that is `running()`; fails at once if it exits first. */
export function waitForBanner(
  out: { stdout(): string; stderr(): string; running(): boolean },
  timeoutMs = 90_000,
): Promise<DevBanner> {
  return eventually(
    () => `cosci-safety dev printed its banner (stdout: ${out.stdout()}; stderr: ${out.stderr().slice(-2000)})`,
    () => {
      const banner = readDevBanner(out.stdout());
      if (banner === undefined && !out.running())
        throw new StopPolling(`cosci-safety dev exited: ${out.stdout()}\n${out.stderr().slice(-2000)}`);
      return banner;
    },
    { timeoutMs, everyMs: 100 },
  );
}

/** Each printed command, run as pasted: `bash -c` in `cwd` (where `npx cosci-safety` is this checkout's). */
export async function runPrinted(banner: DevBanner, options: { cwd: string; env: Record<string, string> }) {
  const runs: ShellRun[] = [];
  for (const command of banner.commands) runs.push(await runShell(command, options, 90_000));
  return runs;
}

/** GET on the review page's API (`items`, `items/h-1`) with the banner's token. */
export async function reviewApi(banner: DevBanner, path: string, token = banner.token): Promise<Response> {
  return fetch(`${banner.pageUrl}api/${path}`, { headers: { authorization: `Bearer ${token}` } });
}

function commandLine(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** The pids of running processes whose command line holds `text` (a folder given to redis-server). */
export function processesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d) && commandLine(d).includes(text))
    .map(Number);
}

/** True while the process runs (not a zombie) and is a redis-server. */
export function isRedisServer(pid: number): boolean {
  if (!existsSync(`/proc/${pid}`)) return false;
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (state.slice(state.lastIndexOf(')') + 2).startsWith('Z')) return false;
  } catch {
    return false;
  }
  return commandLine(String(pid)).includes('redis-server');
}
