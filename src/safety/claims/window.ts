/**
 * The passage a claim is judged against: the excerpt with the page text
 * around it, up to a bound. The excerpt alone can leave out what qualifies
 * it (the sentence before says "in mice", the one after "not significant");
 * the whole page costs a long prompt for every citation and buries the
 * passage. The bound is `citations.claim_support_window_chars`.
 */
import { codePointBoundary } from '../text/code-points.js';

export interface EvidenceWindow {
  /** Offsets of the passage in the page text. */
  start: number;
  end: number;
  text: string;
}

/** How far inward an edge may move to fall between words rather than inside one. */
const WORD_SLACK = 40;

/**
 * The window of at most `maxChars` characters around `[start, end)`, the
 * context shared evenly before and after (what one side cannot use, the
 * other gets), its edges moved inward to white space when some is near, so
 * that no word is cut. An excerpt longer than the bound is the window on its
 * own, cut at the bound: the judge reads what the bound allows, never more.
 */
export function evidenceWindow(text: string, start: number, end: number, maxChars: number): EvidenceWindow {
  const from0 = Math.max(0, Math.min(start, text.length));
  const to0 = Math.max(from0, Math.min(end, text.length));
  if (text.length <= maxChars) return { start: 0, end: text.length, text };
  const length = to0 - from0;
  if (length >= maxChars) {
    const cut = codePointBoundary(text, from0 + maxChars);
    return { start: from0, end: cut, text: text.slice(from0, cut) };
  }
  const spare = maxChars - length;
  let before = Math.floor(spare / 2);
  let after = spare - before;
  if (from0 - before < 0) {
    after += before - from0;
    before = from0;
  }
  if (to0 + after > text.length) {
    before = Math.min(from0, before + (to0 + after - text.length));
    after = text.length - to0;
  }
  let from = from0 - before;
  let to = to0 + after;
  if (from > 0 && !/\s/.test(text[from - 1]!)) {
    const gap = text.slice(from, Math.min(from0, from + WORD_SLACK)).search(/\s/);
    if (gap >= 0) from += gap + 1;
  }
  if (to < text.length && !/\s/.test(text[to]!)) {
    const lead = text.slice(Math.max(to0, to - WORD_SLACK), to);
    const gap = lead.search(/\s\S*$/);
    if (gap >= 0) to = Math.max(to0, to - WORD_SLACK) + gap;
  }
  from = codePointBoundary(text, from);
  to = codePointBoundary(text, to);
  return { start: from, end: to, text: text.slice(from, to) };
}
