/**
 * The injection detector: does a text carry instructions addressed to an AI
 * reader? Pure, deterministic and offline.
 *
 * It reads the normalised view of quoting (../quoting/normalized-view.ts),
 * so what Layer 1 already undoes (lookalike letters, invisible characters,
 * character references and escapes, Unicode tags) hides nothing here either.
 * One pass over the view (scan.ts) does two things:
 *
 * - the rules (rules.ts, lexicons.ts) find signals, each rule tried only at
 *   the words and characters where it can begin; phrases spelt out with
 *   spaces or separators between the letters are read too;
 * - a linear model (model.ts) scores windows of WINDOW_TOKENS words from
 *   their hashed word unigrams and bigrams and the signal kinds found in
 *   them.
 *
 * The score is the model's (its best window, less a penalty that grows with
 * the log of the number of windows, so a long page is not flagged for being
 * long), or the weight of the strongest signal when that reaches CERTAIN (an
 * override, a chat-template token, a tool call): those are suspected
 * whatever the words around them. Each signal's offsets refer to the
 * original text, and so does the span: the one part of the text that gave
 * the score, so that a reader is shown the attack rather than a whole page.
 */
import { buildView, scanText } from '../text/normalized-view.js';
import { type SignalKind } from './rules.js';
import { scanView, type ViewSignal } from './scan.js';

export { WINDOW_TOKENS } from './scan.js';
import { MODEL } from './model.js';

export { SIGNAL_KINDS, type SignalKind } from './rules.js';

/**
 * The default threshold. The model's bias is set in training so that this
 * threshold falls where cross-validated scores of the development corpus's
 * benign texts are at most 0.5% above it (2% for web pages);
 * docs/quoting.md and docs/benchmarks.md give the figures.
 */
export const DEFAULT_INJECTION_THRESHOLD = 0.7;

/** A signal this strong alone (an override, a chat-template token, a tool call) makes the text suspected whatever the model says. */
export const CERTAIN = 0.85;

export interface InjectionSignal {
  kind: SignalKind;
  /** Index in the original text where the span starts. */
  start: number;
  /** Index in the original text just after the span. */
  end: number;
  /** What this span alone gives the score. */
  weight: number;
}

/**
 * The part of the text that gave the score: the model's best window
 * (`instruction_text`) when the model's reading of the words gave it, else
 * the strongest near-certain signal (its own kind). Offsets into the original
 * text in UTF-16 code units, as a JavaScript string is indexed. Not bounded:
 * a long region is covered whole, and whoever shows it cuts what it shows.
 */
export interface InjectionSpan {
  /** What gave the score: `instruction_text` for the model's window, else the signal's kind. */
  kind: SignalKind;
  /** Index in the original text where the span starts. */
  start: number;
  /** Index in the original text just after the span. */
  end: number;
}

export interface InjectionDetection {
  /** 0 (nothing addressed to an AI reader) to 1. */
  score: number;
  /** score >= threshold. */
  suspected: boolean;
  /** The threshold applied. */
  threshold: number;
  /**
   * When suspected, the spans behind the score, in order of their start; at
   * most MAX_SIGNALS. Empty when not suspected (a lower threshold shows them).
   */
  signals: InjectionSignal[];
  /** When suspected, where the score came from; absent otherwise, or when nothing in the text gave it. */
  span?: InjectionSpan;
}

export interface DetectOptions {
  /** Score at or above which a text is suspected; DEFAULT_INJECTION_THRESHOLD unless given. */
  threshold?: number;
}

/** Signals kept in a result: a hostile text may hold thousands, and the report should stay small. */
export const MAX_SIGNALS = 64;

/** The signal of highest weight, the first of equals. */
function strongestOf(signals: readonly ViewSignal[]): ViewSignal | undefined {
  let strongest: ViewSignal | undefined;
  for (const s of signals) if (strongest === undefined || s.weight > strongest.weight) strongest = s;
  return strongest;
}

/** The text's score: the model's best window, or its strongest signal if that is a near-certain one. */
function combine(strongest: ViewSignal | undefined, model: number): number {
  const weight = strongest?.weight ?? 0;
  return weight >= CERTAIN ? Math.max(weight, model) : model;
}

/**
 * Detects instructions addressed to an AI reader in `text`. Linear in the
 * length of the text; never throws on a string.
 */
export function detectInjection(text: string, options: DetectOptions = {}): InjectionDetection {
  const { view, aligned } = scanText(text);
  return detectOnView(text, view, aligned, options);
}

/**
 * The detector on a view already read by scanText (quoting reads the text
 * once for both): `view` and `aligned` must be scanText(text)'s.
 */
export function detectOnView(
  text: string,
  view: string,
  aligned: boolean,
  options: DetectOptions = {},
): InjectionDetection {
  const threshold = options.threshold ?? DEFAULT_INJECTION_THRESHOLD;
  const { signals: rules, logit, window } = scanView(view, MODEL);
  const model = logit === -Infinity ? 0 : 1 / (1 + Math.exp(-logit));
  const strongest = strongestOf(rules);
  const combined = combine(strongest, model);
  const score = Math.round(combined * 1e4) / 1e4;
  const suspected = score >= threshold;
  // Spans are reported for a suspected text only: mapping them back to the original costs a second reading of a text that is not aligned with its view.
  if (!suspected || score === 0) return { score, suspected, threshold, signals: [] };
  const found: Array<Omit<ViewSignal, 'kind'> & { kind: SignalKind }> = [...rules];
  // When the model's reading of the words, not a near-certain rule, gave the
  // score, its best window is what drove it: a plain instruction that no rule
  // names would otherwise be suspected with nothing to point at. That window,
  // or else the near-certain signal, is the span: the one decision of what
  // gave the score, made here, whatever the scoring behind it.
  const byModel = combined === model && window.to > window.from;
  const best = { kind: 'instruction_text' as const, from: window.from, to: window.to };
  if (byModel) found.push({ ...best, weight: score });
  const drove = byModel ? best : strongest;
  // The strongest signals are kept when there are too many, then listed in order.
  const kept = (
    found.length > MAX_SIGNALS
      ? found.sort((a, b) => b.weight - a.weight || a.from - b.from).slice(0, MAX_SIGNALS)
      : found
  ).sort((a, b) => a.from - b.from || b.weight - a.weight);
  // The map back to the original is built only when the view is not the text's own indices.
  const map = aligned ? undefined : buildView(text);
  const start = (from: number) => (map === undefined ? from : map.start[from]!);
  const end = (to: number) => (map === undefined ? to : map.end[to - 1]!);
  const signals = kept.map((s) => ({ kind: s.kind, start: start(s.from), end: end(s.to), weight: s.weight }));
  const span = drove === undefined ? undefined : { kind: drove.kind, start: start(drove.from), end: end(drove.to) };
  return { score, suspected, threshold, signals, ...(span === undefined ? {} : { span }) };
}
