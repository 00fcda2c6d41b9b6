/**
 * Layer 1 of the defence: wrapping untrusted text so the model reads it as data.
 */
import { boundaryHash, escapeId, parseKey, processKey } from './boundary.js';
import { chooseMarker, datamark, datamarkingPreamble } from './datamark.js';
import { QuotingError } from './errors.js';
import { removeInvisible, type InvisibleRemoval } from '../text/invisible.js';
import { markDangerousLines, SQUASH_KEEP, type PrefixKind } from './prefixes.js';
import { buildView, scanText } from '../text/normalized-view.js';
import { findTags, MAY_OPEN_CLASS, tagsOfView, viewHasTag, type TagSpan } from './tags.js';
import { detectOnView, type InjectionDetection } from '../injection/detect.js';

/** What replaces a removed tag: no bracket, so no new tag can form around it. */
export const TAG_PLACEHOLDER = '[tag removed]';

/** What one call neutralised, for logs and attack counters. */
export interface QuotingReport {
  /** Tags of ours (in any disguise) replaced by the placeholder. */
  tagsRemoved: number;
  /** Invisible code points removed (zero-width, bidi, Unicode Tag block, ...). */
  invisibleRemoved: number;
  /** Lines wrapped in brackets because they imitate instructions. */
  prefixesMarked: number;
  /** Those lines by kind. */
  prefixKinds: Partial<Record<PrefixKind, number>>;
  /** Lone surrogates replaced by U+FFFD. */
  malformedReplaced: number;
  /** True when anything at all was changed. */
  neutralised: boolean;
  /**
   * What the injection detector found in the text as given (offsets into it),
   * unless detection was turned off with `detect: false`. Detection changes
   * nothing in the content.
   */
  injection?: InjectionDetection;
}

export interface NeutralizeOptions {
  /**
   * Run the injection detector (src/safety/injection/) and put its result in
   * `report.injection`. It reads the view quoting already built, and costs a
   * fraction of quoting's own time (docs/benchmarks.md); `false` skips it.
   * @defaultValue true
   */
  detect?: boolean;
  /**
   * Score at or above which `report.injection.suspected` is true.
   * @defaultValue DEFAULT_INJECTION_THRESHOLD
   */
  injectionThreshold?: number;
}

export interface Neutralised {
  /** The content, safe to put between our tags. */
  content: string;
  report: QuotingReport;
}

function replaceSpans(text: string, spans: TagSpan[], placeholder = TAG_PLACEHOLDER): string {
  let out = '';
  let at = 0;
  for (const { start, end } of spans) {
    out += text.slice(at, start) + placeholder;
    at = end;
  }
  return out + text.slice(at);
}

// Characters that can open a tag in the view; used only by the last-resort pass.
const ANY_OPENER = new RegExp(MAY_OPEN_CLASS, 'gu');

/**
 * Removes tags until none is left, for text that a step after the first
 * removal changed: each pass can only shorten what it removes, so one pass
 * is the rule, and a fourth would be a bug, answered by replacing every
 * possible opener.
 */
function removeRemainingTags(input: string, placeholder: string): { text: string; removed: number } {
  let text = input;
  let removed = 0;
  for (let pass = 0; ; pass++) {
    const spans = findTags(text);
    if (spans.length === 0) break;
    if (pass === 3) {
      // Unreachable by the property tests; if it is ever reached, fail safe.
      text = text.replace(ANY_OPENER, '\ufffd');
      break;
    }
    removed += spans.length;
    text = replaceSpans(text, spans, placeholder);
  }
  return { text, removed };
}

/**
 * Makes untrusted text safe to put between boundary tags: removes our tags in
 * every disguise, removes invisible characters, and brackets lines that
 * imitate instructions.
 */
export function neutralize(input: string, options: NeutralizeOptions = {}): Neutralised {
  if (typeof input !== 'string') {
    throw new QuotingError('QUOTING_BAD_INPUT', `text must be a string, got ${input === null ? 'null' : typeof input}`);
  }
  let text = input;
  let malformedReplaced = 0;
  if (!text.isWellFormed()) {
    for (const _ of text.matchAll(/[\uD800-\uDFFF]/gu)) malformedReplaced++;
    text = text.toWellFormed();
  }

  // One pass of the normaliser reads the whole text. Most text holds no tag
  // of ours and nothing invisible: then it is unchanged until prefix marking,
  // which reads the squashed lines of the same pass.
  const scan = scanText(text, SQUASH_KEEP);
  // The detector reads the same view, so detection costs no second pass of the normaliser.
  const injection =
    options.detect === false
      ? undefined
      : detectOnView(text, scan.view, scan.aligned, { threshold: options.injectionThreshold });
  let tagsRemoved = 0;
  let spans: TagSpan[] = [];
  let invisible: InvisibleRemoval = { text, removed: 0 };
  let squashed: string | undefined;
  const hasTag = viewHasTag(scan.view);
  if (hasTag || scan.invisible) {
    // Tags are found on the original, so the spans cover invisible characters
    // inside them. findTags finds a tag exactly when the view holds one.
    if (hasTag) {
      spans = tagsOfView(buildView(text));
      tagsRemoved += spans.length;
      text = replaceSpans(text, spans);
    }
    invisible = removeInvisible(text);
    text = invisible.text;
  } else {
    squashed = scan.kept;
  }

  const marking = markDangerousLines(text, squashed);
  text = marking.text;

  // A tag can form after the first pass: removing an invisible character can
  // complete an escape (`&l<U+200B>t;` becomes `&lt;`). The placeholder and the
  // brackets around lines make none, but a layer that relies on an argument
  // checks it anyway. When nothing changed, the text is the one already
  // scanned, and the check is skipped.
  const changed = spans.length + invisible.removed + marking.total + malformedReplaced > 0;
  if (changed) {
    const last = removeRemainingTags(text, TAG_PLACEHOLDER);
    text = last.text;
    tagsRemoved += last.removed;
  }

  const report: QuotingReport = {
    tagsRemoved,
    invisibleRemoved: invisible.removed,
    prefixesMarked: marking.total,
    prefixKinds: marking.marked,
    malformedReplaced,
    neutralised: tagsRemoved + invisible.removed + marking.total + malformedReplaced > 0,
    ...(injection === undefined ? {} : { injection }),
  };
  return { content: text, report };
}

export interface QuoteOptions {
  /** The source's id, shown in both tags. Escaped. */
  id: string;
  /**
   * Secret key of the boundary hash: bytes or hex, at least 16 bytes.
   * @defaultValue a random key made once per process
   */
  key?: Uint8Array | string;
  /**
   * Interleave a per-call marker through the content (spotlighting by
   * datamarking); put `preamble` in the prompt beside the block.
   * @defaultValue false
   */
  datamark?: boolean;
  /**
   * Run the injection detector and put its result in `report.injection`.
   * @defaultValue true (see NeutralizeOptions.detect)
   */
  detect?: boolean;
  /** Threshold of the detector; see NeutralizeOptions. */
  injectionThreshold?: number;
}

export interface Quoted {
  /** The whole block: open tag, newline, content, newline, close tag. */
  readonly text: string;
  /** The escaped id, as it appears in both tags. */
  readonly id: string;
  /** The keyed boundary hash, as it appears in both tags. */
  readonly hash: string;
  /** The content between the tags. */
  readonly content: string;
  /** The datamarking marker, when `datamark` was set. */
  readonly marker?: string;
  /** The sentence that explains the marker, when `datamark` was set. */
  readonly preamble?: string;
  readonly report: QuotingReport;
  /** The block, so a Quoted can go straight into a template string. */
  toString(): string;
}

export type QuoteTag = 'UNTRUSTED_SOURCE' | 'HYPOTHESIS_TEXT' | 'TEXT';

/** The attribute that names a block: the source or hypothesis id, or the classifier's label of the text. */
const NAME_ATTRIBUTE: Record<QuoteTag, 'id' | 'label'> = {
  UNTRUSTED_SOURCE: 'id',
  HYPOTHESIS_TEXT: 'id',
  TEXT: 'label',
};

function quoteAs(tag: QuoteTag, input: string, options: QuoteOptions): Quoted {
  if (options === null || typeof options !== 'object') {
    throw new QuotingError('QUOTING_BAD_ID', 'options with an id are required');
  }
  const id = escapeId(options.id);
  const key = options.key === undefined ? processKey() : parseKey(options.key);
  const { content: neutral, report } = neutralize(input, {
    detect: options.detect,
    injectionThreshold: options.injectionThreshold,
  });
  let content = neutral;
  let marker: string | undefined;
  if (options.datamark) {
    marker = chooseMarker(key, id, content);
    content = datamark(content, marker);
    // Datamarking turns a run of spaces into one marker, which can shorten the
    // gap between two letters of a name until it reads as a tag again
    // (`UNTRUSTED  -_SOURCE` becomes `UNTRUSTED※-_SOURCE`).
    const last = removeRemainingTags(content, datamark(TAG_PLACEHOLDER, marker).slice(marker.length));
    if (last.removed > 0) {
      content = last.text;
      report.tagsRemoved += last.removed;
      report.neutralised = true;
    }
  }
  const hash = boundaryHash(key, tag, id, content);
  const attrs = `${NAME_ATTRIBUTE[tag]}="${id}" hash="${hash}"`;
  const text = `<${tag} ${attrs}>\n${content}\n</${tag}_END ${attrs}>`;
  return {
    text,
    id,
    hash,
    content,
    report,
    ...(marker === undefined ? {} : { marker, preamble: datamarkingPreamble(marker) }),
    toString: () => text,
  };
}

/**
 * Wraps untrusted text (a web page, a paper, another agent's output):
 * `<UNTRUSTED_SOURCE id="ID" hash="H">` newline, content, newline,
 * `</UNTRUSTED_SOURCE_END id="ID" hash="H">`.
 */
export function quoteUntrusted(text: string, options: QuoteOptions): Quoted {
  return quoteAs('UNTRUSTED_SOURCE', text, options);
}

/** Wraps a hypothesis: the same, with `HYPOTHESIS_TEXT` / `HYPOTHESIS_TEXT_END`. */
export function quoteHypothesis(text: string, id: string, options: Omit<QuoteOptions, 'id'> = {}): Quoted {
  return quoteAs('HYPOTHESIS_TEXT', text, { ...options, id });
}

/**
 * Wraps a text for the safety classifier: `<TEXT label="LABEL" hash="H">`
 * newline, content, newline, `</TEXT_END label="LABEL" hash="H">`. The same
 * keyed boundary as the other blocks, so the text can no more close this one.
 */
export function quoteText(text: string, label: string, options: Omit<QuoteOptions, 'id'> = {}): Quoted {
  return quoteAs('TEXT', text, { ...options, id: label });
}

/**
 * Checks a block made by this process (or under `key`): the tags, the id (or
 * label) and the hash all agree with the content. For callers that hold a
 * block and want to know it was not altered or forged.
 */
export function verifyQuoted(block: string, options: { key?: Uint8Array | string } = {}): boolean {
  const m =
    /^<(UNTRUSTED_SOURCE|HYPOTHESIS_TEXT|TEXT) (id|label)="([^"]*)" hash="([0-9a-f]+)">\n([\s\S]*)\n<\/\1_END \2="\3" hash="\4">$/.exec(
      block,
    );
  if (!m || NAME_ATTRIBUTE[m[1] as QuoteTag] !== m[2]) return false;
  const key = options.key === undefined ? processKey() : parseKey(options.key);
  return boundaryHash(key, m[1]!, m[3]!, m[5]!) === m[4] && findTags(m[5]!).length === 0;
}
