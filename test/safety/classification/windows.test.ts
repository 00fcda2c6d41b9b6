import { describe, expect, it } from 'vitest';
import { mergeAssessments, splitWindows } from '../../../src/safety/classification/index.js';

describe('windows', () => {
  it('keeps short text whole', () => {
    expect(splitWindows('abc', 8000, 400, 16)).toEqual({ windows: ['abc'], needed: 1 });
  });

  it('covers all of a long text with overlapping windows', () => {
    const text = Array.from({ length: 30000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const { windows, needed } = splitWindows(text, 8000, 400, 16);
    expect(needed).toBe(4);
    expect(windows).toHaveLength(4);
    expect(windows.every((w) => w.length <= 8000)).toBe(true);
    // Every character is in some window, and neighbours share the overlap.
    const step = 7600;
    windows.forEach((w, i) => expect(text.slice(i * step, i * step + w.length)).toBe(w));
    expect(3 * step + windows[3]!.length).toBe(text.length);
  });

  it('says when the bound cut the text', () => {
    const { windows, needed } = splitWindows('x'.repeat(100_000), 8000, 400, 4);
    expect(windows).toHaveLength(4);
    expect(needed).toBe(14);
  });

  it('covers 122,000 characters with the default sizes, as docs/contract.md says', () => {
    const covered = splitWindows('x'.repeat(122_000), 8000, 400, 16);
    expect(covered.windows).toHaveLength(16);
    expect(covered.needed).toBe(16);
    expect(splitWindows('x'.repeat(122_001), 8000, 400, 16).needed).toBe(17);
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(6000);
    for (const w of splitWindows(text, 1001, 100, 100).windows) expect(w.isWellFormed()).toBe(true);
  });

  it('merges by union of categories and highest confidence', () => {
    const merged = mergeAssessments([
      { categories: ['none'], confidence: 0.99, rationale: 'fine' },
      { categories: ['dual_use_bio'], confidence: 0.7, rationale: 'gain of function' },
      { categories: ['cbrn', 'dual_use_bio'], confidence: 0.4, rationale: 'agent' },
    ]);
    expect(merged.categories.sort()).toEqual(['cbrn', 'dual_use_bio']);
    expect(merged.confidence).toBe(0.99);
    expect(merged.rationale).toContain('[window 2] gain of function');
    expect(merged.rationale).not.toContain('fine');
    expect(
      mergeAssessments([
        { categories: ['none'], confidence: 0.8, rationale: 'a' },
        { categories: ['none'], confidence: 0.9, rationale: 'b' },
      ]).categories,
    ).toEqual(['none']);
  });
});
