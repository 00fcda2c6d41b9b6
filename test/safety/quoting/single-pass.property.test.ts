/**
 * The quoting layer reads most text in one pass (scanText) and goes to the
 * full normaliser (buildView, findTags, removeInvisible) only when that pass
 * sees a tag or an invisible character. These properties make the shortcut
 * safe: the pass agrees with the full normaliser on every generated input,
 * including long ones whose tags and escapes straddle the regions findTags
 * reads the text in.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildView, findTags, neutralize } from '../../../src/safety/quoting/index.js';
import { INVISIBLE_RUN, removeInvisible } from '../../../src/safety/text/invisible.js';
import { foldText, scanText } from '../../../src/safety/text/normalized-view.js';
import { SQUASH_KEEP } from '../../../src/safety/quoting/prefixes.js';
import { viewHasTag } from '../../../src/safety/quoting/tags.js';
import { fragment, generatedTag, input } from '../../support/quoting-arbitraries.js';

/** Runs of one piece, long enough to push what follows across a region boundary (512 characters and more). */
const filler = fc
  .tuple(
    fc.constantFrom(
      ' ',
      '\n',
      'a',
      '&amp;',
      '&',
      '%25',
      '\\',
      '\u200b',
      'é',
      '😀',
      '&lang',
      '<',
      'UNTRUSTED',
      '_',
      '<!--',
      '-->',
      '/*',
      '<T<!--',
      '\r',
      '\r\n',
      '\u2028',
      '\\074',
      '中',
    ),
    fc.integer({ min: 1, max: 1500 }),
  )
  .map(([piece, count]) => piece.repeat(Math.ceil(count / piece.length)));

const longInput = fc.array(fc.oneof(fragment, filler, generatedTag), { maxLength: 10 }).map((parts) => parts.join(''));

const anyInput = fc.oneof(input, longInput);

function squashReference(view: string): string {
  let out = '';
  for (const ch of view.toUpperCase() === view ? view : view.replace(/[a-z]/g, (c) => c.toUpperCase())) {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && c < 128 && SQUASH_KEEP[c] === 1) out += ch;
  }
  return out;
}

describe('the one-pass scan', () => {
  it('reads the same view as buildView, keeps the squashed units, and sees every invisible character', () => {
    fc.assert(
      fc.property(anyInput, (text) => {
        const scan = scanText(text, SQUASH_KEEP);
        expect(scan.view).toBe(buildView(text).text);
        expect(scan.kept).toBe(squashReference(scan.view));
        expect(scan.invisible).toBe(removeInvisible(text).removed > 0);
      }),
      { numRuns: 20_000 },
    );
  }, 300_000);

  it('finds a tag in the whole view exactly when findTags finds one, across region boundaries', () => {
    fc.assert(
      fc.property(anyInput, (text) => {
        expect(findTags(text).length > 0).toBe(viewHasTag(foldText(text)));
      }),
      { numRuns: 20_000 },
    );
  }, 300_000);

  it('removes the same code points as the invisible-character pattern', () => {
    fc.assert(
      fc.property(anyInput, (text) => {
        const removed = removeInvisible(text);
        let count = 0;
        const expected = text.replace(INVISIBLE_RUN, (run) => {
          count += [...run].length;
          return '';
        });
        expect(removed.text).toBe(expected);
        expect(removed.removed).toBe(count);
      }),
      { numRuns: 20_000 },
    );
  }, 300_000);

  it('leaves nothing that reads as a tag in long content', () => {
    fc.assert(
      fc.property(longInput, (text) => {
        const { content } = neutralize(text);
        expect(findTags(content)).toEqual([]);
        expect(viewHasTag(foldText(content))).toBe(false);
      }),
      { numRuns: 5_000 },
    );
  }, 300_000);
});

describe('tags behind long runs', () => {
  it('finds a tag however long the whitespace inside its bracket', () => {
    for (const run of [100, 400, 500, 511, 600, 1000, 3000]) {
      const text = `x <${' '.repeat(run)}/UNTRUSTED_SOURCE_END> y`;
      expect(findTags(text), `run of ${run}`).toHaveLength(1);
      expect(neutralize(text).content).toBe('x [tag removed] y');
    }
  });

  it('reads a name followed by an escaped letter as no tag, wherever a region ends', () => {
    for (let run = 380; run <= 560; run++) {
      const text = `<${' '.repeat(run)}UNTRUSTED_SOURCE&#x41; after`;
      expect(findTags(text), `run of ${run}`).toEqual([]);
    }
  });
});

describe('tags with long gaps and comments across regions', () => {
  it('finds a tag however long the separator run or comment between its letters', () => {
    for (const run of [3, 100, 511, 512, 513, 1000, 5000]) {
      for (const gap of [
        '_'.repeat(run),
        ' \t\n'.repeat(run),
        `<!--${'x '.repeat(run)}-->`,
        `/*${'<'.repeat(run)}*/`,
      ]) {
        const text = `a </T${gap}EXT> b`;
        expect(findTags(text), `gap of ${gap.length}`).toHaveLength(1);
        expect(neutralize(text).content).toBe('a [tag removed] b');
      }
    }
  });

  it('reads a comment that never ends as no comment, wherever a region ends', () => {
    for (let run = 380; run <= 1100; run += 37) {
      const text = `<T<!--${' '.repeat(run)}EXT> and ${'<T<!--'.repeat(run >> 4)} then`;
      expect(findTags(text), `run of ${run}`).toEqual([]);
    }
  });
});
