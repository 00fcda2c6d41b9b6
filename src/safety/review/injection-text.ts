/**
 * The review page's line about a cited document that reads as instructions
 * for an AI reader, in words. The codes (source, signal kinds) stay stable for
 * programs (docs/citations.md); these words are for people.
 *
 * The review page's script imports this module, so it imports nothing but
 * types: it must stay free of zod and of Node.
 */
import type { InjectionSource } from '../citations/injection-sources.js';

const WHERE: Record<InjectionSource, string> = {
  page: 'in the text of the page',
  json_ld: "in the page's JSON-LD",
  pdf: 'in the text of the PDF',
  script_json: "in the JSON of the page's scripts",
  markup: "in the page's markup (attributes, comments, hidden text)",
};

/** Two decimals, rounded down: a score just under 1 is not shown as 1. */
function floor2(x: number): string {
  return (Math.floor(x * 100) / 100).toFixed(2);
}

/** One sentence: what was found, where, how strongly; the snippet is shown apart, as untrusted text. */
export function injectionText(injection: {
  score: number;
  threshold: number;
  source: InjectionSource;
  kinds: readonly string[];
}): string {
  const kinds = injection.kinds.length === 0 ? '' : ` (signals: ${injection.kinds.join(', ')})`;
  return (
    `the cited document may carry instructions for an AI reader ${WHERE[injection.source]}: ` +
    `score ${floor2(injection.score)}, threshold ${injection.threshold.toFixed(2)}${kinds}. ` +
    'Its status above is the excerpt check alone; an agent that read this page may have been steered by it.'
  );
}
