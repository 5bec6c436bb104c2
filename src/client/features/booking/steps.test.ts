import { describe, expect, it } from 'vitest';
import type { BookingView } from '../../../shared/booking.ts';
import { parseStep, reachableByHistory, resumeStep, tabEnabled } from './steps.ts';

const now = new Date('2026-03-02T18:00:00Z');
const later = new Date('2026-03-02T18:10:00Z');
const doc = { id: 'd1', name: 'a.pdf', sizeBytes: 10, contentType: 'application/pdf' as const, scanStatus: 'skipped' as const, supporting: false };
const contact = { firstName: 'A', lastName: 'B', email: 'a@b.co', phone: '5555550100' };

function booking(patch: Partial<BookingView> = {}): BookingView {
  return {
    id: 'b1',
    reference: 'NOTARY-ABCDEFGH',
    status: 'draft',
    kind: 'scheduled',
    startsAt: null,
    timeZone: 'America/New_York',
    priceCents: 2500,
    currency: 'usd',
    holdExpiresAt: null,
    documents: [],
    contact: null,
    payment: null,
    participants: [],
    priceLines: [{ label: 'Notary session', cents: 2500 }],
    ...patch,
  };
}

describe('resumeStep', () => {
  it('picks up at the first step the booking lacks', () => {
    expect(resumeStep(booking(), now).step).toBe('documents');
    expect(resumeStep(booking({ documents: [doc] }), now).step).toBe('booking');
    // Supporting files alone (an ID photo) are not a document to notarize.
    expect(resumeStep(booking({ documents: [{ ...doc, supporting: true }] }), now).step).toBe('documents');
    expect(tabEnabled('booking', 'documents', booking({ documents: [{ ...doc, supporting: true }] }))).toBe(false);
    expect(resumeStep(booking({ documents: [{ ...doc, supporting: true }, doc] }), now).step).toBe('booking');
    expect(resumeStep(booking({ status: 'held', documents: [doc], startsAt: later, holdExpiresAt: later }), now).step).toBe('contact');
    expect(resumeStep(booking({ status: 'awaiting_payment', documents: [doc], startsAt: later, holdExpiresAt: later, contact }), now).step).toBe('payment');
    expect(resumeStep(booking({ status: 'payment_processing', documents: [doc], startsAt: later, contact }), now).step).toBe('payment');
    expect(resumeStep(booking({ status: 'confirmed', documents: [doc], startsAt: later, contact }), now).step).toBe('confirm');
  });

  it('sends a visitor whose hold lapsed back to the Booking step, saying so', () => {
    expect(resumeStep(booking({ status: 'awaiting_payment', documents: [doc], startsAt: later, holdExpiresAt: now, contact }), now)).toEqual({
      step: 'booking',
      holdLost: true,
    });
  });
});

describe('tabEnabled (docs/product.md §4.1)', () => {
  it('enables Upload and Confirm only when current', () => {
    const full = booking({ status: 'awaiting_payment', documents: [doc], startsAt: later, holdExpiresAt: later, contact });
    expect(tabEnabled('documents', 'payment', full)).toBe(false);
    expect(tabEnabled('documents', 'documents', full)).toBe(true);
    expect(tabEnabled('confirm', 'payment', full)).toBe(false);
  });

  it('enables Booking once documents exist, Contact once a time was chosen, Payment once contact was saved', () => {
    expect(tabEnabled('booking', 'documents', booking())).toBe(false);
    expect(tabEnabled('booking', 'contact', booking({ documents: [doc] }))).toBe(true);
    expect(tabEnabled('contact', 'booking', booking({ documents: [doc] }))).toBe(false);
    expect(tabEnabled('contact', 'booking', booking({ documents: [doc], startsAt: later }))).toBe(true);
    expect(tabEnabled('payment', 'booking', booking({ documents: [doc], startsAt: later }))).toBe(false);
    expect(tabEnabled('payment', 'booking', booking({ documents: [doc], startsAt: later, contact }))).toBe(true);
  });

  it('treats Notarize now (on demand, no time) as a chosen time', () => {
    const onDemand = booking({ status: 'held', kind: 'on_demand', documents: [doc], holdExpiresAt: later });
    expect(tabEnabled('contact', 'booking', onDemand)).toBe(true);
    expect(resumeStep(onDemand, now).step).toBe('contact');
    expect(resumeStep({ ...onDemand, holdExpiresAt: now }, now)).toEqual({ step: 'booking', holdLost: true });
  });

  it('keeps a paid booking on its confirmation', () => {
    const paid = booking({ status: 'confirmed', documents: [doc], startsAt: later, contact });
    expect(tabEnabled('booking', 'confirm', paid)).toBe(false);
    expect(tabEnabled('payment', 'confirm', paid)).toBe(false);
    expect(tabEnabled('confirm', 'confirm', paid)).toBe(true);
  });
});

describe('reachableByHistory (Back / Forward / reload)', () => {
  it('opens the steps already passed, and Documents before paying', () => {
    const held = booking({ status: 'held', documents: [doc], startsAt: later, holdExpiresAt: later });
    expect(reachableByHistory('documents', held)).toBe(true);
    expect(reachableByHistory('booking', held)).toBe(true);
    expect(reachableByHistory('contact', held)).toBe(true);
    expect(reachableByHistory('payment', held)).toBe(false);
    expect(reachableByHistory('confirm', held)).toBe(false);
    expect(reachableByHistory('booking', booking())).toBe(false);
  });

  it('keeps a paid booking on its confirmation and a processing one on its payment', () => {
    const paid = booking({ status: 'confirmed', documents: [doc], startsAt: later, contact });
    expect(reachableByHistory('payment', paid)).toBe(false);
    expect(reachableByHistory('documents', paid)).toBe(false);
    expect(reachableByHistory('confirm', paid)).toBe(true);
    const processing = booking({ status: 'payment_processing', documents: [doc], startsAt: later, contact });
    expect(reachableByHistory('payment', processing)).toBe(true);
    expect(reachableByHistory('contact', processing)).toBe(false);
  });

  it('reads only known step names from the address', () => {
    expect(parseStep('contact')).toBe('contact');
    expect(parseStep('admin')).toBeNull();
    expect(parseStep(null)).toBeNull();
  });
});
