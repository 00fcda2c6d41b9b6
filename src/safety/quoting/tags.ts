/**
 * Our boundary tags, and their detection in any form a model may still read
 * as one of them.
 */
import { OPEN_BRACKET_CHARS } from './confusables.js';
import { buildView, decodeEscapeAt, escapeExtentAt, foldCodePoint, type NormalizedView } from './normalized-view.js';

/** Every tag name the quoting layer and the classifier use. Longest first. */
export const TAG_NAMES = [
  'UNTRUSTED_SOURCE_END',
  'UNTRUSTED_SOURCE',
  'HYPOTHESIS_TEXT_END',
  'HYPOTHESIS_TEXT',
  'TEXT',
] as const;
export type TagName = (typeof TAG_NAMES)[number];

/**
 * Between two letters of a name: up to three characters that are neither a
 * letter, a digit nor a bracket, so `UNTRUSTED SOURCE`, `UNTRUSTED-SOURCE`,
 * `U.N.T.R.U.S.T.E.D` and `UNTRUSTEDSOURCE` all read as the name.
 */
const GAP = '[^A-Z0-9<>]{0,3}';

function spelled(name: string): string {
  return [...name.replace(/_/g, '')].join(GAP);
}

/** What may follow the `<` of a tag before its name: whitespace, slashes (also the JSON-escaped `<\/`), `!` or `?`. */
const HEAD_GAP = /[\s/\\!?]*/y;

/**
 * In the view: an opening bracket, then any whitespace, slashes (also the
 * JSON-escaped `<\/`), `!` or `?`, then a name not followed by a letter or
 * digit. This is the definition of "reads as a tag of ours" used everywhere,
 * including the property tests.
 */
const TAG_HEAD = new RegExp(`<${HEAD_GAP.source}(?:${TAG_NAMES.map(spelled).join('|')})(?![A-Z0-9])`, 'g');

/** Attributes and the closing bracket, when one comes before the next opening bracket. */
const TAG_TAIL = /[^<>]{0,256}>/y;
/** Units the longest name may take in the view, with its gaps. */
const NAME_READ = Math.max(...TAG_NAMES.map((name) => name.replace(/_/g, '').length * 4 - 3));
/** Units after a name that the look-ahead and TAG_TAIL may read. */
const TAIL_READ = 258;

/**
 * Characters of the original text that can become `<` in the view: the
 * brackets and their lookalikes, and the first characters of the escapes the
 * view decodes. Text without any of them cannot hold a tag. (A test checks
 * every code point against the view.)
 */
// None of the bracket characters needs escaping inside a character class.
export const MAY_OPEN_CLASS = `[${OPEN_BRACKET_CHARS}&%\\\\]`;
const MAY_OPEN = new RegExp(MAY_OPEN_CLASS, 'u');
const OPEN_BRACKET_CODES = new Set([...OPEN_BRACKET_CHARS].map((ch) => ch.charCodeAt(0)));

export interface TagSpan {
  /** Start index in the original text. */
  start: number;
  /** End index (exclusive) in the original text. */
  end: number;
}

/**
 * Positions in the original where the view has a `<`: bracket characters and
 * their lookalikes, and escapes that decode to one.
 */
function openers(text: string): number[] {
  const found: number[] = [];
  // A charCodeAt scan: a global regex allocated a match per hit, and `&`, `%`
  // and `<` are common in ordinary text.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if (c === 0x3c) found.push(i);
      else if (c === 0x26 || c === 0x25 || c === 0x5c) {
        const decoded = decodeEscapeAt(text, i);
        if (decoded !== undefined && foldCodePoint(decoded[0]).includes('<')) found.push(i);
      }
    } else if (OPEN_BRACKET_CODES.has(c)) {
      found.push(i);
    }
  }
  return found;
}

/** Original characters read ahead of the last opener of a region before the view is built. */
const REGION = 512;
/**
 * View units needed after the last opener of a region: the longest tag head
 * (20 letters with gaps of up to 3) and tail (257) fit well within it. A
 * region with less is grown, so a long run of whitespace or invisible
 * characters inside a tag cannot push the tag out of sight.
 */
const MARGIN = 400;

/**
 * The index of the original from which the view of `text.slice(a, q)` may
 * read differently from the view of the whole text: the start of an escape
 * that the cut truncates, or a surrogate pair that it splits. Only the last
 * escape start before the cut can be truncated, since no escape holds an
 * escape start (`&`, `%`, `\\`) after its first character; and an escape
 * pattern that matches within the slice, or not at all, in the whole text
 * matches the same way in the slice.
 */
function trustedEnd(text: string, a: number, q: number): number {
  const last = text.charCodeAt(q - 1);
  const limit = last >= 0xd800 && last <= 0xdbff ? q - 1 : q;
  for (let p = q - 1; p >= a; p--) {
    const c = text.charCodeAt(p);
    if (c === 0x26 || c === 0x25 || c === 0x5c) return p + escapeExtentAt(text, p) > q ? p : limit;
  }
  return limit;
}

/**
 * Collects the tags in the view of one region into `spans`. Returns false,
 * collecting nothing, when the region cannot decide a tag that may start in
 * it: after some `<`, the run of spaces and slashes, the longest name and the
 * tail do not all fit in the part of the region that reads as the whole text
 * does. The caller then grows the region. So a region finds exactly the tags
 * that the view of the whole text holds, however long a run of whitespace
 * inside a tag is.
 */
function collectTags(view: NormalizedView, a: number, limit: number, whole: boolean, spans: TagSpan[]): boolean {
  const units = view.text.length;
  if (!whole) {
    for (let v = view.text.indexOf('<'); v !== -1; v = view.text.indexOf('<', v + 1)) {
      HEAD_GAP.lastIndex = v + 1;
      HEAD_GAP.test(view.text);
      const reach = HEAD_GAP.lastIndex + NAME_READ + TAIL_READ;
      if (reach >= units || a + view.start[reach]! >= limit) return false;
    }
  }
  TAG_HEAD.lastIndex = 0;
  for (let m = TAG_HEAD.exec(view.text); m !== null; m = TAG_HEAD.exec(view.text)) {
    let lastUnit = m.index + m[0].length - 1;
    TAG_TAIL.lastIndex = lastUnit + 1;
    const tail = TAG_TAIL.exec(view.text);
    if (tail) {
      lastUnit += tail[0].length;
      TAG_HEAD.lastIndex = lastUnit + 1;
    }
    spans.push({ start: a + view.start[m.index]!, end: a + view.end[lastUnit]! });
  }
  return true;
}

/**
 * Finds every tag of ours in `text`, as spans of the original text: each
 * match of TAG_HEAD in the view of the whole text. A tag with no closing
 * bracket (`</UNTRUSTED_SOURCE_END id="x"` and then a newline) spans its
 * bracket and name; that is what makes it read as a tag.
 *
 * The view is built only around the openers (a tag cannot start elsewhere),
 * in regions that never overlap, so the cost stays linear in the text.
 */
export function findTags(text: string): TagSpan[] {
  const spans: TagSpan[] = [];
  if (!MAY_OPEN.test(text)) return spans;
  const at = openers(text);
  const n = text.length;
  let i = 0;
  while (i < at.length) {
    const a = at[i]!;
    let j = i;
    let q = Math.min(n, a + REGION);
    for (;;) {
      while (j + 1 < at.length && at[j + 1]! < q) {
        j++;
        q = Math.max(q, Math.min(n, at[j]! + REGION));
      }
      const view = buildView(text.slice(a, q));
      if (q === n) {
        collectTags(view, a, n, true, spans);
        break;
      }
      let last = view.text.length - 1;
      while (last > 0 && view.start[last]! + a > at[j]!) last--;
      if (view.text.length - last >= MARGIN && collectTags(view, a, trustedEnd(text, a, q), false, spans)) break;
      q = Math.min(n, a + 2 * (q - a));
    }
    i = j + 1;
  }
  return spans;
}

/**
 * True when the view of a whole text holds a tag of ours: the same answer as
 * findTags on that text, without the map back. A test checks the two agree.
 */
export function viewHasTag(view: string): boolean {
  TAG_HEAD.lastIndex = 0;
  return TAG_HEAD.test(view);
}

/** True when `text` holds anything the normaliser reads as a tag of ours. */
export function containsTag(text: string): boolean {
  return findTags(text).length > 0;
}
