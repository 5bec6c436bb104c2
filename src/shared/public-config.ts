/**
 * The explicit list of server configuration the browser may see. Rendered
 * into the page by the server and read through `usePublicConfig()`.
 */
export interface PublicConfig {
  baseFeeCents: number;
  extraDocumentFeeCents: number;
  paymentsMode: 'stripe' | 'test';
  stripePublishableKey: string | null;
  businessTimeZone: string;
  holdMinutes: number;
  /** How many days ahead the booking calendar opens. */
  bookingWindowDays: number;
}
