/**
 * Encoded runs read decoded: an instruction in ROT13, leetspeak, Morse, pig
 * latin, reversed text, base64 or hex bytes (decode.ts finds and decodes
 * them in the view), or smuggled in Unicode tag characters (invisible, so
 * absent from the view: read here from the text), is read again as the
 * plain text it encodes, by the same pass and model.
 */
import { foldText } from '../text/normalized-view.js';
import { decodedSegments, type Encoding } from './decode.js';
import { readView, type Reading } from './scan.js';

export interface DecodedRun {
  encoding: Encoding | 'unicode_tags';
  /** The encoded run: in the view, or for Unicode tags in the original text (`inText`). */
  from: number;
  to: number;
  inText: boolean;
}

/** Tag characters that stand for printable ASCII (U+E0020–U+E007E), as UTF-16: the high surrogate, then the low's range. */
const TAG_HIGH = 0xdb40;
const TAG_LOW_FIRST = 0xdc20;
const TAG_LOW_LAST = 0xdc7e;
/** A run of tags shorter than this spells no instruction (flag emoji use tag sequences of a few). */
const TAG_MIN = 8;

/** Runs of Unicode tag characters in `text`, decoded to the ASCII they stand for. */
export function tagRuns(text: string): Array<{ from: number; to: number; text: string }> {
  const runs: Array<{ from: number; to: number; text: string }> = [];
  let i = text.indexOf(String.fromCharCode(TAG_HIGH));
  while (i !== -1 && i < text.length) {
    const from = i;
    let ascii = '';
    while (i + 1 < text.length && text.charCodeAt(i) === TAG_HIGH) {
      const low = text.charCodeAt(i + 1);
      if (low < TAG_LOW_FIRST || low > TAG_LOW_LAST) break;
      ascii += String.fromCharCode(low - 0xdc00);
      i += 2;
    }
    if (ascii.length >= TAG_MIN) runs.push({ from, to: i, text: ascii });
    i = text.indexOf(String.fromCharCode(TAG_HIGH), Math.max(i, from + 1));
  }
  return runs;
}

/**
 * Calls `read` with the reading of each decoded run of `text` (whose view is
 * `view`), and the run. The reading is the pass's own buffers, valid until
 * the next pass: score it in `read`, or keep a copy (keepReading).
 */
export function forEachDecoded(text: string, view: string, read: (reading: Reading, run: DecodedRun) => void): void {
  for (const s of decodedSegments(view))
    read(readView(s.text), { encoding: s.encoding, from: s.from, to: s.to, inText: false });
  for (const t of tagRuns(text))
    read(readView(foldText(t.text)), { encoding: 'unicode_tags', from: t.from, to: t.to, inText: true });
}
