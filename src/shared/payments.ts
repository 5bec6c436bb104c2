import { z } from 'zod';

/**
 * What crosses the wire for payments, and the card checks both sides apply to
 * the built-in test provider's form (the server repeats them: the browser is
 * never trusted). Stripe mode never sees card numbers: the Payment Element
 * sends them to Stripe directly.
 */

export const bookingIdInput = z.object({ bookingId: z.uuid() });

/** Stripe's own wording for each card problem, so test mode reads like the real thing. */
export const cardMessages = {
  numberIncomplete: 'Your card number is incomplete.',
  numberInvalid: 'Your card number is invalid.',
  expiryIncomplete: "Your card's expiration date is incomplete.",
  expiryPast: "Your card's expiration date is in the past.",
  cvcIncomplete: "Your card's security code is incomplete.",
  nameRequired: 'Name on card is required',
  emailInvalid: 'Please enter a valid email address',
  declined: 'Your card was declined.',
} as const;

export function cardDigits(value: string): string {
  return value.replace(/\D/g, '');
}

/** "4242424242424242" → "4242 4242 4242 4242" as the visitor types. */
export function formatCardNumber(value: string): string {
  return cardDigits(value)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "1234" → "12 / 34" as the visitor types. */
export function formatExpiry(value: string): string {
  const digits = cardDigits(value).slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

export interface CardFields {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
  email: string;
}

export type CardErrors = Partial<Record<keyof CardFields, string>>;

/** Format checks only; whether the card is accepted is the provider's answer. */
export function validateCard(card: CardFields, now: Date): CardErrors {
  const errors: CardErrors = {};
  const number = cardDigits(card.number);
  if (number.length < 13) errors.number = cardMessages.numberIncomplete;
  else if (number.length > 19 || !luhnValid(number)) errors.number = cardMessages.numberInvalid;

  const expiry = cardDigits(card.expiry);
  if (expiry.length !== 4) errors.expiry = cardMessages.expiryIncomplete;
  else {
    const month = Number(expiry.slice(0, 2));
    const year = 2000 + Number(expiry.slice(2));
    if (month < 1 || month > 12) errors.expiry = cardMessages.expiryIncomplete;
    // A card is good through the last day of its month.
    else if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) {
      errors.expiry = cardMessages.expiryPast;
    }
  }

  const cvc = cardDigits(card.cvc);
  if (cvc.length < 3 || cvc.length > 4 || cvc.length !== card.cvc.trim().length) errors.cvc = cardMessages.cvcIncomplete;
  if (!card.name.trim()) errors.name = cardMessages.nameRequired;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(card.email.trim())) errors.email = cardMessages.emailInvalid;
  return errors;
}

export const confirmTestCardInput = z.object({
  bookingId: z.uuid(),
  number: z.string().max(40),
  expiry: z.string().max(10),
  cvc: z.string().max(8),
  name: z.string().max(200),
  email: z.string().max(320),
});
export type ConfirmTestCardInput = z.infer<typeof confirmTestCardInput>;

export type PaymentMethod = 'card' | 'cashapp';

/** Provider statuses of a payment that went through (or is going through): it stays the booking's payment. */
export const wentThroughPaymentStatuses: readonly string[] = ['succeeded', 'processing', 'refunded'];

/**
 * "The current payment of a booking", the one the wizard, the manage page,
 * the console and the emails all show: the one that went through if any,
 * else the latest attempt. `newestFirst`: the booking's payments, newest first.
 */
export function currentPayment<T extends { status: string }>(newestFirst: readonly T[]): T | null {
  return newestFirst.find((p) => wentThroughPaymentStatuses.includes(p.status)) ?? newestFirst[0] ?? null;
}

/** The payment as the browser shows it (receipt view and confirmation). */
export interface PaymentReceipt {
  bookingId: string;
  provider: 'stripe' | 'test';
  /** The provider's payment id (a PaymentIntent id). */
  providerPaymentId: string;
  amountCents: number;
  currency: string;
  /** The provider's status: succeeded, processing, requires_payment_method, … or refunded. */
  status: string;
  method: PaymentMethod | null;
  failureMessage: string | null;
  createdAt: Date;
}

/** A card attempt: the payment as it now stands, and the provider's refusal if it was declined. */
export interface PaymentAttempt {
  receipt: PaymentReceipt;
  error: string | null;
}

export interface PaymentSetup {
  mode: 'stripe' | 'test';
  providerPaymentId: string;
  /** Stripe's client secret for the Payment Element; null for the test provider. */
  clientSecret: string | null;
  amountCents: number;
  currency: string;
}

/**
 * The receipt's payment method field in words (docs/product.md §4.7): 'stripe' (a card
 * through Stripe; also a payment whose method is not known yet) reads 'Card',
 * 'cashapp' reads 'Cash App Pay'.
 */
export function receiptMethodLabel(method: PaymentMethod | null): 'Card' | 'Cash App Pay' {
  return method === 'cashapp' ? 'Cash App Pay' : 'Card';
}

export type ReceiptTone = 'success' | 'pending' | 'failure';

/**
 * docs/product.md §4.7: a Cash App payment still processing reads 'Pending' in
 * yellow under 'Payment Pending'; otherwise the provider's status,
 * capitalised, green when it succeeded and red otherwise.
 */
export function receiptStatus(receipt: Pick<PaymentReceipt, 'status' | 'method'>): { label: string; tone: ReceiptTone } {
  if (receipt.status === 'processing') return { label: 'Pending', tone: 'pending' };
  const label = receipt.status.charAt(0).toUpperCase() + receipt.status.slice(1);
  return { label, tone: receipt.status === 'succeeded' ? 'success' : 'failure' };
}
