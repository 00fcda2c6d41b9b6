import { describe, expect, it } from 'vitest';
import { htmlSources, matchInPage } from '../../../src/safety/citations/index.js';

/** The text of a page's scripts' JSON, normalised. */
const scriptText = (html: string): string | undefined => htmlSources(html).script?.text;

const BODY = '<p>Valdez downloaded the <b>app</b> on Tuesday.</p><p>It cost $4.99 &amp; took 5 minutes.</p>';
const json = (value: unknown) => JSON.stringify(value).replace(/<\//g, '<\\/');

describe('the text of the JSON in scripts', () => {
  it('reads __NEXT_DATA__ and other application/json scripts, HTML inside strings read as HTML', () => {
    const html = `<div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${json({
      props: { pageProps: { article: { title: 'Apps', body: BODY } } },
      page: '/[slug]',
    })}</script>`;
    expect(scriptText(html)).toBe('apps valdez downloaded the app on tuesday. it cost $4.99 & took 5 minutes. /[slug]');
    expect(htmlSources(html).text.text).toBe('');
  });

  it('reads objects and arrays assigned in JavaScript, and the strings given to JSON.parse', () => {
    const state = { article: { body: BODY } };
    for (const script of [
      `window.__INITIAL_STATE__ = ${json(state)};`,
      `window["__APOLLO_STATE__"]=${json(state)}`,
      `var data = [${json(state)}];`,
      `self.__next_f.push(${json(state)})`,
      `window.__PRELOADED__ = JSON.parse(${JSON.stringify(JSON.stringify(state))});`,
      `window.__PRELOADED__ = JSON.parse('${JSON.stringify(state).replace(/'/g, "\\'")}');`,
      // JavaScript, not JSON: unquoted keys, single quotes, a trailing comma, code inside.
      `window.app = {article: {body: '${BODY.replace(/'/g, "\\'")}', onLoad: function () { return "x"; },},};`,
    ]) {
      expect(scriptText(`<script>${script}</script>`), script).toContain('valdez downloaded the app on tuesday.');
    }
  });

  it('decodes HTML written with character references inside a string', () => {
    const html = `<script>var article = ${json({ top: 'Apps', bottom: BODY.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') })};</script>`;
    expect(scriptText(html)).toBe('apps valdez downloaded the app on tuesday. it cost $4.99 & took 5 minutes.');
  });

  it('keeps text that mentions a tag, and a string that only looks like JSON', () => {
    const html = `<script>var s = ${json({ a: 'Use an <img> tag, or "<noun>.js".', b: '[figure 3: a cell]', c: '[1]' })};</script>`;
    expect(scriptText(html)).toBe('use an <img> tag, or "<noun>.js". [figure 3: a cell]');
  });

  it('leaves out keys and the values of keys that name types, styles, identifiers and addresses', () => {
    // Portable Text: the spans of one sentence, with _type, _key, style and marks between them.
    const blocks = [
      {
        _type: 'block',
        _key: 'a1',
        style: 'normal',
        children: [
          { _type: 'span', _key: 's1', text: 'Valdez ', marks: [] },
          { _type: 'span', _key: 's2', text: 'downloaded', marks: ['strong'] },
          { _type: 'span', _key: 's3', text: ' the app.', marks: [] },
        ],
      },
    ];
    const html = `<script>window.__DATA__ = ${json({ __typename: 'Article', id: 'x1', url: 'https://a.example/x', blocks })}</script>`;
    expect(scriptText(html)).toBe('valdez downloaded the app.');
    expect(matchInPage(htmlSources(html), 'Valdez downloaded the app.')).toEqual({
      found: true,
      source: 'script_json',
    });
  });

  it('keeps each string apart from the next: a space that may be missing, as at an element boundary', () => {
    const html = `<script>var s = ${json({ a: 'the', b: 'rapist', c: '1', d: '10 patients' })};</script>`;
    const sources = htmlSources(html);
    expect(sources.script?.text).toBe('the rapist 1 10 patients');
    expect(matchInPage(sources, 'the rapist').found).toBe(true);
    expect(matchInPage(sources, 'therapist').found).toBe(true);
    // Never two numbers joined, and a number is not found inside another.
    expect(matchInPage(sources, '110 patients').found).toBe(false);
    expect(matchInPage(sources, '0 patients').found).toBe(false);
  });

  it('takes no lone surrogate in a JSON string for a mark of the page text', () => {
    const html =
      '<script>var s = {"a": "the\\udc00rapist"};</script>' +
      '<script type="application/ld+json">{"articleBody": "the\\udc00rapist"}</script>';
    const sources = htmlSources(html);
    expect(sources.text).toEqual({ text: 'the\ufffdrapist' });
    expect(sources.script).toEqual({ text: 'the\ufffdrapist' });
    expect(matchInPage(sources, 'the rapist').found).toBe(false);
  });

  it('reads no templates, JSON-LD or other data types as state, and nothing outside a literal', () => {
    const html =
      '<script type="text/x-template"><p>Template text here.</p></script>' +
      '<script type="application/ld+json">{"articleBody": "In JSON-LD."}</script>' +
      '<script type="text/plain">{"a": "Plain data."}</script>' +
      '<script>track("Not state data."); var n = 3;</script>';
    expect(htmlSources(html).script).toBeUndefined();
  });

  it('is not thrown off by broken JSON or JavaScript, and reads the rest', () => {
    const html =
      '<script type="application/json">{"a": "First value", "b": [1, 2, {"c": "unclosed</script>' +
      '<script>var re = /"/g; var x = {"d": "Second value"}; if (a) { b = "x\n" }</script>' +
      '<script>var y = {"e": "Third value"</script>';
    const text = scriptText(html) ?? '';
    for (const t of ['first value', 'second value', 'third value']) expect(text).toContain(t);
  });

  it('runs in linear time on scripts built to be slow', () => {
    const inputs = [
      `<script>var a = ${'{"a":'.repeat(100_000)}"x"${'}'.repeat(100_000)};</script>`,
      `<script>${'x = ['.repeat(200_000)}</script>`,
      `<script>var a = ["${'\\\\'.repeat(500_000)}"];</script>`,
      `<script type="application/json">[${'"<b>x</b>",'.repeat(20_000)}"y"]</script>`,
      `<script>var a = JSON.parse("${'[\\"'.repeat(100_000)}");</script>`,
      `<script>var a = {"a": "${'&lt;b&gt;'.repeat(100_000)}"};</script>`,
    ];
    const start = performance.now();
    for (const html of inputs) htmlSources(html);
    // A quadratic scan of inputs this size would take minutes.
    expect(performance.now() - start).toBeLessThan(15_000);
  });
});
