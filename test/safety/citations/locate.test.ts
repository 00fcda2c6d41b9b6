/** Where an excerpt is in the page text: the offsets locateInPage gives, checked against that text. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlSources, locateInPage, normalizeForMatch } from '../../../src/safety/citations/index.js';
import { withoutOptional } from '../../../src/safety/citations/optional-spans.js';

/** The text of the passage located, from the text it was found in. */
function passage(html: string, excerpt: string): string | undefined {
  const sources = htmlSources(html);
  const at = locateInPage(sources, excerpt);
  if (!at.found) return undefined;
  const text = at.source === 'script_json' ? sources.script!.text : sources.text.text;
  return text.slice(at.start, at.end);
}

describe('locateInPage', () => {
  it('gives the offsets of the excerpt in the page text', () => {
    const html = '<p>Intro.</p><p>Protein kinase A phosphorylates CREB at serine 133.</p>';
    const sources = htmlSources(html);
    const at = locateInPage(sources, 'kinase A phosphorylates CREB');
    expect(at).toEqual({ found: true, source: 'text', start: 15, end: 43 });
    expect(sources.text.text.slice(15, 43)).toBe('kinase a phosphorylates creb');
  });

  it('is the page text itself where the excerpt differs from it in spacing at a tag', () => {
    expect(passage('<p>the <a>full report</a> here</p>', 'thefull reporthere')).toBe('the full report here');
    expect(passage('<p>expand<a>ed</a> view</p>', 'expand ed view')).toBe('expanded view');
  });

  it('runs from the first part of an elided excerpt to the end of its last', () => {
    const html = '<p>Kinase X binds Y. It then moves to the nucleus. There it phosphorylates Z.</p>';
    expect(passage(html, 'Kinase X binds Y. … There it phosphorylates Z.')).toBe(
      'kinase x binds y. it then moves to the nucleus. there it phosphorylates z.',
    );
  });

  it('holds the text of an optional element the excerpt leaves out, at its place in the page text', () => {
    const html = '<p>If the conjugate transpose of a matrix <math><mi>A</mi></math> is denoted by B, then</p>';
    const at = passage(html, 'the conjugate transpose of a matrix is denoted by B');
    expect(at).toMatch(/^the conjugate transpose of a matrix .+ is denoted by b$/);
    expect(at).not.toBe(normalizeForMatch('the conjugate transpose of a matrix is denoted by B'));
  });

  it('names the text it was found in: the JSON-LD text is part of the page text, the script JSON has its own', () => {
    const html =
      '<p>Visible words.</p><script type="application/ld+json">{"articleBody": "Body in JSON-LD."}</script>' +
      '<script>window.__STATE__ = {"body": "Only in the state."};</script>';
    const sources = htmlSources(html);
    const ld = locateInPage(sources, 'Body in JSON-LD');
    expect(ld).toMatchObject({ found: true, source: 'json_ld' });
    expect(ld.found && sources.text.text.slice(ld.start, ld.end)).toBe('body in json-ld');
    const script = locateInPage(sources, 'only in the state');
    expect(script).toMatchObject({ found: true, source: 'script_json' });
    expect(script.found && sources.script!.text.slice(script.start, script.end)).toBe('only in the state');
    expect(locateInPage(sources, 'not on the page')).toEqual({ found: false, reason: 'excerpt_not_found' });
  });

  it('gives, for any excerpt cut from a page, offsets at which the page text is that excerpt', () => {
    const word = fc.constantFrom('kinase', 'x', 'binds', 'the', '12', 'cells', 'in', 'yeast', 'β-catenin');
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.nat(),
        (paragraphs, a, b) => {
          const html = paragraphs.map((p) => `<p>${p.join(' ')}</p>`).join('');
          const words = paragraphs.flat();
          const from = a % words.length;
          const to = from + 1 + (b % (words.length - from));
          const excerpt = words.slice(from, to).join(' ');
          const sources = htmlSources(html);
          const at = locateInPage(sources, excerpt);
          expect(at.found).toBe(true);
          if (at.found) expect(sources.text.text.slice(at.start, at.end)).toBe(normalizeForMatch(excerpt));
        },
      ),
    );
  });

  it('maps each character of the text without optional spans back to the same character of the page text', () => {
    const piece = fc.constantFrom(
      'kinase ',
      'x',
      ' ',
      '1',
      '0',
      '.',
      'binds ',
      '<math><mi>A</mi></math>',
      '<button>Show</button>',
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 30 }), (pieces) => {
        const page = htmlSources(`<p>${pieces.join('')}</p>`).text;
        const reduced = withoutOptional(page);
        let last = -1;
        for (let r = 0; r < reduced.text.text.length; r++) {
          const o = reduced.pageAt(r);
          // In order, and the same character, but for a space that stands where a span was cut out.
          expect(o).toBeGreaterThan(last);
          if (reduced.text.text[r] !== ' ') expect(page.text[o]).toBe(reduced.text.text[r]);
          last = o;
        }
      }),
    );
  });
});
