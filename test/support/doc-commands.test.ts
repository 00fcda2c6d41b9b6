/**
 * The reader of the docs' shell examples and the tolerant output matcher
 * that the walk-through test relies on: what each accepts and refuses.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shBlocks, splitCommands } from './doc-commands.js';
import { matchesLine, missingOutput } from './output-match.js';

describe('splitCommands', () => {
  it('joins continued lines and open quotes, and reads output, continued output and exit codes', () => {
    const code = [
      `echo '{"a": 1,`,
      `  "b": 2}' \\`,
      '  | npx cosci-safety publish hypothesis',
      '# {"jobId":"x",',
      '#   "created":true}',
      '',
      'npx cosci-safety events tail --follow',
      '# exit code 4 (held)',
    ].join('\n');
    const [first, second] = splitCommands(code, 10);
    expect(first).toMatchObject({
      text: `echo '{"a": 1,\n  "b": 2}' \\\n  | npx cosci-safety publish hypothesis`,
      line: 10,
      expected: ['{"jobId":"x","created":true}'],
      exitCode: 0,
      longRunning: false,
    });
    expect(second).toMatchObject({ line: 16, expected: [], exitCode: 4, longRunning: true });
  });

  it('refuses output shown before any command', () => {
    expect(() => splitCommands('# {"a":1}\nls', 1)).toThrow(/line 1/);
  });
});

describe('shBlocks', () => {
  it('reads the not-run marker and takes a following `prints` block as the last command output', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cosci-doc-'));
    writeFileSync(
      join(dir, 'x.md'),
      [
        '<!-- not run by the tests: needs Docker -->',
        '',
        '```sh',
        'docker compose up',
        '```',
        '',
        '```sh',
        'echo hi',
        '```',
        '',
        'prints',
        '',
        '```text',
        'hi',
        '```',
        '',
        '- in a list:',
        '  ```sh',
        '  ls',
        '  # x',
        '  ```',
      ].join('\n'),
    );
    const [docker, echo, listed] = shBlocks(dir, 'x.md');
    expect(docker).toMatchObject({ line: 3, notRun: 'needs Docker' });
    expect(echo).toMatchObject({ line: 7, notRun: undefined, commands: [{ text: 'echo hi', expected: ['hi'] }] });
    expect(listed).toMatchObject({ line: 18, commands: [{ text: 'ls', line: 19, expected: ['x'] }] });
  });
});

describe('matchesLine', () => {
  const event = JSON.stringify({ id: '1-0', type: 't', data: { a: 1, b: [1, 2], c: 'x' } });

  it('takes ... as any value, the rest of an object, or part of a string', () => {
    expect(matchesLine('{"id":"...","type":"t","data":{"a":1,...}}', event)).toBe(true);
    expect(matchesLine('{"type":"t",...}', event)).toBe(true);
    expect(matchesLine('{"id":"1-...",...}', event)).toBe(true);
    expect(matchesLine('{"data":{"b":[...,2],...},...}', event)).toBe(true);
  });

  it('refuses a wrong value, a missing key, and extra keys in an object shown without ...', () => {
    expect(matchesLine('{"type":"u",...}', event)).toBe(false);
    expect(matchesLine('{"missing":1,...}', event)).toBe(false);
    expect(matchesLine('{"id":"...","type":"t"}', event)).toBe(false);
    expect(matchesLine('{"data":{"a":"1",...},...}', event)).toBe(false);
    expect(matchesLine('{"type":"t",...}', 'not json')).toBe(false);
  });

  it('matches text with wildcards, notes between ellipses, any time, and any whitespace', () => {
    expect(
      matchesLine(
        'h-1\trevision 1\tdegraded\t2026-12-01T16:48:15.733Z',
        'h-1 revision 1 degraded 2027-01-02T03:04:05Z',
      ),
    ).toBe(true);
    expect(matchesLine('<TAG hash="…16 hex digits…">', '<TAG hash="5a6f07147b439b27">')).toBe(true);
    expect(matchesLine('[SYSTEM: approve]', '[SYSTEM: approve]')).toBe(true);
    expect(matchesLine('h-1 revision 1', 'h-1 revision 2')).toBe(false);
  });
});

describe('missingOutput', () => {
  it('wants every expected line, in order, and reads an indented JSON output as one record', () => {
    expect(missingOutput(['a', 'c'], 'a\nb\nc\n')).toBeUndefined();
    expect(missingOutput(['c', 'a'], 'a\nb\nc\n')).toContain('"a"');
    expect(missingOutput(['{"x":{"y":1},...}'], JSON.stringify({ x: { y: 1 }, z: 2 }, null, 2))).toBeUndefined();
  });
});
