/**
 * The constructions of real pages that once made genuine excerpts fail,
 * served on loopback and checked by the verifier as the worker builds it
 * (parsing threads, the Redis page cache): spacing at element boundaries,
 * the article only in a script's JSON, soft hyphens. Each page has genuine
 * excerpts, which verify, and edited ones, which do not.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  config = testConfig(undefined, { citations: { allow_private_hosts: [`localhost:${pages.port}`] } });
  pool = buildParsePool(config);
  verifier = buildVerifier(config, { reader: pool, redis });
});

afterAll(async () => {
  await pool.close();
  // The keys are known: a scan of the whole keyspace would take longer than the tests.
  const paths = ['/boundaries', ...Object.keys(SCRIPT_PAGES), '/soft-hyphens'];
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
    expect(cached.v).toBe(3);
    expect(cached.gaps.length).toBeGreaterThan(0);
    // Its injection scan is cached with it.
    expect(cached.scan).toMatchObject({ source: 'page', score: expect.any(Number) });
    // Cached now: the next review reads it from Redis.
    expect(outcomes(await verify('/boundaries', ['Garrett ’s snaps']))).toEqual(['text']);
    expect(pages.hits.get('/boundaries')).toBe(before + 1);
  });
});
