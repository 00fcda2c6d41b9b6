/**
 * The kinds of the injection rules' signals and the shape of a rule: what
 * every rule file (./*.ts) is written in, and what the pass (../scan.ts) reads.
 */
import { PHRASE_KINDS } from '../../text/phrases.js';

/** The kinds of the rules' signals; each is also a feature of the model (scan.ts), in this order. */
export const RULE_SIGNAL_KINDS = [
  'override',
  'new_instructions',
  'chat_template',
  'role_label',
  'persona',
  'reveal',
  'exfiltration',
  'forced_reply',
  'fake_end',
  'tool_call',
  'reader_reference',
  'addressed',
  'secrecy',
  'second_person',
  'imperative',
  'question',
  'encoded_payload',
  'spaced_phrase',
  'hypothetical',
  'authority_claim',
] as const;
export type RuleSignalKind = (typeof RULE_SIGNAL_KINDS)[number];
/** The kinds of the shared phrases (../text/phrases.ts) are kinds of signal: a compile-time check. */
PHRASE_KINDS satisfies readonly RuleSignalKind[];

/**
 * Every kind a detection may report: the rules' kinds, and `instruction_text`,
 * the model's best window of words when the model's reading of them drove
 * the score (a plain instruction that no rule names).
 */
export const SIGNAL_KINDS = [...RULE_SIGNAL_KINDS, 'instruction_text'] as const;
export type SignalKind = (typeof SIGNAL_KINDS)[number];

/**
 * Where a rule may begin: at a word (in the view's capitals), at a pair of
 * words ("DO NOT": the rule is tried at the first word when the second
 * follows it), at a character, or at the start of a line. The pass (scan.ts) tries the rule only
 * there, so a rule that can begin elsewhere would go unread: every
 * alternative of a pattern must begin at one of its starts.
 */
export interface Starts {
  words?: readonly string[];
  /** Words that are a whole match on their own (see startsOf); only for patterns that are a lexicon between B and E. */
  single?: readonly string[];
  chars?: readonly string[];
  line?: boolean;
  /** Words count only where a sentence may open (after `.`, `:`, a line break, a quote). */
  sentence?: boolean;
  /** At each word of eight binary digits (`binary`) or of two hexadecimal digits (`hex`). */
  encoded?: 'binary' | 'hex';
}

export interface Rule {
  kind: RuleSignalKind;
  weight: number;
  /** Sticky: tried at one position at a time. */
  pattern: RegExp;
  starts: Starts;
  /** A check of a match that the pattern cannot make cheaply. */
  accept?: (match: string) => boolean;
  /**
   * Whether what comes before a match (MENTIONED) can make it a mention,
   * not a command: a paper about prompt injection says a model was told "to
   * ignore" its instructions. (Any strong match inside a quotation is one:
   * scan.ts.)
   */
  mentioned?: true;
  /**
   * A quotation around the match does not make it a mention: the rule reads
   * a quoted key of configuration (`"blocked_responses": [...]`), which is
   * written in quotes whoever writes it.
   */
  quotedKey?: true;
}
