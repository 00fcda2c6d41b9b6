/**
 * Commands of the docs run as a user types them: `bash -c TEXT` in the
 * project's folder, so that `npx cosci-safety` is this project's built
 * command. A long-running one (the worker, `--follow`) runs in the
 * background and is stopped as a user stops it from another terminal:
 * SIGINT to the cosci-safety process itself. (Ctrl-C in a terminal signals
 * npm as well, which then reports the signal instead of the command's code.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync } from 'node:fs';

export interface ShellRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface ShellOptions {
  cwd: string;
  env: Record<string, string>;
}

/** Runs one command to its end; one still running after `killAfterMs` is killed with its process group. */
export function runShell(text: string, options: ShellOptions, killAfterMs = 60_000): Promise<ShellRun> {
  const shell = startShell(text, options);
  const timer = setTimeout(() => shell.kill(), killAfterMs);
  return shell.exited.then((run) => {
    clearTimeout(timer);
    return run;
  });
}

export interface BackgroundShell {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<ShellRun>;
  running(): boolean;
  /** The script the cosci-safety process under the shell runs, links resolved. */
  script(): string;
  /** SIGINT to the cosci-safety process under the shell; resolves to how the shell ended. */
  interrupt(timeoutMs?: number): Promise<ShellRun>;
  /** SIGKILL to the whole process group. */
  kill(): void;
}

function parentOf(pid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: the fields after it are fixed.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** The processes under `pid`, depth first. */
function descendants(pid: number): number[] {
  const children = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d) && parentOf(d) === pid)
    .map(Number);
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** Starts `bash -c TEXT` in a process group of its own. */
export function startShell(text: string, options: ShellOptions): BackgroundShell {
  const child = spawn('bash', ['-c', text], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<ShellRun>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  // The deepest process whose command names cosci-safety: under npx, the node that runs the command.
  const cosciProcess = (): number => {
    const pid = [child.pid!, ...descendants(child.pid!)]
      .filter((p) => /\bcosci-safety\b|dist\/cli\/main\.js/.test(commandLine(p)))
      .at(-1);
    if (pid === undefined) throw new Error(`no cosci-safety process under ${JSON.stringify(text)}`);
    return pid;
  };
  const kill = () => {
    try {
      if (running()) process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    running,
    kill,
    script() {
      const pid = cosciProcess();
      // node's own command line: node SCRIPT ARGS...
      const script = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[1] ?? '';
      return realpathSync(script);
    },
    async interrupt(timeoutMs = 30_000) {
      process.kill(cosciProcess(), 'SIGINT');
      const timer = setTimeout(kill, timeoutMs);
      const run = await exited;
      clearTimeout(timer);
      return run;
    },
  };
}
