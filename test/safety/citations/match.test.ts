import { describe, expect, it } from 'vitest';
import {
  CitationTextError,
  htmlSources,
  matchExcerpt,
  matchInPage,
  normalizeForMatch,
} from '../../../src/safety/citations/index.js';

const PAGE = normalizeForMatch(
  'The trial enrolled 110 patients across 12 sites. Treatment reduced mortality by 25% (95% CI 18–31) at ' +
    '2.5 mg per day. The drug was unsafe for children under five, and the dose of 25 mg was withdrawn. ' +
    'Researchers at the “Institute” said the effect was “robust”.[17] Follow-up lasted 3 years. ' +
    '研究人员表示，这种药物对成年人是安全的。',
);

const found = { found: true };
const notFound = { found: false, reason: 'excerpt_not_found' };
const empty = { found: false, reason: 'excerpt_empty' };

describe('matchExcerpt', () => {
  it('finds an excerpt that is on the page', () => {
    expect(matchExcerpt(PAGE, 'Treatment reduced mortality by 25%')).toEqual(found);
    expect(matchExcerpt(PAGE, 'The trial enrolled 110 patients across 12 sites.')).toEqual(found);
  });

  it('finds it whatever its case, quotes, dashes, spacing and reference markers', () => {
    expect(matchExcerpt(PAGE, 'TREATMENT   reduced\nmortality')).toEqual(found);
    expect(matchExcerpt(PAGE, 'said the effect was "robust". Follow-up lasted 3 years')).toEqual(found);
    expect(matchExcerpt(PAGE, 'the "Institute" said the effect was "robust".[17] Follow\u2011up')).toEqual(found);
    expect(matchExcerpt(PAGE, '(95% CI 18-31)')).toEqual(found);
  });

  it('checks the whole excerpt: a real opening with a fabricated tail is not found', () => {
    const real =
      'The trial enrolled 110 patients across 12 sites. Treatment reduced mortality by 25% (95% CI 18–31) at ';
    const fabricated = `${real}2.5 mg per day and had no side effects in children, who tolerated it well.`;
    expect(normalizeForMatch(real).length).toBeGreaterThan(90);
    expect(matchExcerpt(PAGE, fabricated)).toEqual(notFound);
  });

  it('with prefixChars, checks only the first N normalised characters (the earlier rule)', () => {
    const opening = 'The trial enrolled 110 patients across 12 sites. Treatment reduced mortality by 25%';
    const fabricated = `${opening} and nobody had side effects.`;
    const n = normalizeForMatch(opening).length;
    expect(matchExcerpt(PAGE, fabricated, { prefixChars: n })).toEqual(found);
    expect(matchExcerpt(PAGE, fabricated, { prefixChars: n + 5 })).toEqual(notFound);
    expect(matchExcerpt(PAGE, fabricated)).toEqual(notFound);
  });

  it('with prefixChars, a cut inside a word or a number does not reject the excerpt', () => {
    // The 7th character falls inside "trial"; the 16th inside "110".
    expect(matchExcerpt(PAGE, 'The trial enrolled', { prefixChars: 7 })).toEqual(found);
    expect(matchExcerpt(PAGE, 'The trial enrolled 110 patients', { prefixChars: 21 })).toEqual(found);
  });

  it('rejects an excerpt with one word changed', () => {
    expect(matchExcerpt(PAGE, 'Treatment reduced mortality by 25%')).toEqual(found);
    expect(matchExcerpt(PAGE, 'Treatment increased mortality by 25%')).toEqual(notFound);
    expect(matchExcerpt(PAGE, 'The drug was safe for children under five')).toEqual(notFound);
    expect(matchExcerpt(PAGE, 'safe for children under five')).toEqual(notFound);
  });

  it('rejects an excerpt with one number changed', () => {
    expect(matchExcerpt(PAGE, 'Treatment reduced mortality by 35%')).toEqual(notFound);
    expect(matchExcerpt(PAGE, 'enrolled 111 patients')).toEqual(notFound);
    expect(matchExcerpt(PAGE, 'Follow-up lasted 3 years')).toEqual(found);
    expect(matchExcerpt(PAGE, 'Follow-up lasted 4 years')).toEqual(notFound);
  });

  it('does not accept a number that is the cut-off piece of a longer one', () => {
    expect(matchExcerpt(PAGE, '10 patients across 12 sites')).toEqual(notFound);
    expect(matchExcerpt(PAGE, '5 mg per day')).toEqual(notFound);
    expect(matchExcerpt(PAGE, '(95% CI 18–31) at 2')).toEqual(notFound);
    expect(matchExcerpt(PAGE, '(95% CI 18–31) at 2.')).toEqual(notFound);
    expect(matchExcerpt(PAGE, '(95% CI 18–31) at 2.5')).toEqual(found);
    expect(matchExcerpt(PAGE, 'and the dose of 2')).toEqual(notFound);
    expect(matchExcerpt(PAGE, 'and the dose of 2.')).toEqual(notFound);
    expect(matchExcerpt(PAGE, 'and the dose of 25')).toEqual(found);
  });

  it('does not accept a number cut from a signed number or a range', () => {
    const page = normalizeForMatch('It was stored at −5 °C for 3–7 days, then 10 °C.');
    expect(matchExcerpt(page, '5 °C for 3')).toEqual(notFound);
    expect(matchExcerpt(page, '7 days, then 10 °C')).toEqual(notFound);
    expect(matchExcerpt(page, 'for 3')).toEqual(notFound);
    expect(matchExcerpt(page, 'stored at -5 °C for 3-7 days')).toEqual(found);
    expect(matchExcerpt(page, 'then 10 °C')).toEqual(found);
  });

  it('needs no word boundary in scripts written without spaces', () => {
    expect(matchExcerpt(PAGE, '这种药物对成年人是安全的')).toEqual(found);
    expect(matchExcerpt(PAGE, '这种药物对儿童是安全的')).toEqual(notFound);
  });

  describe('elisions', () => {
    const forms = ['...', '…', '[…]', '[...]', '(...)', '[ … ]'];
    for (const e of forms) {
      it(`finds parts around "${e}" in order, and not out of order`, () => {
        expect(matchExcerpt(PAGE, `The trial enrolled 110 patients ${e} reduced mortality by 25%`)).toEqual(found);
        expect(matchExcerpt(PAGE, `reduced mortality by 25% ${e} The trial enrolled 110 patients`)).toEqual(notFound);
      });
    }

    it('searches each part after the end of the previous one', () => {
      // "12 sites" occurs once, before "mortality": a part may not reuse text already passed.
      expect(matchExcerpt(PAGE, 'across 12 sites ... mortality ... across 12 sites')).toEqual(notFound);
      expect(matchExcerpt(PAGE, 'The ... The ... The ... the')).toEqual(found);
    });

    it('still rejects a part with a word or number changed', () => {
      expect(matchExcerpt(PAGE, 'The trial enrolled 110 patients … reduced mortality by 26%')).toEqual(notFound);
      expect(matchExcerpt(PAGE, 'The trial enrolled 110 patients … increased mortality')).toEqual(notFound);
    });

    it('accepts an opening or closing ellipsis', () => {
      expect(matchExcerpt(PAGE, '… reduced mortality by 25% …')).toEqual(found);
      expect(matchExcerpt(PAGE, '[...] the dose of 25 mg was withdrawn.')).toEqual(found);
    });
  });

  it('reports an excerpt that is empty after normalisation', () => {
    for (const e of ['', '   ', '\u200B\u00AD', '...', '…', '[…] … (...)', '\u00A0']) {
      expect(matchExcerpt(PAGE, e)).toEqual(empty);
    }
  });

  it('rejects a prefixChars that is not a positive integer', () => {
    for (const prefixChars of [0, -1, 1.5, Number.NaN]) {
      expect(() => matchExcerpt(PAGE, 'x', { prefixChars })).toThrow(CitationTextError);
    }
    try {
      matchExcerpt(PAGE, 'x', { prefixChars: 0 });
    } catch (err) {
      expect((err as CitationTextError).code).toBe('BAD_OPTION');
    }
  });

  it('does not split a surrogate pair when cutting', () => {
    const page = normalizeForMatch('emoji here');
    // The 7th character is the first half of 😀: cut before it, "emoji" is checked.
    expect(matchExcerpt(page, 'emoji 😀 there', { prefixChars: 7 })).toEqual(found);
    expect(matchExcerpt(page, 'emoji 😀 there', { prefixChars: 8 })).toEqual(notFound);
  });
});

/** Whether the excerpt verifies against the page given as HTML, and in which of its texts. */
const inHtml = (html: string, excerpt: string) => matchInPage(htmlSources(html), excerpt);
const inText = { found: true, source: 'text' };

describe('spacing at element boundaries', () => {
  it('accepts a space where the page has an element boundary and no space (extractors put one there)', () => {
    expect(inHtml(`<p><a href="/b">Boeing</a>'s 787-9 Dreamliner</p>`, "Boeing 's 787-9 Dreamliner")).toEqual(inText);
    expect(
      inHtml(
        '<p><cite>Hong Kong (CNN Business)</cite>A muddled view of the economy</p>',
        '(CNN Business) A muddled view',
      ),
    ).toEqual(inText);
    expect(
      inHtml('<p>The mission expand<a>ed</a> to Jupiter’s moon Europa.</p>', 'mission expand ed to Jupiter’s moon'),
    ).toEqual(inText);
    expect(inHtml('<p><a>Garrett</a>’s snaps were on time.</p>', 'Garrett ’s snaps were on time.')).toEqual(inText);
    expect(
      inHtml('<p>a condition called “<a>bird fancier’s lung.</a>”</p>', 'called “ bird fancier’s lung. ”'),
    ).toEqual(inText);
  });

  it('accepts a missing space where the page has an element boundary (extractors that trim text nodes drop it)', () => {
    expect(inHtml('<p>Read the <a href="/x">full report</a> here.</p>', 'Read thefull reporthere.')).toEqual(inText);
    expect(inHtml('<p>One paragraph.</p><p>Another one.</p>', 'One paragraph.Another one.')).toEqual(inText);
    expect(inHtml('<p>line one<br>line two</p>', 'line oneline two')).toEqual(inText);
  });

  it('accepts nothing of the kind where the page has no element boundary', () => {
    const notFound = { found: false, reason: 'excerpt_not_found' };
    expect(inHtml('<p>She saw the therapist on Monday.</p>', 'She saw the rapist on Monday.')).toEqual(notFound);
    expect(inHtml('<p>She saw the rapist on Monday.</p>', 'She saw therapist on Monday.')).toEqual(notFound);
    expect(inHtml('<p>She saw the <a>therapist</a> on Monday.</p>', 'She saw the rapist on Monday.')).toEqual(notFound);
    // The boundary allows exactly the one difference it stands for, not a space one letter away.
    expect(inHtml('<p>The mission expand<a>ed</a> to Jupiter.</p>', 'mission expan ded to Jupiter')).toEqual(notFound);
  });

  it('never splits or joins a number at a boundary, and still does not find one inside a longer one', () => {
    const page = '<p>The trial enrolled 1<b>10</b> patients at 3 <b>10</b>-bed sites, 2.<i>5</i> mg daily.</p>';
    const found = (excerpt: string) => inHtml(page, excerpt).found;
    expect(found('The trial enrolled 110 patients')).toBe(true);
    expect(found('The trial enrolled 1 10 patients')).toBe(false);
    expect(found('10 patients at 3')).toBe(false);
    expect(found('enrolled 111 patients')).toBe(false);
    expect(found('patients at 3 10-bed sites')).toBe(true);
    expect(found('patients at 310-bed sites')).toBe(false);
    expect(found('sites, 2.5 mg daily')).toBe(true);
    expect(found('sites, 2. 5 mg daily')).toBe(false);
    expect(found('5 mg daily')).toBe(false);
  });

  it('still wants a part to begin where a word begins in the text a reader sees', () => {
    const page = '<p>The drug was un<b>safe</b> for children.</p>';
    expect(inHtml(page, 'safe for children').found).toBe(false);
    expect(inHtml(page, 'was un safe for children').found).toBe(true);
    expect(inHtml(page, 'was unsafe for children').found).toBe(true);
  });

  it('still rejects a changed word, an inserted "not", and a fabricated tail at a boundary', () => {
    const page = '<p>The <a>vaccine</a> was <em>effective</em> in adults.</p>';
    expect(inHtml(page, 'The vaccine was effective in adults.').found).toBe(true);
    expect(inHtml(page, 'The vaccine was not effective in adults.').found).toBe(false);
    expect(inHtml(page, 'The vaccine was ineffective in adults.').found).toBe(false);
    expect(inHtml(page, 'Thevaccine was effective in children.').found).toBe(false);
  });

  it('tolerates boundaries in each part of an elided excerpt, in order', () => {
    const page = '<p>The <a>vaccine</a> was tested.</p><p>It was <em>effective</em> in adults.</p>';
    expect(inHtml(page, 'Thevaccine was … It was effective in adults').found).toBe(true);
    expect(inHtml(page, 'It was effective … Thevaccine was').found).toBe(false);
  });
});

describe('soft hyphens and other break hints', () => {
  const page = '<p>Die Werk&shy;zeug&shy;ty&shy;pen sind vielfältig.</p>';

  it('removes them on both sides', () => {
    expect(inHtml(page, 'Die Werkzeugtypen sind')).toEqual(inText);
    expect(inHtml(page, 'Die Werk\u00ADzeug\u00ADty\u00ADpen sind')).toEqual(inText);
    expect(inHtml('<p>Die Werkzeugtypen sind</p>', 'Die Werk\u00ADzeug\u2060typen sind')).toEqual(inText);
  });

  it('accepts a line broken at a soft hyphen, and a break at a zero-width space or <wbr>', () => {
    expect(inHtml(page, 'Die Werk-\nzeugtypen sind')).toEqual(inText);
    expect(inHtml(page, 'Die Werkzeug- typen sind')).toEqual(inText);
    expect(inHtml(page, 'Die Werk\u00AD\nzeugtypen sind')).toEqual(inText);
    expect(inHtml('<p>Die Werk&#8203;zeugtypen</p>', 'Die Werk zeugtypen')).toEqual(inText);
    expect(inHtml('<p>Die Werk<wbr>zeugtypen</p>', 'Die Werk zeugtypen')).toEqual(inText);
  });

  it('accepts no hyphen or space where the page has no break hint', () => {
    expect(inHtml('<p>Die Werkzeugtypen sind</p>', 'Die Werk-\nzeugtypen sind').found).toBe(false);
    expect(inHtml(page, 'Die Werkz- eugtypen sind').found).toBe(false);
    // A line broken at a soft hyphen shows a hyphen and a break; a hyphen alone is another word.
    expect(inHtml(page, 'Die Werk-zeugtypen sind').found).toBe(false);
  });
});

describe('matchInPage', () => {
  const ld = (o: object) => `<script type="application/ld+json">${JSON.stringify(o)}</script>`;

  it('says where the excerpt was found: the visible text, the JSON-LD text, or the JSON of the scripts', () => {
    const html =
      '<p>Visible words here.</p>' +
      ld({ articleBody: 'Body in JSON-LD.' }) +
      '<script>window.__STATE__ = {"article": {"body": "<p>Only in the <b>state</b>.</p>"}};</script>';
    const sources = htmlSources(html);
    expect(matchInPage(sources, 'Visible words here.')).toEqual({ found: true, source: 'text' });
    expect(matchInPage(sources, 'Body in JSON-LD.')).toEqual({ found: true, source: 'json_ld' });
    expect(matchInPage(sources, 'here. Body in')).toEqual({ found: true, source: 'json_ld' });
    expect(matchInPage(sources, 'Only in the state.')).toEqual({ found: true, source: 'script_json' });
    expect(matchInPage(sources, 'Only in the states.')).toEqual({ found: false, reason: 'excerpt_not_found' });
    expect(matchInPage(sources, '…')).toEqual({ found: false, reason: 'excerpt_empty' });
  });

  it('looks in the scripts only for an excerpt that is not in the visible text', () => {
    const html = '<p>Same words.</p><script>var s = {"t": "Same words."};</script>';
    expect(matchInPage(htmlSources(html), 'Same words.')).toEqual({ found: true, source: 'text' });
  });

  it('does not join two parts of an elided excerpt from the visible text and the scripts', () => {
    const html = '<p>First part.</p><script>var s = {"t": "Second part."};</script>';
    expect(matchInPage(htmlSources(html), 'First part. … Second part.').found).toBe(false);
  });
});
