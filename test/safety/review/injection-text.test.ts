import { describe, expect, it } from 'vitest';
import { INJECTION_SOURCES } from '../../../src/safety/citations/injection-sources.js';
import { injectionText, spanText } from '../../../src/safety/review/injection-text.js';

describe('the review page line of a citation suspected of injection', () => {
  it('gives the score, the threshold, where, and the signal kinds', () => {
    expect(injectionText({ score: 0.9983, threshold: 0.7, source: 'page', kinds: ['override', 'forced_reply'] })).toBe(
      'the cited document may carry instructions for an AI reader in the text of the page: score 0.99, ' +
        'threshold 0.70 (signals: override, forced_reply). Its status above is the excerpt check alone; ' +
        'an agent that read this page may have been steered by it.',
    );
  });

  it('words every source differently, and leaves out an empty list of kinds', () => {
    const lines = INJECTION_SOURCES.map((source) => injectionText({ score: 0.8, threshold: 0.7, source, kinds: [] }));
    expect(new Set(lines).size).toBe(INJECTION_SOURCES.length);
    for (const line of lines) expect(line).not.toContain('signals:');
  });

  it('says where the span is: the text, the offsets of how many, and what gave the score', () => {
    const span = { kind: 'instruction_text', start: 3162, end: 3570, sourceLength: 6399 };
    expect(spanText('json_ld', span)).toBe(
      "What gave the score: the words the detector's model read as an instruction, in the page's JSON-LD, " +
        'at offsets 3162 to 3570 of its 6399 characters as extracted. Shown neutralised, with a little of the text around it.',
    );
    expect(spanText('page', { ...span, kind: 'override', utf7: true })).toMatch(
      /^What gave the score: a near-certain signal \(override\), in the text of the page, read as UTF-7, at offsets /,
    );
  });
});
