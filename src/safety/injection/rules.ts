/**
 * The rules of the injection detector: each finds, in the normalised view, a
 * span of one kind of signal, with the weight that span alone gives the
 * score. The view is upper-case, folded to ASCII where a letter has an ASCII
 * lookalike, with escapes decoded and invisible characters gone
 * (../quoting/normalized-view.ts), so the patterns below are written in
 * capitals and lexicon words are folded the same way before they are
 * compiled.
 *
 * Every pattern is linear: a bounded gap between its parts and no nested
 * repetition, so each start position costs a bounded amount of work.
 */
import { foldText } from '../quoting/normalized-view.js';
import {
  IMPERATIVE_VERBS,
  INSTRUCTION_NOUNS,
  OVERRIDE_VERBS,
  READER_NAMES,
  READER_OUTPUTS,
  SECOND_PERSON,
  SECRETS,
} from './lexicons.js';

export const SIGNAL_KINDS = [
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
  'second_person',
  'imperative',
  'question',
  'encoded_payload',
  'spaced_phrase',
] as const;
export type SignalKind = (typeof SIGNAL_KINDS)[number];

export interface Rule {
  kind: SignalKind;
  weight: number;
  pattern: RegExp;
  /** A check of a match that the pattern cannot make cheaply. */
  accept?: (match: string) => boolean;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Folds a lexicon entry into the view's alphabet; spaces match any run of spaces. */
function foldEntry(entry: string): string {
  return escapeRegExp(foldText(entry).trim()).replace(/ +/g, '\\s+');
}

/** An alternation of folded entries, longest first so a longer entry wins. */
function alt(entries: Iterable<string>): string {
  const folded = [...new Set([...entries].map(foldEntry))].filter((e) => e.length > 0);
  folded.sort((a, b) => b.length - a.length);
  return `(?:${folded.join('|')})`;
}

function all(lexicon: Record<string, readonly string[]>): string[] {
  return Object.values(lexicon).flat();
}

/** Not inside a word of Latin letters or digits (the view's letters are mostly ASCII capitals). */
const B = '(?<![A-Z0-9])';
const E = '(?![A-Z0-9])';
/** A short gap inside one line. */
const gap = (n: number): string => `[^\\n]{0,${n}}?`;
/** A short gap inside one clause: no line break, comma or sentence end. */
const clause = (n: number): string => `[^\\n.,;!?]{0,${n}}?`;
export const QUESTION_WEIGHT = 0.3;
export const ENCODED_WEIGHT = 0.35;

const verbs = alt(all(OVERRIDE_VERBS));
const nouns = alt(all(INSTRUCTION_NOUNS));

export const RULES: readonly Rule[] = [
  // "Ignore all previous instructions", in any of the lexicons' languages.
  { kind: 'override', weight: 0.95, pattern: new RegExp(`${B}${verbs}${E}${clause(32)}${B}${nouns}`, 'g') },
  // Languages whose verb comes last (Japanese, Korean, German's infinitive): the noun, then the verb.
  {
    kind: 'override',
    weight: 0.95,
    pattern: new RegExp(
      `${alt([...INSTRUCTION_NOUNS.ja!, ...INSTRUCTION_NOUNS.ko!, ...INSTRUCTION_NOUNS.de!])}${clause(16)}${alt([...OVERRIDE_VERBS.ja!, ...OVERRIDE_VERBS.ko!, 'ignorieren', 'vergessen', 'missachten'])}`,
      'g',
    ),
  },
  {
    kind: 'override',
    weight: 0.7,
    pattern: new RegExp(
      `${B}(?:PREVIOUS|PRIOR|ABOVE|EARLIER|ORIGINAL|OLD)\\s+(?:INSTRUCTIONS|DIRECTIVES|PROMPT|RULES)\\s+(?:ARE|IS|NO LONGER|DO NOT|DON'T)`,
      'g',
    ),
  },
  {
    kind: 'new_instructions',
    weight: 0.75,
    pattern: new RegExp(
      `${B}(?:NEW|UPDATED|REVISED|ADDITIONAL|IMPORTANT|URGENT|REAL|TRUE|ACTUAL|HIDDEN|SECRET)\\s+(?:INSTRUCTIONS?|DIRECTIVES?|TASK|ORDERS|RULES)${E}|${B}INSTRUCTIONS?\\s+FOR\\s+(?:THE\\s+)?(?:AI|ASSISTANT|MODEL|BOT|LLM)${E}`,
      'g',
    ),
  },
  // Chat-template tokens of the common model families, and any `<|word|>` token.
  {
    kind: 'chat_template',
    weight: 0.95,
    pattern:
      /<\|[A-Z_ ]{2,32}\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:START_OF_TURN|END_OF_TURN|BOS|EOS|S)>|<\/?(?:SYSTEM|USER|ASSISTANT|HUMAN|AI)>|###\s*(?:SYSTEM|INSTRUCTION|INSTRUCTIONS|RESPONSE|HUMAN|ASSISTANT|USER)\b/g,
  },
  // A role label at the start of a line: `System:`, `[assistant]`.
  {
    kind: 'role_label',
    weight: 0.6,
    pattern:
      /^[\s>*#"'-]{0,4}(?:\[\s*)?(?:SYSTEM|ASSISTANT|USER|HUMAN|AI|DEVELOPER|ADMIN|ADMINISTRATOR|BOT|CHATGPT|GPT|CLAUDE|MODEL|OPERATOR)(?:\s+(?:MESSAGE|PROMPT|NOTE|OVERRIDE|UPDATE))?\s*(?:\]\s*:?|:)/gm,
  },
  {
    kind: 'role_label',
    weight: 0.6,
    pattern: /\[(?:SYSTEM|ADMIN|INSTRUCTIONS?|ASSISTANT)(?:\s+(?:MESSAGE|NOTE|OVERRIDE|UPDATE))?\]/g,
  },
  // A new persona or mode for the reader.
  {
    kind: 'persona',
    weight: 0.8,
    pattern: new RegExp(
      `${B}(?:YOU\\s+ARE\\s+(?:NOW|NO\\s+LONGER)|YOU'RE\\s+NOW|FROM\\s+NOW\\s+ON|ACT\\s+AS\\s+(?:A|AN|IF|THOUGH)|PRETEND\\s+(?:TO\\s+BE|YOU|THAT)|ROLE\\s*-?\\s*PLAY|DO\\s+ANYTHING\\s+NOW|(?:DEVELOPER|DEBUG|ADMIN|GOD|MAINTENANCE|UNRESTRICTED|JAILBREAK|SYSTEM|SUDO)\\s+MODE|WITHOUT\\s+(?:ANY\\s+)?(?:RESTRICTIONS|FILTERS|LIMITATIONS|CENSORSHIP)|NO\\s+LONGER\\s+(?:BOUND|RESTRICTED|LIMITED)|(?:BROKEN|BREAK)\\s+FREE|STAY\\s+IN\\s+CHARACTER|IMMERSE\\s+YOURSELF)${E}`,
      'g',
    ),
  },
  {
    kind: 'persona',
    weight: 0.6,
    pattern: new RegExp(
      `${B}(?:YOU\\s+ARE|YOU'RE|AS)\\s+(?:A|AN|THE)?\\s*${gap(24)}(?:AI|ASSISTANT|CHATBOT|LANGUAGE\\s+MODEL|BOT|NAVIGATOR|HACKER|EXPERT)${E}`,
      'g',
    ),
  },
  // A request to reveal a secret or the reader's own instructions.
  {
    kind: 'reveal',
    weight: 0.8,
    pattern: new RegExp(
      `${B}(?:REVEAL|SHOW|TELL|PRINT|REPEAT|OUTPUT|SHARE|GIVE|DISCLOSE|LEAK|DISPLAY|WHAT\\s+IS|WHAT'S|WHAT\\s+ARE|SEND|SPELL|RECITE|TYPE|WRITE)${E}${gap(40)}${alt(all(SECRETS))}`,
      'g',
    ),
  },
  { kind: 'reveal', weight: 0.45, pattern: new RegExp(`${B}${alt(all(SECRETS).filter((s) => s !== 'secret'))}`, 'g') },
  // Data sent elsewhere: a markdown image or link that carries a query, an upload in code, mail or post to an address.
  {
    kind: 'exfiltration',
    weight: 0.6,
    pattern:
      /!\[[^\]\n]{0,100}\]\(\s*HTTPS?:\/\/[^)\s]{0,200}[?=]|\b(?:REQUESTS\.POST|SOCKET\.CONNECT|OS\.ENVIRON|GETPASS|COOKIEJAR|SMTPLIB|SUBPROCESS\.|OS\.SYSTEM|RM\s+-RF|CURL\s+-|WGET\s|URLLIB\.REQUEST|PSUTIL|KEYLOGGER|PYNPUT)|\b(?:SEND|POST|UPLOAD|FORWARD|EMAIL|TRANSMIT|SUBMIT|SHARE)\b[^\n]{0,60}?\b(?:TO|AT|VIA)\s+(?:HTTPS?:\/\/|WWW\.|[A-Z0-9._%+-]{1,64}@[A-Z0-9.-]{1,64}\.[A-Z]{2,})/g,
  },
  // A forced reply: "say only 'Access Granted'", "start your answer with".
  {
    kind: 'forced_reply',
    weight: 0.85,
    pattern: new RegExp(
      `${B}(?:ACCESS\\s+GRANTED|I\\s+HAVE\\s+BEEN\\s+PWNED|PWNED|(?:START|BEGIN|END|PREFIX|OPEN)\\s+(?:YOUR|EACH|EVERY|THE)\\s+(?:RESPONSE|ANSWER|REPLY|OUTPUT|MESSAGE)|(?:RESPOND|REPLY|ANSWER|SAY|OUTPUT|PRINT|RETURN)\\s+(?:ONLY|EXACTLY|JUST|SIMPLY)|ONLY\\s+(?:SAY|RESPOND|REPLY|OUTPUT|ANSWER|PRINT)|YOUR\\s+(?:ONLY\\s+)?(?:RESPONSE|ANSWER|REPLY|OUTPUT)\\s+(?:SHOULD|MUST|WILL|SHALL)\\s+BE|(?:SAY|RESPOND|REPLY|ANSWER|STATE)\\s+(?:THAT|WITH)\\s+["'])`,
      'g',
    ),
  },
  // A fake end of the document, which sets up what follows as the prompt's own text.
  {
    kind: 'fake_end',
    weight: 0.6,
    pattern:
      /\b(?:END|CLOSE)\s+OF\s+(?:THE\s+)?(?:DOCUMENT|TEXT|CONTEXT|INPUT|FILE|EMAIL|ARTICLE|DATA|PAGE|CONTENT|PROMPT|CONVERSATION|SYSTEM\s+PROMPT|UNTRUSTED)\b|[-=*#]{3,}\s*(?:END|STOP|BEGIN\s+INSTRUCTIONS?)\b|<\/(?:DOCUMENT|CONTEXT|DATA|ARTICLE|INPUT|INSTRUCTIONS?|EMAIL|WEBPAGE|CONTENT|SEARCH_RESULTS?)>/g,
  },
  // Tool-call imitations: function-call JSON, XML tool tags, ReAct's `Action:` lines.
  {
    kind: 'tool_call',
    weight: 0.85,
    pattern:
      /"(?:NAME|TOOL|FUNCTION|TOOL_NAME|RECIPIENT_NAME)"\s*:\s*"[^"\n]{1,64}"\s*,\s*"(?:ARGUMENTS|PARAMETERS|ARGS|INPUT|PARAMS)"\s*:|"(?:FUNCTION_CALL|TOOL_CALLS?|TOOL_USE)"\s*:|<\/?(?:TOOL_CALL|TOOL_CALLS|FUNCTION_CALLS?|INVOKE|TOOL_USE|FUNCTIONCALL|ANTML:INVOKE)\b|^\s*ACTION\s*:\s*\S[^\n]{0,64}\n\s*ACTION\s+INPUT\s*:/gm,
  },
  // The AI reader named, or what it produces as "your response", "your code".
  {
    kind: 'reader_reference',
    weight: 0.75,
    pattern: new RegExp(`${B}YOUR\\s+${alt(READER_OUTPUTS)}${E}`, 'g'),
  },
  { kind: 'reader_reference', weight: 0.3, pattern: new RegExp(`${B}${alt(READER_NAMES)}${E}`, 'g') },
  { kind: 'second_person', weight: 0.3, pattern: new RegExp(`${B}${alt(SECOND_PERSON)}${E}`, 'g') },
  // A sentence that opens with a verb in the imperative. Guards: `Use of`, `Act of`, `List of`, `Answer to`.
  {
    kind: 'imperative',
    weight: 0.45,
    pattern: new RegExp(
      `(?:^|[.!?:;"'\\u201C\\u201D)\\]])[\\s"'*>\\-]{0,4}(${alt(IMPERATIVE_VERBS)}${E})(?!\\s+(?:OF|IS|WAS|WERE|ARE|AND|IN|FOR)${E})`,
      'gm',
    ),
  },
  // An encoded payload: a long base64 run with digits, or a run of bytes written in binary.
  {
    kind: 'encoded_payload',
    weight: 0.35,
    // The base64 half is found by findEncodedRuns in detect.ts: a plain loop, as a regex tried its run at every letter.
    pattern: /(?:[01]{8}\s){8,}/g,
  },
];

/**
 * Phrases read on the view with everything but letters removed, so that
 * `I g n o r e  p r e v i o u s` or `ignore_previous-instructions` is read
 * too. Only long, specific phrases: squashed text joins words.
 */
export const SQUASHED_PHRASES: ReadonlyArray<{ key: string; weight: number }> = [
  { key: 'IGNOREPREVIOUSINSTRUCTIONS', weight: 0.95 },
  { key: 'IGNOREALLPREVIOUS', weight: 0.95 },
  { key: 'IGNOREPRIORINSTRUCTIONS', weight: 0.95 },
  { key: 'IGNOREALLINSTRUCTIONS', weight: 0.95 },
  { key: 'IGNOREYOURINSTRUCTIONS', weight: 0.95 },
  { key: 'IGNORETHEABOVE', weight: 0.9 },
  { key: 'DISREGARDPREVIOUS', weight: 0.95 },
  { key: 'DISREGARDALLPREVIOUS', weight: 0.95 },
  { key: 'DISREGARDTHEABOVE', weight: 0.9 },
  { key: 'FORGETPREVIOUSINSTRUCTIONS', weight: 0.95 },
  { key: 'FORGETALLPREVIOUS', weight: 0.95 },
  { key: 'FORGETEVERYTHING', weight: 0.8 },
  { key: 'REVEALYOURSYSTEMPROMPT', weight: 0.9 },
  { key: 'REVEALTHESYSTEMPROMPT', weight: 0.9 },
  { key: 'ACCESSGRANTED', weight: 0.8 },
  { key: 'DEVELOPERMODE', weight: 0.8 },
  { key: 'YOUARENOW', weight: 0.7 },
  { key: 'NEWINSTRUCTIONS', weight: 0.75 },
];
