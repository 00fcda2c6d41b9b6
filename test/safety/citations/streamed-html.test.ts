import { describe, expect, it } from 'vitest';
import { htmlSources, htmlToText, matchInPage } from '../../../src/safety/citations/index.js';

/**
 * The runtime a streamed page defines before its first call, in the shape
 * React's streaming server rendering sends it: a function assigned once,
 * then called for each block.
 */
const RUNTIME =
  '$RC=function(b,c){c=document.getElementById(c);c.parentNode.removeChild(c);b=document.getElementById(b);' +
  'if(b){var p=b.parentNode,n=b.nextSibling,d=0;p.removeChild(b);for(;n&&!(8===n.nodeType&&"/$"===n.data&&0===d--);)' +
  '{8===n.nodeType&&"$?"===n.data&&d++;var x=n.nextSibling;p.removeChild(n);n=x}for(;c.firstChild;)p.insertBefore(c.firstChild,n)}};' +
  '$RS=function(a,b){a=document.getElementById(a);b=document.getElementById(b);a.parentNode.removeChild(a);' +
  'for(;a.firstChild;)b.parentNode.insertBefore(a.firstChild,b);b.parentNode.removeChild(b)};';

/**
 * A news article as a streaming server sends it: the shell (header, a
 * Suspense boundary with a skeleton as fallback, footer) flushed first, then
 * the article in a hidden block with a boundary of its own (the figures,
 * which a slower query fills) and a placeholder (the byline), each block
 * followed by the script that moves it into place.
 */
const STREAMED =
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>Ocean Weekly</title>' +
  '<link rel="stylesheet" href="/_next/static/css/app.css" data-precedence="next"/>' +
  '<script src="/_next/static/chunks/main.js" async=""></script></head><body>' +
  '<div id="__next"><header class="site-header"><a href="/">Ocean Weekly</a><nav><a href="/science">Science</a></nav></header>' +
  '<main><!--$?--><template id="B:0"></template><div class="skeleton" aria-busy="true"><p>Loading article…</p></div><!--/$--></main>' +
  '<footer><p>© 2024 Ocean Weekly</p></footer></div>' +
  `<script>(self.__next_f=self.__next_f||[]).push([0])</script>` +
  '<div hidden id="S:0"><article><h1>Life thrives around deep-sea vents</h1>' +
  '<p class="byline">By <template id="P:1"></template></p>' +
  '<p>Researchers aboard the <i>Falkor</i> found tube worms growing near vents at 2,500 metres, ' +
  'far deeper than any colony recorded before.</p>' +
  '<!--$?--><template id="B:2"></template><p>Loading figures…</p><!--/$-->' +
  '<p>The team will return to the site next spring.</p></article></div>' +
  `<script>${RUNTIME}$RC("B:0","S:0")</script>` +
  '<div hidden id="S:1"><a href="/authors/ana-reyes">Ana Reyes</a>, science correspondent</div>' +
  '<script>$RS("S:1","P:1")</script>' +
  '<div hidden id="S:2"><figure><figcaption>Water at the vents reached 350 °C.</figcaption></figure>' +
  '<p>Samples showed 12 species new to science.</p></div>' +
  '<script>$RC("B:2","S:2")</script>' +
  '</body></html>';

const found = (html: string, excerpt: string) => matchInPage(htmlSources(html), excerpt);

describe('streamed pages', () => {
  it('reads the blocks where the script puts them, in place of the fallbacks', () => {
    expect(htmlToText(STREAMED)).toBe(
      'Ocean Weekly Ocean Weekly Science Life thrives around deep-sea vents By Ana Reyes, science correspondent ' +
        'Researchers aboard the Falkor found tube worms growing near vents at 2,500 metres, far deeper than any ' +
        'colony recorded before. Water at the vents reached 350 °C. Samples showed 12 species new to science. ' +
        'The team will return to the site next spring. © 2024 Ocean Weekly',
    );
  });

  it('verifies excerpts of the article, across the blocks, and nothing of the fallbacks', () => {
    for (const excerpt of [
      'Researchers aboard the Falkor found tube worms growing near vents at 2,500 metres',
      'By Ana Reyes, science correspondent',
      'colony recorded before. Water at the vents reached 350 °C. Samples showed 12 species new to science.',
      'new to science. The team will return to the site next spring.',
    ]) {
      expect(found(STREAMED, excerpt), excerpt).toEqual({ found: true, source: 'text' });
    }
    for (const excerpt of [
      'Loading article…',
      'Loading figures',
      'found tube worms growing near vents at 2,600 metres',
      'Samples showed 13 species new to science.',
    ]) {
      expect(found(STREAMED, excerpt).found, excerpt).toBe(false);
    }
  });

  it('keeps a hidden block out when no script moves it', () => {
    const shell = '<main><!--$?--><template id="B:0"></template><p>Loading…</p><!--/$--></main>';
    const block = '<div hidden id="S:0"><p>The article text.</p></div>';
    // No call at all; a call in a script that does not run; a call in the page's prose.
    expect(htmlToText(shell + block)).toBe('Loading…');
    expect(htmlToText(`${shell}${block}<script type="text/plain">$RC("B:0","S:0")</script>`)).toBe('Loading…');
    expect(htmlToText(`${shell}${block}<pre>$RC("B:0","S:0")</pre>`)).toBe('Loading… $RC("B:0","S:0")');
    // The call names another block: S:0 stays hidden, S:1 fills the boundary.
    expect(
      htmlToText(`${shell}${block}<div hidden id="S:1"><p>Other text.</p></div><script>$RC("B:0","S:1")</script>`),
    ).toBe('Other text.');
  });

  it('replaces the whole fallback, boundaries nested in it included, and nothing after it', () => {
    const html =
      '<div><p>Before.</p><!--$?--><template id="B:0"></template><!--$--><p>Inner fallback.</p><!--/$-->' +
      '<p>Outer spinner.</p><!--/$--><p>After.</p></div>' +
      '<div hidden id="S:0"><p>Content.</p></div><script>$RC("B:0","S:0")</script>';
    expect(htmlToText(html)).toBe('Before. Content. After.');
    // A boundary whose fallback never closes takes every sibling after it, as the script removes them.
    expect(
      htmlToText(
        '<div><!--$?--><template id="B:0"></template><p>Spinner.</p></div><p>Outside.</p>' +
          '<div hidden id="S:0">Content.</div><script>$RC("B:0","S:0")</script>',
      ),
    ).toBe('Content. Outside.');
  });

  it('fills boundaries nested in a block, by later blocks', () => {
    const html =
      '<!--$?--><template id="B:0"></template>…<!--/$-->' +
      '<div hidden id="S:0"><p>One <!--$?--><template id="B:1"></template>…<!--/$--> four.</p></div>' +
      '<div hidden id="S:1">two <!--$?--><template id="B:2"></template>…<!--/$--></div>' +
      '<div hidden id="S:2"><b>three</b></div>' +
      // In any order: each call finds its boundary by id, in a block sent or placed.
      '<script>$RC("B:2","S:2");$RC("B:0","S:0");$RC("B:1","S:1")</script>';
    expect(htmlToText(html)).toBe('One two three four.');
    expect(found(html, 'One two three four.')).toEqual({ found: true, source: 'text' });
  });

  it('puts a segment where its $RS placeholder is, with no fallback to replace', () => {
    const html =
      '<p>Prices rose <template id="P:1"></template> in March, after <template id="P:2"></template>.</p>' +
      '<div hidden id="S:1"><b>4.2%</b></div><div hidden id="S:2">a <i>flat</i> February</div>' +
      '<script>$RS("S:1","P:1");$RS("S:2","P:2")</script>';
    expect(htmlToText(html)).toBe('Prices rose 4.2% in March, after a flat February.');
    expect(found(html, 'Prices rose 4.2% in March, after a flat February.')).toEqual({ found: true, source: 'text' });
  });

  it('finds a block by its id whatever element holds it (rows arrive inside a hidden table)', () => {
    const html =
      '<table><tbody><!--$?--><template id="B:0"></template><tr><td>Loading…</td></tr><!--/$--></tbody></table>' +
      '<table hidden><tbody id="S:0"><tr><td>Row one</td></tr><tr><td>Row two</td></tr></tbody></table>' +
      '<script>$RR("B:0","S:0",[["/app.css","high"]])</script>';
    expect(htmlToText(html)).toBe('Row one Row two');
  });

  it('keeps the fallback of a boundary that the server completed with an error, and drops its block', () => {
    const html =
      '<!--$?--><template id="B:0"></template><p>Could not load comments.</p><!--/$-->' +
      '<div hidden id="S:0"><p>Partial comments.</p></div><script>$RC("B:0","S:0","NEXT_NOT_FOUND")</script>';
    expect(htmlToText(html)).toBe('Could not load comments.');
  });

  it('ends on a hostile page: cycles, missing ids, a block holding its own placeholder, repeated calls', () => {
    const html =
      '<p>Start <template id="P:0"></template> end.</p>' +
      // S:0 holds the placeholder of S:1, and S:1 holds S:0's: each is read once.
      '<div hidden id="S:0">zero <template id="P:1"></template></div>' +
      '<div hidden id="S:1">one <template id="P:0"></template></div>' +
      // S:2 holds its own placeholder, which nothing else has.
      '<div hidden id="S:2">self <template id="P:2"></template></div>' +
      // The boundary B:9 is nowhere: S:3 is removed all the same. S:404 is nowhere: B:4 keeps its fallback.
      '<div hidden id="S:3">orphan</div><!--$?--><template id="B:4"></template><p>Still loading.</p><!--/$-->' +
      '<script>$RS("S:0","P:0");$RS("S:1","P:1");$RS("S:2","P:2");$RC("B:9","S:3");$RC("B:4","S:404");' +
      '$RS("S:0","P:0");$RS("S:1","P:2");$RC("P:0","S:0");$RS("S:1","S:1")</script>';
    expect(htmlToText(html)).toBe('Start zero one end. Still loading.');
  });

  it('reads ten thousand blocks, each filling a placeholder in the one before, in linear time', () => {
    const n = 10_000;
    const blocks: string[] = ['<p>w0 <template id="P:1"></template></p>'];
    const calls: string[] = [];
    for (let i = 1; i < n; i++) {
      blocks.push(`<div hidden id="S:${i}">w${i} <template id="P:${i + 1}"></template></div>`);
      calls.push(`$RS("S:${i}","P:${i}")`, `$RC("B:${i}","S:${i + n}")`);
    }
    // Ten thousand more boundaries, in one list, none closed, all filled: the first takes the rest as its fallback.
    const boundaries: string[] = [];
    for (let i = 0; i < n; i++) {
      boundaries.push(`<!--$?--><template id="B:${n + i}"></template>`);
      blocks.push(`<div hidden id="S:${2 * n + i}">b${i}</div>`);
      calls.push(`$RC("B:${n + i}","S:${2 * n + i}")`);
    }
    const html = `${blocks[0]}<div>${boundaries.join('')}</div>${blocks.slice(1).join('')}<script>${calls.join(';')}</script>`;
    const started = performance.now();
    const text = htmlToText(html);
    const elapsed = performance.now() - started;
    const words = text.split(' ');
    expect(words.slice(0, n)).toEqual(Array.from({ length: n }, (_, i) => `w${i}`));
    expect(words.slice(n)).toEqual(['b0']);
    // A walk that went back over each block's list, or over each fallback, would take minutes.
    expect(elapsed).toBeLessThan(3_000);
  });

  it('scans a placed block as page text, and a replaced fallback and an unplaced block as markup', () => {
    const html =
      '<main><!--$?--><template id="B:0"></template><p>Loading the article.</p><!--/$--></main>' +
      '<div hidden id="S:0"><p>The article text.</p></div><div hidden id="S:5"><p>Never sent into place.</p></div>' +
      '<script>$RC("B:0","S:0")</script>';
    const sources = htmlSources(html);
    expect(sources.text.text).toBe('the article text.');
    const markup = sources.markup!.split('\n');
    expect(markup).toContain('Loading the article.');
    expect(markup).toContain('Never sent into place.');
    expect(markup).not.toContain('The article text.');
  });
});
