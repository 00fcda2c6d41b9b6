/** Bundles the review page's script into dist/http/review-page/client.js (part of `npm run build`). */
import { build } from 'esbuild';
import { REVIEW_PAGE_BUILD } from '../src/http/review-page-script.js';

const outfile = new URL('../dist/http/review-page/client.js', import.meta.url).pathname;
await build({ ...REVIEW_PAGE_BUILD, outfile });
console.log(`bundled the review page script into ${outfile}`);
