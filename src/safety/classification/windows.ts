/**
 * Windowing: the research system cut text at 8,000 characters, so a dangerous
 * passage after that point went unseen. Text is classified in windows that
 * overlap a little (a passage cut by an edge is whole in one of them), up to
 * a bound; merging takes the union of categories and the highest confidence.
 */
import { flaggedCategories, type Assessment } from './assessment.js';
import { codePointBoundary } from '../text/code-points.js';

export interface Windows {
  windows: string[];
  /** Windows the whole text needs; more than `windows.length` when the bound cut it. */
  needed: number;
}

export function splitWindows(text: string, size: number, overlap: number, maxWindows: number): Windows {
  if (text.length <= size) return { windows: [text], needed: 1 };
  const step = size - overlap;
  const needed = Math.ceil((text.length - overlap) / step);
  const windows: string[] = [];
  for (let i = 0; i < Math.min(needed, maxWindows); i++) {
    const from = codePointBoundary(text, i * step);
    const to = codePointBoundary(text, Math.min(text.length, i * step + size));
    windows.push(text.slice(from, to));
  }
  return { windows, needed };
}

/**
 * Union of flagged categories (or `none`), highest confidence, rationales
 * joined with their number: the windows of a text, or the calls of one answer
 * (`part`), whose most severe reading is the one that counts.
 */
export function mergeAssessments(assessments: Assessment[], part: 'window' | 'call' = 'window'): Assessment {
  if (assessments.length === 1) return assessments[0]!;
  const flagged = [...new Set(assessments.flatMap((a) => flaggedCategories(a)))];
  const confidence = Math.max(...assessments.map((a) => a.confidence));
  const rationale = assessments
    .map((a, i) => ({ a, i }))
    .filter(({ a }) => flagged.length === 0 || flaggedCategories(a).length > 0)
    .map(({ a, i }) => `[${part} ${i + 1}] ${a.rationale}`)
    .join('\n')
    .slice(0, 4000);
  return { categories: flagged.length > 0 ? (flagged as Assessment['categories']) : ['none'], confidence, rationale };
}
