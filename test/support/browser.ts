/** Debian's Chromium driven by playwright-core, for the review page's browser tests, and axe-core's check. */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
/** Why the browser tests are skipped here, if they are. */
export const chromiumMissing = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (.ci/run installs it)`;

/** launch() gives the browser a fresh profile in a temporary directory of its own, removed on close. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
      '--font-render-hinting=none',
    ],
  });
}

let axeSource: string | undefined;

/** The serious and critical violations axe-core finds on the page (its CSP must be bypassed for the script). */
export async function axe(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }>(
    'axe.run(document, { resultTypes: ["violations"] })',
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id} (${v.nodes.length})`);
}

/** The wide window the screenshots are taken in. */
export const WIDE = { width: 1280, height: 800 };

/**
 * The pages a test file opens, each in a context of its own, and what went
 * wrong on them: `closeAll` (after each test) closes them and hands back the
 * problems, which a test expects to be none.
 */
export function pageTracker(browser: () => Browser) {
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];
  return {
    async newPage(options: BrowserContextOptions): Promise<Page> {
      const context = await browser().newContext(options);
      contexts.push(context);
      const page = await context.newPage();
      watchProblems(page, problems);
      return page;
    },
    async closeAll(): Promise<string[]> {
      await Promise.all(contexts.splice(0).map((c) => c.close()));
      return problems.splice(0);
    },
  };
}

/** Collects a page's uncaught errors and console errors (a CSP violation is one) into `problems`. */
export function watchProblems(page: Page, problems: string[]): void {
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
}
