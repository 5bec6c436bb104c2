/** A fixed clock for payment tests (bookings come from tests/helpers/bookings.ts). */
export const paymentClock = new Date('2026-03-02T18:00:00Z');
