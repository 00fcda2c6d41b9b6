/**
 * Helpers shared by the measuring commands (`eval/`, `bench/`): a description
 * of the machine, and the writing of a command's own section into a docs file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { format, resolveConfig } from 'prettier';

export interface Machine {
  cpu: string;
  cores: number;
  node: string;
}

/** CPU model (from /proc/cpuinfo where there is one), logical core count and Node version. */
export function machine(): Machine {
  let cpu = '';
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1]!.trim();
  } catch {
    // Not Linux: fall back to what Node reports.
  }
  if (cpu === '') cpu = os.cpus()[0]?.model.trim() || 'unknown CPU';
  return { cpu, cores: os.availableParallelism(), node: process.version };
}

export function describeMachine(m: Machine = machine()): string {
  return `${m.cpu}, ${m.cores} logical cores, Node ${m.node}`;
}

/** Date and time of a run, UTC, to the minute. */
export function runDate(d: Date = new Date()): string {
  return d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

/** Formats a generated file as the project's Prettier settings would, so `npm run lint` stays clean. */
export async function formatSource(text: string, file: string, parser: 'markdown' | 'typescript'): Promise<string> {
  const options = (await resolveConfig(file)) ?? {};
  return format(text, { ...options, parser, filepath: file });
}

/** formatSource for Markdown. */
export function formatMarkdown(markdown: string, file: string): Promise<string> {
  return formatSource(markdown, file, 'markdown');
}

/**
 * Puts `section` (which starts with the `heading` line, e.g. `## Measured`) at
 * the end of the file, replacing the previous section of that heading and
 * leaving everything else as it was.
 */
export function writeTrailingSection(file: string, heading: string, section: string): void {
  const doc = readFileSync(file, 'utf8');
  const lines = doc.split('\n');
  const at = lines.findIndex((line) => line.trimEnd() === heading);
  let kept = lines;
  if (at !== -1) {
    const level = /^#+/.exec(heading)![0].length;
    let next = lines.length;
    for (let i = at + 1; i < lines.length; i++) {
      const m = /^(#+) /.exec(lines[i]!);
      if (m && m[1]!.length <= level) {
        next = i;
        break;
      }
    }
    kept = [...lines.slice(0, at), ...lines.slice(next)];
  }
  writeFileSync(file, kept.join('\n').trimEnd() + '\n\n' + section.trim() + '\n');
}

/**
 * Replaces the text between `<!-- NAME:start -->` and `<!-- NAME:end -->` in
 * `file`, appending the markers when absent, and creating the file with
 * `header` when it does not exist. Other sections are kept as they are.
 */
export function writeMarkedSection(file: string, name: string, header: string, body: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n\n${body.trim()}\n\n${end}`;
  const doc = existsSync(file) ? readFileSync(file, 'utf8') : header.trim() + '\n';
  const i = doc.indexOf(start);
  const j = i === -1 ? -1 : doc.indexOf(end, i);
  const out =
    i !== -1 && j !== -1 ? doc.slice(0, i) + block + doc.slice(j + end.length) : doc.trimEnd() + '\n\n' + block + '\n';
  writeFileSync(file, out);
}

/** A plain-text table for the terminal: columns padded, numbers right-aligned. */
export function textTable(header: string[], rows: Array<Array<string | number>>): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, c) => Math.max(...cells.map((r) => [...(r[c] ?? '')].length)));
  const numeric = header.map((_, c) => rows.length > 0 && rows.every((r) => /^[\d.,%×\s<>=-]+$/.test(String(r[c]))));
  const line = (r: string[]): string =>
    r
      .map((cell, c) => {
        const pad = ' '.repeat(widths[c]! - [...cell].length);
        return numeric[c] ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd();
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

/** A Markdown table. Cells must not contain `|`. */
export function markdownTable(header: string[], rows: Array<Array<string | number>>): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(String).join(' | ')} |`),
  ].join('\n');
}

export function percent(n: number, of: number, digits = 1): string {
  return of === 0 ? '–' : `${((100 * n) / of).toFixed(digits)}%`;
}
