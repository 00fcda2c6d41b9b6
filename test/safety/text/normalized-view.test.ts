import { describe, expect, it } from 'vitest';
import { buildView, foldCodePoint } from '../../../src/safety/text/normalized-view.js';
import { MAY_OPEN_CLASS } from '../../../src/safety/quoting/tags.js';

describe('normalised view', () => {
  it('lists every code point that reads as an opening bracket among the quick-check characters', () => {
    // The quick check skips texts with none of these; a missing one would be a bypass.
    const mayOpen = new RegExp(MAY_OPEN_CLASS, 'u');
    const missing: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (foldCodePoint(cp).includes('<') && !mayOpen.test(String.fromCodePoint(cp))) {
        missing.push(`U+${cp.toString(16).toUpperCase()}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('maps every unit of the view back to the original', () => {
    const input = 'a&amp;lt;\u200bB\u{1D414}ﬃ';
    const view = buildView(input);
    expect(view.text).toBe('A<BUFFI');
    expect(input.slice(view.start[1]!, view.end[1]!)).toBe('&amp;lt;');
    expect(input.slice(view.start[3]!, view.end[3]!)).toBe('\u{1D414}');
    expect(input.slice(view.start[4]!, view.end[6]!)).toBe('ﬃ');
  });

  it('folds confusable letters, brackets and marks', () => {
    expect(buildView('Тext «x» Ü ≮').text).toBe('TEXT <X> U <');
  });
});
