import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  closestPassage,
  findNearMiss,
  htmlSources,
  matchInPage,
  MAX_DIAGNOSED_WORDS,
  normalizeForMatch,
  plainSources,
  type DiffSegment,
  type NearMissResult,
} from '../../../src/safety/citations/index.js';

const PAGE =
  'The trial enrolled 110 patients across 12 sites. Treatment reduced mortality by 45% (95% CI 18–31) at ' +
  '2.5 mg per day. The drug was unsafe for children under five, and the dose of 25 mg was withdrawn. ' +
  'Follow-up lasted 3 years, and the effect did not fade.';
const page = plainSources(PAGE);

const near = (excerpt: string, sources = page): NearMissResult => {
  // Only excerpts the matcher rejects are diagnosed; a test of one it accepts would say nothing.
  expect(matchInPage(sources, excerpt).found, excerpt).toBe(false);
  return findNearMiss(sources, excerpt);
};
const changes = (r: NearMissResult): DiffSegment[] =>
  r.detail === 'altered' ? r.nearMiss.diff.filter((d) => d.kind !== 'same') : [];

describe('findNearMiss', () => {
  it('names a number changed with the excerpt’s number and the page’s', () => {
    const r = near('Treatment reduced mortality by 54% (95% CI 18–31)');
    expect(r.detail).toBe('altered');
    if (r.detail !== 'altered') return;
    expect(r.nearMiss.diff).toEqual([
      { kind: 'same', text: 'treatment reduced mortality by' },
      { kind: 'number_changed', excerpt: '54%', page: '45%' },
      { kind: 'same', text: '(95% ci 18-31)' },
    ]);
    expect(r.nearMiss.passage).toBe('treatment reduced mortality by 45% (95% ci 18-31)');
    expect(r.nearMiss.source).toBe('text');
    // The offsets are those of the passage in the normalised page text.
    expect(page.text.text.slice(r.nearMiss.start, r.nearMiss.end)).toBe(r.nearMiss.passage);
    expect(r.nearMiss.similarity).toBe(0.875);
  });

  it('names a word put in, a word left out and a word changed', () => {
    expect(changes(near('The trial enrolled 110 elderly patients across 12 sites.'))).toEqual([
      { kind: 'word_inserted', excerpt: 'elderly', page: '' },
    ]);
    expect(changes(near('The trial enrolled patients across 12 sites.'))).toEqual([
      { kind: 'word_removed', excerpt: '', page: '110' },
    ]);
    expect(changes(near('Treatment increased mortality by 45% (95% CI 18–31)'))).toEqual([
      { kind: 'word_changed', excerpt: 'increased', page: 'reduced' },
    ]);
  });

  it('names a negation put in, taken out or written into a word as negation', () => {
    expect(changes(near('The drug was not unsafe for children under five'))).toEqual([
      { kind: 'negation', excerpt: 'not', page: '' },
    ]);
    expect(changes(near('Follow-up lasted 3 years, and the effect did fade.'))).toEqual([
      { kind: 'negation', excerpt: '', page: 'not' },
    ]);
    expect(changes(near("The drug wasn't unsafe for children under five"))).toEqual([
      { kind: 'negation', excerpt: "wasn't", page: 'was' },
    ]);
    // In a long run put in, a "nobody" is one word among many: the run is named by its form.
    expect(
      changes(
        near('Follow-up lasted 3 years, and the effect did not fade. Nobody saw any sign of it in the later trial'),
      ),
    ).toEqual([{ kind: 'word_inserted', excerpt: 'nobody saw any sign of it in the later trial', page: '' }]);
  });

  it('names each word of a run changed one for one, each number on its own', () => {
    expect(changes(near('The trial enrolled 111 patients across 13 sites.'))).toEqual([
      { kind: 'number_changed', excerpt: '111', page: '110' },
      { kind: 'number_changed', excerpt: '13', page: '12' },
    ]);
    expect(changes(near('Treatment increased morbidity by 45% (95% CI 18–31)'))).toEqual([
      { kind: 'word_changed', excerpt: 'increased', page: 'reduced' },
      { kind: 'word_changed', excerpt: 'morbidity', page: 'mortality' },
    ]);
  });

  it('is absent when the page has nothing like the excerpt', () => {
    expect(near('A cohort of gardeners planted lanterns in the orchard every winter.')).toEqual({ detail: 'absent' });
    // Two words shared are not a passage.
    expect(near('the dose lantern falcon')).toEqual({ detail: 'absent' });
    expect(near('orchard')).toEqual({ detail: 'absent' });
    expect(findNearMiss(plainSources(''), 'the dose of 26 mg was withdrawn')).toEqual({ detail: 'absent' });
    expect(findNearMiss(page, '')).toEqual({ detail: 'absent' });
  });

  it('takes punctuation at the ends of words as tokens of their own, a change only inside the excerpt', () => {
    // The quote stops before the page's comma, and its last word inside the page's: not a change.
    expect(changes(near('The drug was not unsafe for children under five'))).toHaveLength(1);
    expect(changes(near('Follow-up lasted 4 years, and the effect did not fa'))).toEqual([
      { kind: 'number_changed', excerpt: '4', page: '3' },
    ]);
    // Not inside a number, which the matcher refuses too.
    expect(changes(near('(95% CI 18–31) at 2'))).toEqual([{ kind: 'number_changed', excerpt: '2', page: '2.5' }]);
    expect(changes(near('Follow-up lasted 3 years and the effect did not fade.'))).toEqual([
      { kind: 'word_removed', excerpt: '', page: ',' },
    ]);
    // A word put in after a bracket is a word inserted, not a changed "(word".
    expect(changes(near('Treatment reduced mortality by 45% (95% CI 18–31) at (only 2.5 mg per day'))).toEqual([
      { kind: 'word_inserted', excerpt: '(only', page: '' },
    ]);
    expect(changes(near('by 45% (roughly 95% CI 18–31) at 2.5 mg per day'))).toEqual([
      { kind: 'word_inserted', excerpt: 'roughly', page: '' },
    ]);
  });

  it('diagnoses the first part of an excerpt with elisions that is not on the page', () => {
    const r = near('The trial enrolled 110 patients … the dose of 26 mg was withdrawn');
    expect(r.detail).toBe('altered');
    if (r.detail !== 'altered') return;
    expect(r.nearMiss.part).toBe(1);
    expect(changes(r)).toEqual([{ kind: 'number_changed', excerpt: '26', page: '25' }]);
    // A single part has no part index.
    const whole = near('the dose of 26 mg was withdrawn');
    expect(whole.detail === 'altered' && whole.nearMiss.part).toBe(undefined);
  });

  it('reads the excerpt as the matcher does: normalised, cut to prefixChars', () => {
    const r = findNearMiss(page, 'TREATMENT   reduced\nmortality by 54% (95% CI 18-31) and a made-up tail', {
      prefixChars: 'treatment reduced mortality by 54%'.length,
    });
    expect(changes(r)).toEqual([{ kind: 'number_changed', excerpt: '54%', page: '45%' }]);
  });

  it('finds the passage in the JSON-LD text and in the script JSON, and says which', () => {
    const html =
      '<html><head><script type="application/ld+json">{"@type":"Article","articleBody":"The vaccine cut infections by 61 percent in the first year."}</script>' +
      '<script>window.__STATE__ = {"body":"<p>Rapamycin inhibits TORC1 within 5 minutes of exposure in yeast.</p>"}</script>' +
      '</head><body><p>Kinase signalling in brief, with a short introduction to the pathway.</p></body></html>';
    const sources = htmlSources(html);
    const ld = near('The vaccine cut infections by 71 percent in the first year.', sources);
    expect(ld.detail === 'altered' && ld.nearMiss.source).toBe('json_ld');
    const script = near('Rapamycin inhibits TORC1 within 9 minutes of exposure in yeast.', sources);
    expect(script.detail === 'altered' && script.nearMiss.source).toBe('script_json');
    expect(changes(script)).toEqual([{ kind: 'number_changed', excerpt: '9', page: '5' }]);
  });

  it('takes each character of a script without spaces as a word', () => {
    const cjk = plainSources('研究人员表示，这种药物对成年人是安全的。随访持续了三年。');
    expect(changes(near('研究人员表示，这种药物对儿童是安全的。', cjk))).toEqual([
      { kind: 'word_changed', excerpt: '儿童', page: '成年人' },
    ]);
  });

  it('finds the passage on a page of one sentence repeated, with a bounded number of places kept', () => {
    const sentence = 'The assay buffer held 50 mM Tris at pH 7.4 and 150 mM sodium chloride. ';
    const repeated = plainSources(sentence.repeat(20_000));
    expect(changes(near('The assay buffer held 60 mM Tris at pH 7.4 and 150 mM sodium chloride.', repeated))).toEqual([
      { kind: 'number_changed', excerpt: '60', page: '50' },
    ]);
  });

  it('of the copies of a paragraph a page repeats, takes the one that differs least', () => {
    const paragraph = (n: string) =>
      `Regarding item ${n}, under sufficiently extreme conditions, quarks may become deconfined and exist as free particles.`;
    const copies = plainSources(['11111', '22222', '33333', '44444'].map(paragraph).join(' '));
    expect(changes(near(paragraph('33334'), copies))).toEqual([
      { kind: 'number_changed', excerpt: '33334', page: '33333' },
    ]);
  });

  it('finds the passage late in a long page where every pair of words is common, by its triples', () => {
    // Twelve words, at random: each pair occurs thousands of times, more than the places kept of one.
    const vocabulary = 'the cells of a mouse were given dose and then measured daily'.split(' ');
    let seed = 7;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const words = Array.from({ length: 300_000 }, () => vocabulary[Math.floor(next() * vocabulary.length)]!);
    const long = plainSources(words.join(' '));
    const excerpt = words.slice(290_000, 290_030);
    const was = excerpt[15]!;
    excerpt[15] = 'lantern';
    expect(changes(near(excerpt.join(' '), long))).toEqual([{ kind: 'word_changed', excerpt: 'lantern', page: was }]);
  });

  it('diagnoses at most MAX_DIAGNOSED_WORDS words of an excerpt', () => {
    const words = Array.from({ length: MAX_DIAGNOSED_WORDS + 500 }, (_, i) => `w${i}`);
    const long = plainSources(words.join(' '));
    words[10] = 'changed';
    const r = near(words.join(' '), long);
    expect(r.detail).toBe('altered');
    if (r.detail !== 'altered') return;
    expect(r.nearMiss.passage.split(' ')).toHaveLength(MAX_DIAGNOSED_WORDS);
    expect(changes(r)).toEqual([{ kind: 'word_changed', excerpt: 'changed', page: 'w10' }]);
  });
});

describe('closestPassage', () => {
  const VOCABULARY = [
    'cells', 'protein', 'expression', 'levels', 'patients', 'treatment', 'study', 'results', 'increased', 'reduced',
    'control', 'group', 'mice', 'effect', 'receptor', 'binding', 'samples', 'response', 'dose', 'kinase', 'the',
    'of', 'and', 'in', 'a', 'was', 'with', 'for', 'by', 'that', '12', '45%', '2.5', 'mg', 'trial', 'cohort',
  ]; // prettier-ignore
  const word = fc.constantFrom(...VOCABULARY);

  it('names exactly the one word changed in an excerpt of a random page, within twice its length', () => {
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 300, maxLength: 1500 }),
        fc.nat(),
        fc.integer({ min: 8, max: 60 }),
        fc.nat(),
        (pageWords, at, length, which) => {
          const start = at % (pageWords.length - length);
          const excerptWords = pageWords.slice(start, start + length);
          const k = 2 + (which % (length - 4));
          const was = excerptWords[k]!;
          excerptWords[k] = 'lantern';
          const text = normalizeForMatch(pageWords.join(' '));
          const excerpt = excerptWords.join(' ');
          const passage = closestPassage(text, excerpt);
          expect(passage).toBeDefined();
          expect(passage!.text.length).toBeLessThanOrEqual(2 * excerpt.length);
          expect(passage!.diff.filter((d) => d.kind !== 'same')).toEqual([
            { kind: 'word_changed', excerpt: 'lantern', page: was },
          ]);
          // Another place of the page with the same words is as close: the passage has them all.
          expect(passage!.similarity).toBeCloseTo((2 * (length - 1)) / (2 * length), 6);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds nothing close for an excerpt of words the page does not have', () => {
    const text = normalizeForMatch('the cells and the protein of the mice were measured in a trial of 12 weeks');
    expect(closestPassage(text, 'lantern orchard falcon meadow copper')).toBeUndefined();
  });
});
