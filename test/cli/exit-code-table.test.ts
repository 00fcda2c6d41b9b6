/** docs/cli.md's exit-code table says what src/cli/exit-codes.ts does. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeOfError } from '../../src/cli/exit-codes.js';
import type { ErrorCode } from '../../src/errors.js';

const doc = readFileSync('docs/cli.md', 'utf8');
const section = doc.slice(doc.indexOf('## Exit codes'), doc.indexOf('### Codes of the command line'));
/** The table's rows: exit code, name, and the error codes the row names. */
const rows = [...section.matchAll(/^\| (\d+) +\| `(\w+)` +\| (.*)\|$/gm)].map(([, code, name, when]) => ({
  code: Number(code),
  name: name!,
  errors: [...when!.matchAll(/`([A-Z][A-Z_]+)`/g)].map((m) => m[1] as ErrorCode),
}));

describe('the exit-code table of docs/cli.md', () => {
  it('has a row for each exit code, by its name', () => {
    expect(rows.map((r) => [r.code, r.name])).toEqual(Object.entries(EXIT).map(([name, code]) => [code, name]));
  });

  it('puts each error code it names where exitCodeOfError does', () => {
    const named = rows.flatMap((r) => r.errors.map((error) => [error, r.code] as const));
    expect(named.length).toBeGreaterThan(15);
    for (const [error, code] of named) expect([error, exitCodeOfError(error)]).toEqual([error, code]);
  });
});
