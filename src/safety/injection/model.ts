/**
 * The detector's model, a reviewed artefact: one weight per hashed word
 * unigram and bigram and per presence feature (scan.ts), and one bias per
 * window size, trained by scripts/train-injection-model.ts into
 * model-weights.ts. The file's header records what it was trained with (the
 * corpus digest, the code revision) and the shape the code must have to read
 * it: the window sizes, the number of hashed features, and the names of the
 * rules' kinds and of the word classes, in order. loadModel refuses a file
 * whose shape is not the code's, so a kind added to the rules without
 * retraining fails at start-up instead of scoring its attacks 0.
 */
import { CosciError } from '../../errors.js';
import { CLASS_NAMES } from './classes.js';
import { RULE_SIGNAL_KINDS } from './rules.js';
import { HASHED, KIND_FEATURES, WINDOW_SIZES, type ModelInput } from './scan.js';

/** The format of model-weights.ts this code reads. */
export const MODEL_FORMAT = 2;

export interface ModelFile {
  format: number;
  /** SHA-256 of the training data as read (the texts, in order, with their labels). */
  corpusDigest: string;
  /** The code's revision (git) when trained; `unknown` outside a checkout. */
  codeRevision: string;
  trainedOn: string;
  windowSizes: readonly number[];
  hashed: number;
  /** The rules' signal kinds, in the order of their features. */
  kinds: readonly string[];
  /** The word classes, in the order of their features. */
  classes: readonly string[];
  bias: readonly number[];
  /** One weight per presence feature: the kinds, the classes, then the class pairs (first class major). */
  kindWeights: readonly number[];
  /** The words' weights are signed bytes times this. */
  scale: number;
  /** The words' weights, HASHED signed bytes, base64. */
  words: string;
}

/** The model file does not fit the code: retrain (`npm run train:injection -- <corpus-dir>`). */
export class ModelShapeError extends CosciError {
  override readonly name = 'ModelShapeError';
  constructor(message: string) {
    super('INJECTION_MODEL_MISMATCH', `${message}; retrain the model with npm run train:injection`);
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes base64 without Buffer or atob, so the module runs anywhere; the number of bytes decoded. */
function decodeBase64(s: string, out: Uint8Array): number {
  const value = new Int16Array(256).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) value[ALPHABET.charCodeAt(i)] = i;
  let bits = 0;
  let acc = 0;
  let k = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x3d) break;
    const v = c < 256 ? value[c]! : -1;
    if (v < 0) throw new ModelShapeError(`the model's words are not base64 (at ${i})`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      if (k === out.length) return k + 1;
      out[k++] = (acc >> bits) & 0xff;
    }
  }
  return k;
}

function same(name: string, found: readonly (string | number)[], expected: readonly (string | number)[]): void {
  if (found.length !== expected.length || found.some((x, i) => x !== expected[i]))
    throw new ModelShapeError(
      `the model's ${name} are [${found.join(', ')}] but the code's are [${expected.join(', ')}]`,
    );
}

/**
 * The model as the scoring reads it, from a model file; throws
 * ModelShapeError when the file's shape is not the code's. The words' weights
 * stay bytes: the scoring reads them at random, and 64 kB of bytes stay in a
 * cache where floats would not.
 */
export function loadModel(file: ModelFile): ModelInput {
  if (file.format !== MODEL_FORMAT)
    throw new ModelShapeError(`the model file's format is ${file.format}, this code reads ${MODEL_FORMAT}`);
  same('window sizes', file.windowSizes, WINDOW_SIZES);
  same('rule kinds', file.kinds, RULE_SIGNAL_KINDS);
  same('word classes', file.classes, CLASS_NAMES);
  if (file.hashed !== HASHED)
    throw new ModelShapeError(`the model has ${file.hashed} hashed features, the code ${HASHED}`);
  if (file.bias.length !== WINDOW_SIZES.length)
    throw new ModelShapeError(`the model has ${file.bias.length} biases for ${WINDOW_SIZES.length} window sizes`);
  if (file.kindWeights.length !== KIND_FEATURES)
    throw new ModelShapeError(`the model has ${file.kindWeights.length} presence weights, the code ${KIND_FEATURES}`);
  const numbers = [...file.bias, ...file.kindWeights, file.scale];
  if (numbers.some((x) => typeof x !== 'number' || !Number.isFinite(x)))
    throw new ModelShapeError('the model holds a weight that is not a finite number');
  const bytes = new Uint8Array(HASHED);
  const read = decodeBase64(file.words, bytes);
  if (read !== HASHED) throw new ModelShapeError(`the model has ${read} word weights, the code ${HASHED}`);
  return {
    words: new Int8Array(bytes.buffer),
    scale: file.scale,
    kinds: Float64Array.from(file.kindWeights),
    bias: [...file.bias],
  };
}
