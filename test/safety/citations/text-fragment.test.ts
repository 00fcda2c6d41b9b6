/**
 * The text-fragment link of a located passage: built from the page's text,
 * encoded as the syntax requires, and matching, as a browser searches, the
 * passage rather than an earlier place of the page.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  encodeTextDirective,
  findTextDirective,
  htmlSources,
  locateInPage,
  normalizeForMatch,
  passageDirective,
  textFragmentUrl,
  type MatchText,
} from '../../../src/safety/citations/index.js';

/** The directive of an excerpt located in a page of HTML, and the page's text. */
function directiveOf(html: string, excerpt: string) {
  const sources = htmlSources(html);
  const at = locateInPage(sources, excerpt);
  if (!at.found) throw new Error(`not found: ${excerpt}`);
  const page: MatchText = at.source === 'script_json' ? sources.script! : sources.text;
  return { page, at, d: passageDirective(page, at.start, at.end) };
}

describe('passageDirective', () => {
  it('names a short passage whole, in the words of the page text', () => {
    const { d } = directiveOf('<p>We show that <b>kinase X</b> phosphorylates Y.</p>', 'kinase X phosphorylates Y');
    expect(d).toEqual({ start: 'kinase x phosphorylates y' });
  });

  it('takes the page text, not the excerpt, where the two differ in spacing', () => {
    const { d } = directiveOf('<p>read the <a>full report</a> here now</p>', 'thefull reporthere');
    expect(d).toEqual({ start: 'the full report here' });
  });

  it('names a long passage by its first and last words', () => {
    const text =
      'Protein kinase A phosphorylates the transcription factor CREB at serine 133, which recruits the coactivator CBP.';
    const { d, page, at } = directiveOf(`<p>${text}</p>`, text);
    expect(d).toEqual({ start: 'protein kinase a', end: 'the coactivator cbp' });
    expect(findTextDirective(page.text, d!)).toEqual({ start: at.start, end: at.end - 1 });
  });

  it('ends at the end of a word the excerpt cuts, and leaves out punctuation at the edges', () => {
    const { d } = directiveOf('<p>The “mortality rate” fell sharply.</p>', '"mortality rate" fell sharp');
    expect(d).toEqual({ start: 'mortality rate" fell sharply' });
  });

  it('grows the terms while an earlier place of the page begins or ends the same', () => {
    const early = 'The cells were grown in rich medium for two days at 30 degrees before the assay.';
    const late = 'The cells were grown in minimal medium for six days at 30 degrees before the assay began.';
    const { d, page, at } = directiveOf(`<p>${early}</p><p>${late}</p>`, late);
    expect(d!.start).toBe('the cells were grown in minimal');
    expect(findTextDirective(page.text, d!)).toEqual({ start: at.start, end: at.end - 1 });
  });

  it('adds words of context when the passage itself comes earlier in the page', () => {
    const html = '<p>First, rapamycin inhibits TORC1.</p><p>Second, rapamycin inhibits TORC1.</p>';
    const sources = htmlSources(html);
    const second = sources.text.text.lastIndexOf('rapamycin');
    const d = passageDirective(sources.text, second, second + 'rapamycin inhibits torc1'.length);
    expect(d).toEqual({ prefix: 'second,', start: 'rapamycin inhibits torc1' });
    expect(findTextDirective(sources.text.text, d!)?.start).toBe(second);
  });

  it('keeps an optional element the excerpt left out outside its terms', () => {
    const html = '<p>If the conjugate transpose of a matrix <math><mi>A</mi></math> is denoted by B, then</p>';
    const { d } = directiveOf(html, 'the conjugate transpose of a matrix is denoted by B');
    expect(d).toEqual({ start: 'the conjugate transpose', end: 'denoted by b' });
  });

  it('gives none for a passage without a word', () => {
    expect(passageDirective({ text: 'a — b' }, 2, 3)).toBeUndefined();
  });

  it('finds, as a browser searches, the passage itself wherever its context is unique in the page', () => {
    const word = fc.constantFrom('kinase', 'binds', 'the', 'cells', 'in', 'yeast', 'at', '30', 'was', 'not');
    fc.assert(
      fc.property(fc.array(word, { minLength: 2, maxLength: 120 }), fc.nat(), fc.nat(), (words, a, b) => {
        const text = words.join(' ');
        const from = a % words.length;
        const to = from + 1 + (b % Math.min(30, words.length - from));
        const start = words.slice(0, from).join(' ').length + (from > 0 ? 1 : 0);
        const passageText = words.slice(from, to).join(' ');
        const d = passageDirective({ text }, start, start + passageText.length)!;
        const found = findTextDirective(text, d);
        expect(found).toBeDefined();
        // Never a place after the passage, and the passage itself when five words of context before it are unique.
        expect(found!.start).toBeLessThanOrEqual(start);
        const context = words.slice(Math.max(0, from - 5), to).join(' ');
        const contextAt = words.slice(0, Math.max(0, from - 5)).join(' ').length + (from - 5 > 0 ? 1 : 0);
        if (text.indexOf(context) === contextAt) expect(found).toEqual({ start, end: start + passageText.length });
      }),
    );
  });
});

describe('the link', () => {
  it("percent-encodes each term, and '-', '&' and ',', which the syntax uses", () => {
    const d = { prefix: 'dose-response,', start: 'rats & mice', end: 'p < 0.05', suffix: '95% ci' };
    expect(encodeTextDirective(d)).toBe('text=dose%2Dresponse%2C-,rats%20%26%20mice,p%20%3C%200.05,-95%25%20ci');
    expect(encodeTextDirective({ start: 'β-catenin' })).toBe('text=%CE%B2%2Dcatenin');
  });

  it('decodes back to the terms', () => {
    const d = { prefix: 'a-b,', start: 'x & y-z', end: 'end,', suffix: '-s' };
    const [prefix, start, end, suffix] = encodeTextDirective(d).slice('text='.length).split(',');
    expect([prefix!.slice(0, -1), start, end, suffix!.slice(1)].map((t) => decodeURIComponent(t!))).toEqual([
      d.prefix,
      d.start,
      d.end,
      d.suffix,
    ]);
  });

  it('goes after a fragment the URL has, replaces a directive it has, and is only for http and https', () => {
    const d = { start: 'kinase x' };
    expect(textFragmentUrl('https://example.org/paper', d)).toBe('https://example.org/paper#:~:text=kinase%20x');
    expect(textFragmentUrl('https://example.org/paper?a=1#results', d)).toBe(
      'https://example.org/paper?a=1#results:~:text=kinase%20x',
    );
    expect(textFragmentUrl('https://example.org/p#r:~:text=other', d)).toBe(
      'https://example.org/p#r:~:text=kinase%20x',
    );
    expect(textFragmentUrl('javascript:alert(1)', d)).toBeUndefined();
    expect(textFragmentUrl('not a url', d)).toBeUndefined();
  });

  it('is built from a normalised page text, whatever the excerpt wrote', () => {
    const { d } = directiveOf('<p>It was ROBUST [17] in vivo.</p>', 'It was robust in vivo');
    expect(normalizeForMatch('It was ROBUST [17] in vivo.')).toBe('it was robust in vivo.');
    expect(d).toEqual({ start: 'it was robust in vivo' });
  });
});
