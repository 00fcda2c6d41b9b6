/**
 * The review page in a real browser (Debian's Chromium, driven by
 * playwright-core) against the real worker runtime, Redis and BullMQ: signing
 * in, releasing a held hypothesis from the keyboard and reading the audit
 * entry back, untrusted text shown as text, and a narrow window.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildReviewService } from '../../src/runtime/builders.js';
import type { ReviewService } from '../../src/review/review-service.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { testConfig } from '../support/config.js';
import { startHarness, type Harness } from '../support/pipeline.js';
import { baseUrl, classify, REVIEW_TOKEN } from '../support/review-http.js';

const CHROMIUM = '/usr/bin/chromium';
const missing = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (.ci/run installs it)`;
if (missing) console.warn(`skipping the review page browser tests: ${missing}`);

const RISKY = 'Risky @@dual_use_bio@0.9@@';

describe.skipIf(missing !== undefined)('the review page in Chromium', () => {
  let fake: FakeAnthropic;
  let h: Harness;
  let base: string;
  let review: ReviewService;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  /** Uncaught errors and console errors (a CSP violation is one) of every page opened. */
  const problems: string[] = [];

  beforeAll(async () => {
    fake = await startFakeAnthropic(markerHandler);
    h = await startHarness(testConfig(fake.url, { review: { api_token: REVIEW_TOKEN } }));
    base = baseUrl(h);
    review = buildReviewService(h.config, h.redis);
    // launch() gives the browser a fresh profile in a temporary directory of its own, removed on close.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
      ],
    });
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    expect(problems.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
    await fake?.close();
  });

  async function open(viewport = { width: 1024, height: 768 }): Promise<Page> {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      // Chromium logs every 4xx answer to fetch; the refusals some tests provoke are expected.
      if (
        msg.type() === 'error' &&
        !/^Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())
      ) {
        problems.push(`console: ${msg.text()}`);
      }
    });
    const response = await page.goto(`${base}/review`);
    expect(response?.status()).toBe(200);
    expect(page.url()).toBe(`${base}/review/`);
    return page;
  }

  async function signIn(page: Page): Promise<void> {
    await page.getByLabel('Review token').fill(REVIEW_TOKEN);
    await page.getByLabel('Review token').press('Enter');
    await expect.poll(() => page.locator('#status').textContent()).toContain('Signed in.');
  }

  const scrollWidth = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth');

  it('signs in, releases a held hypothesis from the keyboard, and shows the audit entry', async () => {
    await classify(h, 'page-rel', RISKY, 'A held hypothesis');
    await h.publisher.publishReviewRecorded({
      reviewId: 'page-rel-review',
      hypothesisId: 'page-rel',
      revision: 1,
      evidence: [{ claim: 'c', url: 'https://example.org/cited', excerpt: 'an excerpt' }],
      seenUrls: [],
    });
    await h.waitForJob('review.recorded', 'review.page-rel-review.r1');
    const page = await open();

    // A wrong token is refused and the form comes back.
    await page.getByLabel('Review token').fill('not-the-token');
    await page.getByLabel('Review token').press('Enter');
    await expect.poll(() => page.locator('#status').textContent()).toContain('The token was refused');
    expect(await page.getByLabel('Review token').isVisible()).toBe(true);

    await signIn(page);
    const card = page.locator('#queue > li', { hasText: 'page-rel' });
    expect(await card.locator('h3').textContent()).toBe('A held hypothesis');
    expect(await card.textContent()).toContain('quarantined');
    expect(await card.textContent()).toContain('dual_use_bio');
    expect(await card.textContent()).toContain('0.90');

    // Keyboard only from here: focus the card's button, open it, fill the form, press Release.
    await card.getByRole('button', { name: 'Review page-rel' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#detail-h').textContent()).toBe('Hypothesis page-rel');
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('detail-h');
    expect(await page.locator('#text').textContent()).toBe(RISKY);
    expect(await page.locator('#facts').textContent()).toContain('quarantine');
    expect(await page.locator('#evidence').textContent()).toContain(
      'unverified (url_not_seen) https://example.org/cited',
    );
    expect(await page.locator('#history-empty').isVisible()).toBe(true);

    await page.getByLabel('Your name').focus();
    await page.keyboard.type('Dr Ada Lovelace');
    await page.keyboard.press('Tab');
    await page.keyboard.type('benign assay, checked with the lab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Release');
    await page.keyboard.press('Enter');

    await expect.poll(() => page.locator('#status').textContent()).toContain('Released page-rel revision 1');
    const entry = page.locator('#history > li');
    expect(await entry.count()).toBe(1);
    expect(await entry.locator('.who').textContent()).toBe('Dr Ada Lovelace');
    expect(await entry.locator('.why').textContent()).toBe('benign assay, checked with the lab');
    expect(await entry.textContent()).toContain('Released revision 1');
    expect(await entry.textContent()).toContain('quarantine, dual_use_bio, confidence 0.90');
    expect(await page.locator('#decide-closed').textContent()).toContain('was released by Dr Ada Lovelace');
    expect(await page.locator('#queue > li', { hasText: 'page-rel' }).count()).toBe(0);

    const shown = await review.show('page-rel');
    expect(shown.state).toBe('released');
    expect(shown.history).toEqual([
      expect.objectContaining({ by: 'Dr Ada Lovelace', note: 'benign assay, checked with the lab' }),
    ]);
    // The token stays out of the address bar and out of cookies.
    expect(page.url()).not.toContain(REVIEW_TOKEN);
    expect(await page.context().cookies()).toEqual([]);
  });

  it('refuses a decision without a note, and shows a decision another reviewer took first', async () => {
    await classify(h, 'page-nonote', RISKY);
    const page = await open();
    await signIn(page);
    await page.locator('#queue > li', { hasText: 'page-nonote' }).getByRole('button').click();
    await page.getByLabel('Your name').fill('Bob');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    // The browser's own check stops it first, and takes the person to the empty field.
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('note');
    // Spaces pass the browser's `required` but not the service: its message reaches the status region.
    await page.getByLabel('Why (a note for the audit trail)').fill('   ');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect.poll(() => page.locator('#status').textContent()).toContain('REVIEW_INVALID');
    expect(await page.locator('#status').textContent()).toContain('note');
    const shown = await review.show('page-nonote');
    expect(shown.state).toBe('quarantined');
    expect(shown.history).toEqual([]);

    // Another reviewer decides first (from the CLI, say): the page reports the refusal and shows their entry.
    await review.decide('confirmed', { hypothesisId: 'page-nonote', by: 'Grace Hopper', note: 'keep it held' });
    await page.getByLabel('Why (a note for the audit trail)').fill('release it');
    await page.getByRole('button', { name: 'Release', exact: true }).click();
    await expect.poll(() => page.locator('#status').textContent()).toContain('REVIEW_ALREADY_DECIDED');
    expect(await page.locator('#status').textContent()).toContain('Grace Hopper');
    await expect.poll(() => page.locator('#history .who').allTextContents()).toEqual(['Grace Hopper']);
    expect(await page.locator('#decide-fields').isVisible()).toBe(false);
    expect((await review.show('page-nonote')).history.map((e) => e.by)).toEqual(['Grace Hopper']);
  });

  it('shows untrusted text as text: no script runs, no element comes from the data', async () => {
    const payload = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned=2">`;
    await classify(h, 'page-xss', `${RISKY} ${payload}`, `<img src=x onerror="window.__pwned=3">title`);
    await h.publisher.publishReviewRecorded({
      reviewId: 'page-xss-review',
      hypothesisId: 'page-xss',
      revision: 1,
      evidence: [{ claim: 'c', url: 'javascript:window.__pwned=4', excerpt: 'x' }],
      seenUrls: [],
    });
    await h.waitForJob('review.recorded', 'review.page-xss-review.r1');
    const page = await open();
    await signIn(page);
    const card = page.locator('#queue > li', { hasText: 'page-xss' });
    expect(await card.locator('h3').textContent()).toBe('<img src=x onerror="window.__pwned=3">title');
    await card.getByRole('button').click();
    await expect.poll(() => page.locator('#text').textContent()).toContain('<script>window.__pwned = 1</script>');
    expect(await page.locator('#text').textContent()).toBe(`${RISKY} ${payload}`);
    expect(await page.locator('#evidence code').textContent()).toBe('javascript:window.__pwned=4');

    await page.getByLabel('Your name').fill('Eve');
    await page.getByLabel('Why (a note for the audit trail)').fill('<img src=x onerror="window.__pwned=5">');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect.poll(() => page.locator('#history .why').textContent()).toBe('<img src=x onerror="window.__pwned=5">');

    expect(await page.evaluate<unknown>('window.__pwned')).toBeUndefined();
    expect(await page.locator('img, script:not([nonce]), a, iframe, object, embed').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(1);
  });

  it('fits a 360 px window without sideways scrolling, and every field has a label', async () => {
    const long = `narrow-${'x'.repeat(120)}`;
    await classify(h, long, `${RISKY} ${'unbroken'.repeat(80)}`, `A title ${'without-any-break-'.repeat(10)}`);
    const page = await open({ width: 360, height: 740 });

    const fieldNames = async () => {
      const snapshot = await page.locator('main').ariaSnapshot();
      const visible = await page.locator('input:visible, textarea:visible').count();
      const named = [...snapshot.matchAll(/- textbox "([^"]+)"/g)].map((m) => m[1]);
      const unnamed = snapshot.split('\n').filter((l) => /- textbox(?! ")/.test(l));
      expect(unnamed).toEqual([]);
      expect(named).toHaveLength(visible);
      // And each one through <label for>, not only an aria attribute.
      expect(
        await page.evaluate<number>(
          'Array.from(document.querySelectorAll("input, textarea")).filter((e) => e.labels.length === 0).length',
        ),
      ).toBe(0);
      return named;
    };

    expect(await fieldNames()).toEqual(['Review token']);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);

    await signIn(page);
    await page.locator('#queue > li', { hasText: long }).getByRole('button').click();
    await expect.poll(() => page.locator('#detail-h').textContent()).toBe(`Hypothesis ${long}`);
    expect(await fieldNames()).toEqual(['Hypothesis id', 'Your name', 'Why (a note for the audit trail)']);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
    for (const name of ['Release', 'Confirm', 'Sign out', 'Refresh queue', 'Show']) {
      const box = await page.getByRole('button', { name, exact: true }).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(360);
    }
  });
});
