/** The review page's words for claim support (src/safety/review/claim-support-text.ts). */
import { describe, expect, it } from 'vitest';
import { CLAIM_DEGRADED_REASONS, CLAIM_VERDICTS } from '../../../src/safety/claims/index.js';
import { CLAIM_BADGES, claimSupportText } from '../../../src/safety/review/claim-support-text.js';

describe('the words of claim support', () => {
  it('gives each verdict its own badge and line, and never calls an unclear claim supported', () => {
    const badges = CLAIM_VERDICTS.map((v) => CLAIM_BADGES[v]);
    expect(new Set(badges).size).toBe(CLAIM_VERDICTS.length);
    const lines = CLAIM_VERDICTS.map((verdict) => claimSupportText({ verdict, degraded: false }));
    expect(new Set(lines).size).toBe(CLAIM_VERDICTS.length);
    expect(claimSupportText({ verdict: 'unclear', degraded: true, reason: 'no_api_key' })).toBe(
      'No judgement could be had: the claim is not taken as supported. (no API key is configured)',
    );
  });

  it('says why for every reason a verdict can be degraded', () => {
    const whys = CLAIM_DEGRADED_REASONS.map((reason) =>
      claimSupportText({ verdict: 'unclear', degraded: true, reason }),
    );
    for (const why of whys) expect(why).toMatch(/\(.+\)$/);
    expect(new Set(whys).size).toBe(CLAIM_DEGRADED_REASONS.length);
    // A contradiction found with a sentence not judged says both.
    expect(claimSupportText({ verdict: 'contradicted', degraded: true, reason: 'timeout' })).toBe(
      'The page text around the excerpt says otherwise than the claim. (the judge did not answer in time)',
    );
  });
});
