import { describe, expect, it } from 'vitest';
import { defaultMaxFeeCentsByState, loadConfig } from '../../config.ts';
import { journalFeeCents } from './service.ts';

/** The journal's fee per act (decisions 074, 108): as paid, one fee per session, at most the state's maximum. */
describe('the fee an act records in the journal', () => {
  it('the first act carries the session fee, later ones what is left: never more than was paid', () => {
    expect(journalFeeCents({ paidCents: 2500, journaledCents: 0, maxPerActCents: null })).toBe(2500);
    expect(journalFeeCents({ paidCents: 2500, journaledCents: 2500, maxPerActCents: null })).toBe(0);
    expect(journalFeeCents({ paidCents: 2500, journaledCents: 3000, maxPerActCents: null })).toBe(0);
  });

  it('each act at most the commissioning state’s maximum; what is left after a capped act goes to the next', () => {
    expect(journalFeeCents({ paidCents: 5000, journaledCents: 0, maxPerActCents: 2500 })).toBe(2500);
    expect(journalFeeCents({ paidCents: 5000, journaledCents: 2500, maxPerActCents: 2500 })).toBe(2500);
    expect(journalFeeCents({ paidCents: 5000, journaledCents: 5000, maxPerActCents: 2500 })).toBe(0);
    expect(journalFeeCents({ paidCents: 1000, journaledCents: 0, maxPerActCents: 2500 })).toBe(1000);
    expect(journalFeeCents({ paidCents: 2500, journaledCents: 0, maxPerActCents: 0 })).toBe(0);
  });
});

describe('NOTARY_MAX_FEE_CENTS_BY_STATE', () => {
  it('unset: the default table', () => {
    expect(loadConfig({}).NOTARY_MAX_FEE_CENTS_BY_STATE).toEqual(defaultMaxFeeCentsByState);
    expect(defaultMaxFeeCentsByState.Florida).toBe(2500);
    expect(defaultMaxFeeCentsByState.Iowa).toBeUndefined();
  });

  it('set: replaces the table', () => {
    expect(loadConfig({ NOTARY_MAX_FEE_CENTS_BY_STATE: '{"Iowa":1000,"New York":200}' }).NOTARY_MAX_FEE_CENTS_BY_STATE).toEqual({ Iowa: 1000, 'New York': 200 });
    expect(loadConfig({ NOTARY_MAX_FEE_CENTS_BY_STATE: '{}' }).NOTARY_MAX_FEE_CENTS_BY_STATE).toEqual({});
  });

  it.each([
    ['not JSON', 'Florida=2500', /NOTARY_MAX_FEE_CENTS_BY_STATE: a JSON object of US state names/],
    ['a list', '[2500]', /NOTARY_MAX_FEE_CENTS_BY_STATE: a JSON object/],
    ['a state’s code instead of its name', '{"FL":2500}', /NOTARY_MAX_FEE_CENTS_BY_STATE\.FL: a JSON object of US state names, as on the commission/],
    ['dollars with cents', '{"Florida":25.5}', /NOTARY_MAX_FEE_CENTS_BY_STATE\.Florida/],
    ['a negative maximum', '{"Florida":-1}', /NOTARY_MAX_FEE_CENTS_BY_STATE\.Florida/],
    ['a string', '{"Florida":"2500"}', /each maximum is a whole number of cents/],
  ])('refuses %s, naming the variable', (_label, value, message) => {
    expect(() => loadConfig({ NOTARY_MAX_FEE_CENTS_BY_STATE: value })).toThrow(message);
  });
});
