/**
 * A linear-time guard against pages that would make the HTML parse quadratic.
 *
 * htmlparser2 keeps its stack of open elements with `Array.unshift`, which
 * moves the whole stack for every element opened, and finds the element an end
 * tag closes with `indexOf` over that stack. A page of N nested elements so
 * costs N²/2 moves: a megabyte of nested `<div>`s holds the parser for minutes.
 * Browsers cap the nesting (Blink at 512 levels); htmlparser2 does not.
 *
 * This scan replays the stack in amortised constant time per tag and adds up
 * the work the parser would do; past a budget proportional to the page size,
 * the page is refused before it is parsed. The replay is approximate where it
 * can only err on the side of a smaller estimate: elements whose start tag the
 * parser closes implicitly (`<p>`, `<li>`, table cells, ...) are not stacked,
 * and tags inside comments and raw-text elements are skipped.
 */

/**
 * Tag names are compared by a hash of their lower-case letters, computed while
 * scanning, so that no string is allocated per tag (this scan runs on every
 * page). Two names with the same hash only blur the estimate.
 */
function hashName(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (Math.imul(h, 31) + (name.charCodeAt(i) | 0x20)) | 0;
  return h;
}

/** Elements that never hold content (the parser does not stack them). */
const VOID = new Set(
  [
    'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex',
    'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr',
  ].map(hashName),
); // prettier-ignore

/** Elements usually left open and closed by the next sibling start tag; not stacked here. */
const IMPLIED = new Set(
  [
    'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'option', 'optgroup', 'rt', 'rp',
  ].map(hashName),
); // prettier-ignore

/** Elements whose content is text up to their end tag. */
const RAW_TEXT = new Map<number, RegExp>([
  [hashName('script'), /<\/script/gi],
  [hashName('style'), /<\/style/gi],
  [hashName('textarea'), /<\/textarea/gi],
  [hashName('title'), /<\/title/gi],
  [hashName('xmp'), /<\/xmp/gi],
]);

function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** The parser's work on the open-element stack for `html`, in element moves and comparisons. */
export function nestingWork(html: string): number {
  const stack: number[] = [];
  const open = new Map<number, number>();
  let work = 0;
  let at = html.indexOf('<');
  while (at >= 0) {
    let next = at + 1;
    let c = html.charCodeAt(next);
    if (c === 0x21 && html.startsWith('!--', next)) {
      const end = html.indexOf('-->', next + 3);
      if (end < 0) break;
      at = html.indexOf('<', end + 3);
      continue;
    }
    const closing = c === 0x2f;
    if (closing) c = html.charCodeAt(++next);
    if (!isNameStart(c)) {
      at = html.indexOf('<', next);
      continue;
    }
    // The name runs to whitespace, '/', '>' or the end of the text (NaN).
    let name = 0;
    let stop = next;
    while (c > 0x20 && c !== 0x2f && c !== 0x3e) {
      name = (Math.imul(name, 31) + (c | 0x20)) | 0;
      c = html.charCodeAt(++stop);
    }
    at = html.indexOf('<', stop);
    if (VOID.has(name)) continue;
    const count = open.get(name) ?? 0;
    if (!closing) {
      open.set(name, count + 1);
      if (!IMPLIED.has(name)) {
        work += stack.length; // the unshift
        stack.push(name);
      }
      const raw = RAW_TEXT.get(name);
      if (raw !== undefined) {
        raw.lastIndex = stop;
        const end = raw.exec(html);
        if (end === null) break;
        at = end.index;
      }
    } else if (count === 0) {
      work += stack.length; // an indexOf that finds nothing
    } else if (IMPLIED.has(name)) {
      open.set(name, count - 1);
    } else {
      // Close everything above the element, as the parser does.
      for (;;) {
        const top = stack.pop()!;
        work++;
        open.set(top, open.get(top)! - 1);
        if (top === name) break;
      }
    }
  }
  return work;
}

/**
 * Work allowed per character of HTML, plus a fixed allowance (about 8 000
 * nested elements) for small, deep pages. Real pages stay orders of magnitude
 * below: they nest a few dozen levels and close what they open.
 */
const WORK_PER_CHAR = 16;
const BASE_WORK = 32_000_000;

/** Whether parsing `html` would cost more than a page of its size should. */
export function tooDeeplyNested(html: string): boolean {
  return nestingWork(html) > BASE_WORK + WORK_PER_CHAR * html.length;
}
