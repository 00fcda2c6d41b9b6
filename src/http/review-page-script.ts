/**
 * The review page's script: TypeScript in src/http/review-page/ (checked
 * against the browser's types by its own tsconfig), bundled into one file
 * that the page carries inline under its nonce.
 *
 * `npm run build` bundles it into dist/http/review-page/client.js
 * (scripts/build-review-page.ts), and the built service reads that file
 * once, at the first page served: the runtime needs no bundler. Run from
 * the sources (the tests), there is no built file beside this module, and
 * the script is bundled on the spot with esbuild, a development dependency.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The bundler's options, shared by the build and the bundling from the sources. */
export const REVIEW_PAGE_BUILD = {
  entryPoints: [fileURLToPath(new URL('./review-page/client.ts', import.meta.url))] as string[],
  bundle: true,
  format: 'iife' as const,
  target: 'es2022',
  platform: 'browser' as const,
  // Kept readable: the page is a security boundary, and its script is small.
  minify: false,
  legalComments: 'none' as const,
  // Non-ASCII as escapes: the script is inline, and the page's charset should not matter to it.
  charset: 'ascii' as const,
};

const BUILT = new URL('./review-page/client.js', import.meta.url);

let script: string | undefined;

/** The script's text, read (or bundled) once. */
export function reviewPageScript(): string {
  script ??= check(existsSync(BUILT) ? readFileSync(BUILT, 'utf8') : bundleFromSources());
  return script;
}

function bundleFromSources(): string {
  const esbuild = createRequire(import.meta.url)('esbuild') as {
    buildSync(options: object): { outputFiles: Array<{ text: string }> };
  };
  return esbuild.buildSync({ ...REVIEW_PAGE_BUILD, write: false }).outputFiles[0]!.text;
}

/** The script goes inside a <script> element: a closing tag in it would end the element early. */
function check(text: string): string {
  if (/<\/script|<!--/i.test(text)) throw new Error('the review page script must not contain "</script" or "<!--"');
  return text;
}
