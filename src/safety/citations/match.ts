/**
 * Is a quoted excerpt on the page? Deterministic and exact after normalisation:
 * no model, no edit distance. An excerpt with one word or one number changed is
 * a different excerpt and is not found.
 *
 * The whole excerpt is checked. The earlier rule checked only its first 200
 * characters, which let a real opening carry a fabricated tail; `prefixChars`
 * restores that rule for callers that need the old behaviour.
 */
import { CitationTextError } from './errors.js';
import { normalizeForMatch } from './normalize.js';

export type MatchReason = 'excerpt_not_found' | 'excerpt_empty';

export type MatchResult = { found: true } | { found: false; reason: MatchReason };

export interface MatchOptions {
  /**
   * Check only the first N characters (UTF-16 units) of the normalised excerpt,
   * as the earlier verifier did with N = 200. A positive integer.
   * @defaultValue undefined: the whole excerpt is checked
   */
  prefixChars?: number;
}

/**
 * An elision in the normalised excerpt: `...` (NFKC has turned `…` into it),
 * `[...]` or `(...)`, with the space around it. Each repetition is bounded by
 * the next character, so the pattern is linear.
 */
const ELLIPSIS = / ?(?:\[ ?\.{3,} ?\]|\( ?\.{3,} ?\)|\.{3,}) ?/g;

/** A non-empty run of the normalised excerpt between elisions. */
interface Part {
  text: string;
  /** True when `prefixChars` cut this part short. */
  cut: boolean;
}

/** The runs of `text` between elisions, as [start, end) ranges, without the empty ones. */
function splitAtElisions(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let last = 0;
  for (const m of text.matchAll(ELLIPSIS)) {
    if (m.index > last) ranges.push([last, m.index]);
    last = m.index + m[0].length;
  }
  if (last < text.length) ranges.push([last, text.length]);
  return ranges;
}

/**
 * The parts to look up. With `prefixChars`, only the first N characters count,
 * starting at the first quoted character (an opening `...` is not quoted text);
 * the cut never falls between the two halves of a surrogate pair.
 */
function partsToCheck(text: string, prefixChars: number | undefined): Part[] {
  const ranges = splitAtElisions(text);
  if (prefixChars === undefined || ranges.length === 0) {
    return ranges.map(([a, b]) => ({ text: text.slice(a, b).trim(), cut: false })).filter((p) => p.text !== '');
  }
  let limit = ranges[0]![0] + prefixChars;
  const high = text.charCodeAt(limit - 1);
  if (limit < text.length && high >= 0xd800 && high <= 0xdbff) limit--;
  const parts: Part[] = [];
  for (const [a, b] of ranges) {
    if (a >= limit) break;
    const part = text.slice(a, Math.min(b, limit)).trim();
    if (part !== '') parts.push({ text: part, cut: b > limit });
  }
  return parts;
}

/**
 * Letters, digits and marks of scripts that put spaces between words. In Chinese,
 * Japanese, Thai and the like a word boundary is not visible in the text, so no
 * boundary is required there.
 */
const WORD_CHAR =
  /^(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\p{sc=Tibetan}])[\p{L}\p{N}\p{M}]$/u;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isWordCode(code: number): boolean {
  if (code < 0x80) return isDigit(code) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
  return WORD_CHAR.test(String.fromCodePoint(code));
}

/** The code point that ends just before `index`, or -1 at the start. */
function codePointBefore(text: string, index: number): number {
  if (index <= 0) return -1;
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) return text.codePointAt(index - 2)!;
  return low;
}

function isDecimalMark(code: number): boolean {
  return code === 0x2e || code === 0x2c;
}

function isSign(code: number): boolean {
  return code === 0x2d || code === 0x2b;
}

/**
 * Whether an occurrence of `part` at `at` stands on its own in the page. Plain
 * substring search would accept `safe for children` inside `unsafe for
 * children` and `10 patients` inside `110 patients`; so a part may not begin
 * inside a word, and a number at either end may not be the cut-off piece of a
 * longer one or of a range (`5 mg` in `2.5 mg` or `-5 mg` or `3-5 mg`, `dose
 * of 2` in `dose of 25` or `dose of 2-4`). The end of a part may stop inside a
 * word (a quote cut at a fixed length does that), but not inside a number.
 * `openEnd` lifts the end rule where the excerpt was cut by `prefixChars`.
 */
function standsAlone(page: string, part: string, at: number, openEnd: boolean): boolean {
  const first = part.codePointAt(0)!;
  if (isWordCode(first)) {
    const before = codePointBefore(page, at);
    if (before >= 0 && isWordCode(before)) return false;
    if (isDigit(first) && isSign(before)) return false;
    if (isDigit(first) && isDecimalMark(before) && isDigit(codePointBefore(page, at - 1))) return false;
  }
  if (openEnd) return true;
  const end = at + part.length;
  const last = part.charCodeAt(part.length - 1);
  const lastDigit =
    isDigit(last) || (isDecimalMark(last) && part.length > 1 && isDigit(part.charCodeAt(part.length - 2)));
  if (!lastDigit) return true;
  const after = page.charCodeAt(end);
  if (isDigit(after)) return false;
  if (isDigit(last) && (isDecimalMark(after) || after === 0x2d) && isDigit(page.charCodeAt(end + 1))) return false;
  return true;
}

/** The first place at or after `from` where `part` stands alone, or -1. */
function findPart(page: string, part: string, from: number, openEnd: boolean): number {
  let at = page.indexOf(part, from);
  while (at >= 0 && !standsAlone(page, part, at, openEnd)) at = page.indexOf(part, at + 1);
  return at;
}

/**
 * Looks an excerpt up in a page. `normalizedPage` must be the output of
 * {@link normalizeForMatch} (normalise a page once, then check each excerpt that
 * cites it); the excerpt is normalised here.
 *
 * An excerpt with elisions (`...`, `…`, `[…]`, `[...]`, `(...)`) is found when
 * its parts appear in the page in order, each after the end of the one before.
 */
export function matchExcerpt(normalizedPage: string, excerpt: string, options: MatchOptions = {}): MatchResult {
  const { prefixChars } = options;
  if (prefixChars !== undefined && !(Number.isSafeInteger(prefixChars) && prefixChars > 0)) {
    throw new CitationTextError('BAD_OPTION', `prefixChars must be a positive integer, got ${String(prefixChars)}`);
  }
  const parts = partsToCheck(normalizeForMatch(excerpt), prefixChars);
  if (parts.length === 0) return { found: false, reason: 'excerpt_empty' };
  let from = 0;
  for (const part of parts) {
    const at = findPart(normalizedPage, part.text, from, part.cut);
    if (at < 0) return { found: false, reason: 'excerpt_not_found' };
    from = at + part.text.length;
  }
  return { found: true };
}
