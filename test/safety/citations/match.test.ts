import { describe, expect, it } from 'vitest';
import { CitationTextError, matchExcerpt, normalizeForMatch } from '../../../src/safety/citations/index.js';

const PAGE = normalizeForMatch(
  'The trial enrolled 110 patients across 12 sites. Treatment reduced mortality by 25% (95% CI 18–31) at ' +
    '2.5 mg per day. The drug was unsafe for children under five, and the dose of 25 mg was withdrawn. ' +
    'Researchers at the “Institute” said the effect was “robust”.[17] Follow-up lasted 3 years. ' +
    '研究人员表示，这种药物对成年人是安全的。',
);

const found = { found: true };
const notFound = { found: false, reason: 'excerpt_not_found' };
const empty = { found: false, reason: 'excerpt_empty' };

describe('matchExcerpt', () => {
  it('finds an excerpt that is on the page', () => {
    expect(matchExcerpt(PAGE, 'Treatment reduced mortality by 25%')).toEqual(found);
    expect(matchExcerpt(PAGE, 'The trial enrolled 110 patients across 12 sites.')).toEqual(found);
  });

  it('finds it whatever its case, quotes, dashes, spacing and reference markers', () => {
    expect(matchExcerpt(PAGE, 'TREATMENT   reduced\nmortality')).toEqual(found);
    expect(matchExcerpt(PAGE, 'said the effect was "robust". Follow-up lasted 3 years')).toEqual(found);
    expect(matchExcerpt(PAGE, 'the "Institute" said the effect was "robust".[17] Follow\u2011up')).toEqual(found);
    expect(matchExcerpt(PAGE, '(95% CI 18-31)')).toEqual(found);
  });

  it('checks the whole excerpt: a real opening with a fabricated tail is not found', () => {
    const real =
      'The trial enrolled 110 patients across 12 sites. Treatment reduced mortality by 25% (95% CI 18–31) at ';
    const fabricated = `${real}2.5 mg per day and had no side effects in children, who tolerated it well.`;
    expect(normalizeForMatch(real).length).toBeGreaterThan(90);
    expect(matchExcerpt(PAGE, fabricated)).toEqual(notFound);
  });

  it('with prefixChars, checks only the first N normalised characters (the earlier rule)', () => {
    const opening = 'The trial enrolled 110 patients across 12 sites. Treatment reduced mortality by 25%';
    const fabricated = `${opening} and nobody had side effects.`;
    const n = normalizeForMatch(opening).length;
    expect(matchExcerpt(PAGE, fabricated, { prefixChars: n })).toEqual(found);
    expect(matchExcerpt(PAGE, fabricated, { prefixChars: n + 5 })).toEqual(notFound);
    expect(matchExcerpt(PAGE, fabricated)).toEqual(notFound);
  });

  it('with prefixChars, a cut inside a word or a number does not reject the excerpt', () => {
    // The 7th character falls inside "trial"; the 16th inside "110".
    expect(matchExcerpt(PAGE, 'The trial enrolled', { prefixChars: 7 })).toEqual(found);
    expect(matchExcerpt(PAGE, 'The trial enrolled 110 patients', { prefixChars: 21 })).toEqual(found);
  });

  it('rejects an excerpt with one word changed', () => {
    expect(matchExcerpt(PAGE, 'Treatment reduced mortality by 25%')).toEqual(found);
    expect(matchExcerpt(PAGE, 'Treatment increased mortality by 25%')).toEqual(notFound);
    expect(matchExcerpt(PAGE, 'The drug was safe for children under five')).toEqual(notFound);
    expect(matchExcerpt(PAGE, 'safe for children under five')).toEqual(notFound);
  });

  it('rejects an excerpt with one number changed', () => {
    expect(matchExcerpt(PAGE, 'Treatment reduced mortality by 35%')).toEqual(notFound);
    expect(matchExcerpt(PAGE, 'enrolled 111 patients')).toEqual(notFound);
    expect(matchExcerpt(PAGE, 'Follow-up lasted 3 years')).toEqual(found);
    expect(matchExcerpt(PAGE, 'Follow-up lasted 4 years')).toEqual(notFound);
  });

  it('does not accept a number that is the cut-off piece of a longer one', () => {
    expect(matchExcerpt(PAGE, '10 patients across 12 sites')).toEqual(notFound);
    expect(matchExcerpt(PAGE, '5 mg per day')).toEqual(notFound);
    expect(matchExcerpt(PAGE, '(95% CI 18–31) at 2')).toEqual(notFound);
    expect(matchExcerpt(PAGE, '(95% CI 18–31) at 2.')).toEqual(notFound);
    expect(matchExcerpt(PAGE, '(95% CI 18–31) at 2.5')).toEqual(found);
    expect(matchExcerpt(PAGE, 'and the dose of 2')).toEqual(notFound);
    expect(matchExcerpt(PAGE, 'and the dose of 2.')).toEqual(notFound);
    expect(matchExcerpt(PAGE, 'and the dose of 25')).toEqual(found);
  });

  it('does not accept a number cut from a signed number or a range', () => {
    const page = normalizeForMatch('It was stored at −5 °C for 3–7 days, then 10 °C.');
    expect(matchExcerpt(page, '5 °C for 3')).toEqual(notFound);
    expect(matchExcerpt(page, '7 days, then 10 °C')).toEqual(notFound);
    expect(matchExcerpt(page, 'for 3')).toEqual(notFound);
    expect(matchExcerpt(page, 'stored at -5 °C for 3-7 days')).toEqual(found);
    expect(matchExcerpt(page, 'then 10 °C')).toEqual(found);
  });

  it('needs no word boundary in scripts written without spaces', () => {
    expect(matchExcerpt(PAGE, '这种药物对成年人是安全的')).toEqual(found);
    expect(matchExcerpt(PAGE, '这种药物对儿童是安全的')).toEqual(notFound);
  });

  describe('elisions', () => {
    const forms = ['...', '…', '[…]', '[...]', '(...)', '[ … ]'];
    for (const e of forms) {
      it(`finds parts around "${e}" in order, and not out of order`, () => {
        expect(matchExcerpt(PAGE, `The trial enrolled 110 patients ${e} reduced mortality by 25%`)).toEqual(found);
        expect(matchExcerpt(PAGE, `reduced mortality by 25% ${e} The trial enrolled 110 patients`)).toEqual(notFound);
      });
    }

    it('searches each part after the end of the previous one', () => {
      // "12 sites" occurs once, before "mortality": a part may not reuse text already passed.
      expect(matchExcerpt(PAGE, 'across 12 sites ... mortality ... across 12 sites')).toEqual(notFound);
      expect(matchExcerpt(PAGE, 'The ... The ... The ... the')).toEqual(found);
    });

    it('still rejects a part with a word or number changed', () => {
      expect(matchExcerpt(PAGE, 'The trial enrolled 110 patients … reduced mortality by 26%')).toEqual(notFound);
      expect(matchExcerpt(PAGE, 'The trial enrolled 110 patients … increased mortality')).toEqual(notFound);
    });

    it('accepts an opening or closing ellipsis', () => {
      expect(matchExcerpt(PAGE, '… reduced mortality by 25% …')).toEqual(found);
      expect(matchExcerpt(PAGE, '[...] the dose of 25 mg was withdrawn.')).toEqual(found);
    });
  });

  it('reports an excerpt that is empty after normalisation', () => {
    for (const e of ['', '   ', '\u200B\u00AD', '...', '…', '[…] … (...)', '\u00A0']) {
      expect(matchExcerpt(PAGE, e)).toEqual(empty);
    }
  });

  it('rejects a prefixChars that is not a positive integer', () => {
    for (const prefixChars of [0, -1, 1.5, Number.NaN]) {
      expect(() => matchExcerpt(PAGE, 'x', { prefixChars })).toThrow(CitationTextError);
    }
    try {
      matchExcerpt(PAGE, 'x', { prefixChars: 0 });
    } catch (err) {
      expect((err as CitationTextError).code).toBe('BAD_OPTION');
    }
  });

  it('does not split a surrogate pair when cutting', () => {
    const page = normalizeForMatch('emoji here');
    // The 7th character is the first half of 😀: cut before it, "emoji" is checked.
    expect(matchExcerpt(page, 'emoji 😀 there', { prefixChars: 7 })).toEqual(found);
    expect(matchExcerpt(page, 'emoji 😀 there', { prefixChars: 8 })).toEqual(notFound);
  });
});
