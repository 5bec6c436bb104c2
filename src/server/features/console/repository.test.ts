import { describe, expect, it } from 'vitest';
import { narrowByShape } from './repository.ts';

describe('narrowByShape', () => {
  it('reads an address (three characters or more before one @) or a word with a digit as one sorted statement', () => {
    expect(narrowByShape('customer99993@example')).toBe(true);
    expect(narrowByShape('NOTARY-7K3M9Q2X')).toBe(true);
    expect(narrowByShape('7k3m')).toBe(true);
    expect(narrowByShape('099993')).toBe(true);
  });

  it('leaves words, short fragments and odd addresses to a query per run', () => {
    expect(narrowByShape('hopper')).toBe(false);
    expect(narrowByShape('grace 1906')).toBe(false);
    expect(narrowByShape('7k3')).toBe(false);
    expect(narrowByShape('ab@acme')).toBe(false);
    expect(narrowByShape('@acme.com')).toBe(false);
    expect(narrowByShape('ada@b@acme')).toBe(false);
  });
});
