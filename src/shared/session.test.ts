import { describe, expect, it } from 'vitest';
import { finishInput, roomIsOpen, sessionAccessInput } from './session.ts';

describe('session rules', () => {
  const startsAt = new Date('2027-03-01T15:00:00Z');
  it('opens the room 10 minutes before a confirmed booking and keeps it open until finished', () => {
    const at = (iso: string) => new Date(iso);
    expect(roomIsOpen({ status: 'confirmed', startsAt }, false, at('2027-03-01T14:49:59Z'))).toBe(false);
    expect(roomIsOpen({ status: 'confirmed', startsAt }, false, at('2027-03-01T14:50:00Z'))).toBe(true);
    expect(roomIsOpen({ status: 'confirmed', startsAt }, false, at('2027-03-02T15:00:00Z'))).toBe(true);
    expect(roomIsOpen({ status: 'confirmed', startsAt }, true, at('2027-03-01T15:10:00Z'))).toBe(false);
    expect(roomIsOpen({ status: 'cancelled', startsAt }, false, at('2027-03-01T15:00:00Z'))).toBe(false);
    expect(roomIsOpen({ status: 'completed', startsAt }, false, at('2027-03-01T15:00:00Z'))).toBe(false);
  });

  it('names a room by the manage token or a booking id, never both or anything else', () => {
    expect(sessionAccessInput.safeParse({ token: 'x'.repeat(43) }).success).toBe(true);
    expect(sessionAccessInput.safeParse({ bookingId: '6f1d2c3e-0000-4000-8000-000000000000' }).success).toBe(true);
    expect(sessionAccessInput.safeParse({ bookingId: 'not-a-uuid' }).success).toBe(false);
    expect(sessionAccessInput.safeParse({ token: 'x'.repeat(43), bookingId: '6f1d2c3e-0000-4000-8000-000000000000' }).success).toBe(false);
  });

  it('asks a reason for a no-show or an act that could not be completed', () => {
    expect(finishInput.safeParse({ outcome: 'completed' }).success).toBe(true);
    expect(finishInput.safeParse({ outcome: 'no_show' }).success).toBe(false);
    expect(finishInput.safeParse({ outcome: 'not_completed', reason: 'ID expired' }).success).toBe(true);
  });
});
