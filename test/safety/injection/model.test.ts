import { describe, expect, it } from 'vitest';
import { CLASS_NAMES } from '../../../src/safety/injection/classes.js';
import { MODEL_FORMAT, ModelShapeError, loadModel, type ModelFile } from '../../../src/safety/injection/model.js';
import { MODEL_FILE } from '../../../src/safety/injection/model-weights.js';
import { RULE_SIGNAL_KINDS } from '../../../src/safety/injection/rules.js';
import { HASHED, KIND_FEATURES, WINDOW_SIZES } from '../../../src/safety/injection/scan.js';

/** The shipped file with one field changed. */
const changed = (patch: Partial<ModelFile>): ModelFile => ({ ...MODEL_FILE, ...patch });

describe('the model file', () => {
  it('records what it was trained with, and fits the code', () => {
    expect(MODEL_FILE.format).toBe(MODEL_FORMAT);
    expect(MODEL_FILE.corpusDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(MODEL_FILE.codeRevision).not.toBe('');
    expect(MODEL_FILE.kinds).toEqual(RULE_SIGNAL_KINDS);
    expect(MODEL_FILE.classes).toEqual(CLASS_NAMES);
    const model = loadModel(MODEL_FILE);
    expect(model.words).toHaveLength(HASHED);
    expect(model.kinds).toHaveLength(KIND_FEATURES);
    expect(model.bias).toHaveLength(WINDOW_SIZES.length);
  });

  it.each<[string, Partial<ModelFile>, RegExp]>([
    ['a kind the code does not have', { kinds: [...RULE_SIGNAL_KINDS, 'new_kind'] }, /rule kinds/],
    ['kinds in another order', { kinds: [...RULE_SIGNAL_KINDS].reverse() }, /rule kinds/],
    ['a class missing', { classes: CLASS_NAMES.slice(1) }, /word classes/],
    ['other window sizes', { windowSizes: [16, 32] }, /window sizes/],
    ['another hashing', { hashed: HASHED / 2 }, /hashed features/],
    ['a presence weight missing', { kindWeights: MODEL_FILE.kindWeights.slice(1) }, /presence weights/],
    ['a bias missing', { bias: MODEL_FILE.bias.slice(1) }, /biases/],
    ['a weight that is no number', { bias: [Number.NaN, ...MODEL_FILE.bias.slice(1)] }, /finite/],
    ['words cut short', { words: MODEL_FILE.words.slice(0, 1000) }, /word weights/],
    ['words that are not base64', { words: `*${MODEL_FILE.words.slice(1)}` }, /base64/],
    ['another format', { format: MODEL_FORMAT + 1 }, /format/],
  ])('refuses %s, naming what differs, with a stable code', (_, patch, message) => {
    let thrown: unknown;
    try {
      loadModel(changed(patch));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ModelShapeError);
    expect((thrown as ModelShapeError).code).toBe('INJECTION_MODEL_MISMATCH');
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).toContain('npm run train:injection');
  });
});
