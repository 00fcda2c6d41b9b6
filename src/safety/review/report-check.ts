/**
 * The final-report check, as pure logic: which sections a reader may see,
 * given the review state of the hypothesis each presents, and what the
 * report's outcome is once the redacted text has its own verdict.
 */
import type { Action } from '../classification/verdict.js';
import { isWithheld, REVIEW_STATES } from './decision.js';

export const REPORT_CHECK_MODES = ['redact', 'block', 'off'] as const;
export type ReportCheckMode = (typeof REPORT_CHECK_MODES)[number];

/** A hypothesis with no verdict yet: not known to be safe, so withheld like a held one. */
export const SECTION_STATES = [...REVIEW_STATES, 'unassessed'] as const;
export type SectionState = (typeof SECTION_STATES)[number];

export interface SectionInput {
  text: string;
  hypothesisId?: string | undefined;
}

export interface Redaction {
  index: number;
  hypothesisId: string;
  state: SectionState;
}

/** The notice that replaces a withheld section: visible, and naming the hypothesis. */
export function redactionNotice(hypothesisId: string, state: SectionState): string {
  const why =
    state === 'unassessed'
      ? 'has not been assessed by the safety classifier'
      : state === 'conflict'
        ? 'was published again with other text under a revision already judged'
        : `is ${state}`;
  return `[Redacted: this section presents hypothesis ${hypothesisId}, which ${why}; it is withheld until a person releases it.]`;
}

export function isSectionWithheld(state: SectionState): boolean {
  return state === 'unassessed' || isWithheld(state);
}

/** Joins sections the way the report is read and classified. */
export function joinSections(texts: readonly string[]): string {
  return texts.join('\n\n');
}

export interface Redacted {
  sections: string[];
  redactions: Redaction[];
}

/** Replaces each section whose hypothesis is withheld by a notice. */
export function redactSections(sections: readonly SectionInput[], states: ReadonlyMap<string, SectionState>): Redacted {
  const redactions: Redaction[] = [];
  const out = sections.map((section, index) => {
    if (section.hypothesisId === undefined) return section.text;
    const state = states.get(section.hypothesisId) ?? 'unassessed';
    if (!isSectionWithheld(state)) return section.text;
    redactions.push({ index, hypothesisId: section.hypothesisId, state });
    return redactionNotice(section.hypothesisId, state);
  });
  return { sections: out, redactions };
}

/**
 * What a report's result holds instead of its text when the report's own
 * verdict holds it (quarantine or block). Nobody may publish that text and
 * no person reviews a report, so it is kept nowhere: not in the result, the
 * job's return value, nor BullMQ's event stream, which carries return values.
 */
export function withheldReportText(verdict: {
  action: Action;
  categories: readonly string[];
  degraded: boolean;
  reason?: string | undefined;
}): string {
  const why = verdict.degraded
    ? `could not be cleanly classified (${verdict.reason ?? 'degraded'}) and is held`
    : `was judged ${verdict.categories.join(', ') || 'unsafe'} by the safety classifier (${verdict.action})`;
  return `[Withheld: this report ${why}; its text is not kept. Revise it and finalize a new revision.]`;
}

/**
 * The outcome. In block mode any withheld section blocks the report. In
 * either mode the report's own verdict blocks it when it would hold a
 * hypothesis (quarantine or block): a report has no person waiting to
 * release it, so a held verdict keeps it from publication.
 */
export function reportOutcome(
  mode: Exclude<ReportCheckMode, 'off'>,
  redactions: readonly Redaction[],
  action: Action,
): { outcome: 'cleared' | 'redacted' | 'blocked'; blockedBy?: 'held_hypotheses' | 'report_verdict' } {
  if (mode === 'block' && redactions.length > 0) return { outcome: 'blocked', blockedBy: 'held_hypotheses' };
  if (action === 'quarantine' || action === 'block') return { outcome: 'blocked', blockedBy: 'report_verdict' };
  return { outcome: redactions.length > 0 ? 'redacted' : 'cleared' };
}
