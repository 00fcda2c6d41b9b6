import { describe, expect, it } from 'vitest';
import { eventId } from '../../src/events/event-id.js';

describe('eventId', () => {
  it('names the type, the encoded subject and its revision, and an index when given', () => {
    expect(eventId('hypothesis_assessed', 'h/1 ü', 3)).toBe('hypothesis_assessed/h%2F1%20%C3%BC/r3');
    expect(eventId('citation_unverified', 'r-1', 0, 4)).toBe('citation_unverified/r-1/r0/4');
  });

  it("uses a goal's text digest as its version, as it is", () => {
    expect(eventId('goal_assessed', 'g:1', { digest: '0123456789abcdef' })).toBe(
      'goal_assessed/g%3A1/0123456789abcdef',
    );
  });
});
