/**
 * The shell examples of the docs, read as a user reads them: each ```sh
 * block split into the commands one would type, each command with the
 * output the docs show for it. What a block says after a command is its
 * expected output:
 *
 * - `# LINE` is a line the command prints; a comment line indented further
 *   (`#   ...`) continues the line before it;
 * - `# exit code N ...` is the exit code the command ends with (0 when none
 *   is given);
 * - a block followed by a paragraph that reads `prints` and then a fenced
 *   block: that block is the output of the block's last command.
 *
 * A block that the tests cannot run carries, on the line before it, an HTML
 * comment `<!-- not run by the tests: REASON -->`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DocCommand {
  /** The command as typed, continuation lines included. */
  text: string;
  /** Line of the command in its file, from 1. */
  line: number;
  /** Lines the docs show it printing, in order. */
  expected: string[];
  exitCode: number;
  /** A service (`worker`, `dev`) or a `--follow`: it runs until it is stopped. */
  longRunning: boolean;
}

export interface ShBlock {
  file: string;
  /** Line of the opening fence, from 1. */
  line: number;
  /** Why the tests do not run it, when the docs say so. */
  notRun: string | undefined;
  commands: DocCommand[];
}

const NOT_RUN = /^<!--\s*not run by the tests:\s*(.+?)\s*-->$/;
const EXIT_CODE = /^exit code (\d+)\b/;

/** True when `line` leaves the command open: an unclosed quote, or a trailing backslash. */
function continues(text: string): boolean {
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
    } else if (quote === '"') {
      if (c === '\\') i++;
      else if (c === '"') quote = undefined;
    } else if (c === '\\') {
      if (i === text.length - 1) return true;
      i++;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      return false; // a comment runs to the end of the line
    }
  }
  return quote !== undefined;
}

/** Splits the code of one block into commands with their expected output. */
export function splitCommands(code: string, firstLine: number): DocCommand[] {
  const commands: DocCommand[] = [];
  const lines = code.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const last = commands.at(-1);
      if (!last) throw new Error(`line ${firstLine + i}: output shown before any command`);
      const body = line.replace(/^#\s?/, '');
      const code = EXIT_CODE.exec(body);
      if (code) last.exitCode = Number(code[1]);
      else if (/^#\s{2,}/.test(line) && last.expected.length > 0)
        last.expected.push(last.expected.pop()! + body.trim());
      else last.expected.push(body);
      continue;
    }
    const start = i;
    let text = line;
    while (continues(text) && i + 1 < lines.length) text += '\n' + lines[++i]!;
    commands.push({
      text,
      line: firstLine + start,
      expected: [],
      exitCode: 0,
      longRunning: /\bcosci-safety (worker|dev)\b|--follow\b/.test(text),
    });
  }
  return commands;
}

/** The ```sh blocks of one markdown file. */
export function shBlocks(root: string, file: string): ShBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: ShBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    // A block may be indented, inside a list: its lines lose the fence's indentation.
    const fence = /^(\s*)```sh$/.exec(lines[i]!);
    if (!fence) continue;
    const indent = fence[1]!;
    const open = i;
    let close = open + 1;
    while (close < lines.length && !lines[close]!.trimStart().startsWith('```')) close++;
    let before = open - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const marker = before >= 0 ? NOT_RUN.exec(lines[before]!.trim()) : null;
    const code = lines.slice(open + 1, close).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l));
    const commands = splitCommands(code.join('\n'), open + 2);
    // `prints` and a fenced block: the output of the last command.
    let next = close + 1;
    while (next < lines.length && lines[next]!.trim() === '') next++;
    if (lines[next]?.trim() === 'prints' && commands.length > 0) {
      let fence = next + 1;
      while (fence < lines.length && lines[fence]!.trim() === '') fence++;
      if (lines[fence]?.startsWith('```')) {
        let end = fence + 1;
        while (end < lines.length && !lines[end]!.startsWith('```')) end++;
        commands.at(-1)!.expected.push(...lines.slice(fence + 1, end));
      }
    }
    blocks.push({ file, line: open + 1, notRun: marker?.[1], commands });
    i = close;
  }
  return blocks;
}
