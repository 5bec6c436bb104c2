import type { ServiceHours } from './availability.ts';

/**
 * The explicit list of server configuration the browser may see. Rendered
 * into the page by the server and read through `usePublicConfig()`.
 */
export interface PublicConfig {
  baseFeeCents: number;
  extraDocumentFeeCents: number;
  /** Each co-signer's fee (BOOKING_EXTRA_SIGNER_FEE_CENTS; witnesses are free). */
  extraSignerFeeCents: number;
  paymentsMode: 'stripe' | 'test';
  stripePublishableKey: string | null;
  businessTimeZone: string;
  holdMinutes: number;
  /** How many days ahead the booking calendar opens. */
  bookingWindowDays: number;
  /** Uploaded documents are deleted this long after a booking ends (DOCUMENT_RETENTION_DAYS). */
  documentRetentionDays: number;
  /** Notarized (sealed) copies are kept this long (NOTARIZED_DOCUMENT_RETENTION_DAYS). */
  notarizedRetentionDays: number;
  /** The hours of service the pages state, from the notaries' hours (business hours before any; decision 096). */
  serviceHours: ServiceHours;
  /** The same as a sentence ('every day 8:00 AM–11:00 PM (Central Time)', '24/7'), written by the server so the footer carries no code for it. */
  serviceHoursText: string;
  /** A notary is on duty for "Notarize now" (decision 110): only then does a page promise "in minutes" or "no appointments". */
  onDemand: boolean;
}
