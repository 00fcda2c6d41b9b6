/**
 * A page's text as one digest, kept with a review's result so that a recheck
 * can tell whether the page changed (recheck.ts). The digest is of the text
 * as the excerpt is matched in it (normalised), not of the page's bytes: a
 * page whose scripts, ads or session tokens change at every load reads the
 * same, and one whose words change does not.
 */
import { hash } from 'node:crypto';

/**
 * The SHA-256 (64 hex digits) of a page's text as the excerpt is matched in
 * it: the visible text with its JSON-LD text, then, when the page has one, a
 * NUL and the text of its scripts' JSON. A change of either is a change of
 * what a citation may be found in.
 */
export function pageTextDigest(text: string, script?: string): string {
  return hash('sha256', script === undefined ? text : `${text}\u0000${script}`, 'hex');
}
