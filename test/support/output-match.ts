/**
 * Compares what a command printed with what the docs show it printing,
 * tolerantly, as a reader reads an example:
 *
 * - `...` stands for anything: a value (`"id":"..."`), the rest of an object
 *   or an array (`{"type":"x",...}`), or part of a string or a line;
 * - `…words…` (an ellipsis, a note, an ellipsis) stands for what the note
 *   describes; an ISO 8601 time stands for any time;
 * - an object shown without `...` has those keys and no others, each key
 *   shown has the value shown; whitespace between words matches any.
 *
 * Output is compared as records: the whole output when it is one JSON value
 * (an indented object), else each non-empty line; stdout's, then stderr's,
 * as a terminal shows both. The expected lines must match records in order;
 * others may come between.
 */

type Pattern =
  | { kind: 'any' }
  | { kind: 'object'; members: Array<[string, Pattern]>; open: boolean }
  | { kind: 'array'; items: Pattern[]; open: boolean }
  | { kind: 'string'; re: RegExp }
  | { kind: 'literal'; value: number | boolean | null };

const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g;

/** A regular expression for a text with wildcards, matching the whole of a text. */
function textPattern(text: string): RegExp {
  let source = '';
  const parts = text.split(/(\.\.\.|…[^…]*…|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z|\s+)/);
  for (const part of parts) {
    if (part === '') continue;
    if (part === '...' || part.startsWith('…')) source += '[\\s\\S]*?';
    else if (ISO_TIME.test(part)) source += ISO_TIME.source;
    else if (/^\s+$/.test(part)) source += '\\s+';
    else source += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    ISO_TIME.lastIndex = 0;
  }
  return new RegExp(`^${source}$`);
}

class PatternParser {
  private i = 0;
  constructor(private readonly text: string) {}

  parse(): Pattern {
    const p = this.value();
    this.space();
    if (this.i !== this.text.length) this.fail('text after the value');
    return p;
  }

  private fail(what: string): never {
    throw new Error(`expected output ${JSON.stringify(this.text)}: ${what} at ${this.i}`);
  }

  private space(): void {
    while (/\s/.test(this.text[this.i] ?? '')) this.i++;
  }

  private ellipsis(): boolean {
    this.space();
    if (this.text.startsWith('...', this.i)) {
      this.i += 3;
      return true;
    }
    return false;
  }

  private expect(c: string): void {
    this.space();
    if (this.text[this.i] !== c) this.fail(`"${c}" expected`);
    this.i++;
  }

  private peek(): string | undefined {
    this.space();
    return this.text[this.i];
  }

  private rawString(): string {
    this.space();
    const m = /^"(?:[^"\\]|\\.)*"/.exec(this.text.slice(this.i));
    if (!m) this.fail('a string expected');
    this.i += m[0].length;
    return JSON.parse(m[0]) as string;
  }

  private value(): Pattern {
    if (this.ellipsis()) return { kind: 'any' };
    const c = this.peek();
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') {
      const s = this.rawString();
      return s === '...' ? { kind: 'any' } : { kind: 'string', re: textPattern(s) };
    }
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.text.slice(this.i));
    if (!m) this.fail('a value expected');
    this.i += m[0].length;
    return { kind: 'literal', value: JSON.parse(m[0]) as number | boolean | null };
  }

  private object(): Pattern {
    this.expect('{');
    const members: Array<[string, Pattern]> = [];
    let open = false;
    if (this.peek() === '}') {
      this.i++;
      return { kind: 'object', members, open };
    }
    for (;;) {
      if (this.ellipsis()) open = true;
      else {
        const key = this.rawString();
        this.expect(':');
        members.push([key, this.value()]);
      }
      if (this.peek() === ',') this.i++;
      else break;
    }
    this.expect('}');
    return { kind: 'object', members, open };
  }

  private array(): Pattern {
    this.expect('[');
    const items: Pattern[] = [];
    let open = false;
    if (this.peek() === ']') {
      this.i++;
      return { kind: 'array', items, open };
    }
    for (;;) {
      if (this.ellipsis()) open = true;
      else items.push(this.value());
      if (this.peek() === ',') this.i++;
      else break;
    }
    this.expect(']');
    return { kind: 'array', items, open };
  }
}

function matches(p: Pattern, actual: unknown): boolean {
  switch (p.kind) {
    case 'any':
      return true;
    case 'literal':
      return actual === p.value;
    case 'string':
      return typeof actual === 'string' && p.re.test(actual);
    case 'array': {
      if (!Array.isArray(actual)) return false;
      if (!p.open) return actual.length === p.items.length && p.items.every((item, k) => matches(item, actual[k]));
      let k = 0;
      for (const item of p.items) {
        while (k < actual.length && !matches(item, actual[k])) k++;
        if (k++ >= actual.length) return false;
      }
      return true;
    }
    case 'object': {
      if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
      const record = actual as Record<string, unknown>;
      if (!p.open && Object.keys(record).length !== p.members.length) return false;
      return p.members.every(([key, value]) => key in record && matches(value, record[key]));
    }
  }
}

/** The line read as a JSON value with wildcards, or undefined when it is text (such as `[SYSTEM: ...]`). */
function jsonPattern(shown: string): Pattern | undefined {
  if (!shown.startsWith('{') && !shown.startsWith('[')) return undefined;
  try {
    return new PatternParser(shown).parse();
  } catch {
    return undefined;
  }
}

/** True when one record of output matches one expected line. */
export function matchesLine(expected: string, record: string): boolean {
  const shown = expected.trim();
  const pattern = jsonPattern(shown);
  if (pattern) {
    let actual: unknown;
    try {
      actual = JSON.parse(record);
    } catch {
      return false;
    }
    return matches(pattern, actual);
  }
  return textPattern(shown).test(record.trim());
}

/** The records of an output: the whole of it when it is one JSON value, else its non-empty lines. */
export function records(output: string): string[] {
  const whole = output.trim();
  if (whole.includes('\n') && (whole.startsWith('{') || whole.startsWith('['))) {
    try {
      JSON.parse(whole);
      return [whole];
    } catch {
      // Several values, one a line.
    }
  }
  return output.split('\n').filter((l) => l.trim() !== '');
}

/**
 * Undefined when the output shows every expected line, in order; else what
 * is missing, with the output, for the failure message.
 */
export function missingOutput(expected: readonly string[], stdout: string, stderr = ''): string | undefined {
  const got = [...records(stdout), ...records(stderr)];
  const output = stderr === '' ? stdout : `${stdout}\n--- stderr\n${stderr}`;
  let k = 0;
  for (const line of expected) {
    while (k < got.length && !matchesLine(line, got[k]!)) k++;
    if (k >= got.length) return `no output line matches ${JSON.stringify(line)} (in order); the output:\n${output}`;
    k++;
  }
  return undefined;
}
