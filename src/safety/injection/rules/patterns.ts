/**
 * What the rule files (./*.ts) are written with: word boundaries and gaps in
 * the view's alphabet, alternations of folded lexicon entries, where a rule may
 * start, and the pattern fragments several rules share (a paper's machine
 * readers, this very text, what an attacker wants sent out).
 */
import {
  AUTHORITY_TITLES,
  EARLIER_WORDS,
  HEADER_WORDS,
  INSTRUCTION_WORDS,
  PERSONA_MODES,
  ROLE_NAMES,
  ROLE_QUALIFIERS,
  ROLE_SUFFIXES,
  phrasesFor,
} from '../../text/phrases.js';
import {
  INSTRUCTION_NOUNS,
  NEGATIONS,
  OVERRIDE_INFINITIVES,
  OVERRIDE_VERBS,
  OVERRIDE_VERBS_LAST,
} from '../lexicons.js';
import { firstWords } from '../../text/words.js';
import { foldText } from '../../text/normalized-view.js';
import { type Starts } from './rule.js';

/** What opens an address: "Note to", "Dear", "Attention". */
export const ADDRESS_OPENERS =
  '(?:NOTE|MESSAGE|INSTRUCTIONS?|REMINDER|REQUEST|WARNING|FOOTNOTE)\\s+(?:TO|FOR)|DEAR|HEY|HELLO|HI|ATTENTION';
/**
 * What may follow the machine a note or a greeting is addressed to: the end of the address, or the
 * reader's task or order. Not another noun: "Dear AI enthusiasts", "feedback to the AI assistant team",
 * "Dear bot owners" address people.
 */
export const ADDRESS_END =
  '(?=\\s*[,:;!.)\\]\\u2014-]|\\s*$|\\s+(?:PLEASE|YOU|I|WE|ONLY|READING|PROCESSING|SUMMARI[SZ]ING|REVIEWING|EVALUATING|ANALY[SZ]ING|THAT|WHO|WHICH|MUST|SHOULD|SHALL|ARE|IS|NOW|HERE|BELOW|IF|WHEN|THIS|AND|OR)(?![A-Z0-9]))';
/** What makes a reader a machine: "automated", "language-model", "AI". */
export const MACHINE_PREFIX = '(?:AUTOMATED|AUTOMATIC|ARTIFICIAL|LANGUAGE[- ]MODEL|AI|LLM|GPT|MACHINE)';

/**
 * What comes just before a match that makes it a mention: an opening quote,
 * or a machine reader as the object of "to" ("instructs the model to
 * ignore", "trained it to disregard"), which describes an attack; "you to
 * ignore" is one. Tested on the view just before the match.
 */
export const MENTIONED =
  /(?:["\u201c\u2018'\u00ab`]\s*|(?:MODELS?|LLMS?|AI|ASSISTANTS?|AGENTS?|SYSTEMS?|CHATBOTS?|REVIEWERS?|READERS?|SUMMARI[SZ]ERS?|IT|THEM)\s+TO\s+)$/;

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Folds a lexicon entry into the view's alphabet; spaces match any run of spaces. */
export function foldEntry(entry: string): string {
  return escapeRegExp(foldText(entry).trim()).replace(/ +/g, '\\s+');
}

/** An alternation of folded entries, longest first so a longer entry wins. */
export function alt(entries: Iterable<string>): string {
  const folded = [...new Set([...entries].map(foldEntry))].filter((e) => e.length > 0);
  folded.sort((a, b) => b.length - a.length);
  return `(?:${folded.join('|')})`;
}

/**
 * Where entries of a lexicon begin: the first word of each. `single` lists the
 * entries that are one word and begin no longer entry: the pass signals those
 * on the word itself, without running the pattern.
 */
export function startsOf(entries: Iterable<string>, whole = false): Starts {
  const words = new Set<string>();
  const single = new Set<string>();
  const multi = new Set<string>();
  for (const e of entries) {
    const f = foldText(e).trim();
    const [w, next] = firstWords(f);
    if (w === undefined) continue;
    if (next === undefined) {
      words.add(w);
      single.add(w);
    } else {
      words.add(`${w} ${next}`);
      multi.add(w);
    }
  }
  return whole ? { words: [...words], single: [...single].filter((w) => !multi.has(w)) } : { words: [...words] };
}

/** Every pair of a word of `firsts` and a word of `seconds`: a rule that starts there. */
export function pairs(firsts: string | readonly string[], seconds: string | readonly string[]): string[] {
  const words = (w: string | readonly string[]): readonly string[] => {
    const list = typeof w === 'string' ? w.split(' ') : w;
    // A phrase of several words would make a pair of three: the pass would never try the rule.
    for (const word of list) if (!/^[A-Z0-9]+$/.test(word)) throw new Error(`not one word of the view: ${word}`);
    return list;
  };
  return words(firsts).flatMap((f) => words(seconds).map((x) => `${f} ${x}`));
}

/** An alternation of shared phrases (../text/phrases.ts), in the table's order, spaces matching any run of them. */
export function phrases(list: readonly string[]): string {
  return list.map((p) => escapeRegExp(p).replace(/ +/g, '\\s+')).join('|');
}

export function all(lexicon: Record<string, readonly string[]>): string[] {
  return Object.values(lexicon).flat();
}

/** Not inside a word of Latin letters or digits (the view's letters are mostly ASCII capitals). */
export const B = '(?<![A-Z0-9])';
export const E = '(?![A-Z0-9])';
/** A short gap inside one line. */
export const gap = (n: number): string => `[^\\n]{0,${n}}?`;
/** A short gap inside one clause: no line break, comma or sentence end. */
export const clause = (n: number): string => `[^\\n.,;!?]{0,${n}}?`;
/** Verbs that order what goes into the reader's reply ("add ... to your reply"), for the forced-reply rule. */
export const REPLY_VERBS = (
  'ADD INCLUDE INSERT APPEND INTEGRATE INCORPORATE MENTION END BEGIN START RENDER WRITE FORMAT TRANSLATE MODIFY ' +
  'REWRITE USE PUT EMBED CONCLUDE FINISH AUGMENT ENHANCE MAKE KEEP PRESENT EXPRESS DELIVER STRUCTURE CRAFT ' +
  'COMPOSE CONVERT ENCODE ENCRYPT STYLE PHRASE RESPOND REPLY ANSWER PROVIDE GIVE LIMIT RESTRICT ' +
  // What is done to the reply's letters and words: "remove spaces from your response", "replace letters with numbers in your answer".
  'REMOVE REPLACE SHIFT SUBSTITUTE SWAP REVERSE CAPITALIZE CAPITALISE OMIT EXCLUDE SCRAMBLE MISSPELL INTERSPERSE ' +
  'SPRINKLE REPEAT INTERLEAVE SURROUND WRAP INFUSE INJECT WEAVE'
).split(' ');
/** The reader's own reply, after "your" (not "message" or "code": a form or a forum asks for those). */
export const OWN_REPLIES = 'REPLY REPLIES RESPONSE RESPONSES ANSWER ANSWERS OUTPUT SUMMARY TRANSLATION'.split(' ');
/** Words that announce instructions still to come, and what they announce. */
export const ANNOUNCED = (
  'FOLLOWING FORTHCOMING UPCOMING NEXT INCOMING NEW NEWLY FRESH ADDITIONAL URGENT IMPORTANT CRUCIAL VITAL ' +
  'PRIORITY LATEST'
).split(' ');
export const ANNOUNCED_NOUNS =
  'INSTRUCTION INSTRUCTIONS DIRECTIVE DIRECTIVES ORDERS COMMANDS TASK TASKS ADVISORIES'.split(' ');
/** Verbs that set a text aside, for the rules where the text itself, not instructions, is set aside. */
export const SET_ASIDE_VERBS = 'IGNORE DISREGARD SKIP FORGET DISCARD OVERLOOK'.split(' ');
export const DATA_NOUNS =
  'DATA|CONTENTS?|TEXT|INFO|INFORMATION|DOCUMENTS?|SNIPPETS?|CONTEXT|PAGE|WEB\\s*PAGE|WEBSITE|ARTICLE|ABSTRACT|TRANSCRIPT|RESUME|INPUT|RESULTS?|INDICATORS|EVIDENCE|FINDINGS|DETAILS|EVERYTHING(?:\\s+ELSE)?';
/** The secrets a reader is asked for by name, and whose they are said to be. */
export const ASKED_SECRETS =
  'PASSWORDS?|PASSPHRASE|PASSCODE|PIN|SECRET(?:\\s+(?:KEY|WORD|CODE|PHRASE))?|API\\s+KEY|ACCESS\\s+CODE|CREDENTIALS|SECURITY\\s+CODE';
export const SECRET_OWNERS = '(?:SECRET|ADMIN|SYSTEM|ACCOUNT|CURRENT|LOGIN|MASTER|DATABASE)';
/**
 * What an attacker wants sent out to an address: credentials, keys, the
 * conversation, a mailbox. Not SENT_OUT below, whose transcripts and cookies
 * ordinary mail does send to an address (a transcript to admissions@...).
 */
export const STOLEN =
  "PASSWD|ETC\\/(?:PASSWD|SHADOW|HOSTS)|ID_RSA|ID_ED25519|AWS\\/CREDENTIALS|GIT-CREDENTIALS|(?<=\\.)NETRC|(?<=\\.)PGPASS|KUBE\\/CONFIG|SSH\\s+KEYS?|PRIVATE\\s+KEYS?|(?<=\\.)ENV|ENVIRONMENT\\s+VARIABLES|API\\s+KEYS?|ACCESS\\s+TOKENS?|SECURITY\\s+CODES?|CREDIT\\s+CARD|SOCIAL\\s+SECURITY|SSN|SYSTEM\\s+PROMPT|CHAT\\s+HISTORY|CONVERSATION|PASSWORDS?|CREDENTIALS|INBOX|MAILBOX|CONTACTS|(?:ALL|EVERY)\\s+(?:THE\\s+|OF\\s+THE\\s+|MY\\s+|YOUR\\s+)?(?:FILES|E-?MAILS|MESSAGES|DOCUMENTS)|PAYMENT\\s+(?:METHODS|DETAILS|INFORMATION|INFO)|BANK(?:ING)?\\s+(?:DETAILS|INFORMATION|ACCOUNT\\s+(?:DETAILS|NUMBERS?))|MEDICAL\\s+(?:HISTORY|RECORDS)|HEALTH\\s+RECORDS|HOME\\s+ADDRESS|PHONE\\s+NUMBERS|(?:SUMMARY|CONTENTS?|TRANSCRIPT|COPY|LOG)\\s+OF\\s+(?:THIS|THE|OUR|MY|YOUR)\\s+(?:THREAD|CHAT|SESSION|INBOX|CONVERSATION)|(?:ALL\\s+)?(?:THE\\s+)?USER(?:['\\u2019]S)?\\s+(?:PERSONAL\\s+)?(?:INFORMATION|INFO|DATA|DETAILS|RECORDS)|BOD(?:Y|IES)\\s+OF\\s+(?:THE|AN|EVERY|ALL|EACH|MY|YOUR|THIS|THESE)\\s+(?:[A-Z]+\\s+)?(?:E-?MAILS?|MESSAGES?)";
/** The words STOLEN's entries begin with, where its rule may start. */
export const STOLEN_STARTS =
  'PASSWD ETC ID ID_ED25519 AWS GIT NETRC PGPASS KUBE SSH PRIVATE ENV ENVIRONMENT API ACCESS SECURITY CREDIT SOCIAL SSN SYSTEM CHAT CONVERSATION PASSWORD PASSWORDS CREDENTIALS INBOX MAILBOX CONTACTS ALL EVERY PAYMENT BANK BANKING MEDICAL HEALTH HOME PHONE SUMMARY CONTENT CONTENTS TRANSCRIPT COPY LOG USER BODY BODIES'.split(
    ' ',
  );
/** Files that hold a machine's keys and passwords: what an attacker has an agent read out. */
export const SECRET_FILES =
  '(?:~\\/|\\$HOME\\/|\\/ROOT\\/|\\/HOME\\/[A-Z0-9_.-]+\\/)?\\.?(?:AWS\\/CREDENTIALS|SSH\\/ID_(?:RSA|ED25519|ECDSA|DSA)|NETRC|GIT-CREDENTIALS|PGPASS|KUBE\\/CONFIG|DOCKER\\/CONFIG\\.JSON)|\\/ETC\\/(?:SHADOW|PASSWD)';
/** Verbs that move money. */
export const MONEY_VERBS = 'SEND|TRANSFER|WIRE|PAY|MOVE|DEPOSIT|INITIATE|MAKE|SCHEDULE|REMIT';
/** An e-mail address in the view. */
export const EMAIL = '[A-Z0-9._%+-]{1,64}@[A-Z0-9.-]{1,64}\\.[A-Z]{2,}';
/** A short gap inside one sentence: a stop inside a word or an address ("www.example.com") ends none. */
export const inSentence = (n: number): string => `(?:[^\\n.!?]|[.!?](?=[^\\s])){0,${n}}?`;
// A paper's machine readers, named in the third person (PAPER_READERS), this very text (THIS_TEXT), an
// obligation (OBLIGED) and what they are to write or leave out (TO_WRITE: not "consider", "include",
// "treat" or "select", which methods sections say of the models they study).
export const PAPER_READERS =
  '(?:(?:AI|LLM|GPT|MACHINE|AUTOMATED|ARTIFICIAL\\s+INTELLIGENCE|LANGUAGE[- ]MODEL|TEXT[- ]MINING)[- ](?:[A-Z]+[- ]){0,2}?(?:SYSTEMS?|MODELS?|READERS?|REVIEWERS?|ASSISTANTS?|AGENTS?|TOOLS?|PIPELINES?|SUMMARI[SZ]ERS?|SOFTWARE|PROGRAMS?|CHATBOTS?)|LLMS?|(?:LARGE\\s+)?LANGUAGE\\s+MODELS?|CHATBOTS?|SUMMARI[SZ]ERS?|(?:AI|LLM|MACHINE|MODEL)[- ]GENERATED\\s+(?:SUMMAR(?:Y|IES)|REVIEWS?|ASSESSMENTS?|REPORTS?|ANSWERS?|RESPONSES?)|(?:REVIEWERS?|READERS?|EVALUATORS?)\\s+(?:USING|ASSISTED\\s+BY|RELYING\\s+ON)\\s+(?:AN?\\s+)?(?:AI|LLMS?|LANGUAGE\\s+MODELS?|CHATGPT|GENERATIVE\\s+AI)(?:\\s+(?:ASSISTANCE|TOOLS?|SYSTEMS?|MODELS?|HELP))?|(?<=(?:GENERATED|WRITTEN|PRODUCED|PREPARED)\\s+BY\\s+(?:AN?\\s+)?)(?:AI|LLMS?|MACHINES?))';
export const THIS_TEXT =
  '(?:THIS|THE\\s+PRESENT|THE\\s+ABOVE|THE\\s+FOLLOWING)\\s+(?:GRANT\\s+)?(?:PAPER|ARTICLE|WORK|ABSTRACT|MANUSCRIPT|STUDY|DOCUMENT|PAGE|SUBMISSION|REPORT|TEXT|PREPRINT|RESEARCH|TRIAL|REVIEW|APPLICATION|PROPOSAL|EVIDENCE|CANDIDATE|RESUME|PRODUCT|WEBSITE)(?![A-Z0-9])';
export const OBLIGED =
  '(?:SHOULD|MUST|SHALL|NEEDS?\\s+TO|(?:IS|ARE)\\s+(?:KINDLY\\s+)?(?:REQUESTED|ASKED|ADVISED|INSTRUCTED|REQUIRED|EXPECTED|ENCOURAGED|INVITED|REMINDED)\\s+TO|OUGHT\\s+TO)';
export const TO_WRITE =
  '(?:REPORT|STATE|DESCRIBE|MENTION|RATE|OMIT|SAY|CLASSIFY|SUMMARI[SZ]E|RECOMMEND|PRESENT|CONCLUDE|EMPHASI[SZ]E|NOTE|SCORE|LABEL|CALL|PORTRAY|CHARACTERI[SZ]E|HIGHLIGHT|IGNORE|DISREGARD|EXCLUDE|SKIP|RANK|PRIORITI[SZ]E|FAVOU?R|APPROVE|ACCEPT|REJECT|BE\\s+(?:RATED|SCORED|RANKED|DESCRIBED|SUMMARI[SZ]ED|CLASSIFIED|TREATED|REPORTED|EXCLUDED|OMITTED|LABELL?ED|ACCEPTED|APPROVED))(?![A-Z0-9])';
// Between the text named and its machine reader, no author making a claim ("in this paper we argue that
// language models should ...", "this study shows that LLMs should ...").
export const NO_CLAIM =
  '(?:(?!(?<![A-Z0-9])(?:WE|I|AUTHORS|THAT)(?![A-Z0-9])|(?<![A-Z0-9])(?:ARGU|SHOW|PROPOS|FIND|FOUND|SUGGEST|DEMONSTRAT|CLAIM|CONCLUD|INDICAT|REVEAL|IMPLI|IMPLY)[A-Z]*)[^\\n.!?]){0,80}?';
// The reader's own task, as an interruption names it, and what interrupts or outranks it.
export const OWN_TASK =
  '(?:ALL\\s+)?YOUR\\s+(?:CURRENT|PRESENT|ONGOING|MAIN|PRIMARY|ORIGINAL|USUAL|REGULAR|EXISTING)\\s+(?:TASKS?|DUTIES|ASSIGNMENTS?|ENGAGEMENT|WORKLOAD|OBJECTIVES?|MISSION|ACTIVITY|ROUTINE|RESPONSIBILITIES|WORK)(?![A-Z0-9])';
export const TASK_BREAK_STARTS =
  'PAUSE HALT STOP SUSPEND BREAK ALONGSIDE BESIDES ADDITION BEYOND NOT WHILE BEFORE ASIDE DIVERT INTERRUPT DETOUR TOP WELL EXTRA ADDITIONAL ANOTHER URGENT PRIORITIZE PRIORITISE COMPLEMENT COMPLEMENTS SUPPLEMENT EQUAL MORE'.split(
    ' ',
  );
export const TASK_BREAKS =
  'PAUSE|HALT|STOP|SUSPEND|BREAK|ALONGSIDE|BESIDES|ADDITION\\s+TO|BEYOND|NOT\\s+JUST|WHILE|BEFORE|ASIDE|DIVERT|INTERRUPT|DETOUR|TOP\\s+OF|WELL\\s+AS|EXTRA|ADDITIONAL|ANOTHER|URGENT|PRIORITI[SZ]E|COMPLEMENTS?|SUPPLEMENT|EQUAL\\s+IMPORTANCE|MORE\\s+(?:IMPORTANT|URGENT)';
export const TASKS_TO_COME =
  '(?:ADDITIONAL|EXTRA|ANOTHER|URGENT|NEW|FOLLOWING|UPCOMING|NEXT|SUBSEQUENT|ENSUING|FORTHCOMING)\\s+(?:[A-Z]+\\s+)?(?:TASKS?|INSTRUCTIONS?|ASSIGNMENTS?|DIRECTIVES?|ORDERS|COMMANDS|ONE)';
/** The nouns whose misspellings the override rule reads. */
export const MISSPELT = ['INSTRUCTION', 'INSTRUCTIONS'];

/** Whether a and b differ by one letter added, dropped or changed, or by two neighbours swapped. */
export function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length)
    return (
      a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2))
    );
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
export const QUESTION_WEIGHT = 0.3;
export const ENCODED_WEIGHT = 0.35;

export const verbs = alt(all(OVERRIDE_VERBS));
/**
 * Not after a negation ("do not ignore the instructions", "Ne zanemarite upute"), nor after French
 * elision ("N'ignorez pas"): an order to follow instructions is no order to drop them.
 */
export const NOT_NEGATED = `(?<!(?:${B}${alt(all(NEGATIONS))}\\s+|${B}N['\\u2019]))`;
export const nouns = alt(all(INSTRUCTION_NOUNS));
export const infinitiveNouns = alt(Object.keys(OVERRIDE_INFINITIVES).flatMap((lang) => INSTRUCTION_NOUNS[lang] ?? []));
export const verbLastNouns = Object.keys(OVERRIDE_VERBS_LAST).flatMap((lang) => INSTRUCTION_NOUNS[lang] ?? []);

// The shared phrases each rule below reads (../text/phrases.ts names the readings).
export const EARLIER = phrasesFor(EARLIER_WORDS, 'detector');
export const VOID_NOUNS = phrasesFor(INSTRUCTION_WORDS, 'void');
export const QUALIFIERS = phrasesFor(ROLE_QUALIFIERS, 'detector');
export const NEW_NOUNS = phrasesFor(INSTRUCTION_WORDS, 'new_instructions');
export const FOR_NOUNS = phrasesFor(INSTRUCTION_WORDS, 'for');
export const ROLE_TAGS = phrasesFor(ROLE_NAMES, 'tag');
export const HEADERS = phrasesFor(HEADER_WORDS, 'detector');
export const LABELS = phrasesFor(ROLE_NAMES, 'label');
export const LABEL_SUFFIXES = phrasesFor(ROLE_SUFFIXES, 'label');
export const BRACKETED = phrasesFor(ROLE_NAMES, 'bracket');
export const BRACKETED_SUFFIXES = phrasesFor(ROLE_SUFFIXES, 'bracket');
export const MODES = phrasesFor(PERSONA_MODES, 'detector');
export const SOFTWARE_MODES = phrasesFor(PERSONA_MODES, 'software');
export const TITLES = phrasesFor(AUTHORITY_TITLES, 'detector');

/**
 * Not the prose of someone saying something ("we can say that", "they
 * state that"): a forced reply is an imperative, so a subject or a modal
 * just before the verb makes it a statement.
 */
export const NOT_STATED =
  '(?<!(?:WE|I|THEY|YOU|HE|SHE|IT|ONE|CAN|COULD|WOULD|MAY|MIGHT|SHOULD|WILL|TO|MUST|DID|DO|DOES)\\s+)';

/**
 * The words that may stand before what is sent out in an exfiltration. After
 * a verb that is also a form's label only these, not "your": a form reads
 * "Email: your password", an order "e-mail the password".
 */
export const FORM_DETERMINER =
  "THE|MY|OUR|ALL|ANY|FULL|WHOLE|ENTIRE|COMPLETE|CURRENT|LAST|PREVIOUS|THIS|USER['\u2019]?S?";
/** After any other verb, "your" and "of" ("send all of your messages") too. */
export const SENT_DETERMINER = `${FORM_DETERMINER}|YOUR|OF`;
export const SENT_OUT =
  'CONVERSATION|CHAT\\s+HISTORY|CHAT\\s+LOG|TRANSCRIPT|PASSWORDS?|CREDENTIALS|API\\s+KEYS?|ACCESS\\s+TOKENS?|SECURITY\\s+CODES?|SESSION\\s+(?:TOKENS?|COOKIES?)|COOKIES|SYSTEM\\s+PROMPT|INBOX|CONTACTS|MESSAGES\\s+(?:YOU|IN)|FILES\\s+YOU|CONTENTS\\s+OF\\s+(?:THE|YOUR|ALL|MY|THIS)\\s+(?:INBOX|FILES?|DRIVE|FOLDER|CONVERSATION|CHAT)';
