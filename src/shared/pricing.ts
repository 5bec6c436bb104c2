/**
 * The price of a session, computed from configuration on the server. The same
 * figures are sent to the browser for marketing copy, so the page, the payment
 * and the receipt always agree.
 */
export interface PricingConfig {
  baseFeeCents: number;
  extraDocumentFeeCents: number;
}

export const defaultPricing: PricingConfig = { baseFeeCents: 2500, extraDocumentFeeCents: 0 };

export function sessionPriceCents(pricing: PricingConfig, documentCount: number): number {
  const extras = Math.max(0, documentCount - 1);
  return pricing.baseFeeCents + extras * pricing.extraDocumentFeeCents;
}
