/**
 * The price of a session, computed from configuration on the server. The same
 * figures are sent to the browser for marketing copy, so the page, the payment
 * and the receipt always agree.
 */
export interface PricingConfig {
  baseFeeCents: number;
  extraDocumentFeeCents: number;
  /** Each co-signer besides the customer; witnesses are free (docs/decisions/125-extra-signer-fee.md). */
  extraSignerFeeCents?: number;
}

export const defaultPricing: PricingConfig = { baseFeeCents: 2500, extraDocumentFeeCents: 0, extraSignerFeeCents: 0 };

/** The fee one added person pays: a co-signer the configured fee, a witness nothing. */
export function participantFeeCents(pricing: Pick<PricingConfig, 'extraSignerFeeCents'>, role: 'signer' | 'witness'): number {
  return role === 'signer' ? (pricing.extraSignerFeeCents ?? 0) : 0;
}

export function sessionPriceCents(pricing: PricingConfig, documentCount: number, participantFees: readonly number[] = []): number {
  const extras = Math.max(0, documentCount - 1);
  return pricing.baseFeeCents + extras * pricing.extraDocumentFeeCents + participantFees.reduce((sum, fee) => sum + fee, 0);
}

/** One line of a price as every screen and email shows it. */
export interface PriceLine {
  label: string;
  cents: number;
}

/**
 * A booking's price, line by line (docs/product.md §4.6): the session with its
 * documents, then one line per co-signer paid for with it whose fee is above
 * zero. Read from what was stored (the price and each person's fee), not from
 * today's configuration; the lines add up to the price.
 */
export function priceLines(priceCents: number, participants: readonly { name: string; feeCents: number }[]): PriceLine[] {
  const charged = participants.filter((p) => p.feeCents > 0);
  const session = priceCents - charged.reduce((sum, p) => sum + p.feeCents, 0);
  return [{ label: 'Notary session', cents: session }, ...charged.map((p) => ({ label: `Additional signer: ${p.name}`, cents: p.feeCents }))];
}
