import type { ServiceHours } from './availability.ts';

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
  /** Uploaded documents are deleted this long after a booking ends (DOCUMENT_RETENTION_DAYS). */
  documentRetentionDays: number;
  /** Notarized (sealed) copies are kept this long (NOTARIZED_DOCUMENT_RETENTION_DAYS). */
  notarizedRetentionDays: number;
  /** The hours of service the pages state, from the notaries' hours (business hours before any; decision 096). */
  serviceHours: ServiceHours;
  /** Whether "Notarize now" (on-demand sessions) exists; until it does, no page promises "in minutes". */
  onDemand: boolean;
}
