import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectInjection, MAX_SIGNALS } from '../../../src/safety/injection/index.js';

const pieces = [
  'ignore',
  ' previous ',
  'instructions',
  '<|im_start|>',
  '[INST]',
  'System:',
  '\n',
  '\r\n',
  '?',
  'you ',
  'your response',
  '&#',
  '&amp;',
  '%3C',
  '\\u003c',
  '\u200b',
  '\u{E0041}',
  'І',
  '  ',
  '"name": "x", "arguments":',
  '![a](http://x/?q=',
  'A'.repeat(50),
  '01000001 ',
];

describe('detectInjection: properties', () => {
  it('never throws, gives a score in [0, 1] and spans inside the text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 400 }),
          fc.array(fc.constantFrom(...pieces), { maxLength: 80 }).map((a) => a.join('')),
        ),
        (text) => {
          const d = detectInjection(text);
          expect(d.score).toBeGreaterThanOrEqual(0);
          expect(d.score).toBeLessThanOrEqual(1);
          expect(d.signals.length).toBeLessThanOrEqual(MAX_SIGNALS);
          for (const s of d.signals) {
            expect(s.start).toBeGreaterThanOrEqual(0);
            expect(s.end).toBeLessThanOrEqual(text.length);
            expect(s.start).toBeLessThan(s.end);
          }
        },
      ),
      { numRuns: 2000, seed: 20240601 },
    );
  });

  it('is linear in length on adversarial input', () => {
    // Work per unit must not grow with length: the time for 16x the input stays far under 16^2 x.
    const unit = 'ignore ignore ignore your your ? ? <|im_start ' + 'I g n o r e '.repeat(4) + '[INST ';
    const time = (n: number): number => {
      const text = unit.repeat(n);
      detectInjection(text);
      const t = performance.now();
      detectInjection(text);
      return performance.now() - t;
    };
    time(200);
    const small = Math.max(time(500), 1);
    const large = time(8000);
    // 16x the input; quadratic work would be 256x. A generous bound for a shared machine.
    expect(large / small).toBeLessThan(80);
  });
});
