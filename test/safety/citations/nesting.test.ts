import { describe, expect, it } from 'vitest';
import { load } from 'cheerio/slim';
import { nestingWork, tooDeeplyNested } from '../../../src/safety/citations/nesting.js';

/**
 * The deepest the parser's stack gets on `html`, read from the parsed tree:
 * the guard's model is checked against what htmlparser2 actually keeps open.
 */
function parsedDepth(html: string): number {
  let deepest = 0;
  const walk = (node: { children?: unknown[] }, depth: number) => {
    deepest = Math.max(deepest, depth);
    for (const child of (node.children ?? []) as Array<{ type: string; children?: unknown[] }>) {
      if (child.type === 'tag' || child.type === 'script' || child.type === 'style') walk(child, depth + 1);
    }
  };
  // Iterative enough for the small inputs below.
  walk(load(html).root()[0]! as { children?: unknown[] }, 0);
  return deepest;
}

describe('nesting guard', () => {
  it('counts the stack work of nested elements: moves on open and close, and the search of an end tag', () => {
    // Opening at depths 0, 1, 2; each end tag finds its element on top (1) and shifts a stack of 3, 2, 1.
    expect(nestingWork('<div><div><div>x</div></div></div>')).toBe(0 + 1 + 2 + (1 + 3) + (1 + 2) + (1 + 1));
    // The second <p> closes the first (shift of 1, then opened on an empty stack); <br> and <img> are
    // void; <li> closes only an <li>, so it opens above the <p>.
    expect(nestingWork('<p>a<p>b<br><img src=x><li>c')).toBe(0 + 1 + 0 + 1);
  });

  it('closes unclosed inline elements with their parent, as the parser does', () => {
    // Each </div> also closes the <b> left open inside it: the stack stays shallow.
    const html = '<div><b>x</div>'.repeat(10_000);
    expect(nestingWork(html)).toBeLessThan(10 * 10_000);
    expect(tooDeeplyNested(html)).toBe(false);
  });

  it('skips tags inside comments, CDATA, declarations, attribute values and raw-text elements', () => {
    expect(nestingWork(`<!-- ${'<div>'.repeat(100)} -->`)).toBe(0);
    expect(nestingWork(`<![CDATA[ ${'<div>'.repeat(100)} ]]>`)).toBe(0);
    expect(nestingWork(`<?xml ${'<div'.repeat(100)} ?>`)).toBe(0);
    expect(nestingWork(`<a title="${'<div>'.repeat(100)}" data-x='<b>'>x</a>`)).toBe(0 + 1 + 1);
    expect(nestingWork(`<script>var s = "${'<div>'.repeat(100)}";</script>`)).toBe(0 + 1 + 1);
    expect(nestingWork(`<STYLE>${'<b>'.repeat(100)}</Style ><textarea>${'<i>'.repeat(100)}</textarea>`)).toBe(4);
  });

  it('passes long flat pages, long lists of unclosed items, and self-closed SVG shapes', () => {
    expect(tooDeeplyNested('<p>paragraph</p>\n'.repeat(200_000))).toBe(false);
    expect(tooDeeplyNested(`<ul>${'<li>item'.repeat(200_000)}</ul>`)).toBe(false);
    expect(tooDeeplyNested(`<table>${'<tr><td>a<td>b'.repeat(100_000)}</table>`)).toBe(false);
    expect(tooDeeplyNested(`<dl>${'<dt>t<dd>d'.repeat(100_000)}</dl>`)).toBe(false);
    // Inside <svg>, `/>` closes the element; 100,000 paths stay siblings.
    expect(tooDeeplyNested(`<svg>${'<path d="M0 0 L1 1"/>'.repeat(100_000)}</svg>`)).toBe(false);
  });

  it('flags deep nesting, closed or not', () => {
    expect(tooDeeplyNested(`${'<div>'.repeat(100_000)}x${'</div>'.repeat(100_000)}`)).toBe(true);
    expect(tooDeeplyNested('<b>'.repeat(100_000))).toBe(true);
    expect(tooDeeplyNested('<p><span>'.repeat(100_000))).toBe(true);
  });

  it('counts end tags that match no open element against a deep stack', () => {
    const html = `${'<div>'.repeat(3_000)}${'</nomatch>'.repeat(100_000)}`;
    expect(nestingWork(html)).toBeGreaterThanOrEqual(3_000 * 100_000);
  });

  it('counts elements the parser keeps open although their start tags usually close them', () => {
    // htmlparser2 closes an open <p> at a start tag only when the <p> is the innermost element:
    // `<li><p><li><p>` nests all four. A 1.1 MB page of these held the parser for minutes.
    expect(parsedDepth('<li><p>'.repeat(50))).toBe(100);
    const html = '<li><p>'.repeat(160_000);
    expect(nestingWork(html, Infinity)).toBeGreaterThan(((320_000 * 320_000) / 2) * 0.99);
    const started = performance.now();
    expect(tooDeeplyNested(html)).toBe(true);
    // Linear: refused in a few milliseconds (generous for a busy machine).
    expect(performance.now() - started).toBeLessThan(2000);
    for (const pair of ['<dd><p>', '<option><div>', '<td><span>', '<tr><b>']) {
      expect(tooDeeplyNested(pair.repeat(100_000)), pair).toBe(true);
    }
  });

  it('reads tag names as the tokenizer does, so that no end tag passes for the wrong element', () => {
    // The name ends only at whitespace, `/` or `>` (a vertical tab is part of it); an end tag's name
    // runs to whitespace or `>`, so `</div/>` closes an element named "div/".
    expect(parsedDepth('<div\x0b></div>'.repeat(20))).toBe(20);
    expect(parsedDepth('<div></div/>'.repeat(20))).toBe(20);
    expect(tooDeeplyNested('<div\x0b></div>'.repeat(100_000))).toBe(true);
    expect(tooDeeplyNested('<div></div/>'.repeat(100_000))).toBe(true);
    // Two names with the same 31-multiplier hash ("xa_" and "xb@") are different elements.
    expect(parsedDepth('<xa_></xb@>'.repeat(20))).toBe(20);
    expect(tooDeeplyNested('<xa_></xb@>'.repeat(100_000))).toBe(true);
    // Upper case, and whitespace before the name of an end tag, still close.
    expect(tooDeeplyNested('<DIV></ div>'.repeat(100_000))).toBe(false);
  });

  it('does not skip markup the tokenizer parses: a self-closed <script/>, the short comment <!-->', () => {
    // In HTML `<script/>` opens a script whose content is markup, not text.
    expect(parsedDepth(`<script/>${'<div>'.repeat(20)}`)).toBe(21);
    expect(tooDeeplyNested(`<script/>${'<div>'.repeat(100_000)}`)).toBe(true);
    // `<!-->` is a whole comment: what follows is markup.
    expect(parsedDepth(`<!-->${'<div>'.repeat(20)}-->`)).toBe(20);
    expect(tooDeeplyNested(`<!-->${'<div>'.repeat(100_000)}-->`)).toBe(true);
    // A `>` or `</a>` inside a quoted attribute value neither ends the tag nor closes anything.
    expect(parsedDepth('<a title="</a>">'.repeat(20))).toBe(20);
    expect(tooDeeplyNested('<a title="</a>">'.repeat(100_000))).toBe(true);
  });

  it('ends a raw-text element no later than the tokenizer does', () => {
    // The tokenizer compares `c | 0x20`, so \x1c can pass for `<` and \x0f for `/`.
    expect(parsedDepth(`<script>\x1c\x0fscript>${'<div>'.repeat(20)}`)).toBe(20);
    expect(tooDeeplyNested(`<script>\x1c\x0fscript>${'<div>'.repeat(100_000)}`)).toBe(true);
    // `</script/` is no end: the script runs on, and so does the scan.
    expect(nestingWork(`<script>${'</script/><div>'.repeat(100)}`)).toBe(0);
  });
});
