/** Money is integer cents everywhere; these are the only conversions. */
export function formatUsd(cents: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
}

/** "25.00" — the receipt's amount field (dollars, two decimals). */
export function centsToDecimal(cents: number): string {
  return (cents / 100).toFixed(2);
}
