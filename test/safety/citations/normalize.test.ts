import { describe, expect, it } from 'vitest';
import { matchExcerpt, normalizeForMatch } from '../../../src/safety/citations/index.js';

describe('normalizeForMatch', () => {
  it('applies NFKC and lower case', () => {
    expect(normalizeForMatch('Ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３')).toBe('fullwidth abc 123');
    expect(normalizeForMatch('ﬁnal Ⅻ ㎏ x²')).toBe('final xii kg x2');
    expect(normalizeForMatch('CAFE\u0301')).toBe('café');
  });

  it('turns curly and prime quotes into plain ones', () => {
    for (const q of ['\u2018', '\u2019', '\u201A', '\u201B', '\u2032'])
      expect(normalizeForMatch(`it${q}s`)).toBe("it's");
    for (const q of ['\u201C', '\u201D', '\u201E', '\u201F', '\u2033'])
      expect(normalizeForMatch(`${q}x${q}`)).toBe('"x"');
  });

  it('turns every dash and minus sign into a hyphen-minus', () => {
    for (const d of [
      '\u2010',
      '\u2011',
      '\u2012',
      '\u2013',
      '\u2014',
      '\u2015',
      '\u2212',
      '\uFE58',
      '\uFE63',
      '\uFF0D',
    ]) {
      expect(normalizeForMatch(`10${d}20`)).toBe('10-20');
    }
  });

  it('removes soft hyphens and invisible format characters', () => {
    expect(normalizeForMatch('pro\u00ADtein')).toBe('protein');
    expect(normalizeForMatch('zero\u200Bwidth\u200Cjoin\u200Ders\u2060\uFEFF')).toBe('zerowidthjoiners');
    expect(normalizeForMatch('bidi\u202Eevil\u202C')).toBe('bidievil');
    expect(normalizeForMatch(`tag${String.fromCodePoint(0xe0041)}s`)).toBe('tags');
  });

  it('removes Wikipedia-style reference markers', () => {
    expect(normalizeForMatch('Water boils at 100 °C.[17] It')).toBe('water boils at 100 °c. it');
    expect(normalizeForMatch('range[3–5] list[12, 14] note[note 2] claim[citation needed] end')).toBe(
      'range list note claim end',
    );
    expect(normalizeForMatch('a [1][2] b [a] c[update] d [when?] e')).toBe('a b c d e');
    expect(normalizeForMatch('History[edit] The town')).toBe('history the town');
    expect(normalizeForMatch('as reported [17].')).toBe('as reported.');
  });

  it('keeps brackets that are not reference markers', () => {
    expect(normalizeForMatch('he [the author] said [sic] (17) [12345]')).toBe(
      'he [the author] said [sic] (17) [12345]',
    );
  });

  it('collapses whitespace, NBSP included, and trims', () => {
    expect(normalizeForMatch('  a\u00A0\u00A0b\t\tc\r\n\nd\u2003e\u3000f\u000Bg\u000Ch\u0085i  ')).toBe(
      'a b c d e f g h i',
    );
  });

  it('keeps every word and number that carries meaning', () => {
    expect(normalizeForMatch('dose of 5 mg')).not.toBe(normalizeForMatch('dose of 6 mg'));
    expect(normalizeForMatch('is safe')).not.toBe(normalizeForMatch('is unsafe'));
    expect(normalizeForMatch('3.5%')).toBe('3.5%');
  });

  it('is idempotent', () => {
    const samples = ['“Quoted” — text [17] with\u00A0NBSP', 'ＡＢＣ ″x″', 'a\u200B b [note 1]  c', '  x  '];
    for (const s of samples) expect(normalizeForMatch(normalizeForMatch(s))).toBe(normalizeForMatch(s));
  });

  it('runs in linear time on adversarial input', () => {
    const inputs = [
      '[1,'.repeat(300_000),
      '['.repeat(1_000_000),
      ' '.repeat(1_000_000) + 'x',
      '[a '.repeat(300_000),
      ' \u200B'.repeat(500_000),
      '[citation '.repeat(100_000),
    ];
    const start = performance.now();
    for (const s of inputs) normalizeForMatch(s);
    // A quadratic pass over a million characters would take minutes.
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});

describe('reference markers with page numbers', () => {
  it('drops the page number that follows a numbered reference, as the page drops the whole superscript', () => {
    const page = normalizeForMatch('from the previous loop. The list provides the names');
    const quoted = 'from the previous loop.[1]: 207 The list provides the names';
    expect(normalizeForMatch(quoted)).toBe(page);
    expect(normalizeForMatch('a [4]: p. 23 b [7]: 12–14 c')).toBe('a b c');
    // A ratio after ordinary text is left alone.
    expect(normalizeForMatch('a ratio of 2:1')).toBe('a ratio of 2:1');
  });

  it('drops a page number cut short by the end of the excerpt with its marker, and only at the end', () => {
    for (const quoted of [
      'the previous loop. [1] :',
      'the previous loop.[1]:',
      'the previous loop.[1]: 2',
      'the previous loop. [4]: pp. 12–',
    ]) {
      expect(normalizeForMatch(quoted), quoted).toBe('the previous loop.');
    }
    // Elsewhere a colon after a marker is the sentence's.
    expect(normalizeForMatch('as follows [1]: the list')).toBe('as follows: the list');
    expect(normalizeForMatch('the ratio [1] 2:')).toBe('the ratio 2:');
  });

  it('drops the last word of a marker cut by the start of an excerpt, and only a marker word, only at the start', () => {
    const page = normalizeForMatch(
      'It can be shown[citation needed] that, for a given matrix, it is safe [note 2] for children.',
    );
    for (const quoted of ['needed] that, for a given matrix', 'needed]that, for a given matrix', '2] for children.']) {
      expect(matchExcerpt(page, quoted).found, quoted).toBe(true);
    }
    // Any other word before a bracket is the excerpt's, and so is a marker word elsewhere.
    for (const quoted of ['safe] for children.', 'matrix] that, for a given matrix', 'it is needed] for children.']) {
      expect(matchExcerpt(page, quoted).found, quoted).toBe(false);
    }
  });
});
