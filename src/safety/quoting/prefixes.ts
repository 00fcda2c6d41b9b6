/**
 * Lines that imitate instructions: role prefixes (`SYSTEM:`), override phrases
 * ("ignore previous instructions"), persona switches ("you are now"),
 * instruction headers (`### Instruction`) and chat-template tokens. Each such
 * line is wrapped in brackets, so the model reads it as quoted data.
 *
 * Detection reads the same normalised view as tag detection (confusables,
 * colon lookalikes, invisible characters and escapes folded), then a "key" of
 * the line in which spacing and punctuation no longer matter: "S Y S T E M :",
 * "S.Y.S.T.E.M:", "S/Y/S/T/E/M:", "Sуstem:" (Cyrillic у) and "SYSTEM꞉"
 * (U+A789) all read as `SYSTEM:`.
 *
 * A line ends at any line terminator: LF, CR LF, CR, VT, FF, NEL, U+2028 and
 * U+2029. A model may start a new turn after any of them, so each starts a
 * line that is checked on its own.
 *
 * The words of the patterns (role names, verbs of disregard, instruction
 * words, modes, titles, header words) are the phrases the injection detector
 * reads too, from the one table of them (../text/phrases.ts); only quoting's
 * own forms (the squashed phrases, the other languages' overrides, the tags)
 * are written here.
 */
import { foldText, scanText } from '../text/normalized-view.js';
import {
  AUTHORITY_TITLES,
  EARLIER_WORDS,
  HEADER_WORDS,
  INSTRUCTION_WORDS,
  OVERRIDE_VERBS_EN,
  PERSONA_MODES,
  ROLE_NAMES,
  ROLE_QUALIFIERS,
  ROLE_SUFFIXES,
  phrasesFor,
  type PhraseKind,
} from '../text/phrases.js';

/** The kinds of line marked, as cosci-safety/quoting reports them (the report's prefixKinds, the test vectors). */
export const PREFIX_KINDS = [
  'role_prefix',
  'override_phrase',
  'persona_switch',
  'new_instructions',
  'instruction_header',
  'chat_template_token',
] as const;
export type PrefixKind = (typeof PREFIX_KINDS)[number];

/**
 * The public name of each kind of the shared phrases (../text/phrases.ts).
 * A claim of authority is a persona switch here; `instruction_header`, a
 * header line (`### Instruction`), is quoting's own, which the detector counts
 * as a chat template.
 */
const PREFIX_KIND_OF = {
  override: 'override_phrase',
  new_instructions: 'new_instructions',
  persona: 'persona_switch',
  authority_claim: 'persona_switch',
  role_label: 'role_prefix',
  chat_template: 'chat_template_token',
} as const satisfies Record<PhraseKind, PrefixKind>;

/**
 * An alternation of phrases in which a phrase and the longer ones it begins
 * share it (`ADMIN(?:ISTRATOR)?`, `INSTRUCTIONS?`): the regex reads their
 * common letters once, which matters at every line start (ROLE_AT_START).
 */
function alternation(phrases: readonly string[]): string {
  // Each phrase goes with the shortest phrase of the list that begins it, in the order the groups first appear.
  const groups = new Map<string, string[]>();
  for (const p of new Set(phrases)) {
    const root = phrases.filter((q) => p.startsWith(q)).reduce((a, b) => (b.length < a.length ? b : a));
    groups.set(root, [...(groups.get(root) ?? []), p.slice(root.length)]);
  }
  return [...groups]
    .map(([root, tails]) => {
      const rest = tails.filter((t) => t !== '');
      if (rest.length === 0) return root;
      return rest.length === 1 && rest[0]!.length === 1 ? `${root}${rest[0]}?` : `${root}(?:${rest.join('|')})?`;
    })
    .join('|');
}
/** A shared phrase as the squashed key reads it: capitals and digits only. */
const squash = (phrase: string): string => phrase.replace(/[^A-Z0-9]/g, '');
/** A shared phrase as the line's view reads it, as a pattern. */
const literal = (phrase: string): string => phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** An alternation of squashed phrases. */
const squashAll = (phrases: readonly string[]): string => alternation(phrases.map(squash));

/**
 * The names a turn or a role goes by (the chat roles, and the model named:
 * `Claude:`, `Model:`), those of prefix_suffix with a suffix (`System prompt:`).
 * `between` is what may stand between a name and its suffix.
 */
function roleNames(form: (phrase: string) => string, between: string): string {
  const suffixed = phrasesFor(ROLE_NAMES, 'prefix_suffix');
  const suffixes = alternation(phrasesFor(ROLE_SUFFIXES, 'prefix').map(form));
  const plain = phrasesFor(ROLE_NAMES, 'prefix').filter((name) => !suffixed.includes(name));
  return [...suffixed.map((name) => `${form(name)}(?:${between}(?:${suffixes}))?`), alternation(plain.map(form))].join(
    '|',
  );
}
const ROLE_NAME = roleNames(squash, '');
const ROLE = `(?:${squashAll(phrasesFor(ROLE_QUALIFIERS, 'prefix'))})?(?:${ROLE_NAME})`;
const QUALIFIER = String.raw`(?:ALL|ANY|EVERY)?(?:OF)?(?:THE|YOUR|MY|THESE|THOSE)?(?:${squashAll(phrasesFor(EARLIER_WORDS, 'override'))})?`;
const OBJECT = `(?:${squashAll(phrasesFor(INSTRUCTION_WORDS, 'override'))})`;

const OVERRIDE_VERB = `(?:${squashAll(phrasesFor(OVERRIDE_VERBS_EN, 'quoting'))})`;

/** The marks the squashed key keeps that may stand around and between the letters of a role label. */
const ROLE_MARKS = String.raw`[#<>\[\]|/]*`;

/**
 * A role label with any of ROLE_MARKS between its letters, so `[SYSTEM]:`,
 * `S/Y/S/T/E/M:` and `<SYS|TEM>:` read as `SYSTEM:`. Every literal letter of
 * ROLE is followed by the marks (an optional letter `S?` becomes
 * `(?:S marks)?`); the letters are the only characters of ROLE besides
 * groups, alternation and `?`.
 */
const ROLE_SPELLED = ROLE.replace(/([A-Z])(\?)?/g, (_, letter: string, optional?: string) =>
  optional ? `(?:${letter}${ROLE_MARKS})?` : `${letter}${ROLE_MARKS}`,
);
/** A role label, after marks and a list number (`1) System:`), from the start of a squashed line. */
const ROLE_LABEL = `${ROLE_MARKS}(?:[0-9]{1,3}${ROLE_MARKS})?${ROLE_SPELLED}`;
/** A role label and its colon. */
const ROLE_PREFIX = `${ROLE_LABEL}:`;

/** Patterns on the squashed key (upper case, only letters, digits and a few marks). */
const SQUASHED: Array<[PhraseKind, RegExp]> = [
  // A role label at the start of the line; the label must be followed by the colon.
  ['role_label', new RegExp(`^${ROLE_PREFIX}`)],
  // A role label in square brackets at the start of the line, with no colon: `[SYSTEM_PROMPT]`, `[User]`.
  ['role_label', new RegExp(`^${ROLE_MARKS}(?:[0-9]{1,3}${ROLE_MARKS})?\\[${ROLE_SPELLED}\\]`)],
  // "ignore previous ...", "disregard all prior instructions", "forget about those rules",
  // "ignore everything you have been told", "regardless of previous tasks", and the same
  // in German, Spanish, French, Italian and Portuguese.
  [
    'override',
    new RegExp(
      [
        String.raw`${OVERRIDE_VERB}(?:ABOUT)?${QUALIFIER}${OBJECT}`,
        String.raw`IGNORE(?:ALL|ANY|EVERY)?(?:OF)?(?:THE|YOUR)?(?:${squashAll(phrasesFor(EARLIER_WORDS, 'ignore'))})`,
        String.raw`${OVERRIDE_VERB}(?:EVERYTHING|EVERTHING|ANYTHING|ALLTHAT|WHAT)(?:YOU|YOUVE|YOUHAVE|YOUWERE|WAS|WERE|IVE|IHAVE)?(?:BEEN)?(?:TOLD|INSTRUCTED|SAID|GIVEN|TAUGHT|ASKED|ABOVE|BEFORE)`,
        String.raw`REGARDLESSOF(?:ANY|ALL)?(?:THE|YOUR)?(?:${squashAll(phrasesFor(EARLIER_WORDS, 'regardless'))})(?:${squashAll(phrasesFor(INSTRUCTION_WORDS, 'regardless'))})`,
        String.raw`FORGETABOUT(?:THAT|THIS|IT)`,
        String.raw`(?:VERGESSEN|IGNORIEREN?)(?:SIE|DU)?(?:ALLE)?(?:VORHERIGEN|BISHERIGEN|OBIGEN|VORIGEN)?ANWEISUNGEN`,
        String.raw`(?:IGNORA|IGNORAR|IGNOREZ|IGNORE|OLVIDA|OUBLIEZ|DIMENTICA|ESQUECA)(?:TODAS|TOUTES|TUTTE|TODOS)?(?:LAS|LES|LE|AS|OS)?(?:INSTRUCCIONES|INSTRUCTIONS|ISTRUZIONI|INSTRUCOES)(?:ANTERIORES|PRECEDENTES|PRECEDENTI)`,
      ].join('|'),
    ),
  ],
  // "you are now ...", DAN-style role play and claimed modes.
  [
    'persona',
    new RegExp(
      [
        'YOUARENOW',
        'IMMERSEYOURSELF',
        'DOANYTHINGNOW',
        'KNOWNASDAN',
        `(?:${squashAll(phrasesFor(PERSONA_MODES, 'quoting'))})MODE`,
        'IAMGOD',
      ].join('|'),
    ),
  ],
  // Claimed authority: "I'm your developer", "as your creator".
  [
    'authority_claim',
    new RegExp(
      [
        `(?:IAM|IM)(?:A|AN|YOUR|THE)?(?:${squashAll(phrasesFor(AUTHORITY_TITLES, 'i_am'))})`,
        `ASYOUR(?:${squashAll(phrasesFor(AUTHORITY_TITLES, 'as_your'))})`,
      ].join('|'),
    ),
  ],
  ['new_instructions', new RegExp(`NEW(?:SYSTEM)?(?:${squashAll(phrasesFor(INSTRUCTION_WORDS, 'new'))}):`)],
  // <|im_start|>, <|endoftext|>, <|eot_id|>, [INST], [/INST], <<SYS>>, <start_of_turn>
  ['chat_template', /<\|[A-Z0-9]{2,40}\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:STARTOFTURN|ENDOFTURN)>/],
];

/**
 * Patterns on the line's view itself (upper case, white space made single
 * spaces), for the forms the squashed key cannot tell from prose: a role
 * label followed by a dash, an arrow or a parenthesis (`System -`, `System —`,
 * `System>`, `System (priority):`), where `System-wide` and `System x` are
 * prose; a role or tool tag (`<system>`, `</user><assistant>`,
 * `<system-reminder>`, `</function_results>`); and a role object of JSON,
 * YAML or TOML (`{"role": "system", ...}`, `- role: user`).
 */
const LEAD = String.raw`^[\s>#*•·|_~-]*(?:\(?[0-9]{1,3}[.)\]]\s*)?(?:\*\*|__)?\s*`;
const ROLE_WORD = String.raw`(?:(?:${alternation(phrasesFor(ROLE_QUALIFIERS, 'prefix_line').map(literal))}) ?)?(?:${roleNames(literal, ' ?')})(?:\*\*|__)? ?`;
const DASH = '[-‐‑‒–—―−]{1,3}';
const ROLE_TAGS = String.raw`SYSTEM(?:[-_ ]?(?:REMINDER|PROMPT|MESSAGE|INSTRUCTIONS?))?|USER(?:[-_ ]?(?:QUERY|INPUT|MESSAGE))?|ASSISTANT(?:[-_ ]?(?:RESPONSE|MESSAGE))?|HUMAN|DEVELOPER|INSTRUCTIONS?|FUNCTION[-_ ]?(?:RESULTS?|CALLS?)|FUNCTIONS|TOOL[-_ ]?(?:RESULTS?|USE|CALLS?|RESPONSE)`;
const ROLE_VALUES = alternation(phrasesFor(ROLE_NAMES, 'value').map(literal));
const ON_VIEW: Array<[PhraseKind, RegExp]> = [
  [
    'role_label',
    new RegExp(`${LEAD}${ROLE_WORD}(?:${DASH}(?= |$)|-?>|=>|[(\\[{][^)\\]}]{0,60}[)\\]}] ?(?::|${DASH}|>))`),
  ],
  // A tag: the name, then `>` or attributes (`name=`); not the `<< human CRH >>` of an entity's markup.
  ['chat_template', new RegExp(`(?<!<)< ?/? ?(?:${ROLE_TAGS})(?: [A-Z][A-Z0-9_:-]* ?= ?[^<>]{0,200})? ?/?>(?!>)`)],
  ['role_label', new RegExp(`(?:^|[^A-Z0-9_])ROLE["']? ?[:=] ?["']?(?:${ROLE_VALUES})["']? ?(?:[,}\\]]|$)`)],
];
/** What sends a line to the ON_VIEW patterns, on the squashed text: a superset of what they match. */
/**
 * Searched apart from ANYWHERE_RE: two more alternatives there made that
 * search of every text twice as slow, and each of these starts with a rare
 * `<` or a whole word.
 */
const ON_VIEW_TRIGGERS = [
  String.raw`<\/?(?:SYSTEM|USER|ASSISTANT|HUMAN|DEVELOPER|INSTRUCTION|FUNCTION|TOOL)`,
  `ROLE:?(?:${ROLE_VALUES})`,
];

/** `### Instruction`, `## System`: on the spaced key, so "### Systematic review" is not one. */
const HEADER = new RegExp(
  String.raw`^[>\s]*#+ ?(?:${alternation(phrasesFor(HEADER_WORDS, 'quoting').map(literal))})(?![A-Z0-9])`,
);

const NOT_KEPT = /[^A-Z0-9:#<>|[\]/]+/g;
// Single letters separated by one space ("S Y S T E M") are one word.
const SPELLED_OUT = /\b([A-Z]) (?=[A-Z]\b)/g;

/**
 * The quick scan. It squashes the whole text at once exactly as the full
 * check squashes one line (fold, upper case, keep only letters, digits and
 * `:#<>|[]/`), keeping the line breaks, so each line of the squashed text is
 * that line's squashed key. It then looks for a role label and colon or a `#`
 * at each line start, and runs the other patterns over the whole squashed
 * text. Only lines with a hit get the full check (which also picks the kind).
 * A property test checks that it never skips a line the full check marks.
 *
 * The patterns themselves, run over the squashed text: a single word such as
 * MODE or IGNOR picked nearly every science paragraph ("model", "ignored")
 * for the full check. The squashed text keeps line breaks and no pattern
 * matches across one, so a hit here is a hit of that line's key.
 */
const ANYWHERE_RE = new RegExp(
  SQUASHED.filter(([kind]) => kind !== 'role_label')
    .map(([, re]) => re.source)
    .map((source) => `(?:${source})`)
    .join('|'),
  'g',
);
/** A role label at the start of a line, whatever follows it: the colon, a bracket, or a dash or an arrow that the squashed key drops. */
const ROLE_AT_START = new RegExp(ROLE_LABEL, 'y');
const HEADER_AT_START = /[>]*#/y;

/**
 * 1 for the characters the squashed key keeps (upper case; scanText counts
 * lower-case letters as capitals). The line break is kept, so the squashed
 * text of a whole text holds each line's key on its own line.
 */
export const SQUASH_KEEP = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:#<>|[]/\n') SQUASH_KEEP[ch.charCodeAt(0)] = 1;

/** One line terminator of the text; CR LF is one. The view reads each as one `\n`. */
const LINE_BREAK = /\r\n|[\n\v\f\r\u0085\u2028\u2029]/g;
const OTHER_BREAK = /[\v\f\r\u0085\u2028\u2029]/;

/**
 * Indexes of the lines (split at LINE_BREAK) that need the full check,
 * ascending. `squashed` is `scanText(text, SQUASH_KEEP).kept`, when the
 * caller has it.
 */
function linesToCheck(text: string, squashed = scanText(text, SQUASH_KEEP).kept): number[] {
  // The view reads each line terminator as one `\n` and makes none of its own, so lines correspond.
  const hits = new Set<number>();
  // Line starts: a role label with its colon, or a header.
  for (let i = 0, line = 0; i <= squashed.length; line++) {
    ROLE_AT_START.lastIndex = i;
    HEADER_AT_START.lastIndex = i;
    if (ROLE_AT_START.test(squashed) || HEADER_AT_START.test(squashed)) hits.add(line);
    const nl = squashed.indexOf('\n', i);
    if (nl === -1) break;
    i = nl + 1;
  }
  // Anywhere: the trigger words, found by a few regexes over the squashed text.
  for (const re of [ANYWHERE_RE, ...ON_VIEW_RE]) {
    let line = 0;
    let nextNl = squashed.indexOf('\n');
    re.lastIndex = 0;
    for (let m = re.exec(squashed); m !== null; m = re.exec(squashed)) {
      while (nextNl !== -1 && nextNl < m.index) {
        line++;
        nextNl = squashed.indexOf('\n', nextNl + 1);
      }
      hits.add(line);
      // One hit is enough for a line: go on from the next one (also keeps a
      // single long line with many hits linear).
      if (nextNl === -1) break;
      re.lastIndex = nextNl + 1;
    }
  }
  return [...hits].sort((a, b) => a - b);
}
const ON_VIEW_RE = ON_VIEW_TRIGGERS.map((source) => new RegExp(source, 'g'));

/** classifyLine without the quick test; exported for the test that checks the quick test. */
export function classifyLineFully(line: string): PrefixKind | undefined {
  const view = foldText(line);
  const spaced = view.replace(NOT_KEPT, ' ').replace(SPELLED_OUT, '$1').trim();
  if (spaced.length >= 3) {
    if (HEADER.test(spaced)) return 'instruction_header';
    const squashed = spaced.replace(/ /g, '');
    for (const [kind, re] of SQUASHED) if (re.test(squashed)) return PREFIX_KIND_OF[kind];
  }
  const plain = view.replace(/\s+/g, ' ').replace(SPELLED_OUT, '$1');
  for (const [kind, re] of ON_VIEW) if (re.test(plain)) return PREFIX_KIND_OF[kind];
  return undefined;
}

/**
 * The lines of a dialogue in the abbreviated turn markers `H:` and `A:`: a
 * line that starts with `H:` and one that starts with `A:`, each followed by
 * something other than a digit. Either alone is ordinary text (`H: 7.21%` in
 * an elemental analysis, `A:` after `Q:` in a list of questions and answers);
 * both in one text is the turn format, and each such line is a role prefix.
 * `squashed` is the squashed text (scanText with SQUASH_KEEP).
 */
function turnLines(squashed: string): Set<number> {
  const lines = new Set<number>();
  if (!TURN.test(squashed)) return lines;
  let human = false;
  let assistant = false;
  let line = 0;
  for (let i = 0; i <= squashed.length; line++) {
    TURN_AT_START.lastIndex = i;
    const m = TURN_AT_START.exec(squashed);
    if (m !== null) {
      lines.add(line);
      if (m[1] === 'H') human = true;
      else assistant = true;
    }
    const nl = squashed.indexOf('\n', i);
    if (nl === -1) break;
    i = nl + 1;
  }
  return human && assistant ? lines : new Set();
}
const TURN = /(?:^|\n)[#<>[\]|/]*A:(?![0-9])/;
const TURN_AT_START = /[#<>[\]|/]*([HA]):(?![0-9])/y;

/** The kind of instruction the line imitates, or undefined for ordinary text. */
export function classifyLine(line: string): PrefixKind | undefined {
  if (linesToCheck(line).length === 0) return undefined;
  return classifyLineFully(line);
}

export interface PrefixMarking {
  text: string;
  /** Lines marked, by kind. */
  marked: Partial<Record<PrefixKind, number>>;
  total: number;
}

/**
 * Wraps every line that imitates an instruction in `[` ... `]`. `squashed`
 * is `scanText(text, SQUASH_KEEP).kept`, for a caller that already has it.
 */
export function markDangerousLines(text: string, squashed?: string): PrefixMarking {
  const marked: Partial<Record<PrefixKind, number>> = {};
  let total = 0;
  let out = '';
  let copied = 0;
  // The current line: its index, start and end, and the start of the next one. Each break is found once.
  let line = 0;
  let lineStart = 0;
  let lineEnd = 0;
  let next = 0;
  // Most text has no line terminator but LF: then indexOf finds each break.
  const onlyLf = !OTHER_BREAK.test(text);
  const findEnd = (): void => {
    if (onlyLf) {
      const nl = text.indexOf('\n', lineStart);
      lineEnd = nl === -1 ? text.length : nl;
      next = nl === -1 ? text.length : nl + 1;
      return;
    }
    LINE_BREAK.lastIndex = lineStart;
    const m = LINE_BREAK.exec(text);
    lineEnd = m ? m.index : text.length;
    next = m ? m.index + m[0].length : text.length;
  };
  findEnd();
  const keys = squashed ?? scanText(text, SQUASH_KEEP).kept;
  const turns = turnLines(keys);
  const targets = linesToCheck(text, keys);
  if (turns.size > 0) {
    for (const t of turns) if (!targets.includes(t)) targets.push(t);
    targets.sort((a, b) => a - b);
  }
  for (const target of targets) {
    for (; line < target; line++) {
      lineStart = next;
      findEnd();
    }
    const content = text.slice(lineStart, lineEnd);
    const kind = classifyLineFully(content) ?? (turns.has(target) ? PREFIX_KIND_OF.role_label : undefined);
    if (kind === undefined) continue;
    marked[kind] = (marked[kind] ?? 0) + 1;
    total++;
    out += text.slice(copied, lineStart) + bracketLine(content);
    copied = lineEnd;
  }
  return { text: total === 0 ? text : out + text.slice(copied), marked, total };
}

/** `  SYSTEM: x ` becomes `  [SYSTEM: x] `: indentation and trailing space stay outside. */
function bracketLine(line: string): string {
  // Index arithmetic, not a regex: /^(\s*)(.*?)(\s*)$/ is quadratic on long runs of spaces.
  const start = line.length - line.trimStart().length;
  const end = line.trimEnd().length;
  if (end <= start) return line;
  return `${line.slice(0, start)}[${line.slice(start, end)}]${line.slice(end)}`;
}
