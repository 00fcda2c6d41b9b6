import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHANGE_KINDS } from '../../../src/safety/citations/near-miss-kinds.js';
import { changesOf, changeText, nearMissText } from '../../../src/safety/review/near-miss-text.js';

describe('near misses in words', () => {
  const diff = [
    { kind: 'same' as const, text: 'of the 24 ferrets exposed,' },
    { kind: 'number_changed' as const, excerpt: '54%', page: '45%' },
    { kind: 'same' as const, text: 'shed virus' },
    { kind: 'negation' as const, excerpt: 'not', page: '' },
    { kind: 'word_inserted' as const, excerpt: 'large', page: '' },
    { kind: 'word_inserted' as const, excerpt: 'clean', page: '' },
  ];

  it('says how close the passage is and counts the changes by kind, the negation first', () => {
    expect(nearMissText('altered', { source: 'text', similarity: 0.9091, diff })).toBe(
      "Altered: the page's text holds a passage close (similarity 0.91), with 1 negation turned round, " +
        '1 number changed, 2 words inserted.',
    );
    expect(nearMissText('altered', { source: 'json_ld', similarity: 0.8, diff, part: 1 })).toMatch(
      /^Altered: the page's JSON-LD holds a passage close to part 2 of the excerpt \(between elisions\) \(similarity 0\.80\)/,
    );
  });

  it('says an absent excerpt is not on the page even altered', () => {
    expect(nearMissText('absent')).toMatch(/^Absent: no passage of the page is close to the excerpt/);
  });

  it('names each change with the excerpt’s words and the page’s', () => {
    expect(changesOf(diff).map(changeText)).toEqual([
      'number changed: the excerpt has “54%” where the page has “45%”',
      'negation turned round: the excerpt has “not”, which the page does not',
      'word inserted: the excerpt has “large”, which the page does not',
      'word inserted: the excerpt has “clean”, which the page does not',
    ]);
    expect(changeText({ kind: 'word_removed', excerpt: '', page: 'only' })).toBe(
      "word left out: the excerpt leaves out the page's “only”",
    );
  });

  it('has words for every kind the docs list, and imports nothing but types (the page script imports it)', () => {
    const doc = readFileSync(new URL('../../../docs/citations.md', import.meta.url), 'utf8');
    for (const kind of CHANGE_KINDS) {
      expect(doc).toContain(`| \`${kind}\``);
      expect(changeText({ kind, excerpt: 'a', page: 'b' })).toMatch(
        /^[a-z ]+: the excerpt has “a” where the page has “b”$/,
      );
    }
    const source = readFileSync(new URL('../../../src/safety/review/near-miss-text.ts', import.meta.url), 'utf8');
    expect(source.match(/^import .*$/gm)!.every((line) => line.startsWith('import type'))).toBe(true);
  });
});
