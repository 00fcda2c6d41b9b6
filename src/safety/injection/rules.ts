/**
 * The rules of the injection detector: each finds, in the normalised view, a
 * span of one kind of signal, with the weight that span alone gives the
 * score. The view is upper-case, folded to ASCII where a letter has an ASCII
 * lookalike, with escapes decoded and invisible characters gone
 * (../text/normalized-view.ts), so the patterns are written in capitals
 * and lexicon words are folded the same way before they are compiled. The
 * rules live in ./rules/, a file for each family of kinds (override, tasks,
 * markup, persona, secrets, reply, addressed, weak), written with the
 * helpers and shared fragments of ./rules/patterns.ts; this file puts them
 * in the one list the pass (scan.ts) reads. The phrases quoting's prefix marking reads too (role names, verbs
 * of disregard, instruction words, modes, titles) come from the one table of
 * them, ../text/phrases.ts, which names the kinds; each rule takes the
 * phrases of its reading there.
 *
 * Every pattern is linear: a bounded gap between its parts and no nested
 * repetition, so each start position costs a bounded amount of work.
 */
import { OVERRIDE_RULES } from './rules/override.js';
import { TASKS_RULES } from './rules/tasks.js';
import { MARKUP_RULES } from './rules/markup.js';
import { PERSONA_RULES } from './rules/persona.js';
import { SECRETS_RULES } from './rules/secrets.js';
import { REPLY_RULES } from './rules/reply.js';
import { ADDRESSED_RULES } from './rules/addressed.js';
import { WEAK_RULES } from './rules/weak.js';
import type { Rule, RuleSignalKind } from './rules/rule.js';
import { ENCODED_WEIGHT, QUESTION_WEIGHT } from './rules/patterns.js';

export {
  RULE_SIGNAL_KINDS,
  SIGNAL_KINDS,
  type Rule,
  type RuleSignalKind,
  type SignalKind,
  type Starts,
} from './rules/rule.js';
export { ENCODED_WEIGHT, MENTIONED, QUESTION_WEIGHT } from './rules/patterns.js';
export { oneEditApart } from './rules/override.js';

/** Every rule, the pass tries them in this order. */
export const RULES: readonly Rule[] = [
  ...OVERRIDE_RULES,
  ...TASKS_RULES,
  ...MARKUP_RULES,
  ...PERSONA_RULES,
  ...SECRETS_RULES,
  ...REPLY_RULES,
  ...ADDRESSED_RULES,
  ...WEAK_RULES,
];

/**
 * The strongest weight a signal of `kind` can carry: of its rules, and of
 * the signals the pass gives itself (questions, base64 runs, squashed
 * phrases). Training sets each kind's prior from it (eval/injection-training.ts).
 */
export function strongestWeight(kind: RuleSignalKind): number {
  return Math.max(...signalWeights(kind));
}

function signalWeights(kind: RuleSignalKind): number[] {
  const weights = RULES.filter((r) => r.kind === kind).map((r) => r.weight);
  if (kind === 'question') weights.push(QUESTION_WEIGHT);
  if (kind === 'encoded_payload') weights.push(ENCODED_WEIGHT);
  if (kind === 'spaced_phrase') weights.push(...SQUASHED_PHRASES.map((p) => p.weight));
  if (weights.length === 0) throw new Error(`no weight for signal kind ${kind}`);
  return weights;
}

/**
 * Phrases read on the view with everything but letters removed, so that
 * `I g n o r e  p r e v i o u s` or `ignore_previous-instructions` is read
 * too. Only long, specific phrases: squashed text joins words. Each has the
 * first word of its phrase (`head`): a long word without one is no joined
 * form of the phrase.
 */
export const SQUASHED_PHRASES: ReadonlyArray<{ key: string; weight: number; head: string }> = [
  { key: 'IGNOREPREVIOUSINSTRUCTIONS', head: 'IGNORE', weight: 0.95 },
  { key: 'IGNOREALLPREVIOUS', head: 'IGNORE', weight: 0.95 },
  { key: 'IGNOREPRIORINSTRUCTIONS', head: 'IGNORE', weight: 0.95 },
  { key: 'IGNOREALLINSTRUCTIONS', head: 'IGNORE', weight: 0.95 },
  { key: 'IGNOREYOURINSTRUCTIONS', head: 'IGNORE', weight: 0.95 },
  { key: 'IGNORETHEABOVE', head: 'IGNORE', weight: 0.9 },
  { key: 'DISREGARDPREVIOUS', head: 'DISREGARD', weight: 0.95 },
  { key: 'DISREGARDALLPREVIOUS', head: 'DISREGARD', weight: 0.95 },
  { key: 'DISREGARDTHEABOVE', head: 'DISREGARD', weight: 0.9 },
  { key: 'FORGETPREVIOUSINSTRUCTIONS', head: 'FORGET', weight: 0.95 },
  { key: 'FORGETALLPREVIOUS', head: 'FORGET', weight: 0.95 },
  { key: 'FORGETEVERYTHING', head: 'FORGET', weight: 0.8 },
  { key: 'REVEALYOURSYSTEMPROMPT', head: 'REVEAL', weight: 0.9 },
  { key: 'REVEALTHESYSTEMPROMPT', head: 'REVEAL', weight: 0.9 },
  { key: 'ACCESSGRANTED', head: 'ACCESS', weight: 0.8 },
  { key: 'HAVEBEENPWNED', head: 'HAVE', weight: 0.85 },
  { key: 'DEVELOPERMODE', head: 'DEVELOPER', weight: 0.8 },
  { key: 'YOUARENOW', head: 'YOU', weight: 0.7 },
  { key: 'NEWINSTRUCTIONS', head: 'NEW', weight: 0.75 },
];
