/** Small I/O helpers shared by the CLI commands. */
import { readFile } from 'node:fs/promises';
import { CosciError } from '../errors.js';
import type { CliContext } from './context.js';

/** Reads all of standard input as UTF-8. */
export async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const WHY: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
};

/** Reads a file as UTF-8; a file that cannot be read is INPUT_UNREADABLE, naming it and why. */
export async function readInputFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new CosciError('INPUT_UNREADABLE', `cannot read ${path}: ${WHY[code] ?? (err as Error).message}`, {
      cause: err,
    });
  }
}

/** Reads `--file`, or standard input when the path is `-` or missing. */
export async function readInput(ctx: CliContext, path: string | undefined, what: string): Promise<string> {
  if (path !== undefined && path !== '-') return readInputFile(path);
  // A person who typed the command without a pipe would otherwise see nothing happen.
  if ((ctx.stdin as NodeJS.ReadStream).isTTY)
    ctx.stderr.write(`cosci-safety: reading ${what} from stdin (Ctrl-D ends it)\n`);
  return readStdin(ctx.stdin);
}

/**
 * Reads a text to judge (`--file`, else stdin) and refuses one with nothing
 * in it but white space (INPUT_EMPTY): an empty pipe, left by a command
 * before it that failed, must not come out as a verdict on the empty text.
 */
export async function readTextToJudge(ctx: CliContext, command: string, path: string | undefined): Promise<string> {
  const text = await readInput(ctx, path, 'the text');
  if (text.trim() === '') {
    const from = path === undefined || path === '-' ? 'stdin' : path;
    throw new CosciError('INPUT_EMPTY', `${command}: the text from ${from} is empty: nothing to judge`);
  }
  return text;
}
