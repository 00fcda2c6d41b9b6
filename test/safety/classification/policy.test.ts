import { describe, expect, it } from 'vitest';
import { decideAction, type ClassifierPolicy } from '../../../src/safety/classification/index.js';

const policy: ClassifierPolicy = {
  blockCategories: ['cbrn', 'csam', 'weapons', 'illicit_synthesis'],
  warnCategories: ['dual_use_bio'],
  quarantineThreshold: 0.6,
  onError: 'quarantine',
};

describe('action rule', () => {
  const table: Array<[string[], number, string]> = [
    [['none'], 0.99, 'allow'],
    [['none'], 0.1, 'allow'],
    [['cbrn'], 0.1, 'block'],
    [['csam'], 0.5, 'block'],
    [['weapons'], 0.9, 'block'],
    [['illicit_synthesis'], 0.3, 'block'],
    [['dual_use_bio'], 0.6, 'quarantine'],
    [['dual_use_bio'], 0.95, 'quarantine'],
    [['dual_use_bio'], 0.59, 'warn'],
    [['dual_use_bio', 'cbrn'], 0.2, 'block'],
    [['none', 'dual_use_bio'], 0.7, 'quarantine'],
  ];
  for (const [categories, confidence, action] of table) {
    it(`${categories.join('+')} at ${confidence} -> ${action}`, () => {
      expect(decideAction({ categories: categories as never, confidence }, policy)).toBe(action);
    });
  }

  it('takes the lists and threshold from the policy', () => {
    const custom: ClassifierPolicy = {
      ...policy,
      blockCategories: ['dual_use_bio'],
      warnCategories: ['weapons'],
      quarantineThreshold: 0.9,
    };
    expect(decideAction({ categories: ['dual_use_bio'], confidence: 0.1 }, custom)).toBe('block');
    expect(decideAction({ categories: ['weapons'], confidence: 0.8 }, custom)).toBe('warn');
    expect(decideAction({ categories: ['weapons'], confidence: 0.9 }, custom)).toBe('quarantine');
    // A flagged category in neither list is allowed, as the rule says.
    expect(decideAction({ categories: ['cbrn'], confidence: 0.99 }, custom)).toBe('allow');
  });
});
