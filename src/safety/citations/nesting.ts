/**
 * A linear-time guard against pages that would make the HTML parse quadratic.
 *
 * htmlparser2 (10.x, the parser under cheerio/slim) keeps its stack of open
 * elements with `Array.unshift` and `Array.shift`, which move the whole stack
 * for every element opened or closed, and finds the element an end tag
 * closes with `indexOf` over that stack. A page that leaves N elements open
 * so costs N²/2 moves: a megabyte of nested `<div>`s, or of `<li><p>` pairs,
 * holds the parser for minutes. Browsers cap the nesting (Blink at 512
 * levels); htmlparser2 does not.
 *
 * This scan replays what the parser does with its stack, with the parser's
 * own rules (node_modules/htmlparser2/src/Parser.ts and Tokenizer.ts): which
 * start tags close which open elements (`openImpliesClose`: a `<p>` closes an
 * open `<p>` only when that `<p>` is the innermost element, so `<li><p><li><p>`
 * nests), void elements, self-closing tags inside SVG and MathML only, the
 * implied `<p>` of a stray `</p>`, tag names as the tokenizer cuts them, and
 * the text of comments, CDATA, declarations, attribute values and raw-text
 * elements. It adds up the work the parser would do and refuses the page,
 * before parsing, past a budget proportional to its size.
 *
 * Where the replay cannot be exact it errs towards more work, never less: a
 * page the parser would find cheap may be refused, a quadratic one never
 * passes. In particular it ends a raw-text element at the first end tag the
 * tokenizer could take for it, and a declaration at its first `>`; and it
 * tells names apart by their characters, never by a hash alone, since names
 * that collide would let `<a></b>` pass for a closed element.
 *
 * The scan is linear in the page and allocates nothing per tag for names it
 * has met: it runs on every page.
 */

/** Elements that never hold content: the parser does not stack them. */
const VOID = new Set([
  'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex',
  'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr',
]); // prettier-ignore

const P = new Set(['p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const TABLE_SECTION = new Set(['thead', 'tbody']);
const DD_DT = new Set(['dd', 'dt']);
const RT_RP = new Set(['rt', 'rp']);

/**
 * htmlparser2's `openImpliesClose`: a start tag closes the innermost open
 * element while that element is in its set, and no further.
 */
const IMPLIES_CLOSE = new Map<string, Set<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ['select', FORM],
  ['input', FORM],
  ['output', FORM],
  ['button', FORM],
  ['datalist', FORM],
  ['textarea', FORM],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DD_DT],
  ['dt', DD_DT],
  ['rt', RT_RP],
  ['rp', RT_RP],
  ['tbody', TABLE_SECTION],
  ['tfoot', TABLE_SECTION],
  ...[
    'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'address', 'article', 'aside', 'blockquote', 'details', 'div',
    'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre',
    'section', 'table', 'ul',
  ].map((name): [string, Set<string>] => [name, P]),
]); // prettier-ignore

/** Elements in which `<x/>` closes itself (foreign content); their end tags pop that context. */
const FOREIGN = new Set(['math', 'svg']);
/** Elements inside foreign content whose children are HTML again. */
const HTML_INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);

/**
 * Elements whose content the tokenizer reads as text up to their end tag,
 * with the end tags it may take for theirs. The tokenizer compares each
 * character `c` as `c | 0x20`, so `\x1c` passes for `<` and `\x0f` for `/`:
 * the patterns accept those too, so the scan never reads on past an end the
 * tokenizer found.
 */
const RAW_TEXT = new Map(
  ['script', 'style', 'title', 'textarea', 'xmp'].map((name) => [
    name,
    new RegExp(`[<\\x1c][/\\x0f]${name}[\\t\\n\\f\\r >]`, 'gi'),
  ]),
);

const GT = 0x3e;
const SLASH = 0x2f;
const EQ = 0x3d;
const DQ = 0x22;
const SQ = 0x27;

/** The tokenizer's whitespace (not \v, not NUL). */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

function lowerAscii(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}

/** Whether the ASCII characters from `start` are `name` (lower case), ignoring ASCII case. */
function sameName(html: string, start: number, name: string): boolean {
  for (let k = 0; k < name.length; k++) if (lowerAscii(html.charCodeAt(start + k)) !== name.charCodeAt(k)) return false;
  return true;
}

function isAsciiAlpha(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** What the parser does with an element of one name, and how many of them are open. */
interface Kind {
  readonly name: string;
  readonly isVoid: boolean;
  /** The names this start tag closes (htmlparser2's `openImpliesClose`). */
  readonly closes: Set<string> | undefined;
  /** 1: opens foreign content; 2: an HTML integration point; 0: neither. */
  readonly context: 0 | 1 | 2;
  /** The end tags of a raw-text element. */
  readonly rawEnd: RegExp | undefined;
  /** Open now. */
  open: number;
}

/** The parser's stack of open elements, innermost last, with the cost of each operation on its own. */
class OpenElements {
  /** Innermost last (the parser keeps them innermost first). */
  private readonly elements: Kind[] = [];
  /** SVG and MathML contexts: true inside foreign content, false inside an HTML integration point. */
  private readonly foreign: boolean[] = [false];
  /**
   * The record of each name met, by a hash of the name, so that a tag costs
   * no string of its own: this runs on every page. Names with the same hash
   * are told apart by comparing their characters.
   */
  private readonly kinds = new Map<number, Kind[]>();
  /** Where the last name read by {@link readName} ends. */
  nameEnd = 0;
  work = 0;

  /**
   * The record of the tag name that starts at `start` and ends at the first
   * character `stop` accepts (or the end of the text), lower-cased as the
   * parser does.
   */
  readName(html: string, start: number, stop: (c: number) => boolean): Kind {
    let hash = 0;
    let ascii = true;
    let end = start;
    for (; end < html.length; end++) {
      const c = html.charCodeAt(end);
      if (stop(c)) break;
      if (c >= 0x80) ascii = false;
      hash = (Math.imul(hash, 31) + lowerAscii(c)) | 0;
    }
    this.nameEnd = end;
    const length = end - start;
    const known = this.kinds.get(hash);
    if (known !== undefined && ascii) {
      for (const kind of known) if (kind.name.length === length && sameName(html, start, kind.name)) return kind;
    }
    // The parser lower-cases with toLowerCase, by Unicode rules: so does this,
    // and then compares whole strings.
    const name = html.slice(start, end).toLowerCase();
    if (known !== undefined) for (const kind of known) if (kind.name === name) return kind;
    const kind: Kind = {
      name,
      isVoid: VOID.has(name),
      closes: IMPLIES_CLOSE.get(name),
      context: FOREIGN.has(name) ? 1 : HTML_INTEGRATION.has(name) ? 2 : 0,
      rawEnd: RAW_TEXT.get(name),
      open: 0,
    };
    if (known !== undefined) known.push(kind);
    else this.kinds.set(hash, [kind]);
    return kind;
  }

  top(): Kind | undefined {
    return this.elements[this.elements.length - 1];
  }

  inForeignContent(): boolean {
    return this.foreign[this.foreign.length - 1] === true;
  }

  /** `unshift`: every element already open moves. */
  private push(kind: Kind): void {
    this.work += this.elements.length;
    this.elements.push(kind);
    kind.open++;
    if (kind.context !== 0) {
      this.work += this.foreign.length;
      this.foreign.push(kind.context === 1);
    }
  }

  /**
   * `shift`. V8 can drop the first element of an array in place, but not of
   * one in its large-object space (over about 16,000 elements, exactly the
   * stacks this guards against): counted as moving the rest.
   */
  pop(): void {
    const kind = this.elements.pop()!;
    this.work += this.elements.length + 1;
    kind.open--;
  }

  /** The parser's `emitOpenTag`. */
  open(kind: Kind): void {
    const closes = kind.closes;
    if (closes !== undefined) {
      for (let top = this.top(); top !== undefined && closes.has(top.name); top = this.top()) this.pop();
    }
    if (!kind.isVoid) this.push(kind);
  }

  /** The parser's `onclosetag`. */
  close(kind: Kind): void {
    if (kind.context !== 0) {
      // An end tag of a foreign element or integration point leaves its context, matched or not.
      this.work += this.foreign.length;
      this.foreign.pop();
    }
    if (kind.isVoid) return;
    if (kind.open > 0) {
      // indexOf finds it `k` places down; the k elements above it and it are shifted off.
      for (;;) {
        const top = this.top()!;
        this.work++;
        this.pop();
        if (top === kind) return;
      }
    }
    this.work += this.elements.length; // an indexOf that finds nothing
    if (kind.name === 'p') {
      // `</p>` with no open <p>: the parser opens one and closes it at once.
      this.open(kind);
      this.pop();
    }
  }
}

/** Where a start tag ends, and whether it ends with `/>`; -1 when the text ends first. */
interface TagEnd {
  at: number;
  selfClosing: boolean;
}

/**
 * Follows the tokenizer through the attributes of a start tag from `from`
 * (the character that ended its name) to its `>`. Quoted values may hold `>`
 * and `<`; an unquoted one ends at whitespace or `>`, and `/` in it is text.
 */
function startTagEnd(html: string, from: number): TagEnd {
  const n = html.length;
  let i = from;
  for (;;) {
    // Before an attribute name.
    while (i < n && isSpace(html.charCodeAt(i))) i++;
    if (i >= n) return { at: -1, selfClosing: false };
    let c = html.charCodeAt(i);
    if (c === GT) return { at: i, selfClosing: false };
    if (c === SLASH) {
      // `/`, whitespace, then `>` closes the tag; anything else starts an attribute name.
      i++;
      while (i < n && isSpace(html.charCodeAt(i))) i++;
      if (i >= n) return { at: -1, selfClosing: false };
      if (html.charCodeAt(i) === GT) return { at: i, selfClosing: true };
      continue;
    }
    // The attribute name runs to `=`, whitespace, `/` or `>`.
    while (i < n) {
      c = html.charCodeAt(i);
      if (c === EQ || c === SLASH || c === GT || isSpace(c)) break;
      i++;
    }
    while (i < n && isSpace(html.charCodeAt(i))) i++;
    if (i >= n) return { at: -1, selfClosing: false };
    if (html.charCodeAt(i) !== EQ) continue; // no value: `/`, `>` or the next name
    i++;
    while (i < n && isSpace(html.charCodeAt(i))) i++;
    if (i >= n) return { at: -1, selfClosing: false };
    c = html.charCodeAt(i);
    if (c === DQ || c === SQ) {
      const close = html.indexOf(c === DQ ? '"' : "'", i + 1);
      if (close < 0) return { at: -1, selfClosing: false };
      i = close + 1;
    } else {
      while (i < n) {
        c = html.charCodeAt(i);
        if (c === GT || isSpace(c)) break;
        i++;
      }
    }
  }
}

const endsStartTagName = (c: number) => c === SLASH || c === GT || isSpace(c);
const endsEndTagName = (c: number) => c === GT || isSpace(c);

/**
 * The parser's work on its stack of open elements for `html`, in element
 * moves and comparisons. With `limit`, the scan stops once the work passes
 * it and returns what it has counted so far.
 */
export function nestingWork(html: string, limit = Infinity): number {
  const stack = new OpenElements();
  const n = html.length;
  let at = html.indexOf('<');
  while (at >= 0 && at + 1 < n && stack.work <= limit) {
    const c = html.charCodeAt(at + 1);
    if (c === 0x21 /* ! */) {
      let end: number;
      if (html.startsWith('--', at + 2)) {
        // The dashes of `<!--` count towards `-->`: `<!-->` is a whole comment.
        end = html.indexOf('-->', at + 2);
        if (end >= 0) end += 2;
      } else if (html.startsWith('[CDATA[', at + 2)) {
        end = html.indexOf(']]>', at + 9);
        if (end >= 0) end += 2;
      } else {
        end = html.indexOf('>', at + 2);
      }
      if (end < 0) break;
      at = html.indexOf('<', end + 1);
    } else if (c === 0x3f /* ? */) {
      const end = html.indexOf('>', at + 2);
      if (end < 0) break;
      at = html.indexOf('<', end + 1);
    } else if (c === SLASH) {
      let i = at + 2;
      while (i < n && isSpace(html.charCodeAt(i))) i++;
      if (i >= n) break;
      const first = html.charCodeAt(i);
      if (first === GT) {
        at = html.indexOf('<', i + 1);
        continue;
      }
      // `</` and anything but a letter is a bogus comment up to `>`.
      if (isAsciiAlpha(first)) {
        const kind = stack.readName(html, i, endsEndTagName);
        if (stack.nameEnd >= n) break;
        stack.close(kind);
        i = stack.nameEnd;
      }
      const gt = html.indexOf('>', i);
      if (gt < 0) break;
      at = html.indexOf('<', gt + 1);
    } else if (isAsciiAlpha(c)) {
      const kind = stack.readName(html, at + 1, endsStartTagName);
      if (stack.nameEnd >= n) break;
      stack.open(kind);
      const tag = startTagEnd(html, stack.nameEnd);
      if (tag.at < 0) break;
      at = html.indexOf('<', tag.at + 1);
      if (tag.selfClosing) {
        // Only in SVG and MathML does `/>` close an element; in HTML it is ignored.
        if (stack.inForeignContent() && stack.top() === kind) stack.pop();
        continue;
      }
      const raw = kind.rawEnd;
      if (raw !== undefined) {
        raw.lastIndex = tag.at + 1;
        const close = raw.exec(html);
        if (close === null) break;
        stack.close(kind);
        const gt = html.indexOf('>', close.index + 2 + kind.name.length);
        if (gt < 0) break;
        at = html.indexOf('<', gt + 1);
      }
    } else {
      at = html.indexOf('<', at + 1);
    }
  }
  return stack.work;
}

/**
 * Work allowed per character of HTML, plus a fixed allowance (about 8 000
 * nested elements) for small, deep pages. Real pages stay orders of magnitude
 * below: they nest a few dozen levels and close what they open.
 */
const WORK_PER_CHAR = 16;
const BASE_WORK = 32_000_000;

/** Whether parsing `html` would cost more than a page of its size should. */
export function tooDeeplyNested(html: string): boolean {
  const budget = BASE_WORK + WORK_PER_CHAR * html.length;
  return nestingWork(html, budget) > budget;
}
