/**
 * The linear model of the detector: one weight per hashed word unigram and
 * bigram and per signal kind (scan.ts), trained by
 * scripts/train-injection-model.ts; the weights are in model-weights.ts:
 * the words' as signed bytes times a scale, the kinds' as numbers.
 */
import type { ModelInput } from './scan.js';
import { HASHED } from './scan.js';
import { BIAS, KIND_WEIGHTS, SCALE, WEIGHTS } from './model-weights.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes base64 without Buffer or atob, so the module runs anywhere. */
function decodeBase64(s: string, length: number): Int8Array {
  const value = new Int8Array(256);
  for (let i = 0; i < ALPHABET.length; i++) value[ALPHABET.charCodeAt(i)] = i;
  const out = new Uint8Array(length);
  let bits = 0;
  let acc = 0;
  let k = 0;
  for (let i = 0; i < s.length && k < length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x3d) break;
    acc = (acc << 6) | value[c]!;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[k++] = (acc >> bits) & 0xff;
    }
  }
  return new Int8Array(out.buffer);
}

/**
 * The word weights are bytes times a scale, as stored: the pass reads them
 * at random, and 64 kB of bytes stay in a cache where floats would not. The
 * signal kinds' weights, a few large values, are stored exactly, so that
 * they do not coarsen the bytes' scale.
 */
export const MODEL: ModelInput = {
  weights: decodeBase64(WEIGHTS, HASHED),
  scale: SCALE,
  kinds: Float64Array.from(KIND_WEIGHTS),
  bias: BIAS,
};
