/**
 * The code snippets of the docs are code: every Python block of README.md and
 * docs/ must at least compile (`python3 -m py_compile`), so a publisher who
 * copies one does not start from a syntax error.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

function blocks(language: string): Array<{ file: string; index: number; code: string }> {
  const out: Array<{ file: string; index: number; code: string }> = [];
  for (const file of docs) {
    const text = readFileSync(join(root, file), 'utf8');
    const fence = new RegExp('^```' + language + '\\n([\\s\\S]*?)^```', 'gm');
    let index = 0;
    for (const m of text.matchAll(fence)) out.push({ file, index: index++, code: m[1]! });
  }
  return out;
}

const python = spawnSync('python3', ['--version']).status === 0;

describe.skipIf(!python)('Python snippets in the docs (python3 not found: skipped)', () => {
  const snippets = blocks('python');

  it('there is at least one (the contract shows a Python publisher)', () => {
    expect(snippets.some((s) => s.file === 'docs/contract.md')).toBe(true);
  });

  it.each(snippets.map((s) => [`${s.file} #${s.index + 1}`, s] as const))('%s compiles', (_name, snippet) => {
    const dir = mkdtempSync(join(tmpdir(), 'cosci-snippet-'));
    const file = join(dir, 'snippet.py');
    writeFileSync(file, snippet.code);
    expect(() => execFileSync('python3', ['-m', 'py_compile', file], { stdio: 'pipe' })).not.toThrow();
  });
});
