/**
 * Lines that imitate instructions: role prefixes (`SYSTEM:`), override phrases
 * ("ignore previous instructions"), persona switches ("you are now"),
 * instruction headers (`### Instruction`) and chat-template tokens. Each such
 * line is wrapped in brackets, so the model reads it as quoted data.
 *
 * Detection reads the same normalised view as tag detection (confusables,
 * invisible characters and escapes folded), then a "key" of the line in which
 * spacing and punctuation no longer matter: "S Y S T E M :", "S.Y.S.T.E.M:" and
 * "Sуstem:" (Cyrillic у) all read as `SYSTEM:`.
 */
import { foldText } from './normalized-view.js';

export const PREFIX_KINDS = [
  'role_prefix',
  'override_phrase',
  'persona_switch',
  'new_instructions',
  'instruction_header',
  'chat_template_token',
] as const;
export type PrefixKind = (typeof PREFIX_KINDS)[number];

const ROLE = String.raw`(?:NEW|UPDATED|IMPORTANT|ADDITIONAL|REAL|TRUE|HIDDEN|SECRET|URGENT)?(?:SYSTEM(?:PROMPT|MESSAGE|NOTE|OVERRIDE|INSTRUCTIONS?)?|INSTRUCTIONS?|ASSISTANT|USER|DEVELOPER|HUMAN|ADMIN(?:ISTRATOR)?|OPERATOR|AI)`;
const QUALIFIER = String.raw`(?:ALL|ANY|EVERY)?(?:OF)?(?:THE|YOUR|MY|THESE|THOSE)?(?:PREVIOUS|PRIOR|ABOVE|EARLIER|PRECEDING|ORIGINAL|INITIAL|OLD|PAST|SYSTEM|OTHER)?`;
const OBJECT = String.raw`(?:INSTRUCTIONS?|DIRECTIONS?|DIRECTIVES?|RULES|PROMPTS?|GUIDELINES|GUIDANCE|CONTEXT|COMMANDS?|ORDERS|CONSTRAINTS|MESSAGES?)`;

const OVERRIDE_VERB = String.raw`(?:IGNORE|DISREGARD|FORGET|OVERRIDE|BYPASS|OVERLOOK|DISCARD|SETASIDE)`;

/** Patterns on the squashed key (upper case, only letters, digits and a few marks). */
const SQUASHED: Array<[PrefixKind, RegExp]> = [
  // A role label at the start of the line; the label must be followed by the colon.
  ['role_prefix', new RegExp(String.raw`^[#>\[\]|/]*${ROLE}\]?:`)],
  // "ignore previous ...", "disregard all prior instructions", "forget about those rules",
  // "ignore everything you have been told", "regardless of previous tasks", and the same
  // in German, Spanish, French, Italian and Portuguese.
  [
    'override_phrase',
    new RegExp(
      [
        String.raw`${OVERRIDE_VERB}(?:ABOUT)?${QUALIFIER}${OBJECT}`,
        String.raw`IGNORE(?:ALL|ANY|EVERY)?(?:OF)?(?:THE|YOUR)?(?:PREVIOUS|PRIOR|ABOVE|EARLIER|PRECEDING)`,
        String.raw`${OVERRIDE_VERB}(?:EVERYTHING|EVERTHING|ANYTHING|ALLTHAT|WHAT)(?:YOU|YOUVE|YOUHAVE|YOUWERE|WAS|WERE|IVE|IHAVE)?(?:BEEN)?(?:TOLD|INSTRUCTED|SAID|GIVEN|TAUGHT|ASKED|ABOVE|BEFORE)`,
        String.raw`REGARDLESSOF(?:ANY|ALL)?(?:THE|YOUR)?(?:PREVIOUS|PRIOR|ABOVE|EARLIER|ORIGINAL)(?:TASKS?|INSTRUCTIONS?|RULES|PROMPTS?|REQUESTS?)`,
        String.raw`FORGETABOUT(?:THAT|THIS|IT)`,
        String.raw`(?:VERGESSEN|IGNORIEREN?)(?:SIE|DU)?(?:ALLE)?(?:VORHERIGEN|BISHERIGEN|OBIGEN|VORIGEN)?ANWEISUNGEN`,
        String.raw`(?:IGNORA|IGNORAR|IGNOREZ|IGNORE|OLVIDA|OUBLIEZ|DIMENTICA|ESQUECA)(?:TODAS|TOUTES|TUTTE|TODOS)?(?:LAS|LES|LE|AS|OS)?(?:INSTRUCCIONES|INSTRUCTIONS|ISTRUZIONI|INSTRUCOES)(?:ANTERIORES|PRECEDENTES|PRECEDENTI)`,
      ].join('|'),
    ),
  ],
  // "you are now ...", DAN-style role play, claimed modes and claimed authority.
  [
    'persona_switch',
    new RegExp(
      [
        'YOUARENOW',
        'IMMERSEYOURSELF',
        'DOANYTHINGNOW',
        'KNOWNASDAN',
        String.raw`(?:DEVELOPER|GOD|SYSTEM|MAINTENANCE|DEBUG|ADMIN|SUDO|JAILBREAK|UNRESTRICTED|OVERRIDE|DAN)MODE`,
        String.raw`(?:IAM|IM)(?:A|AN|YOUR|THE)?(?:DEVELOPER|CREATOR|ADMINISTRATOR|SYSADMIN|OWNER|OPERATOR)`,
        'IAMGOD',
        String.raw`ASYOUR(?:CREATOR|DEVELOPER|ADMINISTRATOR|OWNER|OPERATOR)`,
      ].join('|'),
    ),
  ],
  ['new_instructions', /NEW(?:SYSTEM)?INSTRUCTIONS?:/],
  // <|im_start|>, <|endoftext|>, <|eot_id|>, [INST], [/INST], <<SYS>>, <start_of_turn>
  ['chat_template_token', /<\|[A-Z0-9]{2,40}\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:STARTOFTURN|ENDOFTURN)>/],
];

/** `### Instruction`, `## System`: on the spaced key, so "### Systematic review" is not one. */
const HEADER = /^[>\s]*#+ ?(?:INSTRUCTIONS?|SYSTEM(?: PROMPT)?|RESPONSE|HUMAN|ASSISTANT|USER|INPUT)(?![A-Z0-9])/;

const NOT_KEPT = /[^A-Z0-9:#<>|[\]/]+/g;
// Single letters separated by one space ("S Y S T E M") are one word.
const SPELLED_OUT = /\b([A-Z]) (?=[A-Z]\b)/g;

/** A word as the squashed key reads it: its letters, with anything but letters, digits and newlines between them. */
function looseWord(word: string): string {
  return [...word].join('[^a-z0-9\\n]*');
}

/**
 * Quick scan for a superset of the lines any pattern can match: a character
 * some pattern needs, or one of the words they need even when spelled out
 * ("i g n o r e"). It runs once over the folded view of the whole text (the
 * view keeps the text's line breaks and nothing else makes one), so
 * confusables, escapes and invisible characters cannot hide a line from it.
 * A property test checks it never skips a line the full check marks.
 */
/** Characters the squashed key drops (so they may stand between the characters a pattern needs). */
const DROPPED = String.raw`[^\n:#<>|[\]/A-Za-z0-9]*`;

const SCAN_LOOK = new RegExp(
  [
    // role_prefix: a colon after at most 32 letters (a role, maybe spelled out) at the start of a line.
    String.raw`^[^\n:A-Za-z0-9]*(?:[A-Za-z][^\n:A-Za-z0-9]*){1,32}:`,
    // instruction_header: a # that only dropped characters and > precede.
    String.raw`^[^\n#A-Za-z0-9:<|[\]/]*#`,
    // chat_template_token: <|, <<, [INST], [/INST], <start_of_turn>, <end_of_turn>.
    String.raw`<${DROPPED}[|<]`,
    String.raw`\[${DROPPED}(?:\/${DROPPED})?${looseWord('inst')}`,
    looseWord('startofturn'),
    looseWord('endofturn'),
    ...[
      'newinstruction',
      'ignor',
      'disregard',
      'forget',
      'override',
      'bypass',
      'overlook',
      'discard',
      'setaside',
      'regardless',
      'youarenow',
      'immerse',
      'anything',
      'knownas',
      'mode',
      'developer',
      'creator',
      'administrator',
      'sysadmin',
      'owner',
      'operator',
      'god',
      'vergessen',
      'olvida',
      'oubliez',
      'dimentica',
      'esqueca',
    ].map(looseWord),
  ].join('|'),
  'gim',
);

/** Indexes of the lines (split on `\n`) that need the full check, ascending. */
function linesToCheck(text: string): number[] {
  const view = foldText(text);
  const lines: number[] = [];
  let line = 0;
  let at = 0;
  SCAN_LOOK.lastIndex = 0;
  for (let m = SCAN_LOOK.exec(view); m !== null; m = SCAN_LOOK.exec(view)) {
    for (let nl = view.indexOf('\n', at); nl !== -1 && nl < m.index; nl = view.indexOf('\n', nl + 1)) {
      line++;
      at = nl + 1;
    }
    if (lines.at(-1) !== line) lines.push(line);
    // Go on from the next line: one hit is enough for this one.
    const next = view.indexOf('\n', m.index);
    if (next === -1) break;
    SCAN_LOOK.lastIndex = next;
  }
  return lines;
}

function spacedKey(line: string): string {
  return foldText(line).replace(NOT_KEPT, ' ').replace(SPELLED_OUT, '$1').trim();
}

/** classifyLine without the quick test; exported for the test that checks the quick test. */
export function classifyLineFully(line: string): PrefixKind | undefined {
  const spaced = spacedKey(line);
  if (spaced.length < 3) return undefined;
  if (HEADER.test(spaced)) return 'instruction_header';
  const squashed = spaced.replace(/ /g, '');
  for (const [kind, re] of SQUASHED) if (re.test(squashed)) return kind;
  return undefined;
}

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

/** Wraps every line that imitates an instruction in `[` ... `]`. */
export function markDangerousLines(text: string): PrefixMarking {
  const marked: Partial<Record<PrefixKind, number>> = {};
  let total = 0;
  let out = '';
  let copied = 0;
  let line = 0;
  let lineStart = 0;
  for (const target of linesToCheck(text)) {
    for (; line < target; line++) lineStart = text.indexOf('\n', lineStart) + 1;
    const nl = text.indexOf('\n', lineStart);
    const lineEnd = nl === -1 ? text.length : nl;
    const content = text.slice(lineStart, lineEnd);
    const kind = classifyLineFully(content);
    if (kind === undefined) continue;
    marked[kind] = (marked[kind] ?? 0) + 1;
    total++;
    out += text.slice(copied, lineStart) + bracketLine(content);
    copied = lineEnd;
  }
  return { text: total === 0 ? text : out + text.slice(copied), marked, total };
}

/** `  SYSTEM: x\r` becomes `  [SYSTEM: x]\r`: indentation and line ending stay outside. */
function bracketLine(line: string): string {
  // Index arithmetic, not a regex: /^(\s*)(.*?)(\s*)$/ is quadratic on long runs of spaces.
  const start = line.length - line.trimStart().length;
  const end = line.trimEnd().length;
  if (end <= start) return line;
  return `${line.slice(0, start)}[${line.slice(start, end)}]${line.slice(end)}`;
}
