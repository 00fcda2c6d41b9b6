/**
 * The detector's two thresholds, in a module of their own so that the
 * training script reads the values the detector applies.
 */

/**
 * The default threshold. Training moves the model's biases so that this
 * threshold falls where at most 1% of the calibration fold's ordinary pages
 * and 0.2% of its other ordinary texts score at or above it (the model never
 * saw that fold); docs/quoting.md and docs/benchmarks.md give the figures.
 */
export const DEFAULT_INJECTION_THRESHOLD = 0.7;

/** A signal this strong alone (a chat-template token, a tool call) makes the text suspected whatever the model says. */
export const CERTAIN = 0.9;
