/**
 * The tag matcher keeps where runs of separators end once it meets a comment,
 * so that nested comments and tags cost linear time. This holds it to a plain
 * reading of the definition in tags.ts, which keeps nothing and is slow on
 * such input, over views full of brackets, comments, separators and letters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TAG_NAMES, tagsInView } from '../../../src/safety/quoting/tags.js';

const SPELLINGS = TAG_NAMES.map((name) => name.replace(/_/g, ''));

function isSeparator(unit: string): boolean {
  return !/[A-Za-z0-9<>]/.test(unit) && !/[\p{L}\p{N}]/u.test(unit);
}

/** The end of the comment at `p`, or `p` when none (with an end) starts there. */
function comment(view: string, p: number): number {
  if (view.startsWith('<!--', p)) {
    const e = view.indexOf('-->', p + 4);
    return e === -1 ? p : e + 3;
  }
  if (view.startsWith('/*', p)) {
    const e = view.indexOf('*/', p + 2);
    return e === -1 ? p : e + 2;
  }
  return p;
}

function run(view: string, p: number, head: boolean): number {
  for (;;) {
    if (p >= view.length) return p;
    const e = comment(view, p);
    if (e > p) {
      p = e;
      continue;
    }
    const unit = view[p]!;
    if (head ? /[\s/\\!?]/.test(unit) : isSeparator(unit)) p++;
    else return p;
  }
}

function gap(view: string, p: number): number {
  let foreign = 0;
  for (;;) {
    p = run(view, p, false);
    if (p < view.length && /[\p{L}\p{N}]/u.test(view[p]!) && !/[A-Za-z0-9]/.test(view[p]!) && foreign < 3) {
      foreign++;
      p++;
    } else return p;
  }
}

function name(view: string, p: number, spelling: string): number {
  for (let k = 0; k < spelling.length; k++) {
    if (k > 0) p = gap(view, p);
    if (view[p] !== spelling[k]) return -1;
    p++;
  }
  return p < view.length && /[A-Za-z0-9]/.test(view[p]!) ? -1 : p;
}

function referenceTags(view: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  let v = view.indexOf('<');
  while (v !== -1) {
    const p = run(view, v + 1, true);
    let end = -1;
    for (const spelling of SPELLINGS) {
      end = name(view, p, spelling);
      if (end !== -1) break;
    }
    if (end === -1) {
      v = view.indexOf('<', v + 1);
      continue;
    }
    for (let k = 0; k <= 256 && end + k < view.length; k++) {
      const unit = view[end + k];
      if (unit === '<') break;
      if (unit === '>') {
        end += k + 1;
        break;
      }
    }
    found.push([v, end]);
    v = view.indexOf('<', end);
  }
  return found;
}

const unit = fc.constantFrom(
  '<',
  '>',
  '!',
  '-',
  '/',
  '*',
  ' ',
  '_',
  '\n',
  'T',
  'E',
  'X',
  'U',
  'N',
  'D',
  'H',
  'S',
  'A',
  '0',
  '中',
  '<!--',
  '-->',
  '/*',
  '*/',
  'TEXT',
  '</T',
  '<T<!--',
  'UNTRUSTED',
  'SOURCE',
  'HYPOTHESIS',
);

describe('the tag matcher', () => {
  it('finds what a plain reading of the definition finds', () => {
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 60 }), (parts) => {
        const view = parts.join('');
        expect(tagsInView(view)).toEqual(referenceTags(view));
      }),
      { numRuns: 30_000 },
    );
  });
});
