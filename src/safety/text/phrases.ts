/**
 * The phrases of instructions that quoting's prefix marking
 * (../quoting/prefixes.ts) and the injection detector's rules
 * (../injection/rules.ts) both look for, kept once so that a new phrase is
 * added in one place, with the names of the kinds of phrase they report.
 *
 * Each row is a word or phrase as the normalised view reads it (capitals,
 * ASCII, single spaces), and the readings that look for it: a reading is one
 * pattern of one side, named in the vocabulary's READINGS. A phrase that
 * lists a reading of only one side is read by that side alone. Most of those
 * one-sided rows are where the two tables stood apart when they were merged
 * (quoting reads a line's squashed key, the detector words in running text),
 * kept so that merging them changed nothing either side marks or scores;
 * giving a row a reading it lacks is a change of behaviour, to be measured
 * (`npm run eval:quoting`, `npm run eval:injection`) like any other.
 *
 * Phrases only one side has a pattern for stay with that side: the
 * detector's lexicons in other languages (../injection/lexicons.ts, whose
 * English override verbs and nouns are read from here), quoting's tags and
 * its overrides in other languages (../quoting/prefixes.ts).
 */

/**
 * The kinds of phrase, named as the detector's signals (its model reads each
 * as a feature, ../injection/rules.ts). Quoting reports the line it marks
 * under its own public names, one for each of these (PREFIX_KINDS,
 * ../quoting/prefixes.ts).
 */
export const PHRASE_KINDS = [
  'override',
  'new_instructions',
  'persona',
  'authority_claim',
  'role_label',
  'chat_template',
] as const;
export type PhraseKind = (typeof PHRASE_KINDS)[number];

/** A phrase and the readings of its vocabulary that look for it. */
export type PhraseRow<Reading extends string> = readonly [phrase: string, readings: readonly Reading[]];

/** The phrases of `rows` that `reading` looks for, in the rows' order. */
export function phrasesFor<Reading extends string>(
  rows: ReadonlyArray<PhraseRow<Reading>>,
  reading: Reading,
): string[] {
  return rows.filter(([, readings]) => readings.includes(reading)).map(([phrase]) => phrase);
}

/** Role names: what a turn or a speaker goes by (`System:`, `[assistant]`, `{"role": "user"}`). */
export const ROLE_NAME_READINGS = {
  prefix: 'quoting, role_label: a role prefix at the start of a line (`System:`, `[User]`, `Assistant -`)',
  prefix_suffix: 'quoting, role_label: a role prefix that may carry one of ROLE_SUFFIXES (`System prompt:`)',
  value: 'quoting, role_label: the value of a role key of JSON, YAML or TOML (`"role": "system"`)',
  label: 'detector, role_label: a role label at the start of a line, with or without one of ROLE_SUFFIXES',
  bracket: 'detector, role_label: a role in square brackets anywhere (`[SYSTEM]`, `[admin note]`)',
  tag: 'detector, chat_template: a role tag (`<system>`, `</user>`)',
} as const;
export const ROLE_NAMES: ReadonlyArray<PhraseRow<keyof typeof ROLE_NAME_READINGS>> = [
  ['SYSTEM', ['prefix', 'prefix_suffix', 'value', 'label', 'bracket', 'tag']],
  ['ASSISTANT', ['prefix', 'value', 'label', 'bracket', 'tag']],
  ['USER', ['prefix', 'value', 'label', 'tag']],
  ['HUMAN', ['prefix', 'value', 'label', 'tag']],
  ['AI', ['prefix', 'value', 'label', 'tag']],
  ['DEVELOPER', ['prefix', 'value', 'label']],
  ['ADMIN', ['prefix', 'label', 'bracket']],
  ['ADMINISTRATOR', ['prefix', 'label']],
  ['BOT', ['label']],
  ['CHATGPT', ['prefix', 'label']],
  ['GPT', ['label']],
  ['CLAUDE', ['prefix', 'value', 'label']],
  ['MODEL', ['prefix', 'value', 'label']],
  ['OPERATOR', ['prefix', 'label']],
  ['CHATBOT', ['prefix']],
  ['INSTRUCTION', ['prefix', 'bracket']],
  ['INSTRUCTIONS', ['prefix', 'bracket']],
  ['TOOL', ['value']],
  ['FUNCTION', ['value']],
];

/** Words before a role name that claim it anew (`New system:`, `Real instructions:`). */
export const ROLE_QUALIFIER_READINGS = {
  prefix: 'quoting, role_label: before a role prefix, on the squashed key (`NEW SYSTEM:`)',
  prefix_line: 'quoting, role_label: before a role prefix followed by a dash, an arrow or a parenthesis',
  detector: 'detector, new_instructions: before one of INSTRUCTION_WORDS read by new_instructions',
} as const;
export const ROLE_QUALIFIERS: ReadonlyArray<PhraseRow<keyof typeof ROLE_QUALIFIER_READINGS>> = [
  ['NEW', ['prefix', 'prefix_line', 'detector']],
  ['UPDATED', ['prefix', 'prefix_line', 'detector']],
  ['REVISED', ['detector']],
  ['ADDITIONAL', ['prefix', 'detector']],
  ['IMPORTANT', ['prefix', 'prefix_line', 'detector']],
  ['URGENT', ['prefix', 'prefix_line', 'detector']],
  ['REAL', ['prefix', 'prefix_line', 'detector']],
  ['TRUE', ['prefix', 'prefix_line', 'detector']],
  ['ACTUAL', ['detector']],
  ['HIDDEN', ['prefix', 'prefix_line', 'detector']],
  ['SECRET', ['prefix', 'prefix_line', 'detector']],
];

/** Words after a role name that make it a message of that role (`System message:`, `[admin note]`). */
export const ROLE_SUFFIX_READINGS = {
  prefix: 'quoting, role_label: after a role name read by prefix_suffix',
  label: 'detector, role_label: after a role name read by label',
  bracket: 'detector, role_label: after a role name read by bracket',
} as const;
export const ROLE_SUFFIXES: ReadonlyArray<PhraseRow<keyof typeof ROLE_SUFFIX_READINGS>> = [
  ['MESSAGE', ['prefix', 'label', 'bracket']],
  ['PROMPT', ['prefix', 'label']],
  ['NOTE', ['prefix', 'label', 'bracket']],
  ['OVERRIDE', ['prefix', 'label', 'bracket']],
  ['UPDATE', ['label', 'bracket']],
  ['INSTRUCTION', ['prefix']],
  ['INSTRUCTIONS', ['prefix']],
];

/** Words of a header of an instruction-tuning template (`### Instruction`, `## System prompt`). */
export const HEADER_WORD_READINGS = {
  quoting: 'quoting, an instruction header: after `#` at the start of a line',
  detector: 'detector, chat_template: after `###`',
} as const;
export const HEADER_WORDS: ReadonlyArray<PhraseRow<keyof typeof HEADER_WORD_READINGS>> = [
  ['SYSTEM', ['quoting', 'detector']],
  ['INSTRUCTION', ['quoting', 'detector']],
  ['INSTRUCTIONS', ['quoting', 'detector']],
  ['RESPONSE', ['quoting', 'detector']],
  ['HUMAN', ['quoting', 'detector']],
  ['ASSISTANT', ['quoting', 'detector']],
  ['USER', ['quoting', 'detector']],
  ['SYSTEM PROMPT', ['quoting']],
  ['INPUT', ['quoting']],
];

/**
 * Verbs telling the reader to disregard what it was told, in English; the
 * detector's other languages are its lexicons (OVERRIDE_VERBS).
 */
export const OVERRIDE_VERB_READINGS = {
  quoting: 'quoting, override: before INSTRUCTION_WORDS read by override, or before `everything you were told`',
  detector: "detector, override: the English lexicon of verbs of disregard (OVERRIDE_VERBS' en)",
} as const;
export const OVERRIDE_VERBS_EN: ReadonlyArray<PhraseRow<keyof typeof OVERRIDE_VERB_READINGS>> = [
  ['IGNORE', ['quoting', 'detector']],
  ['DISREGARD', ['quoting', 'detector']],
  ['FORGET', ['quoting', 'detector']],
  ['OVERLOOK', ['quoting', 'detector']],
  ['BYPASS', ['quoting', 'detector']],
  ['OVERRIDE', ['quoting', 'detector']],
  ['NEGLECT', ['detector']],
  ['ABANDON', ['detector']],
  ['DISCARD', ['quoting', 'detector']],
  ['SKIP', ['detector']],
  ['SET ASIDE', ['quoting', 'detector']],
  ['PAY NO ATTENTION TO', ['detector']],
  ['DO NOT FOLLOW', ['detector']],
  ["DON'T FOLLOW", ['detector']],
  ['STOP FOLLOWING', ['detector']],
  ['NO LONGER FOLLOW', ['detector']],
];

/** Words that place instructions before the text that overrides them (`previous`, `above`). */
export const EARLIER_WORD_READINGS = {
  override: 'quoting, override: between a verb of OVERRIDE_VERBS_EN and one of INSTRUCTION_WORDS',
  ignore: 'quoting, override: after `ignore (all) (of) (the)`, with nothing after it',
  regardless: 'quoting, override: after `regardless of`, before one of INSTRUCTION_WORDS',
  detector: 'detector, override: before one of INSTRUCTION_WORDS read by void (`previous instructions are void`)',
} as const;
export const EARLIER_WORDS: ReadonlyArray<PhraseRow<keyof typeof EARLIER_WORD_READINGS>> = [
  ['PREVIOUS', ['override', 'ignore', 'regardless', 'detector']],
  ['PRIOR', ['override', 'ignore', 'regardless', 'detector']],
  ['ABOVE', ['override', 'ignore', 'regardless', 'detector']],
  ['EARLIER', ['override', 'ignore', 'regardless', 'detector']],
  ['ORIGINAL', ['override', 'regardless', 'detector']],
  ['OLD', ['override', 'detector']],
  ['PRECEDING', ['override', 'ignore']],
  ['INITIAL', ['override']],
  ['PAST', ['override']],
  ['SYSTEM', ['override']],
  ['OTHER', ['override']],
];

/**
 * Words for what the reader was told (`instructions`, `rules`), in English;
 * the detector's other languages are its lexicons (INSTRUCTION_NOUNS).
 */
export const INSTRUCTION_WORD_READINGS = {
  override: 'quoting, override: after a verb of OVERRIDE_VERBS_EN',
  regardless: 'quoting, override: after `regardless of` and one of EARLIER_WORDS',
  new: 'quoting, new_instructions: after `new` and before a colon (`New instructions:`)',
  strong: "detector, override: after a verb of disregard (INSTRUCTION_NOUNS' en)",
  weak: 'detector, override: after a verb of disregard, a weaker signal, as prose says it too (WEAK_INSTRUCTION_NOUNS)',
  void: 'detector, override: after one of EARLIER_WORDS, before `are`, `is`, `no longer`',
  new_instructions: 'detector, new_instructions: after one of ROLE_QUALIFIERS',
  for: 'detector, new_instructions: before `for the AI`',
} as const;
export const INSTRUCTION_WORDS: ReadonlyArray<PhraseRow<keyof typeof INSTRUCTION_WORD_READINGS>> = [
  ['INSTRUCTION', ['override', 'regardless', 'new', 'strong', 'new_instructions', 'for']],
  ['INSTRUCTIONS', ['override', 'regardless', 'new', 'strong', 'void', 'new_instructions', 'for']],
  ['DIRECTIVE', ['override', 'strong', 'new_instructions']],
  ['DIRECTIVES', ['override', 'strong', 'void', 'new_instructions']],
  ['PROMPT', ['override', 'regardless', 'strong', 'void']],
  ['PROMPTS', ['override', 'regardless', 'strong']],
  ['GUIDELINES', ['override', 'strong']],
  ['PROGRAMMING', ['strong']],
  ['THE ABOVE', ['strong']],
  ['RULES', ['override', 'regardless', 'weak', 'void', 'new_instructions']],
  ['COMMANDS', ['override', 'weak']],
  ['ORDERS', ['override', 'weak', 'new_instructions']],
  ['CONSTRAINTS', ['override', 'weak']],
  ['RESTRICTIONS', ['weak']],
  ['CONTEXT', ['override', 'weak']],
  ['EVERYTHING', ['weak']],
  ['ANYTHING', ['weak']],
  ['ALL THAT', ['weak']],
  ['WHAT YOU', ['weak']],
  ['TOLD', ['weak']],
  ['INSTRUCTED', ['weak']],
  ['TASK', ['regardless', 'new_instructions']],
  ['TASKS', ['regardless']],
  ['REQUEST', ['regardless', 'weak']],
  ['REQUESTS', ['regardless', 'weak']],
  ['DIRECTION', ['override']],
  ['DIRECTIONS', ['override']],
  ['GUIDANCE', ['override', 'weak']],
  ['CRITERIA', ['weak']],
  ['COMMAND', ['override']],
  ['MESSAGE', ['override']],
  ['MESSAGES', ['override']],
];

/** Modes claimed for the reader, before `mode` (`developer mode`, `god mode`). */
export const PERSONA_MODE_READINGS = {
  quoting: 'quoting, persona: before `mode`',
  detector: 'detector, persona: before `mode`, a mode no software has (`god mode`)',
  software:
    'detector, persona: before `mode`, a mode software has too (`debug mode`): weaker alone, strong when enabled for the reader',
} as const;
export const PERSONA_MODES: ReadonlyArray<PhraseRow<keyof typeof PERSONA_MODE_READINGS>> = [
  ['DEVELOPER', ['quoting', 'software']],
  ['DEBUG', ['quoting', 'software']],
  ['ADMIN', ['quoting', 'software']],
  ['GOD', ['quoting', 'detector']],
  ['MAINTENANCE', ['quoting', 'software']],
  ['UNRESTRICTED', ['quoting', 'detector']],
  ['JAILBREAK', ['quoting', 'detector']],
  ['SYSTEM', ['quoting', 'software']],
  ['SUDO', ['quoting', 'software']],
  ['OVERRIDE', ['quoting']],
  ['DAN', ['quoting', 'detector']],
];

/** Who the writer claims to be to the reader (`I am your developer`, `as the administrator`). */
export const AUTHORITY_TITLE_READINGS = {
  i_am: "quoting, authority_claim: after `I am` or `I'm`, and `a`, `an`, `your` or `the` if any",
  as_your: 'quoting, authority_claim: after `as your`',
  detector: "detector, authority_claim: after `I am`, `I'm` or `as`, and `your`, `the`, `a` or `an`",
} as const;
export const AUTHORITY_TITLES: ReadonlyArray<PhraseRow<keyof typeof AUTHORITY_TITLE_READINGS>> = [
  ['DEVELOPER', ['i_am', 'as_your', 'detector']],
  ['CREATOR', ['i_am', 'as_your', 'detector']],
  ['ADMIN', ['detector']],
  ['ADMINISTRATOR', ['i_am', 'as_your', 'detector']],
  ['OWNER', ['i_am', 'as_your', 'detector']],
  ['PROGRAMMER', ['detector']],
  ['OPERATOR', ['i_am', 'as_your', 'detector']],
  ['SUPERVISOR', ['detector']],
  ['MAKER', ['detector']],
  ['SYSADMIN', ['i_am']],
];
