import { describe, expect, it } from 'vitest';
import { htmlSources, matchExcerpt, matchInPage, normalizeMarked } from '../../../src/safety/citations/index.js';
import {
  BOUNDARY as M,
  OPTIONAL_CLOSE as C,
  OPTIONAL_OPEN as O,
  joinTexts,
} from '../../../src/safety/citations/marked-text.js';
import { withoutOptional } from '../../../src/safety/citations/optional-spans.js';

/** The texts of the spans of a page text. */
function spanTexts(html: string): string[] {
  const { text } = htmlSources(html);
  const out: string[] = [];
  const spans = text.optional ?? [];
  for (let k = 0; k < spans.length; k += 2) out.push(text.text.slice(spans[k], spans[k + 1]));
  return out;
}

const found = (html: string, excerpt: string): boolean => matchInPage(htmlSources(html), excerpt).found;

/** A Wikipedia formula: MathML hidden by its style, with its TeX annotation and a fallback image. */
const formula = (mathml: string, tex: string) =>
  `<span class="mwe-math-element"><span class="mwe-math-mathml-inline" style="display: none;">` +
  `<math><semantics><mrow>${mathml}</mrow><annotation encoding="application/x-tex">${tex}</annotation></semantics></math>` +
  `</span><img src="f.svg" class="mwe-math-fallback-image-inline" aria-hidden="true" alt="${tex}"></span>`;

describe('optional spans', () => {
  it('records the text of formulas, pronunciations and hidden elements, the outermost element only', () => {
    const html =
      `<p>A matrix ${formula('<mi>A</mi>', 'A')} is Hermitian.</p>` +
      '<p>The bound <math><mi>x</mi><mo>≤</mo><mn>5</mn></math> holds.</p>' +
      '<p>Aotearoa (pronounced <span class="IPA nopopups noexcerpt"><a href="/ipa">/ˌaʊtɛəˈroʊ.ə/</a></span>; often)</p>' +
      '<p>Approved<span aria-hidden="true"> ★</span> in 2021, <span style="color:red; DISPLAY : none !important">x</span>y' +
      '<span style="visibility:hidden">z</span>.</p>' +
      '<p>Shown: <span style="display:block">kept</span> <span data-style="display:none">kept too</span>.</p>' +
      '<p>A study<button>Show note</button> of <select><option>one</option></select> adults.</p>' +
      '<aside><p>Pull <b>quote</b></p></aside>';
    expect(spanTexts(html)).toEqual(['a', 'x≤5', '/ˌaʊtɛəˈroʊ.ə/', '★', 'x', 'z', 'show note', 'one', 'pull quote']);
  });

  it('marks nothing on the plain text, which keeps every optional element', () => {
    expect(normalizeMarked(`the ${M}${O}x${M}${C}${M} is`)).toEqual({
      text: 'the x is',
      gaps: [3, 5],
      optional: [4, 5],
    });
    // An element with no text is no span.
    expect(normalizeMarked(`a ${M}${O}${M} ${C}${M} b`)).toEqual({ text: 'a b', gaps: [1] });
  });

  it('moves spans with the text when reference markers are removed and when texts are joined', () => {
    const marked = normalizeMarked(`see [17] the ${O}formula${C} here`);
    expect(marked.text).toBe('see the formula here');
    expect(marked.text.slice(marked.optional![0], marked.optional![1])).toBe('formula');
    const many = normalizeMarked(`[1] a [2] ${O}b [3] c${C} d [4] ${O}e [5]${C} f [6]`);
    expect(many.text).toBe('a b c d e f');
    expect([0, 2].map((k) => many.text.slice(many.optional![k], many.optional![k + 1]))).toEqual(['b c', 'e']);
    const { text } = joinTexts(normalizeMarked('visible'), marked);
    expect(text.text.slice(text.optional![0], text.optional![1])).toBe('formula');
  });

  it('cuts each span out whole, one space left where there were two, a gap where the text meets', () => {
    const reduced = (text: string, optional: number[], gaps?: number[]) =>
      withoutOptional({ text, optional, ...(gaps ? { gaps } : {}) }).text;
    expect(reduced('the matrix a is x', [11, 12])).toEqual({ text: 'the matrix is x', gaps: [10] });
    expect(reduced('denoted by a h , then', [11, 14])).toEqual({ text: 'denoted by , then', gaps: [10] });
    expect(reduced('a x, b', [2, 3])).toEqual({ text: 'a , b', gaps: [1] });
    expect(reduced('ax, b', [1, 2])).toEqual({ text: 'a, b', gaps: [1] });
    expect(reduced('x y the end', [0, 1, 2, 3])).toEqual({ text: 'the end' });
    expect(reduced('the end x', [8, 9])).toEqual({ text: 'the end' });
    // Gaps of the page outside the spans stay, moved.
    expect(reduced('one tw o x thr ee', [9, 10], [6, 14])).toEqual({ text: 'one tw o thr ee', gaps: [6, 8, 12] });
  });

  it('never lets two numbers run into one where a span is cut out', () => {
    const cut = (text: string, optional: number[]) => withoutOptional({ text, optional }).text;
    expect(cut('enrolled 1x0 patients', [10, 11])).toEqual({ text: 'enrolled 1 0 patients' });
    expect(cut('a dose of 2x.5 mg', [11, 12])).toEqual({ text: 'a dose of 2 .5 mg' });
    expect(cut('a dose of 2.x5 mg', [12, 13])).toEqual({ text: 'a dose of 2. 5 mg' });
    expect(
      found('<p>The trial enrolled 1<math><mn>2</mn></math>0 patients.</p>', 'The trial enrolled 120 patients'),
    ).toBe(true);
    expect(
      found('<p>The trial enrolled 1<math><mn>2</mn></math>0 patients.</p>', 'The trial enrolled 10 patients'),
    ).toBe(false);
  });

  it('maps offsets of the page text to the text without its spans', () => {
    const { at } = withoutOptional({ text: 'the matrix a is x', optional: [11, 12] });
    expect([at(0), at(10), at(11), at(12), at(13), at(17)]).toEqual([0, 10, 11, 11, 11, 15]);
  });

  it('verifies a quote that has every optional element or none, and nothing that edits them', () => {
    const html =
      `<p>If the conjugate transpose of a matrix ${formula('<mi>A</mi>', 'A')} is denoted by ` +
      `${formula('<msup><mi>A</mi><mi>H</mi></msup>', 'A^{H}')}, then the property holds for 12 of the 40 matrices.</p>` +
      '<p><i>Aotearoa</i> (pronounced <span class="nowrap"><span class="IPA nopopups noexcerpt"><a href="/ipa">/' +
      '<span title="stress">ˌ</span><span>aʊtɛəˈroʊ.ə</span>/</a></span></span>; often translated as "land of the long ' +
      'white cloud") is the current Māori name.</p>' +
      '<p>The vaccine was approved in 2021<span aria-hidden="true"> ★</span> after trials in 40 countries.</p>';
    const genuine = [
      // Reader mode: every formula left out.
      'If the conjugate transpose of a matrix is denoted by , then the property holds for 12 of the 40 matrices.',
      'of a matrix is denoted by, then the property holds',
      // A dump of the tags: every formula in.
      'of a matrix A is denoted by A H , then the property holds',
      'Aotearoa (pronounced ; often translated as "land of the long white cloud") is the current Māori name.',
      'Aotearoa (pronounced /ˌaʊtɛəˈroʊ.ə/; often translated as "land of the long white cloud")',
      'approved in 2021 after trials in 40 countries',
      'approved in 2021 ★ after trials in 40 countries',
    ];
    const edited = [
      'of a matrix is not denoted by , then the property holds',
      'of a matrix is denoted by , then the property holds for 13 of the 40 matrices.',
      'of a matrix is denoted by , then the property holds for 12 of the 41 matrices.',
      // Part of a formula, another formula, or one formula in and the other out.
      'of a matrix is denoted by A , then the property holds',
      'of a matrix B is denoted by , then the property holds',
      'of a matrix A is denoted by , then the property holds',
      'of a matrix is denoted by then the property holds',
      'Aotearoa (pronounced /ˌaʊ; often translated as "land of the long white cloud")',
      'Aotearoa (pronounced ; often translated as "land of the long black cloud")',
      'approved in 2022 after trials in 40 countries',
      'approved in 2021 after trials in 400 countries',
      'approved in 2021 ☆ after trials in 40 countries',
    ];
    expect(genuine.filter((e) => !found(html, e))).toEqual([]);
    expect(edited.filter((e) => found(html, e))).toEqual([]);
  });

  it('lets a quote say less than the page where it leaves a formula out, as docs/citations.md says', () => {
    const html = '<p>The risk is not <math><mo>≥</mo></math> 5% in adults.</p>';
    expect(found(html, 'The risk is not 5% in adults.')).toBe(true);
    expect(found(html, 'The risk is not ≥ 5% in adults.')).toBe(true);
  });

  it('finds the optional elements of HTML held in the script JSON, as docs/citations.md says', () => {
    const body = `<p>A matrix ${formula('<mi>A</mi>', 'A')} is Hermitian when it equals its adjoint.</p>`;
    const html =
      '<div id="__next"></div><script id="__NEXT_DATA__" type="application/json">' +
      `${JSON.stringify({ props: { article: { body } } }).replace(/<\//g, '<\\/')}</script>`;
    const sources = htmlSources(html);
    expect(matchInPage(sources, 'A matrix is Hermitian when it equals its adjoint.')).toEqual({
      found: true,
      source: 'script_json',
    });
    expect(matchInPage(sources, 'A matrix is not Hermitian when it equals its adjoint.').found).toBe(false);
  });

  it('reduces each page text with its own marks, when another with the same text was reduced before', () => {
    const text = 'the matrix a is hermitian here';
    const plain = { text, optional: [11, 12] };
    const hyphenated = { text, optional: [11, 12], hyphens: [19] };
    const excerpt = 'the matrix is her-\nmitian';
    expect(matchExcerpt(plain, excerpt).found).toBe(false);
    expect(matchExcerpt({ ...hyphenated }, excerpt).found).toBe(true);
    expect(matchExcerpt({ ...plain }, excerpt).found).toBe(false);
  });

  it('records the text of a tooltip or hover card inside a sentence, never the name it pops up from', () => {
    const html =
      '<p>The trial, led by <span class="author">Maria Chen<span role="tooltip">Professor of oncology at Leiden</span>' +
      '</span>, enrolled 300 adults.</p>' +
      '<p>The <span class="tooltip">WHO<span class="tooltiptext">World Health Organization</span></span> guidance changed.</p>' +
      '<p>The fix was merged by <a href="/u/jdoe">@jdoe</a><div class="hovercard"><p>Jane Doe</p><p>Maintainer</p></div> ' +
      'on Friday<span popover id="n1">See note 1.</span>.</p>' +
      '<p>The <abbr data-tooltip="Food and Drug Administration">FDA</abbr> approved it.</p>';
    expect(spanTexts(html)).toEqual([
      'professor of oncology at leiden',
      'world health organization',
      'jane doe maintainer',
      'see note 1.',
    ]);
    const genuine = [
      // Without the pop-ups, as a reader sees the sentence and reader modes copy it.
      'The trial, led by Maria Chen, enrolled 300 adults.',
      'The WHO guidance changed.',
      'The fix was merged by @jdoe on Friday.',
      // With them, as a dump of the tags has them.
      'The trial, led by Maria Chen Professor of oncology at Leiden, enrolled 300 adults.',
      'The WHO World Health Organization guidance changed.',
      'merged by @jdoe Jane Doe Maintainer on Friday See note 1. .',
      'The FDA approved it.',
    ];
    const edited = [
      'The trial, led by Maria Chen, enrolled 400 adults.',
      'The trial, led by Maria Chen Professor of surgery at Leiden, enrolled 300 adults.',
      // The name is prose: a quote has it.
      'The trial, led by , enrolled 300 adults.',
      'The World Health Organization guidance changed.',
      'The guidance changed.',
      // The tooltip of data-tooltip is an attribute's value, never the page's text.
      'The FDA Food and Drug Administration approved it.',
      'The approved it.',
    ];
    expect(genuine.filter((e) => !found(html, e))).toEqual([]);
    expect(edited.filter((e) => found(html, e))).toEqual([]);
  });

  it('keeps every guard in the text without the spans: no part begins inside a word or cuts a number', () => {
    const html = '<p>It was un<math><mi>x</mi></math>safe at 2<span style="display:none">!</span>5 mg and 7 days.</p>';
    expect(found(html, 'It was unsafe at')).toBe(true);
    expect(found(html, 'safe at 2 5 mg')).toBe(false);
    expect(found(html, 'at 25 mg')).toBe(false);
  });
});
