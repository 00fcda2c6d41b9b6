/**
 * The constructions of real pages that once made genuine excerpts fail,
 * served on loopback and checked by the verifier as the worker builds it
 * (parsing threads, the Redis page cache): spacing at element boundaries,
 * the article only in a script's JSON, soft hyphens, formulas, pronunciations
 * and hidden elements a reader's copy leaves out, the article of a page
 * streamed in hidden blocks that its scripts move into place. Each page has
 * genuine excerpts, which verify, and edited ones, which do not.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_TEXT_VERSION } from '../../src/citations/page-text.js';
import type { ParsePool } from '../../src/citations/parse-pool.js';
import type { Verifier } from '../../src/citations/verifier.js';
import type { Config } from '../../src/config/schema.js';
import type { CitationResult } from '../../src/contracts/results.js';
import { buildParsePool, buildVerifier } from '../../src/runtime/builders.js';
import { testConfig } from '../support/config.js';
import { startPageServer, type PageServer } from '../support/page-server.js';
import { testRedis } from '../support/redis.js';

const page = (body: string, head = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Test page</title>${head}</head><body>${body}</body></html>`;

/** Spacing at element boundaries: the five constructions of the issue, and the guards' neighbours. */
const BOUNDARIES = page(`<article>
<p><a href="/boeing">Boeing</a>'s 787-9 Dreamliner entered service in 2014.</p>
<p><cite>Hong Kong (CNN Business)</cite>A muddled view of the economy emerged on Monday.</p>
<p>The mission's scope expand<a href="/x">ed</a> to Jupiter's moon Europa.</p>
<p><a href="/g">Garrett</a>’s snaps were on time all season.</p>
<p>Doctors diagnosed “<a href="/b">bird fancier’s lung.</a>” in the patient.</p>
<p>She saw the therapist on Monday, and the trial enrolled 1<b>10</b> patients at 3 <b>10</b>-bed sites.</p>
<p>The drug was un<b>safe</b> for children under <a href="/five">five</a>.</p>
</article>`);

const BODY_HTML =
  '<h1>Apps and habits</h1><p>Valdez downloaded the <b>app</b> on Tuesday, and it cost $4.99.</p>' +
  '<p>Within 5 minutes he had <a href="/s">signed up</a> for the premium plan.</p>';
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/<\//g, '<\\/');
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The same article only in a script, as client-rendered sites send it. */
const SCRIPT_PAGES: Record<string, string> = {
  '/next-data': page(
    `<div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${scriptJson({
      props: { pageProps: { article: { headline: 'Apps and habits', body: BODY_HTML } } },
    })}</script>`,
  ),
  '/window-state': page(
    `<div id="root"></div><script>window.__INITIAL_STATE__ = ${scriptJson({ article: { html: BODY_HTML } })};</script>`,
  ),
  '/escaped-html': page(
    `<div id="app"></div><script>var article = ${scriptJson({ top: 'Apps', bottom: escapeHtml(BODY_HTML) })};</script>`,
  ),
  '/json-parse': page(
    `<div id="app"></div><script>window.__PRELOADED_STATE__ = JSON.parse(${JSON.stringify(
      JSON.stringify({ article: { body: BODY_HTML } }),
    ).replace(/<\//g, '<\\/')});</script>`,
  ),
  '/rich-text': page(
    `<div id="app"></div><script>window.__DATA__ = ${scriptJson({
      __typename: 'Article',
      content: [
        {
          _type: 'block',
          style: 'normal',
          children: [
            { _type: 'span', text: 'Valdez downloaded the ', marks: [] },
            { _type: 'span', text: 'app', marks: ['strong'] },
            { _type: 'span', text: ' on Tuesday, and it cost $4.99.', marks: [] },
          ],
        },
      ],
    })};</script>`,
  ),
};

const SOFT_HYPHENS = page(
  '<p>Die Werk&shy;zeug&shy;ty&shy;pen der Fer&shy;ti&shy;gung sind viel&shy;fäl&shy;tig.</p>' +
    '<p>Die Ent&#173;wick&#xAD;lung dau&shy;er&shy;te 12&shy;3 Tage.</p>',
);

/** A Wikipedia formula: MathML hidden by its style, its TeX annotation, and the fallback image a browser shows. */
const formula = (mathml: string, tex: string) =>
  `<span class="mwe-math-element"><span class="mwe-math-mathml-inline mwe-math-mathml-a11y" style="display: none;">` +
  `<math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow>${mathml}</mrow>` +
  `<annotation encoding="application/x-tex">{\\displaystyle ${tex}}</annotation></semantics></math></span>` +
  `<img src="/f.svg" class="mwe-math-fallback-image-inline" aria-hidden="true" alt="{\\displaystyle ${tex}}"></span>`;

/** Elements a reader's copy may leave out: formulas, a pronunciation, a hidden element; and a cut page number. */
const OPTIONAL = page(`<article>
<p>If the conjugate transpose of a matrix ${formula('<mi>A</mi>', 'A')} is denoted by
${formula('<msup><mi>A</mi><mi>H</mi></msup>', 'A^{H}')}, then the property holds for 12 of the 40 matrices.</p>
<p>The bound <math><mi>x</mi><mo>≤</mo><mn>5</mn></math> holds for 1<math><mn>2</mn></math>0 patients.</p>
<p><i><a href="/a">Aotearoa</a></i> (pronounced <span class="nowrap"><span class="IPA nopopups noexcerpt"><a href="/ipa">/<span
 title="stress">ˌ</span><span title="mouth">aʊ</span><span>tɛəˈroʊ.ə</span>/</a></span></span>; often translated as
"land of the long white cloud")<sup class="reference"><a href="#n17">[17]</a></sup> is the current Māori name.</p>
<p>The vaccine was approved in 2021<span aria-hidden="true"> ★</span> after trials in 40 countries.</p>
<p>The study<button type="button">Show footnote 3</button> enrolled 300 adults.</p>
<p>The loop starts again, with one or more characters retaining the memories from the previous loop.<sup
 class="reference"><a href="#n1">[1]</a></sup><sup class="reference nowrap"><span title="Page / location: 207">: 207</span></sup>
 The list provides the names of films.</p>
</article>`);

/**
 * A page streamed by React's server rendering: the shell with a Suspense
 * boundary and its skeleton, then the article in hidden blocks and the
 * scripts that move them into place (a boundary, and a placeholder inside
 * the first block). Without the scripts' moves its text is the skeleton.
 */
const STREAMED = page(
  '<div id="__next"><header><a href="/">Ocean Weekly</a></header><main><!--$?--><template id="B:0"></template>' +
    '<div class="skeleton"><p>Loading article…</p></div><!--/$--></main><footer>© Ocean Weekly</footer></div>' +
    '<div hidden id="S:0"><article><h1>Life around deep-sea vents</h1><p>Researchers found tube worms growing near ' +
    'vents at 2,500 metres, in water at <template id="P:1"></template>.</p></article></div>' +
    '<script>$RC=function(b,c){/* moves S:n in place of the fallback of B:n */};$RC("B:0","S:0")</script>' +
    '<div hidden id="S:1"><b>350 °C</b></div><script>$RS=function(a,b){};$RS("S:1","P:1")</script>' +
    '<div hidden id="S:2"><p>A block no script moves.</p></div>',
);

let pages: PageServer;
let config: Config;
let pool: ParsePool;
const redis = testRedis();
let verifier: Verifier;

beforeAll(async () => {
  pages = await startPageServer();
  pages.page('/boundaries', BOUNDARIES);
  for (const [path, html] of Object.entries(SCRIPT_PAGES)) pages.page(path, html);
  pages.page('/soft-hyphens', SOFT_HYPHENS);
  pages.page('/optional', OPTIONAL);
  pages.page('/streamed', STREAMED);
  config = testConfig(undefined, { citations: { allow_private_hosts: [`localhost:${pages.port}`] } });
  pool = buildParsePool(config);
  verifier = buildVerifier(config, { reader: pool, redis });
});

afterAll(async () => {
  await pool.close();
  // The keys are known: a scan of the whole keyspace would take longer than the tests.
  const paths = ['/boundaries', ...Object.keys(SCRIPT_PAGES), '/soft-hyphens', '/optional', '/streamed'];
  await redis.del(
    ...paths.flatMap((path) => [pageKey(`${pages.base}${path}`), pageKey(`${pages.base}${path}`, 'page-lock')]),
  );
  redis.disconnect();
  await pages.close();
});

/** The page cache's key of a URL (src/citations/page-cache.ts). */
function pageKey(url: string, kind = 'page'): string {
  return `${config.redis.key_prefix}:${kind}:${createHash('sha256').update(url).digest('hex')}`;
}

/** Each excerpt cited against the page at `path`, as one review. */
async function verify(path: string, excerpts: string[]): Promise<CitationResult[]> {
  return verifier.verify(excerpts.map((excerpt) => ({ claim: '', url: `${pages.base}${path}`, excerpt })));
}

const outcomes = (results: CitationResult[]) => results.map((r) => r.source ?? r.reason ?? r.status);

describe('pages built in ways that once made genuine excerpts fail', () => {
  it('spacing at element boundaries: an extractor’s extra or missing space verifies, nothing else does', async () => {
    const genuine = [
      "Boeing 's 787-9 Dreamliner entered service in 2014.",
      '(CNN Business) A muddled view of the economy',
      "The mission's scope expand ed to Jupiter's moon Europa.",
      'Garrett ’s snaps were on time all season.',
      'Doctors diagnosed “ bird fancier’s lung. ” in the patient.',
      // An extractor that trims text nodes drops the spaces next to the boundaries.
      'The drug was unsafe for children underfive.',
      'the trial enrolled 110 patients at 3 10-bed sites.',
    ];
    const edited = [
      "Boeing 's 787-8 Dreamliner entered service in 2014.",
      '(CNN Business) A clear view of the economy',
      "The mission's scope expand ed to Saturn's moon Europa.",
      'Doctors diagnosed “ bird fancier’s lung. ” in the doctor.',
      'She saw the rapist on Monday',
      'the trial enrolled 1 10 patients',
      'the trial enrolled 111 patients',
      '10 patients at 3 10-bed sites',
      'patients at 310-bed sites.',
      'safe for children under five',
      'The drug was not unsafe for children under five.',
    ];
    expect(outcomes(await verify('/boundaries', genuine))).toEqual(genuine.map(() => 'text'));
    expect(outcomes(await verify('/boundaries', edited))).toEqual(edited.map(() => 'excerpt_not_found'));
  });

  it('the article only in a script: found in the script JSON, said so, and edits are not', async () => {
    const genuine = [
      'Valdez downloaded the app on Tuesday, and it cost $4.99.',
      'Valdez downloaded the app … on Tuesday',
    ];
    const edited = [
      'Valdez downloaded the app on Wednesday, and it cost $4.99.',
      'Valdez downloaded the app on Tuesday, and it cost $5.99.',
      'Valdez did not download the app on Tuesday',
    ];
    for (const path of Object.keys(SCRIPT_PAGES)) {
      expect(outcomes(await verify(path, genuine)), path).toEqual(genuine.map(() => 'script_json'));
      expect(outcomes(await verify(path, edited)), path).toEqual(edited.map(() => 'excerpt_not_found'));
    }
    // Text of the page itself is still found in it first.
    expect(outcomes(await verify('/next-data', ['Test page']))).toEqual(['text']);
  });

  it('soft hyphens: removed on both sides, a line broken at one verifies, a hyphen anywhere else does not', async () => {
    const genuine = [
      'Die Werkzeugtypen der Fertigung sind vielfältig.',
      'Die Werk\u00ADzeug\u00ADty\u00ADpen der Fer\u00ADti\u00ADgung',
      'Die Werkzeug-\ntypen der Ferti-\ngung sind vielfältig.',
      'Die Entwicklung dauerte 123 Tage.',
    ];
    const edited = [
      'Die Werkzeugtypen der Fertigung sind einfach.',
      'Die Werkzeug-typen der Fertigung',
      'Die Werkz-\neugtypen der Fertigung',
      'Die Entwicklung dauerte 12-\n3 Tage.',
      'Die Entwicklung dauerte 124 Tage.',
    ];
    expect(outcomes(await verify('/soft-hyphens', genuine))).toEqual(genuine.map(() => 'text'));
    expect(outcomes(await verify('/soft-hyphens', edited))).toEqual(edited.map(() => 'excerpt_not_found'));
  });

  it('formulas, pronunciations, hidden elements: a quote with all of them or none verifies, an edit does not', async () => {
    const genuine = [
      // Reader mode: the formulas, the pronunciation and the hidden star left out.
      'If the conjugate transpose of a matrix is denoted by , then the property holds for 12 of the 40 matrices.',
      'of a matrix is denoted by, then the property holds',
      // Every element kept, as a dump of the tags has them.
      'of a matrix A is denoted by A H , then the property holds for 12',
      'The bound x≤5 holds for 120 patients.',
      'Aotearoa (pronounced ; often translated as "land of the long white cloud") is the current Māori name.',
      'Aotearoa (pronounced /ˌaʊtɛəˈroʊ.ə/; often translated as "land of the long white cloud")[17] is the current',
      'The vaccine was approved in 2021 after trials in 40 countries.',
      'The vaccine was approved in 2021 ★ after trials in 40 countries.',
      'The study enrolled 300 adults.',
      // A quote cut inside the page number of a reference, which the page drops with its marker.
      'retaining the memories from the previous loop. [1] :',
      'retaining the memories from the previous loop.[1]: 2',
    ];
    const edited = [
      'of a matrix is not denoted by , then the property holds',
      'of a matrix is denoted by , then the property holds for 13 of the 40 matrices.',
      'of a matrix is denoted by , then the property holds for 12 of the 41 matrices.',
      // Part of a formula, one formula in and the other out, or another formula.
      'of a matrix is denoted by A , then the property holds',
      'of a matrix A is denoted by , then the property holds',
      'of a matrix B is denoted by , then the property holds',
      'The bound x≤6 holds',
      // Two numbers run into one where the formula was.
      'The bound holds for 10 patients.',
      'Aotearoa (pronounced /ˌaʊ; often translated as "land of the long white cloud")',
      'Aotearoa (pronounced ; often translated as "land of the long black cloud")',
      'The vaccine was not approved in 2021 after trials in 40 countries.',
      'The vaccine was approved in 2022 after trials in 40 countries.',
      'The vaccine was approved in 2021 ☆ after trials in 40 countries.',
      'The study enrolled 3 300 adults.',
      'The study footnote 3 enrolled 300 adults.',
      'retaining the memories from the next loop. [1] :',
    ];
    expect(outcomes(await verify('/optional', genuine))).toEqual(genuine.map(() => 'text'));
    expect(outcomes(await verify('/optional', edited))).toEqual(edited.map(() => 'excerpt_not_found'));
  });

  it('a streamed page: its article read where the scripts put it, the fallback and an unmoved block not', async () => {
    const genuine = [
      'Life around deep-sea vents',
      'Researchers found tube worms growing near vents at 2,500 metres, in water at 350 °C.',
      'Life around deep-sea vents Researchers found tube worms',
      'in water at 350 °C. © Ocean Weekly',
    ];
    const edited = [
      'Researchers found tube worms growing near vents at 2,400 metres',
      'in water at 360 °C.',
      'Loading article…',
      'A block no script moves.',
    ];
    expect(outcomes(await verify('/streamed', genuine))).toEqual(genuine.map(() => 'text'));
    expect(outcomes(await verify('/streamed', edited))).toEqual(edited.map(() => 'excerpt_not_found'));
  });

  it('refetches a page cached before optional spans were recorded', async () => {
    const url = `${pages.base}/optional`;
    const key = pageKey(url);
    // What a worker of the earlier version cached: the text with its gaps, the formulas in.
    const text = 'if the conjugate transpose of a matrix a is denoted by a h , then the property holds';
    const old = { ok: true, v: 2, text, gaps: [40], contentType: 'text/html', finalUrl: url, wireBytes: 1 };
    await redis.set(key, JSON.stringify(old), 'EX', 60);
    const before = pages.hits.get('/optional') ?? 0;
    expect(outcomes(await verify('/optional', ['of a matrix is denoted by , then the property holds']))).toEqual([
      'text',
    ]);
    expect(pages.hits.get('/optional')).toBe(before + 1);
    const cached = JSON.parse((await redis.get(key))!) as { v: number; optional: number[] };
    expect(cached.v).toBe(PAGE_TEXT_VERSION);
    expect(cached.optional.length).toBeGreaterThan(0);
  });

  it('refetches a page cached in the earlier shape, without gaps, instead of trusting it', async () => {
    const url = `${pages.base}/boundaries`;
    const key = pageKey(url);
    // What a worker of the earlier version cached: the text alone.
    const old = { ok: true, text: "boeing's 787-9 dreamliner", contentType: 'text/html', finalUrl: url, wireBytes: 1 };
    await redis.set(key, JSON.stringify(old), 'EX', 60);
    const before = pages.hits.get('/boundaries') ?? 0;
    expect(outcomes(await verify('/boundaries', ["Boeing 's 787-9 Dreamliner"]))).toEqual(['text']);
    expect(pages.hits.get('/boundaries')).toBe(before + 1);
    const cached = JSON.parse((await redis.get(key))!) as { v: number; gaps: number[]; scan?: { score: number } };
    expect(cached.v).toBe(PAGE_TEXT_VERSION);
    expect(cached.gaps.length).toBeGreaterThan(0);
    // Its injection scan is cached with it.
    expect(cached.scan).toMatchObject({ source: 'page', score: expect.any(Number) });
    // Cached now: the next review reads it from Redis.
    expect(outcomes(await verify('/boundaries', ['Garrett ’s snaps']))).toEqual(['text']);
    expect(pages.hits.get('/boundaries')).toBe(before + 1);
  });
});
