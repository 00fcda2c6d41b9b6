import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeForMatch, normalizeMarked } from '../../../src/safety/citations/index.js';
import { BOUNDARY as M, joinTexts, markLineBreaks } from '../../../src/safety/citations/marked-text.js';

describe('normalizeMarked', () => {
  it('records a boundary with no space around it as a place where a space may be put', () => {
    expect(normalizeMarked(`expand${M}ed to`)).toEqual({ text: 'expanded to', gaps: [6] });
    expect(normalizeMarked(`Boeing${M}${M}'s`)).toEqual({ text: "boeing's", gaps: [6] });
  });

  it('records a space next to a boundary as a space that may be missing', () => {
    for (const marked of [`word ${M}link`, `word${M} link`, `word ${M} ${M}link`, `word${M}\n\t ${M}link`]) {
      expect(normalizeMarked(marked)).toEqual({ text: 'word link', gaps: [4] });
    }
  });

  it('records nothing for a space with no boundary: it is part of the words', () => {
    expect(normalizeMarked('the rapist')).toEqual({ text: 'the rapist' });
    expect(normalizeMarked(`the rapist ${M}went`)).toEqual({ text: 'the rapist went', gaps: [10] });
  });

  it('records soft hyphens apart, and takes zero-width spaces for boundaries', () => {
    expect(normalizeMarked('Werk\u00ADzeug\u00ADty\u00ADpen')).toEqual({ text: 'werkzeugtypen', hyphens: [4, 8, 10] });
    // A soft hyphen at an element boundary keeps what a soft hyphen allows (more than a boundary).
    expect(normalizeMarked(`Werk\u00AD${M}zeug`)).toEqual({ text: 'werkzeug', hyphens: [4] });
    // One before a space is no break hint: the space is there anyway.
    expect(normalizeMarked('Werk\u00AD zeug')).toEqual({ text: 'werk zeug' });
    expect(normalizeMarked('Werk\u200Bzeug')).toEqual({ text: 'werkzeug', gaps: [4] });
    // Other invisible characters are removed and mark nothing.
    expect(normalizeMarked('Werk\u2060zeug\u200Dtypen')).toEqual({ text: 'werkzeugtypen' });
  });

  it('keeps its marks on a text that also holds invisible characters to remove', () => {
    // The removal of invisible characters runs with the marks in the text, and must keep them.
    expect(normalizeMarked(`the ${M}full report${M} here\u2060, \uFEFFand${M}ed`)).toEqual({
      text: 'the full report here, anded',
      gaps: [3, 15, 25],
    });
  });

  it('never takes the second half of a surrogate pair for a mark', () => {
    // 🐀 is \uD83D\uDC00: its second half is the mark's code unit.
    expect(normalizeMarked(`a 🐀${M}🐁 b`)).toEqual({ text: 'a 🐀🐁 b', gaps: [4] });
    expect(normalizeMarked('a 🐀🐁 b')).toEqual({ text: 'a 🐀🐁 b' });
  });

  it('drops boundaries at either end', () => {
    expect(normalizeMarked(`${M} ${M}a${M}b ${M}`)).toEqual({ text: 'ab', gaps: [1] });
    expect(normalizeMarked(`${M}${M}`)).toEqual({ text: '' });
  });

  it('normalises as normalizeForMatch does, and lets a combining mark compose across a boundary', () => {
    expect(normalizeMarked(`“ＡＢＣ”${M} – Cafe${M}\u0301`)).toEqual({ text: '"abc" - café', gaps: [5] });
  });

  it('removes reference markers split by markup, and moves the offsets behind them', () => {
    expect(normalizeMarked(`word ${M}[${M}17${M}]${M} more${M}text`)).toEqual({ text: 'word moretext', gaps: [4, 9] });
    expect(normalizeMarked(`[1] lead${M}ing`)).toEqual({ text: 'leading', gaps: [4] });
    expect(normalizeMarked(`end${M}s here [${M}citation needed${M}]`)).toEqual({ text: 'ends here', gaps: [3] });
  });

  it('gives the text normalizeForMatch gives without the marks, never a mark, and offsets inside it, ascending', () => {
    const alphabet = fc.constantFrom(
      'a',
      'b',
      'Z',
      '1',
      '2',
      ' ',
      '\n',
      '[',
      ']',
      '.',
      M,
      '\u00AD',
      '\u200B',
      'é',
      '🐀',
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (chars) => {
        const marked = chars.join('');
        const t = normalizeMarked(marked);
        // With the u flag: the mark's code unit is also the second half of 🐀.
        expect(t.text).toBe(normalizeForMatch(marked.replace(/\uDC00/gu, '')));
        expect(t.text).not.toMatch(/[\uDC00\uDC01]/u);
        for (const offsets of [t.gaps, t.hyphens]) {
          if (offsets === undefined) continue;
          expect(offsets.length).toBeGreaterThan(0);
          offsets.forEach((o, i) => {
            expect(o).toBeGreaterThan(i === 0 ? 0 : offsets[i - 1]!);
            expect(o).toBeLessThan(t.text.length);
          });
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('runs in linear time on adversarial input', () => {
    const inputs = [
      `${M} `.repeat(500_000),
      `a${M}`.repeat(500_000),
      `[${M}1${M}]`.repeat(200_000),
      `\u00AD${M}\u0301`.repeat(300_000),
      `x ${M}[1] `.repeat(150_000),
    ];
    const start = performance.now();
    for (const s of inputs) normalizeMarked(s);
    // A quadratic pass over a million characters would take minutes.
    expect(performance.now() - start).toBeLessThan(10_000);
  });
});

describe('joinTexts and markLineBreaks', () => {
  it('joins two texts with a space that may be missing, and says where the second begins', () => {
    const a = normalizeMarked(`a${M}b`);
    const b = normalizeMarked(`c${M}d`);
    expect(joinTexts(a, b)).toEqual({ text: { text: 'ab cd', gaps: [1, 2, 4] }, at: 3 });
    expect(joinTexts(a, normalizeMarked(''))).toEqual({ text: a, at: 2 });
  });

  it('marks the line breaks of plain text as gaps', () => {
    expect(normalizeMarked(markLineBreaks('line one\nline two\r\nthree'))).toEqual({
      text: 'line one line two three',
      gaps: [8, 17],
    });
  });
});
