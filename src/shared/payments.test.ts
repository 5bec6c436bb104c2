import { describe, expect, it } from 'vitest';
import { cardMessages, formatCardNumber, formatExpiry, luhnValid, receiptMethodLabel, receiptStatus, validateCard } from './payments.ts';

const now = new Date('2026-03-15T12:00:00Z');
const good = { number: '4242 4242 4242 4242', expiry: '03 / 26', cvc: '123', name: 'A B', email: 'a@b.co' };

describe('card checks', () => {
  it('accepts a valid card through the end of its expiry month', () => {
    expect(validateCard(good, now)).toEqual({});
    expect(validateCard({ ...good, expiry: '02 / 26' }, now)).toEqual({ expiry: cardMessages.expiryPast });
  });

  it('names each problem in Stripe’s words', () => {
    expect(validateCard({ number: '4242', expiry: '1', cvc: '', name: ' ', email: 'x' }, now)).toEqual({
      number: cardMessages.numberIncomplete,
      expiry: cardMessages.expiryIncomplete,
      cvc: cardMessages.cvcIncomplete,
      name: cardMessages.nameRequired,
      email: cardMessages.emailInvalid,
    });
    expect(validateCard({ ...good, number: '4242 4242 4242 4241' }, now).number).toBe(cardMessages.numberInvalid);
    expect(validateCard({ ...good, expiry: '13 / 30' }, now).expiry).toBe(cardMessages.expiryIncomplete);
  });

  it('formats as the visitor types', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatExpiry('1234')).toBe('12 / 34');
    expect(luhnValid('4000000000000002')).toBe(true);
  });
});

describe('receipt presentation (docs/product.md §4.7)', () => {
  it('shows a processing Cash App payment as Pending (yellow)', () => {
    expect(receiptStatus({ status: 'processing', method: 'cashapp' })).toEqual({ label: 'Pending', tone: 'pending' });
  });
  it('capitalises the provider status, green only when it succeeded', () => {
    expect(receiptStatus({ status: 'succeeded', method: 'card' })).toEqual({ label: 'Succeeded', tone: 'success' });
    expect(receiptStatus({ status: 'requires_payment_method', method: 'card' })).toEqual({ label: 'Requires_payment_method', tone: 'failure' });
  });
  it("names the method in words: 'Card' (the spec's 'stripe') and 'Cash App Pay' (its 'cashapp')", () => {
    expect(receiptMethodLabel('card')).toBe('Card');
    expect(receiptMethodLabel(null)).toBe('Card');
    expect(receiptMethodLabel('cashapp')).toBe('Cash App Pay');
  });
});
