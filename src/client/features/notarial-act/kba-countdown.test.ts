import { describe, expect, it } from 'vitest';
import { announcementFor, formatLeft, spokenLeft } from './kba-countdown.ts';

describe('the identity quiz countdown', () => {
  it('shows minutes and seconds', () => {
    expect([120, 75, 9, 0].map(formatLeft)).toEqual(['2:00', '1:15', '0:09', '0:00']);
  });

  it('speaks at 90, 60, 30 and 10 seconds only, once each', () => {
    const spoken: string[] = [];
    for (let s = 120; s > 0; s--) {
      const said = announcementFor(s, s - 1);
      if (said) spoken.push(said);
    }
    expect(spoken).toEqual(['1 minute 30 seconds left to answer', '1 minute left to answer', '30 seconds left to answer', '10 seconds left to answer']);
    expect(announcementFor(60, 60)).toBeNull();
    expect(spokenLeft(120)).toBe('2 minutes left to answer');
  });
});
