/**
 * The review page's tools for a long queue, in a real browser (Debian's
 * Chromium, driven by playwright-core) against the real worker runtime,
 * Redis and BullMQ: the search and the orders by confidence, a decision on
 * a selection after a confirmation that lists what it releases, a claim
 * that another reviewer sees and must confirm to decide over, and
 * re-classifying the degraded verdicts once the model answers; with an
 * automated accessibility check of each. Writes the screenshots of these
 * in docs/images/.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildReviewService } from '../../src/runtime/builders.js';
import type { ReviewService } from '../../src/review/review-service.js';
import { markerHandler, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js';
import { axe, chromiumMissing, launchChromium, pageTracker, WIDE } from '../support/browser.js';
import { testConfig } from '../support/config.js';
import { startHarness, type Harness } from '../support/pipeline.js';
import { baseUrl, REVIEW_TOKEN } from '../support/review-http.js';
import { heldSpecs, holdAll, queueHandler, type HeldSpec } from '../support/review-queue.js';

const missing = chromiumMissing;
if (missing) console.warn(`skipping the review queue tools browser tests: ${missing}`);

const IMAGES = fileURLToPath(new URL('../../docs/images/', import.meta.url));
/** expect.poll with room for a loaded machine. */
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000, interval: 50 });

describe.skipIf(missing !== undefined)('the review queue tools in Chromium', () => {
  let fake: FakeAnthropic;
  let h: Harness;
  let base: string;
  let review: ReviewService;
  let browser: Browser;
  let specs: HeldSpec[];
  const opened = pageTracker(() => browser);

  beforeAll(async () => {
    fake = await startFakeAnthropic(queueHandler);
    h = await startHarness(testConfig(fake.url, { review: { api_token: REVIEW_TOKEN } }));
    base = baseUrl(h);
    review = buildReviewService(h.config, h.redis);
    specs = heldSpecs(40, 't');
    await holdAll(h, specs);
    mkdirSync(IMAGES, { recursive: true });
    browser = await launchChromium();
  }, 120_000);
  afterEach(async () => {
    expect(await opened.closeAll()).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
    await fake?.close();
  });

  async function open(options: { bypassCSP?: boolean } = {}): Promise<Page> {
    const page = await opened.newPage({ viewport: WIDE, ...options });
    expect((await page.goto(`${base}/review/`))?.status()).toBe(200);
    await page.getByLabel('Review token').fill(REVIEW_TOKEN);
    await page.getByLabel('Review token').press('Enter');
    await poll(() => page.locator('#status').textContent()).toContain('Signed in.');
    return page;
  }

  const rows = (page: Page) => page.locator('#queue-rows > tr');
  const row = (page: Page, id: string) => page.locator(`#queue-rows > tr[data-id="${id}"]`);
  const rowIds = (page: Page) =>
    page
      .locator('#queue-rows > tr')
      .evaluateAll((trs) => trs.map((tr) => (tr as unknown as { dataset: { id?: string } }).dataset.id));

  it('searches the id, title and text, and orders by confidence', async () => {
    const page = await open({ bypassCSP: true });
    await poll(() => rows(page).count()).toBe(40);
    const word = 'ferrets';
    const expected = specs.filter((s) => `${s.title ?? ''} ${s.text}`.toLowerCase().includes(word)).map((s) => s.id);
    await page.getByLabel('Search id, title, text').fill('FERRETS');
    await poll(async () => (await rowIds(page)).sort()).toEqual(expected.sort());
    expect(await page.locator('#queue-summary').textContent()).toContain(
      `Showing ${expected.length} of ${expected.length} matching`,
    );
    const items = await review.queue({ filter: { text: word }, order: 'least_confident', limit: 100 });
    const leastFirst = items.items.map((i) => i.hypothesisId);
    expect(leastFirst).not.toEqual([...leastFirst].sort());
    await page.locator('#f-order').selectOption('least_confident');
    // The rows come in the new order once the page has read it.
    await poll(() => rowIds(page)).toEqual(leastFirst);
    // Re-classify is on every degraded verdict, whatever the search shows: its number is the whole queue's.
    await poll(() => page.locator('#reclassify').textContent()).toBe(
      `Re-classify ${specs.filter((s) => s.degraded).length} degraded…`,
    );
    await page.screenshot({ path: `${IMAGES}review-search.png` });
    expect(await axe(page)).toEqual([]);
    // An id finds its item.
    await page.getByLabel('Search id, title, text').fill('t-017');
    await poll(() => rowIds(page)).toEqual(['t-017']);
  });

  it('releases a selection after a confirmation that lists each item it releases', async () => {
    // Another reviewer is on one of them: the question says so, and answering it decides over the claim.
    await review.claim('t-001', { by: 'Dr Other' });
    const page = await open({ bypassCSP: true });
    await poll(() => rows(page).count()).toBeGreaterThan(30);
    const chosen = ['t-000', 't-001', 't-002'];
    for (const id of chosen) await row(page, id).locator('input.pick').check();
    await poll(() => page.locator('#bulk-count').textContent()).toBe('3 selected:');
    await page.getByRole('button', { name: 'Release selected…' }).click();
    const dialog = page.locator('#bulk-dialog');
    await poll(() => dialog.isVisible()).toBe(true);
    expect(await page.locator('#bulk-h').textContent()).toBe('Release 3 hypotheses to readers?');
    const listed = await page.locator('#bulk-list > li').allTextContents();
    expect(listed).toHaveLength(3);
    chosen.forEach((id, i) => {
      expect(listed[i]).toContain(id);
      expect(listed[i]).toContain('revision 1');
    });
    expect(listed[1]).toContain('on it: Dr Other');
    expect(listed[0]).not.toContain('on it');
    expect(await page.locator('#bulk-claims').textContent()).toBe(
      '1 of these is claimed by another reviewer (marked below): deciding decides over the claim.',
    );
    await page.getByLabel('Decided by').fill('Dr Ada');
    await page.getByLabel('Note for each audit entry').fill('controls, checked with the lab');
    await page.screenshot({ path: `${IMAGES}review-bulk.png` });
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Release 3 to readers' }).click();
    await poll(() => page.locator('#status').textContent()).toBe('Released 3 of 3.');
    for (const id of chosen) {
      expect(await row(page, id).getAttribute('class')).toContain('decided');
      const item = await review.show(id);
      expect(item.state).toBe('released');
      expect(item.history.map((e) => [e.by, e.note])).toEqual([['Dr Ada', 'controls, checked with the lab']]);
    }
    expect(await page.locator('#bulk').isVisible()).toBe(false);
  });

  it('shows a claim to another reviewer, who must confirm to decide over it', async () => {
    const mine = await open();
    await row(mine, 't-004').locator('.open').click();
    await poll(() => mine.locator('#detail-h').textContent()).not.toBe('Hypothesis');
    await mine.getByLabel('Your name').fill('Dr Rao');
    await mine.getByRole('button', { name: 'Claim', exact: true }).click();
    await poll(() => mine.locator('#claim-line').textContent()).toContain('You are on it');

    const theirs = await open({ bypassCSP: true });
    await poll(() => row(theirs, 't-004').locator('.claimed').textContent()).toBe('on it: Dr Rao');
    await row(theirs, 't-004').locator('.open').click();
    await poll(() => theirs.locator('#claim-line').textContent()).toContain('On it: Dr Rao');
    await theirs.getByLabel('Your name').fill('Dr Lee');
    await theirs.getByLabel('Why (a note for the audit trail)').fill('seen it');
    await theirs.getByRole('button', { name: 'Confirm', exact: true }).click();
    const dialog = theirs.locator('#claimed-dialog');
    await poll(() => dialog.isVisible()).toBe(true);
    expect(await theirs.locator('#claimed-what').textContent()).toContain('Dr Rao is on t-004 until');
    expect((await review.show('t-004')).state).toBe('quarantined');
    await theirs.screenshot({ path: `${IMAGES}review-claimed.png` });
    expect(await axe(theirs)).toEqual([]);
    await theirs.getByRole('button', { name: 'Confirm anyway' }).click();
    await poll(async () => (await review.show('t-004')).state).toBe('confirmed');
    expect((await review.show('t-004')).history.map((e) => e.by)).toEqual(['Dr Lee']);
  });

  it('re-classifies the degraded verdicts once the model answers, in one action', async () => {
    const degraded = specs.filter((s) => s.degraded).map((s) => s.id);
    expect(degraded.length).toBeGreaterThan(3);
    fake.setHandler(markerHandler);
    const page = await open({ bypassCSP: true });
    const button = page.locator('#reclassify');
    await poll(() => button.textContent()).toBe(`Re-classify ${degraded.length} degraded…`);
    await button.click();
    await poll(() => page.locator('#reclassify-dialog').isVisible()).toBe(true);
    await page.getByLabel('Asked by (for each audit entry)').fill('Dr Rao');
    await page.screenshot({ path: `${IMAGES}review-reclassify.png` });
    expect(await axe(page)).toEqual([]);
    await page.getByRole('button', { name: 'Re-classify', exact: true }).click();
    // The marker-reading model finds nothing of concern in them: each is allowed and leaves the queue.
    await poll(() => page.locator('#status').textContent()).toBe(
      `Re-classified: ${degraded.length} reassessed (${degraded.length} left the queue), 0 still degraded, 0 skipped.`,
    );
    await poll(() => button.isVisible()).toBe(false);
    for (const id of degraded) {
      expect(await row(page, id).count()).toBe(0);
      const item = await review.show(id);
      expect(item).toMatchObject({ state: 'assessed', verdict: { degraded: false } });
      expect(item.history.map((e) => [e.type, e.by])).toEqual([['hypothesis_reassessed', 'Dr Rao']]);
    }
  });
});
