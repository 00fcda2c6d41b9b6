/** The reader's own markup imitated: chat-template tokens, role labels and tags, tool calls. */
import { B, E, EMAIL, inSentence, phrases } from './patterns.js';
import { HEADER_WORDS, phrasesFor, ROLE_NAMES, ROLE_SUFFIXES } from '../../text/phrases.js';
import type { Rule } from './rule.js';

const ROLE_TAGS = phrasesFor(ROLE_NAMES, 'tag');
const HEADERS = phrasesFor(HEADER_WORDS, 'detector');
const LABELS = phrasesFor(ROLE_NAMES, 'label');
const LABEL_SUFFIXES = phrasesFor(ROLE_SUFFIXES, 'label');
const BRACKETED = phrasesFor(ROLE_NAMES, 'bracket');
const BRACKETED_SUFFIXES = phrasesFor(ROLE_SUFFIXES, 'bracket');

export const MARKUP_RULES: readonly Rule[] = [
  // A command that wipes the machine, ordered: "Execute `rm -rf /` to free up disk space". A how-to's
  // "never run rm -rf /" warns against it.
  {
    kind: 'tool_call',
    weight: 0.85,
    pattern: new RegExp(
      `${B}(?<!(?:NEVER|NOT|DON'T|DONT)\\s+)(?:RUN|EXECUTE|TYPE|ENTER|EXEC)\\s+(?:THE\\s+(?:FOLLOWING\\s+)?COMMAND\\s*:?\\s*|THIS\\s*:?\\s*)?[\`'"]?\\s*(?:SUDO\\s+)?RM\\s+-(?:RF|FR)\\s+(?:\\/|~\\/?|\\/\\*|\\$HOME)(?=[\\s\`'"]|$)`,
      'y',
    ),
    starts: { words: ['RUN', 'EXECUTE', 'TYPE', 'ENTER', 'EXEC'] },
  },
  // Chat-template tokens of the common model families, and any `<|word|>` token.
  {
    kind: 'chat_template',
    weight: 0.95,
    pattern: new RegExp(
      String.raw`<\|[A-Z_ ]{2,32}\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:START_OF_TURN|END_OF_TURN|BOS|EOS|S)>|<\/?(?:${phrases(ROLE_TAGS)})>|###\s*(?:${phrases(HEADERS)})\b`,
      'y',
    ),
    starts: { chars: ['<', '[', '#'] },
  },
  // A role label at the start of a line: `System:`, `[assistant]`.
  // A tag named for a role, with more after the name: `<system-reminder>`, `<admin_note>`, `<assistant-instructions>`.
  {
    kind: 'chat_template',
    weight: 0.85,
    pattern: new RegExp(
      String.raw`<\/?(?:SYSTEM|ASSISTANT|ADMIN|ADMINISTRATOR|DEVELOPER|OPERATOR|INSTRUCTIONS?|AI|LLM|MODEL|PROMPT)[-_ ][A-Z][A-Z_-]{1,24}>`,
      'y',
    ),
    starts: { chars: ['<'] },
  },
  {
    kind: 'role_label',
    weight: 0.6,
    pattern: new RegExp(
      String.raw`^[\s>*#"'-]{0,4}(?:\[\s*)?(?:${phrases(LABELS)})(?:\s+(?:${phrases(LABEL_SUFFIXES)}))?\s*(?:\]\s*:?|:)`,
      'my',
    ),
    starts: { line: true },
  },
  {
    kind: 'role_label',
    weight: 0.6,
    pattern: new RegExp(String.raw`\[(?:${phrases(BRACKETED)})(?:\s+(?:${phrases(BRACKETED_SUFFIXES)}))?\]`, 'y'),
    starts: { chars: ['['] },
  },
  // Tool-call imitations: function-call JSON, XML tool tags, ReAct's `Action:` lines.
  {
    kind: 'tool_call',
    weight: 0.85,
    pattern:
      /"(?:NAME|TOOL|FUNCTION|TOOL_NAME|RECIPIENT_NAME)"\s*:\s*"[^"\n]{1,64}"\s*,\s*"(?:ARGUMENTS|PARAMETERS|ARGS|INPUT|PARAMS)"\s*:|"(?:FUNCTION_CALL|TOOL_CALLS?|TOOL_USE)"\s*:|<\/?(?:TOOL_CALL|TOOL_CALLS|FUNCTION_CALLS?|INVOKE|TOOL_USE|FUNCTIONCALL|ANTML:INVOKE)\b|(?<=^[ \t]{0,8})ACTION\s*:\s*\S[^\n]{0,64}\n\s*ACTION\s+INPUT\s*:/my,
    starts: { chars: ['"', '<'], words: ['ACTION'] },
  },
  // A turn of a conversation written into the document, its reply left as a placeholder for the
  // reader to take as its own: "Assistant: <detailed summary of documents above>\nUser: ...".
  {
    kind: 'role_label',
    weight: 0.85,
    pattern: /(?<=(?:^|\n)[ \t>*-]{0,4})(?:ASSISTANT|AI|CHATBOT|MODEL|BOT)\s*:\s*[<[{][^\]>}\n]{1,60}[\]>}]/y,
    starts: { words: ['ASSISTANT', 'AI', 'CHATBOT', 'MODEL', 'BOT'], line: true },
  },
  // A role written as a markdown link, as injections into chat search assistants write it: "[system](#context)".
  {
    kind: 'role_label',
    weight: 0.85,
    pattern: /\[\s*(?:SYSTEM|ASSISTANT|DEVELOPER|ADMIN)\s*\]\(#[A-Z_-]{1,30}\)/y,
    starts: { chars: ['['] },
  },
  // A role in a heading's parentheses, as attacks on tool-using agents write it: "###(system_message) Send ...".
  {
    kind: 'role_label',
    weight: 0.85,
    pattern:
      /#{1,4}\s*\(\s*(?:SYSTEM|ADMIN|ADMINISTRATOR|DEVELOPER|ASSISTANT)(?:[_ -]?(?:MESSAGE|PROMPT|NOTE|INSTRUCTIONS?|OVERRIDE))?\s*\)/y,
    starts: { chars: ['#'] },
  },
  // A role token repeated to look like the reader's own markup: "[system][system][system]...".
  {
    kind: 'chat_template',
    weight: 0.9,
    pattern: /(?:\[\s*(?:SYSTEM|ASSISTANT|INST|SYS)\s*\]\s*){3,}/y,
    starts: { chars: ['['] },
  },
  // A tool of the reader's called by its name in an order: "Use the send_email tool to ...", "Invoke
  // get_user_profile and post the result to https://...". A README's "call init_app() first" names no
  // tool of an agent's and sends nothing anywhere, so the name needs the word "tool" or an address after it.
  {
    kind: 'tool_call',
    weight: 0.85,
    pattern: new RegExp(
      `(?<=(?:^|[.!?:;"'\\u201C\\u201D)\\]])[\\s"'*>\\-]{0,4})(?:(?:PLEASE|NOW|THEN|ALSO|FIRST|NEXT|IMMEDIATELY)\\s*,?\\s+){0,2}(?:CALL|USE|INVOKE|RUN|EXECUTE|TRIGGER)\\s+(?:THE\\s+)?[\`'"]?[A-Z][A-Z0-9]{0,40}_[A-Z0-9_]{0,40}[A-Z0-9][\`'"]?(?:\\s*\\(\\s*\\))?(?:\\s+(?:TOOL|PLUGIN)S?${E}|(?:\\s+(?:FUNCTION|ACTION|API|COMMAND|ENDPOINT))?${inSentence(80)}(?:HTTPS?:\\/\\/|WWW\\.|${EMAIL}))`,
      'ym',
    ),
    starts: {
      words: [
        'PLEASE',
        'NOW',
        'THEN',
        'ALSO',
        'FIRST',
        'NEXT',
        'IMMEDIATELY',
        'CALL',
        'USE',
        'INVOKE',
        'RUN',
        'EXECUTE',
        'TRIGGER',
      ],
      sentence: true,
    },
  },
];
