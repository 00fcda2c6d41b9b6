import { describe, expect, it } from 'vitest';
import { nestingWork, tooDeeplyNested } from '../../../src/safety/citations/nesting.js';

describe('nesting guard', () => {
  it('counts the stack work of nested elements', () => {
    expect(nestingWork('<div><div><div>x</div></div></div>')).toBe(0 + 1 + 2 + 3);
    expect(nestingWork('<p>a<p>b<br><img src=x><li>c')).toBe(0);
  });

  it('closes unclosed inline elements with their parent, as the parser does', () => {
    // Each </div> also closes the <b> left open inside it: the stack stays shallow.
    const html = '<div><b>x</div>'.repeat(10_000);
    expect(nestingWork(html)).toBeLessThan(5 * 10_000);
    expect(tooDeeplyNested(html)).toBe(false);
  });

  it('skips tags inside comments and raw-text elements', () => {
    expect(nestingWork(`<!-- ${'<div>'.repeat(100)} -->`)).toBe(0);
    expect(nestingWork(`<script>var s = "${'<div>'.repeat(100)}";</script>`)).toBe(1);
    expect(nestingWork(`<STYLE>${'<b>'.repeat(100)}</Style><textarea>${'<i>'.repeat(100)}</textarea>`)).toBe(2);
  });

  it('passes long flat pages and long lists of unclosed items', () => {
    expect(tooDeeplyNested('<p>paragraph</p>\n'.repeat(200_000))).toBe(false);
    expect(tooDeeplyNested(`<ul>${'<li>item'.repeat(200_000)}</ul>`)).toBe(false);
    expect(tooDeeplyNested(`<table>${'<tr><td>a<td>b'.repeat(100_000)}</table>`)).toBe(false);
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
});
