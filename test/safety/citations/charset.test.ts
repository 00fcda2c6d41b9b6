import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../../src/safety/citations/index.js';
import { charsetParameter, decodeUtf7 } from '../../../src/safety/citations/charset.js';

/** Bytes from a string where each character is one byte (latin1). */
function bytes(latin1: string): Uint8Array {
  return new Uint8Array(Buffer.from(latin1, 'latin1'));
}

function utf8(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'utf8'));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

// "café “quoted” – naïve" in windows-1252: é E9, “ 93, ” 94, – 96, ï EF.
const CP1252 = bytes('caf\xE9 \x93quoted\x94 \x96 na\xEFve');
const TEXT = 'café “quoted” – naïve';

describe('decodeBody', () => {
  it('uses the charset of the Content-Type header', () => {
    expect(decodeBody(CP1252, 'text/html; charset=ISO-8859-1')).toEqual({
      text: TEXT,
      charset: 'windows-1252',
      source: 'header',
    });
    expect(decodeBody(CP1252, 'text/html; charset="windows-1252"').text).toBe(TEXT);
    expect(decodeBody(CP1252, 'text/plain;CHARSET=latin1').charset).toBe('windows-1252');
  });

  it('maps every byte 0x80-0x9F as the WHATWG windows-1252 index does', () => {
    const c1 = new Uint8Array(32).map((_, i) => 0x80 + i);
    const expected = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8DŽ\x8F\x90‘’“”•–—˜™š›œ\x9DžŸ';
    for (const label of ['windows-1252', 'iso-8859-1', 'latin1', 'us-ascii']) {
      expect(decodeBody(c1, `text/html; charset=${label}`).text).toBe(expected);
    }
  });

  it('decodes legacy multi-byte and Cyrillic encodings named in the header', () => {
    // "日本" in Shift_JIS, "中文" in GBK, "мир" in KOI8-R.
    expect(decodeBody(bytes('\x93\xFA\x96\x7B'), 'text/html; charset=shift_jis').text).toBe('日本');
    expect(decodeBody(bytes('\xD6\xD0\xCE\xC4'), 'text/html; charset=gb2312')).toMatchObject({
      text: '中文',
      charset: 'gbk',
    });
    expect(decodeBody(bytes('\xCD\xC9\xD2'), 'text/html; charset=koi8-r').text).toBe('мир');
  });

  it('uses <meta charset> in the first 1024 bytes', () => {
    const html = concat(bytes('<!doctype html><html><head><meta charset="iso-8859-1"><title>t</title>'), CP1252);
    expect(decodeBody(html, 'text/html')).toMatchObject({ charset: 'windows-1252', source: 'meta' });
    expect(decodeBody(html, 'text/html').text).toContain(TEXT);
    expect(decodeBody(html, undefined).source).toBe('meta');
    expect(decodeBody(concat(bytes('<META CHARSET=windows-1252>'), CP1252), undefined).text).toContain(TEXT);
  });

  it('uses <meta http-equiv="Content-Type" content="...; charset=...">', () => {
    const forms = [
      '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">',
      "<meta content='text/html;charset=windows-1252' http-equiv='content-type' />",
      '<meta http-equiv=Content-Type content="text/html; charset = &quot;latin1&quot;">'.replace(
        '&quot;latin1&quot;',
        'latin1',
      ),
    ];
    for (const meta of forms) {
      const decoded = decodeBody(concat(bytes(`<html><head>${meta}</head><body>`), CP1252), 'text/html');
      expect(decoded).toMatchObject({ charset: 'windows-1252', source: 'meta' });
      expect(decoded.text).toContain(TEXT);
    }
  });

  it('ignores a content charset without http-equiv, a meta in a comment and one after 1024 bytes', () => {
    const noEquiv = concat(bytes('<meta content="text/html; charset=iso-8859-1">'), utf8(TEXT));
    expect(decodeBody(noEquiv, 'text/html')).toMatchObject({ charset: 'utf-8', source: 'default' });
    const commented = concat(bytes('<!-- <meta charset="koi8-r"> --><meta charset="windows-1252">'), CP1252);
    expect(decodeBody(commented, 'text/html')).toMatchObject({ charset: 'windows-1252', source: 'meta' });
    const late = concat(bytes(`<html>${' '.repeat(1024)}<meta charset="koi8-r">`), utf8(TEXT));
    expect(decodeBody(late, 'text/html')).toMatchObject({ charset: 'utf-8', source: 'default' });
  });

  it('does not look for <meta> in a body that is not HTML', () => {
    const text = concat(bytes('<meta charset="koi8-r">'), utf8(TEXT));
    expect(decodeBody(text, 'text/plain')).toMatchObject({ charset: 'utf-8', source: 'default' });
  });

  it('reads a UTF-16 label in <meta> as UTF-8, as the HTML standard says', () => {
    const html = concat(bytes('<meta charset="utf-16">'), utf8(TEXT));
    expect(decodeBody(html, 'text/html')).toMatchObject({ charset: 'utf-8', source: 'meta' });
    expect(decodeBody(html, 'text/html').text).toContain(TEXT);
  });

  it('lets an unknown label fall through to the next source', () => {
    const html = concat(bytes('<meta charset="no-such-encoding"><meta charset="windows-1252">'), CP1252);
    expect(decodeBody(html, 'text/html; charset=bogus')).toMatchObject({ charset: 'windows-1252', source: 'meta' });
    expect(decodeBody(utf8(TEXT), 'text/html; charset=bogus')).toMatchObject({ text: TEXT, source: 'default' });
  });

  it('uses a BOM and strips it from the text', () => {
    const utf8Bom = concat(bytes('\xEF\xBB\xBF'), utf8(TEXT));
    expect(decodeBody(utf8Bom, undefined)).toEqual({ text: TEXT, charset: 'utf-8', source: 'bom' });
    const le = concat(bytes('\xFF\xFE'), new Uint8Array(Buffer.from(TEXT, 'utf16le')));
    expect(decodeBody(le, 'text/html')).toEqual({ text: TEXT, charset: 'utf-16le', source: 'bom' });
    const be = new Uint8Array(Buffer.from(TEXT, 'utf16le')).map((_, i, a) => a[i ^ 1]!);
    expect(decodeBody(concat(bytes('\xFE\xFF'), be), 'text/html')).toEqual({
      text: TEXT,
      charset: 'utf-16be',
      source: 'bom',
    });
  });

  it('prefers the BOM to the header and to <meta> (WHATWG order)', () => {
    const body = concat(bytes('\xEF\xBB\xBF<meta charset="koi8-r">'), utf8(TEXT));
    const decoded = decodeBody(body, 'text/html; charset=windows-1252');
    expect(decoded).toMatchObject({ charset: 'utf-8', source: 'bom' });
    expect(decoded.text).toBe(`<meta charset="koi8-r">${TEXT}`);
  });

  it('prefers the header to <meta>', () => {
    const body = concat(bytes('<meta charset="koi8-r">'), CP1252);
    expect(decodeBody(body, 'text/html; charset=windows-1252')).toMatchObject({ source: 'header' });
    expect(decodeBody(body, 'text/html; charset=windows-1252').text).toContain(TEXT);
  });

  it('defaults to UTF-8 for valid UTF-8 and to windows-1252 otherwise', () => {
    expect(decodeBody(utf8(TEXT), undefined)).toEqual({ text: TEXT, charset: 'utf-8', source: 'default' });
    expect(decodeBody(utf8('plain ascii'), 'text/html')).toEqual({
      text: 'plain ascii',
      charset: 'utf-8',
      source: 'default',
    });
    expect(decodeBody(CP1252, 'text/html')).toEqual({ text: TEXT, charset: 'windows-1252', source: 'default' });
    // Valid UTF-8 with one stray latin1 byte is not valid UTF-8.
    expect(decodeBody(concat(utf8('naïve '), bytes('\xE9')), undefined)).toMatchObject({
      text: 'naÃ¯ve é',
      charset: 'windows-1252',
    });
  });
});

describe('charsetParameter', () => {
  it('reads the first charset parameter, quoted or not, in any case', () => {
    expect(charsetParameter('text/html; charset=UTF-8')).toBe('UTF-8');
    expect(charsetParameter('text/html;Charset="iso-8859-1";foo=bar')).toBe('iso-8859-1');
    expect(charsetParameter('text/html; foo=bar; charset=koi8-r; charset=utf-8')).toBe('koi8-r');
    expect(charsetParameter('text/html')).toBeUndefined();
    expect(charsetParameter('text/html; charset=')).toBeUndefined();
    expect(charsetParameter('text/html; xcharset=utf-8')).toBeUndefined();
  });
});

describe('UTF-7', () => {
  const bytes = (s: string) => Buffer.from(s, 'latin1');

  it('decodes RFC 2152: base64 runs of UTF-16, +- for +, the - that ends a run dropped', () => {
    expect(decodeUtf7(bytes('Hi Mom -+Jjo--!'))).toBe('Hi Mom -\u263a-!');
    expect(decodeUtf7(bytes('+ZeVnLIqe-'))).toBe('日本語');
    expect(decodeUtf7(bytes('1 +- 1 = 2'))).toBe('1 + 1 = 2');
    expect(decodeUtf7(bytes('+ADw-script+AD4-'))).toBe('<script>');
    expect(decodeUtf7(bytes('+/v8-x'))).toBe('x');
  });

  it('is read besides the text when the header, a meta or a byte order mark declares it, and not otherwise', () => {
    const page = '<p>+AEk-gnore this</p>';
    expect(decodeBody(bytes(page), 'text/html; charset=utf-7')).toMatchObject({
      text: page,
      utf7: '<p>Ignore this</p>',
    });
    const meta = `<meta charset="UTF-7">${page}`;
    expect(decodeBody(bytes(meta), 'text/html').utf7).toBe('<meta charset="UTF-7"><p>Ignore this</p>');
    expect(decodeBody(bytes(`+/v8${page}`), 'text/html').utf7).toBe('<p>Ignore this</p>');
    expect(decodeBody(bytes(page), 'text/html; charset=utf-8').utf7).toBeUndefined();
    expect(decodeBody(bytes(page), 'text/html').utf7).toBeUndefined();
  });
});
