/**
 * The cache keys are what a deploy keeps between versions: a change of how
 * they are computed silently empties the cache (every text is asked again).
 */
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../src/classifier/assessment-cache.js';

describe('cacheKey', () => {
  it('is the SHA-256 of model, prompt version, label, window and text, NUL-separated', () => {
    // Computed once from the documented composition; pinned so that a rewrite of the hashing keeps the keys.
    expect(
      cacheKey({
        model: 'claude-haiku-4-5',
        promptVersion: 'v1',
        label: 'hypothesis',
        window: '0/1',
        text: 'Kinase X lowers granules.',
      }),
    ).toBe('a995037f46891618a12dad0ecd4e9b7aa623edd7b1c56323f9592d52808ac2e0');
  });

  it('differs when any part differs, or when a character moves from one part to the next', () => {
    const base = { model: 'm', promptVersion: 'v', label: 'hypothesis', window: '0/1', text: 'abc' };
    const keys = new Set([
      cacheKey(base),
      cacheKey({ ...base, model: 'm2' }),
      cacheKey({ ...base, promptVersion: 'v2' }),
      cacheKey({ ...base, label: 'goal' }),
      cacheKey({ ...base, window: '0/2' }),
      cacheKey({ ...base, text: 'abd' }),
      cacheKey({ ...base, window: '0/1a', text: 'bc' }),
    ]);
    expect(keys.size).toBe(7);
  });
});
