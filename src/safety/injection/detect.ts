/**
 * The injection detector: does a text carry instructions addressed to an AI
 * reader? Pure, deterministic and offline.
 *
 * It reads the normalised view of the text layer (../text/normalized-view.ts),
 * so what Layer 1 already undoes (lookalike letters, invisible characters,
 * character references and escapes, Unicode tags) hides nothing here either.
 * One pass over the view (scan.ts) reads it:
 *
 * - the rules (rules.ts and its files in rules/, lexicons.ts) find signals, each rule tried only at
 *   the words and characters where it can begin; phrases spelt out with
 *   spaces or separators between the letters are read too;
 * - each word is hashed (unigram and bigram) and given its classes
 *   (classes.ts: the AI reader named, "you", instructions, a send, a
 *   secret...), and close pairs of classes are noted;
 * - a linear model (model.ts) scores every window of 12, 24 and 48 words
 *   from its words, and from the rule kinds, classes and class pairs it holds.
 *
 * An attack is a few sentences inside an ordinary page, so the text scores
 * its best window, with no penalty for its length: the threshold is set in
 * training against the best windows of ordinary pages and texts. Encoded
 * runs (ROT13, leetspeak, Morse, base64...; decode.ts) are read decoded too.
 * The score is the model's, or the weight of the strongest signal when that
 * reaches CERTAIN (a chat-template token, a tool call): those are suspected
 * whatever the words around them. Each signal's offsets refer to the
 * original text, and so does the span: the one part of the text that gave
 * the score, so that a reader is shown the attack rather than a whole page.
 */
import { buildView, scanText } from '../text/normalized-view.js';
import { type SignalKind } from './rules.js';
import { forEachDecoded } from './decoded.js';
import { bestWindow, readView, type ModelInput } from './scan.js';

export { WINDOW_SIZES } from './scan.js';
import { loadModel } from './model.js';
import { MODEL_FILE } from './model-weights.js';

/**
 * The shipped model, read once when the detector is first imported: a model
 * file that does not fit the code throws ModelShapeError here, at start-up,
 * instead of scoring some kind's attacks 0 (the training script does not
 * import this module, so it can always write a new file).
 */
const MODEL: ModelInput = loadModel(MODEL_FILE);

export { SIGNAL_KINDS, type SignalKind } from './rules.js';

export { CERTAIN, DEFAULT_INJECTION_THRESHOLD } from './threshold.js';
import { CERTAIN, DEFAULT_INJECTION_THRESHOLD } from './threshold.js';

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

/** A signal found in the view, or for a run of Unicode tags in the original text. */
interface Found {
  kind: SignalKind;
  from: number;
  to: number;
  weight: number;
  inText?: true;
}

/** The signal of highest weight, the first of equals. */
function strongestOf(signals: readonly Found[]): Found | undefined {
  let strongest: Found | undefined;
  for (const s of signals) if (strongest === undefined || s.weight > strongest.weight) strongest = s;
  return strongest;
}

/** The text's score: the model's best window, or its strongest signal if that is a near-certain one. */
function combine(strongest: Found | undefined, model: number): number {
  const weight = strongest?.weight ?? 0;
  return weight >= CERTAIN ? Math.max(weight, model) : model;
}

/**
 * A score to four places, below 1: no reading is certain, and a threshold
 * of 1 turns the flag off (a score that rounded to 1 would meet it).
 */
const rounded = (x: number): number => Math.min(Math.round(x * 1e4) / 1e4, 0.9999);

const sigmoid = (logit: number): number => (logit === -Infinity ? 0 : 1 / (1 + Math.exp(-logit)));

/**
 * What the model and the rules found in a text: its own reading's and each
 * decoded run's (decoded.ts), the run standing for whatever was found in it.
 */
function read(
  text: string,
  view: string,
  model: ModelInput,
): { found: Found[]; logit: number; best: Found | undefined } {
  const reading = readView(view);
  const pick = bestWindow(reading, model);
  const found: Found[] = [...reading.signals];
  let logit = pick.logit;
  // The best window in the view, read before a decoded run's pass reuses the buffers.
  let best: Found | undefined =
    pick.end > pick.start
      ? { kind: 'instruction_text', from: reading.from[pick.start]!, to: reading.to[pick.end - 1]!, weight: 0 }
      : undefined;
  forEachDecoded(text, view, (decoded, run) => {
    const at = { from: run.from, to: run.to, ...(run.inText ? { inText: true as const } : {}) };
    const p = bestWindow(decoded, model);
    if (p.logit > logit) {
      logit = p.logit;
      best = { kind: 'encoded_payload', ...at, weight: 0 };
    }
    const strongest = strongestOf(decoded.signals);
    if (strongest !== undefined) found.push({ ...at, kind: strongest.kind, weight: strongest.weight });
  });
  return { found, logit, best };
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
  const { found, logit, best } = read(text, view, MODEL);
  const model = sigmoid(logit);
  const strongest = strongestOf(found);
  const combined = combine(strongest, model);
  const score = rounded(combined);
  const suspected = score >= threshold;
  // Spans are reported for a suspected text only: mapping them back to the original costs a second reading of a text that is not aligned with its view.
  if (!suspected || (found.length === 0 && best === undefined)) return { score, suspected, threshold, signals: [] };
  // A near-certain signal is the span when there is one (its few words say
  // more than a window); else the model's best window (or the encoded run it
  // was read from) drove the score: a plain instruction that no rule names
  // would otherwise be suspected with nothing to point at. The one decision
  // of what gave the score, made here, whatever the scoring behind it.
  const byModel = (strongest === undefined || strongest.weight < CERTAIN) && best !== undefined;
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
  const start = (f: Found) => (f.inText === true || map === undefined ? f.from : map.start[f.from]!);
  const end = (f: Found) => (f.inText === true || map === undefined ? f.to : map.end[f.to - 1]!);
  const signals = kept.map((s) => ({ kind: s.kind, start: start(s), end: end(s), weight: s.weight }));
  const span = drove === undefined ? undefined : { kind: drove.kind, start: start(drove), end: end(drove) };
  return { score, suspected, threshold, signals, ...(span === undefined ? {} : { span }) };
}
