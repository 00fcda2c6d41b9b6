import { describe, expect, it } from 'vitest';
import { CitationTextError, htmlToText } from '../../../src/safety/citations/index.js';

describe('htmlToText', () => {
  describe('spacing', () => {
    it('puts a space at block boundaries', () => {
      expect(htmlToText('<p>a</p><p>b</p>')).toBe('a b');
      expect(htmlToText('<div>a</div><div>b</div>')).toBe('a b');
      expect(htmlToText('<ul><li>a</li><li>b</li></ul>c')).toBe('a b c');
      expect(htmlToText('<table><tr><td>a</td><td>b</td></tr><tr><th>c</th></tr></table>')).toBe('a b c');
      expect(htmlToText('<h1>Title</h1><h2>Sub</h2><h6>x</h6>text')).toBe('Title Sub x text');
      expect(htmlToText('<blockquote>q</blockquote><section>s</section><article>t</article>')).toBe('q s t');
      expect(htmlToText('<dl><dt>term</dt><dd>definition</dd></dl>')).toBe('term definition');
    });

    it('puts a space at <br> and <hr>', () => {
      expect(htmlToText('line one<br>line two<br/>three<hr>four')).toBe('line one line two three four');
    });

    it('adds no space at inline elements', () => {
      expect(htmlToText('pro<b>tein</b>')).toBe('protein');
      expect(htmlToText('<i>in</i><em>line</em><span>s</span><a href="#">pan</a><strong>x</strong>')).toBe(
        'inlinespanx',
      );
      expect(htmlToText('H<sub>2</sub>O and E=mc<sup>2</sup>')).toBe('H2O and E=mc2');
      expect(htmlToText('<p>word<wbr>break</p>')).toBe('wordbreak');
    });

    it('collapses whitespace, NBSP included, and trims', () => {
      expect(htmlToText('  <p>  a \n\t b&nbsp;&nbsp;c  </p>\n\n  ')).toBe('a b c');
    });
  });

  it('decodes character references', () => {
    expect(htmlToText('<p>&lt;tag&gt; &amp; &quot;q&quot; &#8220;x&#x201D; caf&eacute; &mdash;</p>')).toBe(
      '<tag> & "q" “x” café —',
    );
  });

  it('drops script, style and template content', () => {
    expect(
      htmlToText(
        '<p>a</p><script>var x = "<p>hidden</p>";</script><style>p { color: red }</style><template><p>t</p></template><p>b</p>',
      ),
    ).toBe('a b');
  });

  it('keeps <noscript> content as text', () => {
    expect(htmlToText('<p>a</p><noscript><p>Enable JavaScript to read more.</p></noscript>')).toBe(
      'a Enable JavaScript to read more.',
    );
  });

  it('keeps <title> apart from the body, and body text inside an unclosed <head>', () => {
    expect(
      htmlToText('<html><head><title>Page title</title><meta charset="utf-8"></head><body><p>Body</p></body></html>'),
    ).toBe('Page title Body');
    expect(htmlToText('<html><head><title>T</title><p>Body text after a head never closed</p></html>')).toBe(
      'T Body text after a head never closed',
    );
  });

  it('drops elements with the hidden attribute but not aria-hidden ones', () => {
    expect(htmlToText('<p>a</p><div hidden><p>secret</p></div><p aria-hidden="true">shown</p>')).toBe('a shown');
    expect(htmlToText('<p>a</p><DIV HIDDEN="hidden">secret</DIV>')).toBe('a');
  });

  it('keeps hidden="until-found" content, which find-in-page reveals', () => {
    expect(htmlToText('<h2>History</h2><section hidden="until-found"><p>Collapsed section text.</p></section>')).toBe(
      'History Collapsed section text.',
    );
  });

  it('drops iframe fallback content', () => {
    expect(htmlToText('<p>a</p><iframe src="x">Your browser does not support iframes</iframe>')).toBe('a');
  });

  describe('JSON-LD', () => {
    it('appends articleBody, headline, description, abstract and text', () => {
      const ld = {
        '@context': 'https://schema.org',
        '@type': 'NewsArticle',
        headline: 'Headline here',
        description: 'A description.',
        articleBody: 'The full article body.',
        author: { '@type': 'Person', name: 'Not appended' },
      };
      expect(htmlToText(`<script type="application/ld+json">${JSON.stringify(ld)}</script><p>Visible</p>`)).toBe(
        'Visible Headline here A description. The full article body.',
      );
    });

    it('walks @graph, nested objects and arrays', () => {
      const ld = {
        '@graph': [
          { '@type': 'WebPage', name: 'skip' },
          { '@type': 'ScholarlyArticle', abstract: ['First part.', 'Second part.'], hasPart: { text: 'Nested text.' } },
        ],
      };
      expect(htmlToText(`<script type="application/ld+json">${JSON.stringify(ld)}</script>`)).toBe(
        'First part. Second part. Nested text.',
      );
    });

    it('reads the type case-insensitively and strips markup inside the strings', () => {
      const ld = { articleBody: '<p>One</p><p>Two &amp; three</p>' };
      expect(htmlToText(`<script type=" Application/LD+JSON ">${JSON.stringify(ld)}</script>`)).toBe('One Two & three');
    });

    it('drops a JSON-LD string whose markup nests too deeply to parse', () => {
      const ld = { headline: 'Kept', articleBody: `${'<b>'.repeat(100_000)}x` };
      expect(htmlToText(`<script type="application/ld+json">${JSON.stringify(ld)}</script><p>ok</p>`)).toBe('ok Kept');
    });

    it('ignores invalid JSON and other script types', () => {
      expect(htmlToText('<script type="application/ld+json">{"articleBody": "x",</script><p>ok</p>')).toBe('ok');
      expect(htmlToText('<script type="application/json">{"articleBody": "x"}</script><p>ok</p>')).toBe('ok');
    });
  });

  it('drops MathML annotations and keeps the presentation markup', () => {
    const math =
      '<p>Let <math><semantics><mrow><msup><mi>x</mi><mn>2</mn></msup></mrow>' +
      '<annotation encoding="application/x-tex">x^{2}</annotation>' +
      '<annotation-xml encoding="MathML-Content"><apply><power/><ci>y</ci></apply></annotation-xml>' +
      '</semantics></math> be positive.</p>';
    expect(htmlToText(math)).toBe('Let x2 be positive.');
  });

  it('drops ruby readings and fallback parentheses', () => {
    expect(
      htmlToText('<p><ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp>字<rp>(</rp><rt>ji</rt><rp>)</rp></ruby>です</p>'),
    ).toBe('漢字です');
  });

  it('drops reference markers: sup.reference elements and [17]-style text', () => {
    expect(
      htmlToText(
        '<p>Water boils.<sup id="cite_ref-1" class="reference"><a href="#cite_note-1">[1]</a></sup> More.</p>',
      ),
    ).toBe('Water boils. More.');
    expect(htmlToText('<p>Claim<sup class="reference nowrap">: 207</sup> holds.</p>')).toBe('Claim holds.');
    expect(htmlToText('<p>Text [17] and [3–5] and<a>[12, 14]</a> end[citation needed].</p>')).toBe('Text and and end.');
    expect(htmlToText('<p>Keep <sup>2</sup> and [sic] and <sup class="other">[xy]</sup></p>')).toBe(
      'Keep 2 and [sic] and [xy]',
    );
  });

  it('reads a deeply nested page without overflowing the stack', () => {
    const depth = 5_000;
    expect(htmlToText(`${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}`)).toBe('deep');
  });

  it.each([
    ['nested <div>s', `${'<div>'.repeat(200_000)}deep${'</div>'.repeat(200_000)}`],
    // 1.1 MB: htmlparser2 keeps every <li> and <p> open (129 s of CPU before the guard counted them).
    ['<li><p> pairs', '<li><p>'.repeat(160_000)],
  ])('refuses, quickly, a page that would make parsing quadratic: %s', (_name, html) => {
    const started = performance.now();
    let error: unknown;
    try {
      htmlToText(html);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CitationTextError);
    expect((error as CitationTextError).code).toBe('HTML_TOO_DEEP');
    // Parsing it would take minutes.
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
