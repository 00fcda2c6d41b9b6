/**
 * Cuts that keep whole characters: an index into a JavaScript string may
 * fall between the two halves of a surrogate pair, and a slice there leaves
 * a lone half that renders as a replacement character and breaks JSON.
 */

/** `at`, moved back one unit when it falls between the halves of a surrogate pair. */
export function codePointBoundary(text: string, at: number): number {
  const c = text.charCodeAt(at);
  const p = text.charCodeAt(at - 1);
  return at > 0 && at < text.length && c >= 0xdc00 && c <= 0xdfff && p >= 0xd800 && p <= 0xdbff ? at - 1 : at;
}
