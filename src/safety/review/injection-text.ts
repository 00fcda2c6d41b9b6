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

/** Where the span is, in words: which text, at which offsets of how many, and what gave the score. */
export function spanText(
  source: InjectionSource,
  span: { kind: string; start: number; end: number; sourceLength: number; utf7?: true | undefined },
): string {
  const what =
    span.kind === 'instruction_text'
      ? "the words the detector's model read as an instruction"
      : `a near-certain signal (${span.kind})`;
  const reading = span.utf7 ? ', read as UTF-7' : '';
  return (
    `What gave the score: ${what}, ${WHERE[source]}${reading}, ` +
    `at offsets ${span.start} to ${span.end} of its ${span.sourceLength} characters as extracted. ` +
    'Shown neutralised, with a little of the text around it.'
  );
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
